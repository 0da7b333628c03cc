#pragma once
// The image view's geometry, apart from any drawing: where the plot and the colour bar sit
// in the window, which part of the data is visible (zoom and pan), and the mapping between
// data coordinates and pixels that drawing and picking share. Pixels have their origin at the
// bottom left of the window (as in GL and VTK), in device pixels.
#include "strata/core/view_window.h"
#include "strata/render/grid_geometry.h"

namespace strata {

struct PixelRect {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    double width() const { return x1 - x0; }
    double height() const { return y1 - y0; }
    bool contains(double x, double y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
    friend bool operator==(const PixelRect&, const PixelRect&) = default;
};

// The whole frame: the extents of the cells' edges.
ViewWindow fullWindow(const AxisGrid& x, const AxisGrid& y);
// Zoomed by `factor` (> 1 in, < 1 out) about the data point (cx, cy), which stays in place.
ViewWindow zoomed(const ViewWindow& w, double factor, double cx, double cy);
// Moved by (dx, dy) in data units.
ViewWindow panned(const ViewWindow& w, double dx, double dy);

enum class AspectMode {
    Auto, // keep one data unit square when both axes are in alike units (degrees, or none)
    Keep,
    Fill, // stretch the frame over the plot area
};
bool keepsAspect(AspectMode mode, const AxisGrid& x, const AxisGrid& y);

struct ViewLayout {
    int width = 0, height = 0; // the window, device pixels
    double scale = 1;          // device pixels per logical pixel (fonts, margins, lines)
    PixelRect plot;            // where the visible window is drawn
    PixelRect colourBar;
    friend bool operator==(const ViewLayout&, const ViewLayout&) = default;
};

// The layout for a window of width × height device pixels. With keepAspect the plot area
// shrinks (centred) so that one unit of x spans as many pixels as one unit of y.
//
// With `cells` (the columns and rows of a regular grid the window shows whole, unzoomed), a
// plot within 1 % of a whole number of pixels per cell on both axes shrinks to it, centred:
// every cell then covers the same number of pixels (no column or row drawn a pixel wider than
// its neighbours, as 1440 cells stretched over 1446 pixels would be) and the frame is copied
// without resampling.
struct CellCounts {
    std::int64_t columns = 0, rows = 0;
};
ViewLayout computeLayout(int width, int height, double scale, const ViewWindow& window, bool keepAspect,
                         CellCounts cells = {});

// Data coordinates ↔ window pixels over the plot rectangle.
class ViewTransform {
public:
    ViewTransform(const PixelRect& plot, const ViewWindow& window) : plot_(plot), window_(window) {}
    double pixelX(double x) const {
        return plot_.x0 + (x - window_.x0) / (window_.x1 - window_.x0) * plot_.width();
    }
    double pixelY(double y) const {
        return plot_.y0 + (y - window_.y0) / (window_.y1 - window_.y0) * plot_.height();
    }
    double dataX(double px) const {
        return window_.x0 + (px - plot_.x0) / plot_.width() * (window_.x1 - window_.x0);
    }
    double dataY(double py) const {
        return window_.y0 + (py - plot_.y0) / plot_.height() * (window_.y1 - window_.y0);
    }
    const PixelRect& plot() const { return plot_; }
    const ViewWindow& window() const { return window_; }

private:
    PixelRect plot_;
    ViewWindow window_;
};

// The cell under a pixel: its indices (row along the frame's dim 0, column along dim 1) and
// the coordinate values and labels of that cell.
struct Pick {
    bool inside = false; // false outside the plot area or outside the frame
    std::int64_t row = -1, column = -1;
    double x = 0, y = 0;             // data coordinates of the pixel
    double xCentre = 0, yCentre = 0; // the cell's coordinate values
    std::string xLabel, yLabel;      // the cell's coordinate labels (dates for time)
};
Pick pickCell(const ViewTransform& t, const AxisGrid& x, const AxisGrid& y, double px, double py);

} // namespace strata
