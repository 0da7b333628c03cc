#include "strata/render/view_layout.h"

#include <algorithm>
#include <cmath>

namespace strata {

ViewWindow fullWindow(const AxisGrid& x, const AxisGrid& y) { return {x.lo(), x.hi(), y.lo(), y.hi()}; }

ViewWindow zoomed(const ViewWindow& w, double f, double cx, double cy) {
    if (!(f > 0) || !std::isfinite(f)) return w;
    return {cx - (cx - w.x0) / f, cx + (w.x1 - cx) / f, cy - (cy - w.y0) / f, cy + (w.y1 - cy) / f};
}

ViewWindow panned(const ViewWindow& w, double dx, double dy) {
    return {w.x0 + dx, w.x1 + dx, w.y0 + dy, w.y1 + dy};
}

namespace {
bool degrees(const std::string& units) { return units.rfind("degree", 0) == 0; }
} // namespace

bool keepsAspect(AspectMode mode, const AxisGrid& x, const AxisGrid& y) {
    if (mode != AspectMode::Auto) return mode == AspectMode::Keep;
    if (x.time || y.time) return false;
    if (x.fromIndices && y.fromIndices) return true;
    if (x.fromIndices != y.fromIndices) return false;
    auto ux = x.coordinate->attrs.text("units").value_or("");
    auto uy = y.coordinate->attrs.text("units").value_or("");
    return ux == uy || (degrees(ux) && degrees(uy));
}

ViewLayout computeLayout(int width, int height, double s, const ViewWindow& w, bool keepAspect,
                         CellCounts cells) {
    ViewLayout l;
    l.width = width;
    l.height = height;
    l.scale = s;
    // Margins, logical pixels: y labels and title on the left, x labels and title below,
    // the title above, the colour bar and its labels on the right.
    const double left = 84 * s, bottom = 58 * s, top = 40 * s, right = 118 * s;
    const double minSide = 8 * s;
    PixelRect area{left, bottom, std::max(left + minSide, width - right),
                   std::max(bottom + minSide, height - top)};
    PixelRect plot = area;
    const double dx = w.x1 - w.x0, dy = w.y1 - w.y0;
    if (keepAspect && dx > 0 && dy > 0) {
        const double ratio = dx / dy; // width / height of the data shown
        if (area.width() / area.height() > ratio) {
            double pw = area.height() * ratio;
            plot.x0 = area.x0 + (area.width() - pw) / 2;
            plot.x1 = plot.x0 + pw;
        } else {
            double ph = area.width() / ratio;
            plot.y0 = area.y0 + (area.height() - ph) / 2;
            plot.y1 = plot.y0 + ph;
        }
    }
    // Whole pixels, so that cells and ticks land on the same pixel rows on screen and in files.
    plot = {std::round(plot.x0), std::round(plot.y0), std::round(plot.x1), std::round(plot.y1)};
    if (cells.columns > 0 && cells.rows > 0) {
        const double nx = static_cast<double>(cells.columns), ny = static_cast<double>(cells.rows);
        const double kx = std::floor(plot.width() / nx), ky = std::floor(plot.height() / ny);
        const double spareX = plot.width() - kx * nx, spareY = plot.height() - ky * ny;
        if (kx >= 1 && ky >= 1 && spareX <= 0.01 * plot.width() && spareY <= 0.01 * plot.height()) {
            plot.x0 += std::floor(spareX / 2);
            plot.x1 = plot.x0 + kx * nx;
            plot.y0 += std::floor(spareY / 2);
            plot.y1 = plot.y0 + ky * ny;
        }
    }
    l.plot = plot;
    l.colourBar = {plot.x1 + std::round(18 * s), plot.y0, plot.x1 + std::round(36 * s), plot.y1};
    return l;
}

Pick pickCell(const ViewTransform& t, const AxisGrid& x, const AxisGrid& y, double px, double py) {
    Pick p;
    p.x = t.dataX(px);
    p.y = t.dataY(py);
    if (!t.plot().contains(px, py)) return p;
    p.column = cellIndex(x.edges, p.x);
    p.row = cellIndex(y.edges, p.y);
    if (p.column < 0 || p.row < 0) {
        p.row = p.column = -1;
        return p;
    }
    p.inside = true;
    p.xCentre = x.centres[static_cast<std::size_t>(p.column)];
    p.yCentre = y.centres[static_cast<std::size_t>(p.row)];
    p.xLabel = x.label(p.column);
    p.yLabel = y.label(p.row);
    return p;
}

} // namespace strata
