#include "image_content.h"

#include <limits>

#include "strata/core/error.h"
#include "strata/core/ops.h"
#include "strata/render/colormaps.h"
#include "strata/render/frame_labels.h"

namespace strata::detail {
namespace {

// Whether two axes with the same edges get the same ticks, labels and title.
bool drawsAlike(const AxisGrid& a, const AxisGrid& b) {
    auto units = [](const AxisGrid& g) {
        return g.coordinate ? g.coordinate->attrs.text("units").value_or("") : std::string();
    };
    auto calendar = [](const AxisGrid& g) { return g.time ? static_cast<int>(g.time->calendar) : -1; };
    return a.dim == b.dim && a.title == b.title && a.fromIndices == b.fromIndices && units(a) == units(b) &&
           calendar(a) == calendar(b);
}

} // namespace

bool ImageContent::setFrame(ImageFrame frame) {
    STRATA_EXPECTS(frame.frame.ndim() == 2, ValueError,
                   "the image view shows 2-D frames; '" + frame.frame.name() + "' has " +
                       std::to_string(frame.frame.ndim()) + " dims");
    AxisGrid y = axisGrid(frame.frame, 0), x = axisGrid(frame.frame, 1);
    const bool sameGrid = frame_ && x.edges == indexX_.edges && y.edges == indexY_.edges;
    const bool newAxes = !frame_ || !sameGrid || !drawsAlike(x, indexX_) || !drawsAlike(y, indexY_);
    // The curvilinear cells are made again only when the 2-D coordinates changed (not per step).
    auto lonLat = [](const DataArray& f) {
        std::vector<const Coordinate*> out;
        for (const Coordinate& c : f.coords())
            if (c.dims.size() >= 2) out.push_back(&c);
        return out;
    };
    bool sameCurv = frame_.has_value();
    if (sameCurv) {
        const auto a = lonLat(frame_->frame), b = lonLat(frame.frame);
        sameCurv = a.size() == b.size() && frame_->frame.dims() == frame.frame.dims();
        for (std::size_t k = 0; sameCurv && k < a.size(); ++k)
            sameCurv = a[k]->name == b[k]->name && a[k]->values == b[k]->values;
    }
    frame_ = std::move(frame);
    hasMissing_.reset();
    extremes_.reset();
    indexX_ = std::move(x);
    indexY_ = std::move(y);
    // The grids point into the frame's coordinates: take them from the stored copy.
    indexX_.coordinate = indexX_.fromIndices ? nullptr : frame_->frame.coords().find(indexX_.dim);
    indexY_.coordinate = indexY_.fromIndices ? nullptr : frame_->frame.coords().find(indexY_.dim);
    if (!sameCurv) {
        curv_.reset();
        locator_.reset();
        curvProblem_.clear();
        try {
            if (auto g = curvilinearGrid(frame_->frame)) {
                curv_ = std::make_shared<const CurvilinearGrid>(std::move(*g));
                locator_ = std::make_shared<const CellLocator>(*curv_);
            }
        } catch (const ValueError& e) { // drawn in index space, and the reason kept
            curvProblem_ = e.what();
        }
    }
    const bool changed = !sameGrid || !sameCurv;
    if (newAxes || !sameCurv) ++gridVersion_;
    if (changed) ++cellsVersion_;
    applyGrid();
    return changed;
}

void ImageContent::applyGrid() {
    if (!frame_) return;
    if (!curvilinearOn()) {
        x_ = indexX_;
        y_ = indexY_;
        regular_ = isUniform(x_.edges) && isUniform(y_.edges);
        return;
    }
    // Longitude across, latitude up, over the extent of the cells.
    const ViewWindow& e = curv_->extent;
    auto axis = [&](const std::string& name, double lo, double hi) {
        AxisGrid g;
        g.dim = name;
        g.coordinate = frame_->frame.coords().find(name);
        g.centres = {(lo + hi) / 2};
        g.edges = {lo, hi};
        g.title = axisTitle(name, g.coordinate->attrs, false);
        return g;
    };
    x_ = axis(curv_->lonName, e.x0, e.x1);
    y_ = axis(curv_->latName, e.y0, e.y1);
    regular_ = false;
}

bool ImageContent::setSettings(const ImageViewSettings& s) {
    const bool recolour = s.colouring != settings_.colouring || s.allowInterop != settings_.allowInterop;
    if (recolour)
        (void)colormapTable(s.colouring.colormap); // throws for an unknown map before anything changes
    const bool regrid = s.grid != settings_.grid;
    settings_ = s;
    if (regrid && curv_) {
        ++gridVersion_;
        ++cellsVersion_;
        applyGrid();
    }
    return recolour;
}

ViewWindow ImageContent::fullExtent() const { return frame_ ? fullWindow(x_, y_) : ViewWindow{}; }

ViewWindow ImageContent::window() const {
    if (settings_.window && settings_.window->x1 > settings_.window->x0 &&
        settings_.window->y1 > settings_.window->y0)
        return *settings_.window;
    return fullExtent();
}

ViewLayout ImageContent::layoutFor(int width, int height, double scale) const {
    const ViewWindow w = window();
    const bool keep = frame_ ? keepsAspect(settings_.aspect, x_, y_) : true;
    CellCounts cells;
    if (frame_ && regular_ && w == fullExtent()) cells = {x_.size(), y_.size()};
    return computeLayout(width, height, scale, w, keep, cells);
}

Pick ImageContent::pick(const ViewLayout& layout, double px, double py) const {
    if (!frame_) return {};
    const ViewTransform t(layout.plot, window());
    if (!curvilinearOn()) return pickCell(t, x_, y_, px, py);
    // The cell whose quadrilateral holds the point's longitude/latitude.
    Pick p;
    p.x = t.dataX(px);
    p.y = t.dataY(py);
    if (!t.plot().contains(px, py)) return p;
    const std::int64_t k = locator_->find(p.x, p.y);
    if (k < 0) return p;
    p.inside = true;
    p.row = k / curv_->columns;
    p.column = k % curv_->columns;
    p.xCentre = curv_->lon[static_cast<std::size_t>(k)];
    p.yCentre = curv_->lat[static_cast<std::size_t>(k)];
    p.xLabel = indexX_.label(p.column);
    p.yLabel = indexY_.label(p.row);
    return p;
}

std::string ImageContent::title() const {
    if (!frame_) return {};
    return frame_->title.empty() ? frameTitle(frame_->frame) : frame_->title;
}

FrameValues ImageContent::frameValues() const {
    FrameValues v;
    if (!frame_) return v;
    // A frame on a device is not read back to find out (a step copies nothing to the host for
    // the colour bar beyond the range its labels need): a floating-point frame there may have
    // missing values, and may pass a fixed range at both ends, so the bar shows the swatch and
    // both triangles. A host frame is looked at.
    const DataArray& f = frame_->frame;
    const bool onHost = f.device().isHost();
    if (!hasMissing_) {
        bool missing = false;
        if (isFloating(f.dtype()) && f.size() > 0) {
            if (onHost) {
                const DataArray count = reduce(f, f.dims(), ReduceOp::Count, defaultStream(f.device()));
                missing = count.asHost().values<double>().at(0) < static_cast<double>(f.size());
            } else {
                missing = true;
            }
        }
        hasMissing_ = missing;
    }
    v.missing = *hasMissing_;
    if (settings_.colouring.range.mode == RangeMode::Fixed) {
        if (!extremes_)
            extremes_ = onHost               ? minmaxValues(f)
                        : frame_->frameRange ? *frame_->frameRange
                                             : MinMax{-std::numeric_limits<double>::infinity(),
                                                      std::numeric_limits<double>::infinity()};
        v.extremes = *extremes_;
    }
    return v;
}

std::string ImageContent::barTitle() const {
    return frame_ ? frame_->frame.attrs().text("units").value_or("") : std::string();
}

} // namespace strata::detail

namespace strata::detail {

AnnotationContent ImageContent::annotations(const ViewLayout& layout, std::vector<Rgba8> table,
                                            MinMax range) const {
    AnnotationContent c;
    c.layout = layout;
    c.window = window();
    if (frame_) {
        c.x = &x_;
        c.y = &y_;
    }
    c.bar = colourBarContent(settings_.colouring, std::move(table), range, frameValues());
    c.title = title();
    c.barTitle = barTitle();
    if (frame_ && settings_.coastlines && isLonLatView(x_, y_) && layout.plot.width() > 0) {
        try {
            const std::vector<CoastLevel>& levels = coastLevels();
            const int level = chooseCoastLevel(levels, (c.window.x1 - c.window.x0) / layout.plot.width());
            if (level >= 0) {
                const auto* lines = &levels[static_cast<std::size_t>(level)].lines;
                CoastKey key{lines, c.window, layout.plot};
                if (!coast_ || !(coastKey_ == key)) {
                    coast_ = std::make_shared<const std::vector<PixelPolyline>>(
                        planCoast(*lines, ViewTransform(layout.plot, c.window)));
                    coastKey_ = key;
                }
                c.coast = coast_;
            }
            coastProblem_.clear();
        } catch (const Error& e) { // the frame is drawn without them, and the reason kept
            coastProblem_ = e.what();
        }
    }
    return c;
}

} // namespace strata::detail
