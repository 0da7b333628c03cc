#pragma once
// Where a map's window and a frame's grid lie on a projection's map, for the image view
// (image_content.cpp): the longitude/latitude box a window shows (the coastlines' bins to read),
// and the part of the map a grid covers (the map image's extent).
#include <functional>
#include <vector>

#include "coastlines.h" // LonLatBox
#include "strata/core/map_crs.h"
#include "strata/core/view_window.h"
#include "strata/render/projection.h"

namespace strata {
struct CurvilinearGrid;
class SphereCells;
} // namespace strata

namespace strata::detail {

// The longitude/latitude box a map's window shows, through `inverse` (map x/y to degrees; false
// off the globe): see map_extent.cpp.
LonLatBox visibleBox(const ViewWindow& w,
                     const std::function<bool(double, double, double&, double&)>& inverse);
// The part of p's map the points (degrees) fall in, with a margin of a twentieth.
MapExtent extentOnMap(const Projection& p, std::vector<double> lon, std::vector<double> lat);
// The part of p's map a grid in its own CRS covers (its outline through PROJ).
MapExtent regionOnMap(const Projection& p, const MapCrs& crs, const std::vector<double>& xEdges,
                      const std::vector<double>& yEdges);
// The part of p's map a curvilinear grid's cells cover; the whole map for a polar or global grid.
MapExtent cellsOnMap(const Projection& p, const CurvilinearGrid& g);
// The part of p's map sphere cells cover; the whole map when they reach a pole's cap.
MapExtent sphereCellsOnMap(const Projection& p, const SphereCells& cells);

} // namespace strata::detail
