#pragma once
// GMT's binned GSHHG shorelines (binned_GSHHS_{c,l,i,h,f}.nc, Debian's gmt-gshhg-* packages,
// LGPL-3+): the globe cut into square bins, each holding its pieces of shoreline clipped to its
// edges, points stored as 16-bit steps from the bin's south-west corner. GshhgFile reads the
// header and the bin index when it opens, then the pieces of a run of bins on demand; every
// netCDF-C call holds the io layer's one lock.
#include <memory>
#include <string>
#include <vector>

namespace strata::io {

// One piece of shoreline inside one bin, its points in degrees. Longitudes of a bin whose west
// edge is at or east of 180° are shifted by -360 (the whole bin), so they lie in [-180, 180].
struct GshhgPiece {
    std::vector<double> lon, lat;
    int level = 1; // 1 land/ocean, 2 lake shore, 3 island in a lake, 4 pond in such an island
};

// What a file says of itself.
struct GshhgHeader {
    int binMinutes = 0; // a bin's side
    int nx = 0, ny = 0; // bins around a parallel; along a meridian
    long segments = 0;  // pieces in the file (all levels)
    long points = 0;    // their points
    std::string title, source, version;
    double binDegrees() const { return binMinutes / 60.0; }
    int bins() const { return nx * ny; }
};

class GshhgFile {
public:
    // Opens `path`, reads its header and bin index and checks they agree. Throws NetcdfError
    // (missing, not netCDF) or IoError (not a GSHHG binned file, or one whose index is damaged),
    // naming the file.
    explicit GshhgFile(const std::string& path);
    ~GshhgFile(); // closes; never throws
    GshhgFile(const GshhgFile&) = delete;
    GshhgFile& operator=(const GshhgFile&) = delete;

    const std::string& path() const;
    const GshhgHeader& header() const;
    // Bin b's place: row b / nx from the north (row 0 is the band just south of 90°N), column
    // b % nx eastwards from 0°.
    int firstSegment(int bin) const;
    int segmentCount(int bin) const;

    // The pieces of bins first … first + count - 1 (contiguous in the file: one row's run reads
    // as one block), one vector per bin: levels 1–4 (the Antarctic grounding line, level 6, is
    // left out), consecutive repeated points dropped, pieces of fewer than two points left out.
    // Thread-safe. Throws ValueError for bins off the file, IoError naming the file when the
    // pieces' points lie outside its arrays, NetcdfError when a read fails.
    std::vector<std::vector<GshhgPiece>> readBins(int first, int count) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace strata::io
