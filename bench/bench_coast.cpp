// The coastline overlay's cost per frame: the plan (level by zoom, lines wrapped and clipped to
// the plot, thinned to half a pixel) and the raster painter's drawing of it into a 1920 × 1080
// image, for a 1440 × 721 frame (0–360) shown whole, zoomed 4× and 16× about 20°E 35°S.
// Medians of 200 after a warm-up. The GL path draws the same lines as one VTK actor, rebuilt
// only when the plan changes (zoom, pan, resize; not at a time step). Usage: bench_coast
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "coast_plan.h"

using namespace strata;
using namespace strata::detail;

namespace {

double medianUs(const std::function<void()>& fn, int reps = 200) {
    fn();
    std::vector<double> ts;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        ts.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    return ts[ts.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen"); // no display needed
    QGuiApplication app(argc, argv);
    auto t0 = std::chrono::steady_clock::now();
    const std::vector<CoastLevel>& levels = coastLevels();
    const double loadMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (levels.empty()) {
        std::fprintf(stderr, "bench_coast: no GSHHS shapefiles under %s\n", coastlineDirectory().c_str());
        return 1;
    }
    std::size_t points = 0;
    for (const LonLatLine& l : levels[0].lines) points += l.lon.size();
    std::printf("levels %zu (coarsest '%c': %zu lines, %zu points), read in %.1f ms\n", levels.size(),
                levels[0].resolution, levels[0].lines.size(), points, loadMs);
    // The plot of a 1920 × 1080 window for a 2:1 frame, as computeLayout gives it.
    const PixelRect plot{84, 58, 1802, 917};
    QImage image(1920, 1080, QImage::Format_RGB32);
    for (double zoom : {1.0, 4.0, 16.0}) {
        const double cx = 20, cy = -35, hw = 180 / zoom, hh = 90 / zoom;
        const ViewWindow w =
            zoom == 1 ? ViewWindow{0, 360, -90, 90} : ViewWindow{cx - hw, cx + hw, cy - hh, cy + hh};
        const ViewTransform t(plot, w);
        const int level = chooseCoastLevel(levels, (w.x1 - w.x0) / plot.width());
        const auto& lines = levels[static_cast<std::size_t>(level)].lines;
        std::vector<PixelPolyline> planned;
        const double planUs = medianUs([&] { planned = planCoast(lines, t); });
        std::size_t kept = 0;
        for (const PixelPolyline& l : planned) kept += l.xy.size() / 2;
        const double paintUs = medianUs([&] {
            QPainter p(&image);
            p.setClipRect(QRect(84, 1080 - 917, 1802 - 84, 917 - 58));
            p.setPen(QPen(QColor(26, 26, 26), 1));
            QPolygonF poly;
            for (const PixelPolyline& l : planned) {
                poly.resize(static_cast<qsizetype>(l.xy.size() / 2));
                for (std::size_t i = 0; i + 1 < l.xy.size(); i += 2)
                    poly[static_cast<qsizetype>(i / 2)] = QPointF(l.xy[i], 1080 - l.xy[i + 1]);
                p.drawPolyline(poly);
            }
        });
        std::printf(
            "zoom %4.0fx: level '%c', %zu lines, %zu points drawn; plan %.0f us, raster paint %.0f us, "
            "total %.3f ms\n",
            zoom, levels[static_cast<std::size_t>(level)].resolution, planned.size(), kept, planUs, paintUs,
            (planUs + paintUs) / 1000);
    }
    return 0;
}
