// The image view's vector pair (ImageViewSettings::vectors): why none are drawn, and arrows,
// barbs, streamlines or particles (moving with the view's particleTime; a still when seeded
// afresh) in window pixels, a glyph every so many pixels of the plot whatever the zoom, turned
// into the map's directions.
//
// Each glyph's place is a pixel of a lattice over the plot; the pair is sampled there (on its
// device: only the samples come back) in index space, and its direction worked out in pixels by
// finite differences: an eastward and a northward step of the ground through the map (earth
// relative), or a step along the grid's columns and rows (grid relative, turned to the earth by
// the grid's own longitudes and latitudes, as CF says; or straight onto the axes for a grid that
// is not on the globe).
#include <algorithm>
#include <cmath>

#include "image_content.h"
#include "strata/core/error.h"
#include "strata/core/flow.h"
#include "strata/core/format.h"
#include "strata/core/units.h"
#include "vector_glyphs.h"
#include "vector_overlay.h"

namespace strata::detail {

std::string ImageContent::vectorProblem() const {
    std::string why = vectorBlocker();
    return why.empty() ? vectorError_ : why;
}

std::string ImageContent::vectorBlocker() const {
    if (settings_.vectors == VectorStyle::None || !frame_) return {};
    if (!frame_->vectorU || !frame_->vectorV) return "no vector pair (u, v) is given to draw";
    const DataArray &u = *frame_->vectorU, &v = *frame_->vectorV;
    if (!u.isLoaded() || !v.isLoaded()) return "vectors are drawn for frames in memory; these are not loaded";
    if (std::string why = vectorPairProblem(u, v); !why.empty()) return why;
    if (!sameGrid(u, frame_->frame))
        return "the vector pair " + describeGrid(u) + " is on another grid than " +
               describeGrid(frame_->frame);
    const bool traced =
        settings_.vectors == VectorStyle::Streamlines || settings_.vectors == VectorStyle::Particles;
    if (traced && curvilinearOn() && !frame_->vectorsGridRelative)
        return "streamlines and particles on a curvilinear grid are traced along its rows and columns: they "
               "need "
               "grid-relative components (x_*, y_*), and '" +
               u.name() + "' is earth relative";
    return {};
}

namespace {

// The pair's units ("m s-1") from u's attributes; empty when it has none.
std::string unitsOf(const DataArray& u) { return u.attrs().text("units").value_or(""); }

} // namespace

// Arrows or barbs on the lattice, each turned into the view's directions.
void Overlay::glyphs(bool barbs) {
    std::vector<double> pixels, index;
    lattice(spacing, pixels, index);
    const FlowSamples samples = sampleFlow(u, v, index, place.turn);
    struct Placed {
        double x, y, dx, dy, speed;
        bool southern;
    };
    std::vector<Placed> placed;
    std::vector<double> speeds;
    for (std::size_t k = 0; k < samples.u.size(); ++k) {
        const double su = samples.u[k], sv = samples.v[k];
        if (std::isnan(su) || std::isnan(sv)) continue;
        Placed p{pixels[2 * k], pixels[2 * k + 1], 0, 0, std::hypot(su, sv), false};
        if (!place.direction(index[2 * k], index[2 * k + 1], su, sv, gridRelative, p.dx, p.dy, p.southern))
            continue;
        placed.push_back(p);
        speeds.push_back(p.speed);
    }
    Glyphs g;
    const std::string units = unitsOf(u);
    if (!barbs) {
        const double ref = referenceSpeed(speeds), length = 0.9 * spacing, head = 0.28 * spacing;
        if (ref > 0) {
            for (const Placed& p : placed)
                addArrow(g, p.x, p.y, p.dx * length * p.speed / ref, p.dy * length * p.speed / ref, head);
            // The reference arrow, bottom right, its speed left of it.
            const double y = plot.y0 + 10 * s, x1 = plot.x1 - 8 * s;
            addArrow(g, x1 - length, y, length, 0, head);
            TextItem label = legend(formatNumber(ref) + (units.empty() ? "" : " " + units));
            label.x = x1 - length - 6 * s;
            label.maxWidth = 0;
            labels.push_back(std::move(label));
        }
    } else {
        // In knots: from the pair's units where udunits knows them, else taken as m s-1.
        UnitConversion toKnots;
        bool assumed = false;
        try {
            toKnots = unitConversion(units.empty() ? "m s-1" : units, "knots");
            assumed = units.empty();
        } catch (const ValueError&) {
            toKnots = unitConversion("m s-1", "knots");
            assumed = true;
        }
        for (const Placed& p : placed)
            addBarb(g, p.x, p.y, p.dx, p.dy, toKnots.apply(p.speed), 0.8 * spacing, p.southern);
        labels.push_back(
            legend("barbs in knots" + std::string(assumed ? " (" + u.name() + " taken as m s-1)" : "")));
    }
    inkGlyphs(g);
}

// Evenly spaced streamlines a third of the spacing apart, each with a head at its middle.
void Overlay::streamlines() {
    const double dsep = spacing / 3;
    std::vector<double> pixels, index;
    lattice(dsep, pixels, index);
    // Steps of about 1.5 pixels, lines up to about the plot's longer side each way, drawn
    // through every other point.
    const double step = std::clamp(1.5 / pixelsPerIndex(index), 1e-3, 0.5);
    const auto maxSteps = std::int64_t(std::clamp(std::max(plot.width(), plot.height()) / 1.5, 50.0, 1500.0));
    const StreamPlane plane{
        plot.x0, plot.y0, plot.x1, plot.y1,
        [&](double x, double y, double& ix, double& iy) { return place.indexAt(x, y, ix, iy); },
        // A line ends a little beyond the plot: what lies further is not seen.
        [&, margin = 2 * dsep](double ix, double iy, double& x, double& y) {
            return place.pixelAt(ix, iy, x, y) && x > plot.x0 - margin && x < plot.x1 + margin &&
                   y > plot.y0 - margin && y < plot.y1 + margin;
        }};
    Glyphs g;
    for (const auto& l : evenStreamlines(u, v, metric, plane, dsep, spacing, step, maxSteps, 2)) {
        g.lines.push_back({l});
        // A head at the middle, along the line (which runs with the flow).
        const std::size_t mid = (l.size() / 4) * 2;
        if (mid < 2 || mid + 1 >= l.size()) continue;
        const double ax = l[mid - 2], ay = l[mid - 1], bx = l[mid], by = l[mid + 1];
        const double n = std::hypot(bx - ax, by - ay);
        if (!(n > 0)) continue;
        const double head = std::max(5 * s, 0.22 * spacing), ux = (bx - ax) / n, uy = (by - ay) / n;
        Glyphs h;
        addArrow(h, bx - 2 * head * ux, by - 2 * head * uy, 2 * head * ux, 2 * head * uy, head);
        for (auto& f : h.fills) g.fills.push_back(std::move(f));
    }
    inkGlyphs(g);
}

std::shared_ptr<const std::vector<InkLines>> ImageContent::vectorGlyphs(const ViewLayout& layout,
                                                                        const ViewWindow& window) const {
    if (settings_.vectors == VectorStyle::None || !frame_ || layout.plot.width() <= 0 ||
        !vectorBlocker().empty()) {
        vectorLabels_.clear();
        return nullptr;
    }
    VectorKey key{frameVersion_,
                  cellsVersion_,
                  map_.get(),
                  window,
                  layout.plot,
                  layout.scale,
                  settings_.vectorSpacing,
                  settings_.vectors,
                  settings_.vectorColour,
                  settings_.particleDensity,
                  settings_.particleSpeed,
                  settings_.vectors == VectorStyle::Particles ? settings_.particleTime : 0};
    if (vectors_ && vectorKey_ == key) return vectorError_.empty() ? vectors_ : nullptr;
    vectorError_.clear();
    vectorLabels_.clear();
    const ViewTransform t(layout.plot, window);
    const CurvilinearGrid* curv = curvilinearOn() ? curv_.get() : nullptr;
    std::unique_ptr<NativeMap> source;
    if (map_ && map_->sourceCrs() && !curv) source = std::make_unique<NativeMap>(*map_->sourceCrs());
    const AxisGrid &gx = map_ ? srcX_ : x_, &gy = map_ ? srcY_ : y_;
    const bool lonLat = !curv && !source && (map_ || isLonLatView(srcX_, srcY_));
    const Placement place{t,
                          x_,
                          y_,
                          srcX_,
                          srcY_,
                          curv,
                          locator_.get(),
                          map_.get(),
                          source.get(),
                          lonLat,
                          lonLat && wholeTurn(gx, gy)};
    auto out = std::make_shared<std::vector<InkLines>>();
    const double s = layout.scale;
    // How far a unit of speed moves a point in index space (the metric of the source grid).
    const FlowMetric metric = curv     ? FlowMetric{}
                              : lonLat ? lonLatMetric(srcX_.centres, srcY_.centres)
                                       : axisMetric(srcX_.centres, srcY_.centres);
    Overlay o{place,
              *frame_->vectorU,
              *frame_->vectorV,
              frame_->vectorsGridRelative,
              layout.plot,
              s,
              std::max(8.0, settings_.vectorSpacing) * s,
              settings_.vectorColour,
              std::max(1.0, std::round(s)),
              metric,
              *out,
              vectorLabels_};
    try {
        switch (settings_.vectors) {
        case VectorStyle::Arrows:
            o.glyphs(false);
            break;
        case VectorStyle::Barbs:
            o.glyphs(true);
            break;
        case VectorStyle::Streamlines:
            o.streamlines();
            break;
        default: {
            if (!particles_.run) particles_.run = std::make_shared<ParticleRun>();
            const ParticleRun::Seeded view{cellsVersion_,
                                           map_.get(),
                                           window,
                                           layout.plot,
                                           s,
                                           settings_.vectorSpacing,
                                           std::clamp(settings_.particleDensity, 0.05, 20.0),
                                           frame_->vectorU->device(),
                                           frame_->vectorU->shape()};
            o.particles(*particles_.run, view, std::int64_t(settings_.particleTime),
                        std::clamp(settings_.particleSpeed, 0.05, 20.0));
            break;
        }
        }
    } catch (const Error& e) { // the device failed, or the pair could not be read: said, none drawn
        vectorError_ = e.what();
        vectorLabels_.clear();
        vectors_ = std::make_shared<const std::vector<InkLines>>();
        vectorKey_ = std::move(key);
        return nullptr;
    }
    vectors_ = std::move(out);
    vectorKey_ = std::move(key);
    return vectors_;
}

} // namespace strata::detail
