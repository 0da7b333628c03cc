// The coastline overlay's cost per frame: the plan (level by zoom, lines wrapped and clipped to
// the plot, thinned to half a pixel) and the raster painter's drawing of it into a 1920 × 1080
// image, for a 1440 × 721 frame (0–360) shown whole, zoomed 4× and 16× about 20°E 35°S.
// Medians of 200 after a warm-up. The GL path draws the same lines as one VTK actor, rebuilt
// only when the plan changes (zoom, pan, resize; not at a time step). Then a regional view
// (15°E–25°E, 37.8°S–32.2°S, the Cape) at the GSHHG levels i, h and f whatever the zoom: the
// first read (the file opened, the view's bins read and decoded; median of 5 fresh readers,
// files in the page cache), the bins asked again (cached), and the plan. Figures in
// bench/RESULTS.md. Usage: bench_coast
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
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

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The Cape at each GSHHG level i, h, f: first read, cached read, plan.
void regional(const PixelRect& plot) {
    const ViewWindow w{15, 25, -37.8, -32.2};
    const LonLatBox box{w.x0, w.x1, w.y0, w.y1};
    for (char r : {'i', 'h', 'f'}) {
        std::vector<double> firsts;
        std::shared_ptr<const std::vector<LonLatLine>> lines;
        for (int rep = 0; rep < 5; ++rep) {
            const auto fresh = findCoastLevels(gshhgDirectory(), coastlineDirectory()); // new readers
            const auto it = std::find_if(fresh.begin(), fresh.end(), [r](const CoastLevel& l) {
                return l.resolution == r && l.path.find("binned_GSHHS_") != std::string::npos;
            });
            if (it == fresh.end()) {
                std::printf("regional '%c': no GSHHG file\n", r);
                return;
            }
            const auto t0 = std::chrono::steady_clock::now();
            lines = it->reader->lines(box);
            firsts.push_back(msSince(t0));
            if (rep == 4) {
                std::size_t points = 0;
                for (const LonLatLine& l : *lines) points += l.lon.size();
                const double cachedUs = medianUs([&] { (void)it->reader->lines(box); });
                // A pan by half the window: half the bins cached, half read.
                const auto t1 = std::chrono::steady_clock::now();
                (void)it->reader->lines({box.lonMin + 5, box.lonMax + 5, box.latMin, box.latMax});
                const double panMs = msSince(t1);
                std::vector<PixelPolyline> planned;
                const double planUs =
                    medianUs([&] { planned = planCoast(*lines, ViewTransform(plot, w)); }, 20);
                std::size_t kept = 0;
                for (const PixelPolyline& l : planned) kept += l.xy.size() / 2;
                std::sort(firsts.begin(), firsts.end());
                std::printf("regional '%c': %zu lines, %zu points read; first read %.2f ms, cached %.1f us, "
                            "pan by half %.2f ms; plan %.0f us (%zu points drawn)\n",
                            r, lines->size(), points, firsts[2], cachedUs, panMs, planUs, kept);
            }
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen"); // no display needed
    QGuiApplication app(argc, argv);
    const std::vector<CoastLevel>& levels = coastLevels();
    if (levels.empty()) {
        std::fprintf(stderr, "bench_coast: no GSHHG files under %s and no GSHHS shapefiles under %s\n",
                     gshhgDirectory().c_str(), coastlineDirectory().c_str());
        return 1;
    }
    auto t0 = std::chrono::steady_clock::now();
    const auto crude = levels[0].reader->lines({});
    const double loadMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::size_t points = 0;
    for (const LonLatLine& l : *crude) points += l.lon.size();
    std::printf("levels %zu, coarsest %s: %zu lines, %zu points, read in %.1f ms\n", levels.size(),
                describeCoastLevel(levels[0]).c_str(), crude->size(), points, loadMs);
    // The plot of a 1920 × 1080 window for a 2:1 frame, as computeLayout gives it.
    const PixelRect plot{84, 58, 1802, 917};
    QImage image(1920, 1080, QImage::Format_RGB32);
    for (double zoom : {1.0, 4.0, 16.0}) {
        const double cx = 20, cy = -35, hw = 180 / zoom, hh = 90 / zoom;
        const ViewWindow w =
            zoom == 1 ? ViewWindow{0, 360, -90, 90} : ViewWindow{cx - hw, cx + hw, cy - hh, cy + hh};
        const ViewTransform t(plot, w);
        const int level = chooseCoastLevel(levels, (w.x1 - w.x0) / plot.width());
        const auto shared = levels[static_cast<std::size_t>(level)].reader->lines({w.x0, w.x1, w.y0, w.y1});
        const std::vector<LonLatLine>& lines = *shared;
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
    regional(plot);
    return 0;
}
