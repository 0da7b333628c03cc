#pragma once
// Latitude and longitude of a frame's cells where the file gives them otherwise than as the
// frame's own axes: 2-D coordinates the variable names (CF `coordinates`: lat(y, x)), or the
// projection its CF `grid_mapping` names, through PROJ (grid_mapping.h).
#include <memory>
#include <optional>
#include <string>

#include "strata/core/data_array.h"
#include "strata/core/dataset.h"
#include "strata/core/map_crs.h"
#include "strata/core/value_format.h"

namespace strata::io {

class Unprojection;

struct LatLon {
    double lat, lon;
};

// The latitude and longitude of one variable's cells. Built once per variable shown (PROJ's
// set-up is done here); used on one thread at a time.
class LatLonLocator {
public:
    // For `variable` of `ds`. Never throws: a grid mapping that cannot be used leaves problem().
    LatLonLocator(const Dataset& ds, const DataArray& variable);
    ~LatLonLocator();
    LatLonLocator(const LatLonLocator&) = delete;
    LatLonLocator& operator=(const LatLonLocator&) = delete;

    // Whether it was built for `variable` of `ds`.
    bool isFor(const Dataset& ds, const DataArray& variable) const {
        return path_ == ds.path && variable_ == variable.name();
    }
    // Why the variable's grid_mapping gives no latitude and longitude (empty when it does, or
    // when it has none).
    const std::string& problem() const { return problem_; }

    // Cell (row, column) of the 2-D `frame` (of this variable), from its 2-D latitude and
    // longitude coordinates or through the grid mapping; nullopt when neither applies.
    std::optional<LatLon> at(const DataArray& frame, std::int64_t row, std::int64_t column) const;
    // How at()'s values read: the 2-D coordinates' own formats, or decimals for the projected
    // grid's cell size.
    ValueFormat latFormat(const DataArray& frame) const;
    ValueFormat lonFormat(const DataArray& frame) const;
    // The CRS of `frame`'s x (its columns) and y (its rows) when they are the grid mapping's
    // projected axes, for the map drawn in it; nullopt otherwise (no mapping, or transposed).
    std::optional<MapCrs> crs(const DataArray& frame) const;
    // `frame` with 2-D `lat` and `lon` coordinates over its two dims added through the grid
    // mapping (for the CSV's columns); `frame` as it is when there is none to add.
    DataArray withLatLon(const DataArray& frame) const;

private:
    struct Axes; // the frame's projected x and y, when it has both
    std::optional<Axes> projectedAxes(const DataArray& frame) const;
    double cellDegrees(const DataArray& frame) const;

    std::string path_, variable_, problem_, xDim_, yDim_, definition_;
    double xScale_ = 1, yScale_ = 1; // metres per unit of x and y
    std::unique_ptr<Unprojection> unprojection_;
};

// Shorthand for one export: withLatLon of a locator built for `frame`'s variable in `ds`; for
// a frame along a HEALPix grid or a mesh (its geometry in `ds`, else in `grid`), each cell's,
// face's or node's centre as 1-D `lat` and `lon`.
DataArray withLatLon(const DataArray& frame, const Dataset& ds, const Dataset* grid = nullptr);

} // namespace strata::io
