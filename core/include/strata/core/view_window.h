#pragma once
// The zoom and pan of an image view, as view state: the visible interval of data coordinates.
// (render/'s view_layout.h holds the geometry that uses it.)

namespace strata {

// x0 < x1 and y0 < y1 (values increase to the right and upward: descending coordinates are
// drawn the right way round).
struct ViewWindow {
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    friend bool operator==(const ViewWindow&, const ViewWindow&) = default;
};

} // namespace strata
