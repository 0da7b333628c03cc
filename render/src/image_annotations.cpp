#include "image_annotations.h"

#include <algorithm>
#include <cmath>

#include <vtkActor2D.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProp.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextMapper.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkWindow.h>

#include "fonts.h"
#include "strata/render/ticks.h"

namespace strata::detail {
namespace {

constexpr double kInk[3] = {0.1, 0.1, 0.1};

// Line segments in a renderer's pixels.
class Lines {
public:
    void add(double x0, double y0, double x1, double y1) {
        vtkIdType a = points_->InsertNextPoint(x0, y0, 0), b = points_->InsertNextPoint(x1, y1, 0);
        vtkIdType ids[2] = {a, b};
        lines_->InsertNextCell(2, ids);
    }
    void rect(const PixelRect& r) {
        add(r.x0, r.y0, r.x1, r.y0);
        add(r.x1, r.y0, r.x1, r.y1);
        add(r.x1, r.y1, r.x0, r.y1);
        add(r.x0, r.y1, r.x0, r.y0);
    }
    vtkSmartPointer<vtkActor2D> actor(double width) const {
        vtkNew<vtkPolyData> pd;
        pd->SetPoints(points_);
        pd->SetLines(lines_);
        vtkNew<vtkPolyDataMapper2D> mapper;
        mapper->SetInputData(pd);
        auto a = vtkSmartPointer<vtkActor2D>::New();
        a->SetMapper(mapper);
        a->GetProperty()->SetColor(kInk[0], kInk[1], kInk[2]);
        a->GetProperty()->SetLineWidth(static_cast<float>(width));
        return a;
    }

private:
    vtkNew<vtkPoints> points_;
    vtkNew<vtkCellArray> lines_;
};

using Align = ImageAnnotations::Align;
using VAlign = ImageAnnotations::VAlign;

// A label's anchor on a whole pixel (as vtkTextActor's coordinate put it; a half-pixel quad
// lands on either side by rounding), a pixel up and right: the mapper's quad sits a pixel left
// of and below vtkTextActor's, whose pictures the baselines hold.
void place(vtkActor2D* label, double x, double y) {
    label->SetPosition(std::floor(x + 0.5) + 1, std::floor(y + 0.5) + 1);
}

// A label: the mapper draws `s` into a texture once, and the actor places it, so that moving a
// label (a colour bar's tick under a new range) does not draw its text again.
vtkSmartPointer<vtkActor2D> text(const std::string& s, double x, double y, double size, Align h, VAlign v,
                                 double angle = 0) {
    vtkNew<vtkTextMapper> mapper;
    mapper->SetInput(s.c_str());
    vtkTextProperty* p = mapper->GetTextProperty();
    applyFont(p, size);
    p->SetColor(kInk[0], kInk[1], kInk[2]);
    p->SetOrientation(angle);
    if (h == Align::Left) p->SetJustificationToLeft();
    if (h == Align::Centre) p->SetJustificationToCentered();
    if (h == Align::Right) p->SetJustificationToRight();
    if (v == VAlign::Bottom) p->SetVerticalJustificationToBottom();
    if (v == VAlign::Centre) p->SetVerticalJustificationToCentered();
    if (v == VAlign::Top) p->SetVerticalJustificationToTop();
    auto t = vtkSmartPointer<vtkActor2D>::New();
    t->SetMapper(mapper);
    place(t, x, y);
    return t;
}

vtkTextMapper* mapperOf(vtkActor2D* label) { return static_cast<vtkTextMapper*>(label->GetMapper()); }

// `s` cut at the end, on a UTF-8 character boundary, with "…" so that it spans at most
// `maxWidth` pixels as `label` draws it at `dpi`; `s` itself when it fits.
std::string elided(const std::string& s, vtkActor2D* label, double maxWidth, int dpi) {
    vtkTextRenderer* renderer = vtkTextRenderer::GetInstance();
    if (!renderer || s.empty()) return s;
    auto width = [&](const std::string& t) {
        int box[4] = {0, 0, 0, 0};
        if (!renderer->GetBoundingBox(mapperOf(label)->GetTextProperty(), t, box, dpi)) return 0;
        return box[1] - box[0] + 1;
    };
    if (width(s) <= maxWidth) return s;
    std::vector<std::size_t> cuts; // the starts of characters after the first
    for (std::size_t i = 1; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) cuts.push_back(i);
    auto candidate = [&](std::size_t k) {
        std::string t = s.substr(0, cuts[k]);
        t.erase(t.find_last_not_of(" ,") + 1);
        return t + "…";
    };
    // The longest prefix that fits (widths grow with the prefix).
    std::size_t lo = 0, hi = cuts.size();
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (width(candidate(mid)) <= maxWidth)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? std::string("…") : candidate(lo - 1);
}

} // namespace

ImageAnnotations::ImageAnnotations() = default;
ImageAnnotations::~ImageAnnotations() { clear(); }

void ImageAnnotations::add(Group& g, vtkProp* p) {
    renderer_->AddViewProp(p);
    p->Register(nullptr);
    g.props.push_back(p);
}

vtkActor2D* ImageAnnotations::label(Group& g, const std::string& s, double x, double y, double size, Align h,
                                    VAlign v, double angle, const char* role) {
    // The key: the text and its style; a role (the title) instead of the text, for a label whose
    // text changes at every step but whose actor, mapper and texture can stay.
    std::string key = role ? std::string(role) : s;
    key += '\x1f' + std::to_string(size) + ' ' + std::to_string(int(h)) + ' ' + std::to_string(int(v)) + ' ' +
           std::to_string(angle);
    vtkActor2D* a = nullptr;
    if (auto it = spare_.find(key); it != spare_.end()) { // in the renderer still, texture and all
        a = it->second;
        spare_.erase(it);
        place(a, x, y);
        if (role && s != mapperOf(a)->GetInput()) {
            mapperOf(a)->SetInput(s.c_str()); // drawn again, into the same texture
            ++labelsDrawn_;
        }
    } else {
        vtkSmartPointer<vtkActor2D> made = text(s, x, y, size, h, v, angle);
        a = made;
        a->Register(nullptr);
        renderer_->AddViewProp(a);
        ++labelsDrawn_;
    }
    g.labels.emplace_back(std::move(key), a);
    return a;
}

void ImageAnnotations::clear(Group& g) {
    for (vtkProp* p : g.props) {
        if (renderer_) renderer_->RemoveViewProp(p);
        p->UnRegister(nullptr);
    }
    g.props.clear();
    for (auto& [key, a] : g.labels) spare_.emplace(std::move(key), a);
    g.labels.clear();
}

void ImageAnnotations::dropSpare() {
    for (auto& [key, a] : spare_) {
        if (renderer_) renderer_->RemoveViewProp(a);
        a->UnRegister(nullptr);
    }
    spare_.clear();
}

void ImageAnnotations::clear() {
    clear(axes_);
    clear(bar_);
    clear(title_);
    dropSpare();
    axesKey_.reset();
    barKey_.reset();
    titleKey_.reset();
}

void ImageAnnotations::build(vtkRenderer* back, const AnnotationContent& c) {
    if (back != renderer_) {
        clear();
        renderer_ = back;
    }
    rebuilt_ = labelsDrawn_ = 0;
    if (AxesKey k{c.layout, c.window, c.gridVersion}; k != axesKey_) {
        clear(axes_);
        buildAxes(axes_, c);
        axesKey_ = std::move(k);
        ++rebuilt_;
    }
    if (BarKey k{c.layout, c.bar, c.barTitle}; k != barKey_) {
        clear(bar_);
        buildBar(bar_, c);
        barKey_ = std::move(k);
        ++rebuilt_;
    }
    if (TitleKey k{c.layout, c.title}; k != titleKey_) {
        clear(title_);
        buildTitle(title_, c);
        titleKey_ = std::move(k);
        ++rebuilt_;
    }
    dropSpare();
}

void ImageAnnotations::buildAxes(Group& g, const AnnotationContent& c) {
    const ViewLayout& l = c.layout;
    const double s = l.scale;
    const PixelRect& pr = l.plot;
    const ViewTransform t(pr, c.window);
    const double tickLen = 5 * s, labelSize = 12 * s, titleSize = 13 * s;

    // The plot's border, just outside it: the frame's outer cells stay whole.
    Lines ticks;
    const double h = 0.5 * s;
    ticks.rect({pr.x0 - h, pr.y0 - h, pr.x1 + h, pr.y1 + h});
    // x: ticks below the plot, labels under them, the axis title below.
    for (const Tick& k : axisTicks(*c.x, c.window.x0, c.window.x1, tickTarget(pr.width(), 90 * s))) {
        const double px = std::round(t.pixelX(k.value)) + 0.5;
        ticks.add(px, pr.y0 - h, px, pr.y0 - h - tickLen);
        label(g, k.label, px, pr.y0 - tickLen - 3 * s, labelSize, Align::Centre, VAlign::Top);
    }
    label(g, c.x->title, (pr.x0 + pr.x1) / 2, pr.y0 - 34 * s, titleSize, Align::Centre, VAlign::Top);
    // y: ticks left of the plot, labels before them, the axis title turned upright.
    for (const Tick& k : axisTicks(*c.y, c.window.y0, c.window.y1, tickTarget(pr.height(), 45 * s))) {
        const double py = std::round(t.pixelY(k.value)) + 0.5;
        ticks.add(pr.x0 - h, py, pr.x0 - h - tickLen, py);
        label(g, k.label, pr.x0 - tickLen - 3 * s, py, labelSize, Align::Right, VAlign::Centre);
    }
    label(g, c.y->title, pr.x0 - 66 * s, (pr.y0 + pr.y1) / 2, titleSize, Align::Centre, VAlign::Centre, 90);
    add(g, ticks.actor(s));
}

void ImageAnnotations::buildBar(Group& g, const AnnotationContent& c) {
    // The colour bar: one cell per LUT entry, low at the bottom, exactly the map's colours;
    // triangles in the under and over colours beyond a fixed range; the missing swatch.
    const ViewLayout& l = c.layout;
    const double s = l.scale;
    const double tickLen = 5 * s, labelSize = 12 * s, titleSize = 13 * s, h = 0.5 * s;
    const PixelRect& cb = l.colourBar;
    const ColourBarContent& bar = c.bar;
    if (bar.table.empty() || cb.height() <= 0) return;
    const ColourBarPlan plan = planColourBar(l, bar);
    const PixelRect& bands = plan.bands;
    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> cells;
    vtkNew<vtkUnsignedCharArray> colours;
    colours->SetNumberOfComponents(4);
    const auto n = static_cast<vtkIdType>(bar.table.size());
    for (vtkIdType i = 0; i <= n; ++i) {
        double y = bands.y0 + bands.height() * static_cast<double>(i) / static_cast<double>(n);
        pts->InsertNextPoint(bands.x0, y, 0);
        pts->InsertNextPoint(bands.x1, y, 0);
    }
    for (vtkIdType i = 0; i < n; ++i) {
        vtkIdType q[4] = {2 * i, 2 * i + 1, 2 * i + 3, 2 * i + 2};
        cells->InsertNextCell(4, q);
        const Rgba8& col = bar.table[static_cast<std::size_t>(i)];
        colours->InsertNextTuple4(col.r, col.g, col.b, 255);
    }
    Lines ticks;
    auto triangle = [&](const Triangle& t, const Rgba8& col) {
        vtkIdType ids[3];
        for (int k = 0; k < 3; ++k) ids[k] = pts->InsertNextPoint(t.xy[2 * k], t.xy[2 * k + 1], 0);
        cells->InsertNextCell(3, ids);
        colours->InsertNextTuple4(col.r, col.g, col.b, 255);
        // The slanted edges: the base is the bands' border's.
        for (int k = 1; k < 3; ++k)
            ticks.add(t.xy[2 * k], t.xy[2 * k + 1], t.xy[(2 * k + 2) % 6], t.xy[(2 * k + 3) % 6]);
    };
    if (plan.under) triangle(*plan.under, bar.under);
    if (plan.over) triangle(*plan.over, bar.over);
    if (plan.missing) {
        const PixelRect& m = *plan.missing;
        vtkIdType ids[4];
        ids[0] = pts->InsertNextPoint(m.x0, m.y0, 0);
        ids[1] = pts->InsertNextPoint(m.x1, m.y0, 0);
        ids[2] = pts->InsertNextPoint(m.x1, m.y1, 0);
        ids[3] = pts->InsertNextPoint(m.x0, m.y1, 0);
        cells->InsertNextCell(4, ids);
        colours->InsertNextTuple4(bar.missing->r, bar.missing->g, bar.missing->b, 255);
        ticks.rect({m.x0 - h, m.y0 - h, m.x1 + h, m.y1 + h});
        label(g, kMissingLabel, plan.missingLabelX, plan.missingLabelY, labelSize, Align::Left,
              VAlign::Centre);
    }
    vtkNew<vtkPolyData> pd;
    pd->SetPoints(pts);
    pd->SetPolys(cells);
    pd->GetCellData()->SetScalars(colours);
    vtkNew<vtkPolyDataMapper2D> mapper;
    mapper->SetInputData(pd);
    mapper->SetScalarModeToUseCellData();
    mapper->SetColorModeToDirectScalars();
    vtkNew<vtkActor2D> barActor;
    barActor->SetMapper(mapper);
    add(g, barActor);
    ticks.rect({bands.x0 - h, bands.y0 - h, bands.x1 + h, bands.y1 + h});
    const auto [vmin, vmax] = bar.range;
    for (const Tick& k : niceTicks(vmin, vmax, tickTarget(bands.height(), 45 * s))) {
        const double py = std::round(plan.valueY(k.value, bar.range)) + 0.5;
        ticks.add(cb.x1 + h, py, cb.x1 + h + tickLen, py);
        label(g, k.label, cb.x1 + tickLen + 3 * s, py, labelSize, Align::Left, VAlign::Centre);
    }
    if (!c.barTitle.empty())
        label(g, c.barTitle, cb.x1 + 60 * s, (cb.y0 + cb.y1) / 2, titleSize, Align::Centre, VAlign::Centre,
              90);
    add(g, ticks.actor(s));
}

void ImageAnnotations::buildTitle(Group& g, const AnnotationContent& c) {
    // The title, shortened with "…" when it would run past the window's edges.
    const ViewLayout& l = c.layout;
    const double s = l.scale;
    const double size = 15 * s;
    vtkActor2D* title =
        label(g, c.title, l.width / 2.0, l.height - 12 * s, size, Align::Centre, VAlign::Top, 0, "\x1etitle");
    const int dpi = renderer_->GetVTKWindow() ? renderer_->GetVTKWindow()->GetDPI() : 72;
    if (const std::string shown = elided(c.title, title, l.width - 16 * s, dpi); shown != c.title)
        mapperOf(title)->SetInput(shown.c_str());
}

} // namespace strata::detail
