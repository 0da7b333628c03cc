#include "annotation_plan.h"

#include <algorithm>
#include <cmath>

#include "strata/render/ticks.h"

namespace strata::detail {
namespace {

// The ring of `w` pixels just outside `r`: four boxes (bottom and top span the corners).
void ring(InkGroup& g, const PixelRect& r, double w) {
    g.boxes.push_back({r.x0 - w, r.y0 - w, r.x1 + w, r.y0});
    g.boxes.push_back({r.x0 - w, r.y1, r.x1 + w, r.y1 + w});
    g.boxes.push_back({r.x0 - w, r.y0, r.x0, r.y1});
    g.boxes.push_back({r.x1, r.y0, r.x1 + w, r.y1});
}

void planAxes(InkGroup& g, const AnnotationContent& c, double w, double tickLen) {
    const ViewLayout& l = c.layout;
    const double s = l.scale;
    const PixelRect& pr = l.plot;
    const ViewTransform t(pr, c.window);
    // The border, just outside the plot: the frame's outer cells stay whole.
    ring(g, pr, w);
    // x: at each tick a mark a line wide reaching tickLen below the border, its label under
    // it, the axis title below.
    for (const Tick& k : axisTicks(*c.x, c.window.x0, c.window.x1, tickTarget(pr.width(), 90 * s))) {
        const double px = std::round(t.pixelX(k.value));
        g.boxes.push_back({px, pr.y0 - w - tickLen, px + w, pr.y0 - w});
        g.texts.push_back(textAt(k.label, px + 0.5, pr.y0 - kTickLength * s - 3 * s, kLabelSize * s,
                                 Align::Centre, VAlign::Top));
    }
    g.texts.push_back(textAt(c.x->title, (pr.x0 + pr.x1) / 2, pr.y0 - 34 * s, kAxisTitleSize * s,
                             Align::Centre, VAlign::Top));
    // y: tick marks left of the border, labels before them, the axis title turned upright.
    for (const Tick& k : axisTicks(*c.y, c.window.y0, c.window.y1, tickTarget(pr.height(), 45 * s))) {
        const double py = std::round(t.pixelY(k.value));
        g.boxes.push_back({pr.x0 - w - tickLen, py, pr.x0 - w, py + w});
        g.texts.push_back(textAt(k.label, pr.x0 - kTickLength * s - 3 * s, py + 0.5, kLabelSize * s,
                                 Align::Right, VAlign::Centre));
    }
    g.texts.push_back(textAt(c.y->title, pr.x0 - 66 * s, (pr.y0 + pr.y1) / 2, kAxisTitleSize * s,
                             Align::Centre, VAlign::Centre, true));
}

void planBar(InkGroup& g, ColourBarFill& fill, const AnnotationContent& c, double w, double tickLen) {
    const ViewLayout& l = c.layout;
    const double s = l.scale;
    const PixelRect& cb = l.colourBar;
    if (c.bar.table.empty() || cb.height() <= 0) return;
    fill.geometry = planColourBar(l, c.bar);
    fill.content = c.bar;
    const ColourBarPlan& plan = fill.geometry;
    ring(g, plan.bands, w);
    // The triangles' slanted edges (their base is the bands' border).
    for (const auto& t : {plan.under, plan.over})
        if (t) {
            g.lines.push_back({t->xy[2], t->xy[3], t->xy[4], t->xy[5]});
            g.lines.push_back({t->xy[4], t->xy[5], t->xy[0], t->xy[1]});
        }
    if (plan.missing) {
        ring(g, *plan.missing, w);
        g.texts.push_back(textAt(kMissingLabel, plan.missingLabelX, plan.missingLabelY, kLabelSize * s,
                                 Align::Left, VAlign::Centre));
    }
    const MinMax range = c.bar.range;
    for (const Tick& k : niceTicks(range.first, range.second, tickTarget(plan.bands.height(), 45 * s))) {
        const double py = std::round(plan.valueY(k.value, range));
        g.boxes.push_back({cb.x1 + w, py, cb.x1 + w + tickLen, py + w});
        g.texts.push_back(textAt(k.label, cb.x1 + kTickLength * s + 3 * s, py + 0.5, kLabelSize * s,
                                 Align::Left, VAlign::Centre));
    }
    if (!c.barTitle.empty())
        g.texts.push_back(textAt(c.barTitle, cb.x1 + 60 * s, (cb.y0 + cb.y1) / 2, kAxisTitleSize * s,
                                 Align::Centre, VAlign::Centre, true));
}

} // namespace

AnnotationPlan planAnnotations(const AnnotationContent& c) {
    AnnotationPlan p;
    p.layout = c.layout;
    const double s = c.layout.scale;
    p.lineWidth = std::max(1.0, std::round(s));
    const double tickLen = std::max(1.0, std::round(kTickLength * s));
    if (c.map) {
        ring(p.axes, c.layout.plot, p.lineWidth);
    } else if (c.x && c.y) {
        planAxes(p.axes, c, p.lineWidth, tickLen);
    }
    // The graticule's labels, on a projection or in a grid mapping's own CRS: those on a halo over
    // the frame (with the lines, in the plot), those beyond the map's edge over everything.
    for (const TextItem& t : c.mapLabels) (t.halo ? p.overFrame : p.beyondMap).push_back(t);
    p.overFrame.insert(p.overFrame.end(), c.contourLabels.begin(), c.contourLabels.end());
    p.overFrame.insert(p.overFrame.end(), c.vectorLabels.begin(), c.vectorLabels.end());
    planBar(p.bar, p.barFill, c, p.lineWidth, tickLen);
    TextItem title = textAt(c.title, c.layout.width / 2.0, c.layout.height - 12 * s, kTitleSize * s,
                            Align::Centre, VAlign::Top);
    title.maxWidth = c.layout.width - 16 * s;
    title.role = "title";
    p.title.texts.push_back(std::move(title));
    p.coast = c.coast;
    p.contours = c.contours;
    p.contourColour = c.contourColour;
    p.contourWidth = std::max(1.0, std::round(c.contourWidth * s));
    p.vectors = c.vectors;
    return p;
}

} // namespace strata::detail
