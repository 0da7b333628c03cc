#pragma once
// Where a frame's cells lie: for each axis, the cell edges derived from the coordinate's
// midpoints, and the lookups behind picking.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/coordinate.h"
#include "strata/core/data_array.h"

namespace strata {

// Edges of cells centred on `midpoints` (monotonic, ascending or descending): n + 1 values,
// halfway between neighbours, the outer ones half a step beyond the ends; a single point gets
// [m - 0.5, m + 0.5]. Throws ValueError for an empty, non-finite or non-monotonic input.
std::vector<double> cellEdges(const std::vector<double>& midpoints);

// The cell of `edges` (ascending or descending) holding `value`: 0..n-1, or -1 outside.
// A value on an inner edge belongs to the cell above it in the order of the edges.
std::int64_t cellIndex(const std::vector<double>& edges, double value);

// True when the edges are evenly spaced (to 1e-6 of a step): one quad can draw the axis.
bool isUniform(const std::vector<double>& edges);

// One axis of a 2-D frame as drawn: the dim, the cell centres and edges, a title for it.
struct AxisGrid {
    std::string dim;
    std::vector<double> centres;            // the coordinate's values, or 0..n-1 without a usable one
    std::vector<double> edges;              // n + 1
    bool fromIndices = false;               // no usable coordinate: positions are indices
    std::string problem;                    // why the coordinate was not used (empty when it was)
    std::string title;                      // "latitude [degrees_north]"
    std::optional<TimeAxis> time;           // the coordinate's dates, for date ticks and labels
    const Coordinate* coordinate = nullptr; // owned by the frame; null with indices

    std::int64_t size() const { return static_cast<std::int64_t>(centres.size()); }
    double lo() const { return std::min(edges.front(), edges.back()); }
    double hi() const { return std::max(edges.front(), edges.back()); }
    bool descending() const { return edges.back() < edges.front(); }
    // The label of cell i: the coordinate's (a date for time), else the index.
    std::string label(std::int64_t i) const;
};

// The grid of frame axis `axis` (0 = rows, drawn vertically; 1 = columns, drawn horizontally).
AxisGrid axisGrid(const DataArray& frame, int axis);

// An axis title: long_name (else standard_name, else the name) and " [units]" when there are
// units (not for time coordinates, whose units are decoded into dates).
std::string axisTitle(const std::string& name, const Attributes& attrs, bool isTime);

} // namespace strata
