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

namespace strata::detail {
namespace {

constexpr double kInk[3] = {0.1, 0.1, 0.1};

// An ink group's boxes (filled quads) and lines in one actor, in a renderer's pixels.
vtkSmartPointer<vtkActor2D> inkActor(const InkGroup& ink, double lineWidth) {
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> polys, lines;
    for (const PixelRect& r : ink.boxes) {
        const vtkIdType ids[4] = {
            points->InsertNextPoint(r.x0, r.y0, 0), points->InsertNextPoint(r.x1, r.y0, 0),
            points->InsertNextPoint(r.x1, r.y1, 0), points->InsertNextPoint(r.x0, r.y1, 0)};
        polys->InsertNextCell(4, ids);
    }
    for (const Segment& l : ink.lines) {
        const vtkIdType ids[2] = {points->InsertNextPoint(l.x0, l.y0, 0),
                                  points->InsertNextPoint(l.x1, l.y1, 0)};
        lines->InsertNextCell(2, ids);
    }
    vtkNew<vtkPolyData> pd;
    pd->SetPoints(points);
    pd->SetPolys(polys);
    pd->SetLines(lines);
    vtkNew<vtkPolyDataMapper2D> mapper;
    mapper->SetInputData(pd);
    auto a = vtkSmartPointer<vtkActor2D>::New();
    a->SetMapper(mapper);
    a->GetProperty()->SetColor(kInk[0], kInk[1], kInk[2]);
    a->GetProperty()->SetLineWidth(static_cast<float>(lineWidth));
    return a;
}

// A label's anchor on a whole pixel (as vtkTextActor's coordinate put it; a half-pixel quad
// lands on either side by rounding), a pixel up and right: the mapper's quad sits a pixel left
// of and below vtkTextActor's, whose pictures the baselines hold.
void place(vtkActor2D* label, double x, double y) {
    label->SetPosition(std::floor(x + 0.5) + 1, std::floor(y + 0.5) + 1);
}

// A label: the mapper draws `s` into a texture once, and the actor places it, so that moving a
// label (a colour bar's tick under a new range) does not draw its text again.
vtkSmartPointer<vtkActor2D> text(const TextItem& item) {
    vtkNew<vtkTextMapper> mapper;
    mapper->SetInput(item.text.c_str());
    vtkTextProperty* p = mapper->GetTextProperty();
    applyFont(p, item.size);
    p->SetColor(kInk[0], kInk[1], kInk[2]);
    p->SetOrientation(item.upright ? 90 : 0);
    if (item.halo) { // the raster painter's pale box: white at three quarters
        p->SetBackgroundColor(1, 1, 1);
        p->SetBackgroundOpacity(0.75);
    }
    const Align h = item.h;
    const VAlign v = item.v;
    if (h == Align::Left) p->SetJustificationToLeft();
    if (h == Align::Centre) p->SetJustificationToCentered();
    if (h == Align::Right) p->SetJustificationToRight();
    if (v == VAlign::Bottom) p->SetVerticalJustificationToBottom();
    if (v == VAlign::Centre) p->SetVerticalJustificationToCentered();
    if (v == VAlign::Top) p->SetVerticalJustificationToTop();
    auto t = vtkSmartPointer<vtkActor2D>::New();
    t->SetMapper(mapper);
    place(t, item.x, item.y);
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

vtkActor2D* ImageAnnotations::label(Group& g, const TextItem& t) {
    // The key: the text and its style; a role (the title) instead of the text, for a label whose
    // text changes at every step but whose actor, mapper and texture can stay.
    std::string key = t.role.empty() ? t.text : '\x1e' + t.role;
    key += '\x1f' + std::to_string(t.size) + ' ' + std::to_string(int(t.h)) + ' ' + std::to_string(int(t.v)) +
           ' ' + std::to_string(t.upright);
    vtkActor2D* a = nullptr;
    if (auto it = spare_.find(key); it != spare_.end()) { // in the renderer still, texture and all
        a = it->second;
        spare_.erase(it);
        place(a, t.x, t.y);
        if (!t.role.empty() && t.text != mapperOf(a)->GetInput()) {
            mapperOf(a)->SetInput(t.text.c_str()); // drawn again, into the same texture
            ++labelsDrawn_;
        }
    } else {
        vtkSmartPointer<vtkActor2D> made = text(t);
        a = made;
        a->Register(nullptr);
        renderer_->AddViewProp(a);
        ++labelsDrawn_;
    }
    if (t.maxWidth > 0) { // shortened with "…" when it would run past maxWidth
        const int dpi = renderer_->GetVTKWindow() ? renderer_->GetVTKWindow()->GetDPI() : 72;
        if (const std::string shown = elided(t.text, a, t.maxWidth, dpi); shown != t.text)
            mapperOf(a)->SetInput(shown.c_str());
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
    clearCoast();
    clear(axes_);
    clear(bar_);
    clear(title_);
    dropSpare();
    axesDrawn_.reset();
    barDrawn_.reset();
    titleDrawn_.reset();
}

void ImageAnnotations::clearCoast() {
    for (vtkActor2D** a : {&coast_, &contours_})
        if (*a) {
            if (plot_) plot_->RemoveViewProp(*a);
            (*a)->UnRegister(nullptr);
            *a = nullptr;
        }
    for (std::vector<vtkActor2D*>* group : {&overFrame_, &vectors_}) {
        for (vtkActor2D* a : *group) {
            if (plot_) plot_->RemoveViewProp(a);
            a->UnRegister(nullptr);
        }
        group->clear();
    }
    for (vtkActor2D* a : beyondMap_) {
        if (over_) over_->RemoveViewProp(a);
        a->UnRegister(nullptr);
    }
    beyondMap_.clear();
    coastDrawn_.reset();
}

void ImageAnnotations::buildCoast(vtkRenderer* plot, vtkRenderer* over, const AnnotationPlan& plan) {
    if (plot != plot_ || over != over_) {
        clearCoast();
        plot_ = plot;
        over_ = over;
    }
    const PixelRect& r = plan.layout.plot;
    const CoastDrawn drawing{plan.coast, plan.contours,      plan.vectors,
                             r,          plan.contourColour, plan.contourWidth};
    if (coastDrawn_ == drawing) return;
    clearCoast();
    coastDrawn_ = drawing;
    if (over_)
        for (const TextItem& t : plan.beyondMap) { // in window pixels
            vtkSmartPointer<vtkActor2D> a = text(t);
            a->Register(nullptr);
            over_->AddViewProp(a);
            beyondMap_.push_back(a);
        }
    if (!plot_) return;
    // Lines in the plot renderer's viewport: pixels from the plot's lower left corner. The
    // isolines first, under the coastlines.
    auto linesActor = [&](const std::vector<PixelPolyline>& polylines, const double(&colour)[3], double width,
                          double opacity, bool filled = false) {
        vtkNew<vtkPoints> points;
        vtkNew<vtkCellArray> lines;
        for (const PixelPolyline& l : polylines) {
            // A filled outline's last point repeats its first: a polygon closes itself.
            const auto n = static_cast<vtkIdType>(l.xy.size() / 2) - (filled ? 1 : 0);
            lines->InsertNextCell(n);
            for (vtkIdType i = 0; i < n; ++i)
                lines->InsertCellPoint(
                    points->InsertNextPoint(l.xy[2 * i] - r.x0, l.xy[2 * i + 1] - r.y0, 0));
        }
        vtkNew<vtkPolyData> pd;
        pd->SetPoints(points);
        if (filled)
            pd->SetPolys(lines);
        else
            pd->SetLines(lines);
        vtkNew<vtkPolyDataMapper2D> mapper;
        mapper->SetInputData(pd);
        vtkActor2D* a = vtkActor2D::New();
        a->SetMapper(mapper);
        a->GetProperty()->SetColor(colour[0], colour[1], colour[2]);
        a->GetProperty()->SetLineWidth(static_cast<float>(width));
        a->GetProperty()->SetOpacity(opacity);
        plot_->AddViewProp(a);
        return a;
    };
    if (plan.contours && !plan.contours->empty()) {
        const Rgba8& c = plan.contourColour;
        const double ink[3] = {c.r / 255.0, c.g / 255.0, c.b / 255.0};
        contours_ = linesActor(*plan.contours, ink, plan.contourWidth, c.a / 255.0);
    }
    if (plan.vectors)
        for (const InkLines& g : *plan.vectors) {
            const double ink[3] = {g.colour.r / 255.0, g.colour.g / 255.0, g.colour.b / 255.0};
            vectors_.push_back(linesActor(g.lines, ink, g.width, g.colour.a / 255.0, g.filled));
        }
    if (plan.coast && !plan.coast->empty()) coast_ = linesActor(*plan.coast, kInk, plan.lineWidth, 1);
    // The labels on their halos over the lines, as the raster painter has them.
    for (TextItem t : plan.overFrame) { // in the plot's pixels, from its lower left corner
        t.x -= r.x0;
        t.y -= r.y0;
        vtkSmartPointer<vtkActor2D> a = text(t);
        a->Register(nullptr);
        plot_->AddViewProp(a);
        overFrame_.push_back(a);
    }
}

void ImageAnnotations::build(vtkRenderer* back, vtkRenderer* plot, vtkRenderer* over,
                             const AnnotationPlan& plan) {
    if (back != renderer_) {
        clear();
        renderer_ = back;
    }
    buildCoast(plot, over, plan);
    rebuilt_ = labelsDrawn_ = 0;
    auto update = [&](Group& g, std::optional<Drawn>& drawn, const InkGroup& ink, const ColourBarFill* fill) {
        Drawn d{plan.layout, plan.lineWidth, ink, fill ? *fill : ColourBarFill{}};
        if (d == drawn) return;
        clear(g);
        if (fill) buildBarFill(g, *fill);
        buildInk(g, ink, plan.lineWidth);
        drawn = std::move(d);
        ++rebuilt_;
    };
    update(axes_, axesDrawn_, plan.axes, nullptr);
    update(bar_, barDrawn_, plan.bar, &plan.barFill);
    update(title_, titleDrawn_, plan.title, nullptr);
    dropSpare();
}

void ImageAnnotations::buildInk(Group& g, const InkGroup& ink, double lineWidth) {
    for (const TextItem& t : ink.texts) label(g, t);
    if (!ink.boxes.empty() || !ink.lines.empty()) add(g, inkActor(ink, lineWidth));
}

void ImageAnnotations::buildBarFill(Group& g, const ColourBarFill& fill) {
    // One cell per LUT entry, low at the bottom, exactly the map's colours; the triangles in the
    // under and over colours; the missing swatch in the NaN colour.
    const ColourBarContent& bar = fill.content;
    if (bar.table.empty()) return;
    const ColourBarPlan& plan = fill.geometry;
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
    auto triangle = [&](const Triangle& t, const Rgba8& col) {
        vtkIdType ids[3];
        for (int k = 0; k < 3; ++k) ids[k] = pts->InsertNextPoint(t.xy[2 * k], t.xy[2 * k + 1], 0);
        cells->InsertNextCell(3, ids);
        colours->InsertNextTuple4(col.r, col.g, col.b, 255);
    };
    if (plan.under) triangle(*plan.under, bar.under);
    if (plan.over) triangle(*plan.over, bar.over);
    if (plan.missing && bar.missing) {
        const PixelRect& m = *plan.missing;
        vtkIdType ids[4];
        ids[0] = pts->InsertNextPoint(m.x0, m.y0, 0);
        ids[1] = pts->InsertNextPoint(m.x1, m.y0, 0);
        ids[2] = pts->InsertNextPoint(m.x1, m.y1, 0);
        ids[3] = pts->InsertNextPoint(m.x0, m.y1, 0);
        cells->InsertNextCell(4, ids);
        colours->InsertNextTuple4(bar.missing->r, bar.missing->g, bar.missing->b, 255);
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
}

} // namespace strata::detail
