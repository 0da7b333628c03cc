#pragma once
// Map projections for frames whose x is longitude and y latitude: a few named projections
// (cartopy's names), each defined by a PROJ string on a sphere; the resampling of a lon/lat
// frame into a map image of W × H pixels (each output pixel inverse-projected, the nearest
// source cell taken; pixels off the map or outside the data get a fill value). On the host the
// pixels are inverse-projected by PROJ; on a CUDA device by a kernel with the projection's own
// formulas, reading the device frame and writing a device image (no host round trip).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/core/stream.h"

#include "strata/core/map_crs.h"

namespace strata {
struct CurvilinearGrid;
class CellLocator;
class SphereCells;
namespace detail {
struct ProjParams;
class NativeMap;
} // namespace detail

// A rectangle of map metres.
struct MapExtent {
    double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    double width() const { return x1 - x0; }
    double height() const { return y1 - y0; }
    friend bool operator==(const MapExtent&, const MapExtent&) = default;
};

class Projection {
public:
    // The projection named `name` (case-insensitive: "Robinson", "robinson"); throws ValueError
    // naming it and listing the known names when there is none such.
    static Projection byName(std::string_view name);
    // PlateCarree, Robinson, Mollweide, NorthPolarStereo, SouthPolarStereo, LambertConformal.
    static const std::vector<std::string>& knownNames();

    const std::string& name() const;
    const std::string& projString() const; // what PROJ is given: "+proj=robin +R=6371000 ..."
    const detail::ProjParams& params() const;
    // The whole map: the globe's outline (or the latitudes drawn) in map metres.
    MapExtent extent() const;

    // Through PROJ, in place: degrees (lon, lat) to map metres, and back. A point PROJ cannot
    // transform, or (inverse) one off the map, becomes NaN in both.
    void forward(std::vector<double>& lonToX, std::vector<double>& latToY) const;
    void inverse(std::vector<double>& xToLon, std::vector<double>& yToLat) const;

    friend bool operator==(const Projection& a, const Projection& b) { return a.name() == b.name(); }

private:
    struct Impl;
    explicit Projection(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<const Impl> impl_;
};

// `extent` widened about its centre to the aspect of width × height pixels (square pixels).
MapExtent fitExtent(const MapExtent& extent, int width, int height);

// The resampling of one lon/lat source grid into one map image: the output pixel (i, j) at map
// metres (x0 + (i + ½)·Δx, y0 + (j + ½)·Δy), row 0 at the bottom, takes the source cell whose
// edges (halfway between the coordinate's values, as the image view draws cells) hold the
// pixel's longitude and latitude. Longitudes of any span (0–360, −180–180) and either direction
// of either axis work.
class Reprojection {
public:
    // Throws ValueError for a width or height below 1, or coordinates that are empty, not
    // finite or not monotonic.
    Reprojection(Projection projection, std::vector<double> lon, std::vector<double> lat, MapExtent extent,
                 int width, int height);
    // A source grid in its own CRS (a CF grid mapping): x and y in the frame's units. Each output
    // pixel is placed once, on the host, through PROJ (the map's inverse, then the source CRS's
    // forward), and every frame is then a gather by that map, on the frame's device. Throws
    // ValueError as above, or with PROJ's reason for a CRS it refuses.
    Reprojection(Projection projection, const MapCrs& source, std::vector<double> x, std::vector<double> y,
                 MapExtent extent, int width, int height);
    // A curvilinear source (2-D longitude/latitude): each output pixel is placed once, on the
    // host, in the cell whose quadrilateral holds its longitude/latitude (a pole or a seam of
    // the grid needs nothing more), and every frame is then a gather by that map. Frames are
    // rows × columns of the grid.
    Reprojection(Projection projection, std::shared_ptr<const CurvilinearGrid> source, MapExtent extent,
                 int width, int height);
    // Cells along one dim placed on the sphere (HEALPix, a mesh's faces): frames are 1 × size()
    // (the one row, then the cells); the map's index is made once per device, by the cells'
    // pixelIndex (on the device where they have a kernel), and every frame is then a gather.
    Reprojection(Projection projection, std::shared_ptr<const SphereCells> source, MapExtent extent,
                 int width, int height);
    ~Reprojection();
    Reprojection(const Reprojection&) = delete;
    Reprojection& operator=(const Reprojection&) = delete;

    // `frame` (dims lat × lon of the coordinates' sizes: float32/int32/uint32/float64/int64, or
    // uint8 {lat, lon, 4} pixels) resampled into {height, width} (or {height, width, 4}) of its
    // dtype on its device, ordered on `stream`; off the map or outside the data, `fill`'s low 4
    // (or 8) bytes. The result's dims are y, x with coordinates in map metres. Throws ValueError
    // for a frame of another shape or dtype.
    DataArray apply(const DataArray& frame, std::uint64_t fill, Stream stream) const;
    // apply() into width × height cells at `dst`, memory on the frame's device (a mapped GL
    // buffer on the interop path).
    void applyInto(const DataArray& frame, void* dst, std::uint64_t fill, Stream stream) const;

    // The source cell (row * nlon + column) of each output pixel, row 0 at the bottom; -1 where
    // none: worked out with PROJ on first use (the host path's map).
    const std::vector<std::int64_t>& hostCells() const;

    // Whether the source's values are interpolated (SphereCells::interpolationNodes: a mesh's
    // nodes). Frames are then rows of the map's own pixels, 1 × (width × height): resample()
    // makes one from a frame along the source (1 × its size, float32 or float64) on the frame's
    // device, NaN off the mesh and where a node it weighs is NaN; apply() and applyInto() then
    // put each pixel in its place, the fill off the mesh. The pixels' nodes and weights are
    // found once, on the host, and go to each device once.
    bool interpolates() const;
    DataArray resample(const DataArray& frame, Stream stream) const;

    const Projection& projection() const { return projection_; }
    MapExtent extent() const { return extent_; }
    int width() const { return width_; }
    int height() const { return height_; }
    const std::vector<double>& lonEdges() const { return lonEdges_; } // x's, for a source CRS
    const std::vector<double>& latEdges() const { return latEdges_; } // y's
    // The source CRS, when the source grid is in one; the curvilinear source, when it is one.
    const std::optional<MapCrs>& sourceCrs() const { return crs_; }
    const CurvilinearGrid* sourceGrid() const { return curv_.get(); }
    const SphereCells* sourceCells() const { return sphere_.get(); }
    // The source cell (row, column) at longitude/latitude (radians): false outside the grid.
    bool sourceCellAt(double lon, double lat, std::int64_t& row, std::int64_t& column) const;

private:
    struct DeviceEdges;
    Projection projection_;
    std::vector<double> lonEdges_, latEdges_;
    MapExtent extent_;
    int width_, height_;
    mutable std::vector<std::int64_t> cells_;
    mutable std::vector<std::int32_t> nodes_; // an interpolating source's: width × height × K
    mutable std::vector<float> weights_;
    void hostWeights() const;
    void onDevice(Device device, Stream stream) const; // device_ for `device`, its edges there
    mutable std::unique_ptr<DeviceEdges> device_;
    std::optional<MapCrs> crs_;
    std::shared_ptr<const detail::NativeMap> native_; // PROJ for crs_ (one thread at a time)
    std::shared_ptr<const CurvilinearGrid> curv_;
    std::shared_ptr<const CellLocator> locator_; // over curv_
    std::shared_ptr<const SphereCells> sphere_;
    bool cellMapped() const { return native_ || locator_ || sphere_; }       // a gather by a cell map
    std::int64_t rows() const { return std::int64_t(latEdges_.size()) - 1; } // the frames' shape
    std::int64_t columns() const;
};

// 0 for pixels off the map: a transparent black RGBA (or BGRA) pixel; opaque white (the
// views' background, in either byte order); and NaN's bits for float32 values.
inline constexpr std::uint64_t kNoPixel = 0;
inline constexpr std::uint64_t kWhitePixel = 0xffffffffu;
inline constexpr std::uint64_t kNanFloat32 = 0x7fc00000u;

} // namespace strata
