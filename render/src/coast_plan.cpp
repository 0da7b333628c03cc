#include "coast_plan.h"

#include "strata/core/cf_axis.h"
#include "strata/core/error.h"
#include "strata/render/coastline_status.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

namespace strata::detail {
namespace {

// True when the axis shows a coordinate (not bare indices) whose attributes `is` holds for.
bool isAxis(const AxisGrid& g, bool (*is)(const Attributes&)) {
    return !g.fromIndices && g.coordinate && is(g.coordinate->attrs);
}

// The part of segment a→b inside `r`: false when none (Liang–Barsky); t0, t1 along it.
bool clip(const PixelRect& r, double ax, double ay, double bx, double by, double& t0, double& t1) {
    t0 = 0;
    t1 = 1;
    const double dx = bx - ax, dy = by - ay;
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {ax - r.x0, r.x1 - ax, ay - r.y0, r.y1 - ay};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) return false;
            continue;
        }
        const double u = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, u);
        else
            t1 = std::min(t1, u);
        if (t0 > t1) return false;
    }
    return true;
}

// Builds lines point by point, dropping points within `thin` pixels of the last one kept.
class LineBuilder {
public:
    LineBuilder(std::vector<PixelPolyline>& out, double thin) : out_(out), thin2_(thin * thin) {}
    void start(double x, double y) {
        flush();
        cur_.xy = {x, y};
    }
    bool continues(double x, double y) const {
        return !cur_.xy.empty() && ((skipped_ && x == sx_ && y == sy_) ||
                                    (!skipped_ && x == cur_.xy[cur_.xy.size() - 2] && y == cur_.xy.back()));
    }
    void add(double x, double y) {
        const double dx = x - cur_.xy[cur_.xy.size() - 2], dy = y - cur_.xy.back();
        if (dx * dx + dy * dy < thin2_) {
            skipped_ = true;
            sx_ = x;
            sy_ = y;
            return;
        }
        cur_.xy.push_back(x);
        cur_.xy.push_back(y);
        skipped_ = false;
    }
    void flush() {
        if (skipped_) {
            cur_.xy.push_back(sx_);
            cur_.xy.push_back(sy_);
            skipped_ = false;
        }
        if (cur_.xy.size() >= 4) out_.push_back(std::move(cur_));
        cur_.xy.clear();
    }

private:
    std::vector<PixelPolyline>& out_;
    double thin2_;
    PixelPolyline cur_;
    bool skipped_ = false;
    double sx_ = 0, sy_ = 0;
};

} // namespace

bool isLonLatView(const AxisGrid& x, const AxisGrid& y) {
    return isAxis(x, isLongitude) && isAxis(y, isLatitude);
}

int chooseCoastLevel(const std::vector<CoastLevel>& levels, double degreesPerPixel) {
    if (levels.empty()) return -1;
    const double kmPerTwoPixels = 2 * std::abs(degreesPerPixel) * 111.32;
    for (std::size_t i = 0; i < levels.size(); ++i)
        if (levels[i].km <= kmPerTwoPixels) return static_cast<int>(i);
    return static_cast<int>(levels.size()) - 1;
}

CoastPick pickCoast(const std::vector<CoastLevel>& levels, double degreesPerPixel, const LonLatBox& box,
                    char finest) {
    static constexpr std::string_view kOrder = "clihf";
    std::vector<CoastLevel> allowed;
    for (const CoastLevel& l : levels)
        if (kOrder.find(l.resolution) <= kOrder.find(finest)) allowed.push_back(l);
    CoastPick pick;
    for (int i = chooseCoastLevel(allowed, degreesPerPixel); i >= 0; --i) {
        try {
            pick.lines = allowed[static_cast<std::size_t>(i)].reader->lines(box);
        } catch (const Error& e) {
            pick.problem += (pick.problem.empty() ? "" : "; ") + std::string(e.what());
            continue;
        }
        for (std::size_t k = 0; k < levels.size(); ++k)
            if (levels[k].resolution == allowed[static_cast<std::size_t>(i)].resolution) pick.level = int(k);
        break;
    }
    return pick;
}

std::vector<PixelPolyline> planCoast(const std::vector<LonLatLine>& lines, const ViewTransform& t,
                                     double thin, bool wrap) {
    std::vector<PixelPolyline> out;
    const ViewWindow& w = t.window();
    const PixelRect& plot = t.plot();
    const double lonLo = std::min(w.x0, w.x1), lonHi = std::max(w.x0, w.x1);
    const double latLo = std::min(w.y0, w.y1), latHi = std::max(w.y0, w.y1);
    LineBuilder b(out, thin);
    for (const LonLatLine& l : lines) {
        if (l.latMax < latLo || l.latMin > latHi) continue;
        if (!wrap && (l.lonMax < lonLo || l.lonMin > lonHi)) continue;
        const auto kFirst = wrap ? static_cast<long>(std::ceil((lonLo - l.lonMax) / 360)) : 0L;
        const auto kLast = wrap ? static_cast<long>(std::floor((lonHi - l.lonMin) / 360)) : 0L;
        for (long k = kFirst; k <= kLast; ++k) {
            const double shift = 360.0 * static_cast<double>(k);
            double ax = t.pixelX(l.lon[0] + shift), ay = t.pixelY(l.lat[0]);
            for (std::size_t i = 1; i < l.lon.size(); ++i) {
                const double bx = t.pixelX(l.lon[i] + shift), by = t.pixelY(l.lat[i]);
                double t0 = 0, t1 = 1;
                if (clip(plot, ax, ay, bx, by, t0, t1) && t0 < t1) { // more than a touch
                    // Whole segments keep their ends exactly: the next one continues the line.
                    const double x0 = t0 == 0 ? ax : ax + t0 * (bx - ax),
                                 y0 = t0 == 0 ? ay : ay + t0 * (by - ay);
                    const double x1 = t1 == 1 ? bx : ax + t1 * (bx - ax),
                                 y1 = t1 == 1 ? by : ay + t1 * (by - ay);
                    if (!b.continues(x0, y0)) b.start(x0, y0);
                    b.add(x1, y1);
                    if (t1 < 1) b.flush(); // left the plot
                }
                ax = bx;
                ay = by;
            }
            b.flush();
        }
    }
    return out;
}

} // namespace strata::detail

namespace strata {

bool isLonLatFrame(const DataArray& frame) {
    return frame.ndim() == 2 && detail::isLonLatView(axisGrid(frame, 1), axisGrid(frame, 0));
}

} // namespace strata
