#pragma once
// The map drawn in a frame's own CRS (a CF grid mapping: strata/core/map_crs.h): the coastlines
// and a graticule of true meridians and parallels forward-projected through PROJ into the
// frame's units (metres or km; a rotated pole's grid degrees), then planned into pixels like a
// longitude/latitude view's, without the 360° repeats. A line is cut where PROJ cannot place a
// point and where it jumps across the projection's seam.
#include <memory>
#include <vector>

#include "coast_plan.h"
#include "map_plan.h"
#include "strata/core/map_crs.h"

namespace strata::detail {

class NativeMap {
public:
    explicit NativeMap(MapCrs crs); // throws ValueError with PROJ's reason
    ~NativeMap();
    NativeMap(const NativeMap&) = delete;
    NativeMap& operator=(const NativeMap&) = delete;

    const MapCrs& crs() const { return crs_; }
    // `lines` (degrees) in the frame's units, cut at points PROJ cannot place and at steps
    // longer than a quarter of the Earth's circumference (the seam); pieces of one point dropped.
    std::vector<LonLatLine> forward(const std::vector<LonLatLine>& lines) const;
    // (x, y) in the frame's units at longitude/latitude (degrees); false where PROJ cannot place it.
    bool forward(double lon, double lat, double& x, double& y) const;
    // The longitude and latitude (degrees) at (x, y) in the frame's units; false off the map.
    bool inverse(double x, double y, double& lon, double& lat) const;
    // Degrees of longitude a frame unit spans near (x, y): for choosing a coastline level.
    double degreesPerUnit() const;

private:
    struct Proj;
    MapCrs crs_;
    std::unique_ptr<Proj> proj_;
};

// The graticule over the window of `t`: meridians and parallels every `step` degrees, the
// step a round number of degrees (1 to 30) that puts about four of each across the window's extent
// in longitude/latitude, each line sampled at a twentieth of the step; labels where a meridian
// leaves the plot's bottom edge and a parallel its left edge, just inside, `size` pixels, a
// label that would overlap the one before it along its edge left out.
Graticule planNativeGraticule(const NativeMap& map, const ViewTransform& t, double size);

} // namespace strata::detail
