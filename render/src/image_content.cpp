#include "image_content.h"

#include <functional>

#include <limits>

#include "coast_plan.h"
#include "map_extent.h"
#include "map_plan.h"
#include "strata/core/error.h"
#include "strata/core/ops.h"
#include "strata/render/colormaps.h"
#include "strata/render/frame_labels.h"
#include "strata/render/sphere_cells.h"

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

// The axis of a row of sphere cells: its ends only, as indices (a zoom 10 grid's 12.6 M centres
// and edges would be made and compared at every step for nothing: the cells are drawn by their
// map, and the probe reads the frame's coordinate).
AxisGrid cellsAxis(const SphereCells& cells) {
    AxisGrid g;
    g.dim = cells.dim();
    g.fromIndices = true;
    g.centres = {(double(cells.size()) - 1) / 2};
    g.edges = {-0.5, double(cells.size()) - 0.5};
    g.title = cells.dim();
    return g;
}

} // namespace

bool ImageContent::setFrame(ImageFrame frame) {
    if (frame.cells && frame.frame.ndim() == 1) {
        frame.frame = cellsAsRow(frame.frame, *frame.cells); // one row of cells, drawn through its map
        // Another variable's isolines along the same cells: a row of them too (one along other
        // cells stays as it is, and contourProblem says why it is not drawn).
        if (frame.contourFrame && frame.contourFrame->ndim() == 1 &&
            isAlong(*frame.contourFrame, *frame.cells) && frame.contourFrame->isLoaded())
            frame.contourFrame = cellsAsRow(*frame.contourFrame, *frame.cells);
    } else
        frame.cells.reset(); // rows and columns
    STRATA_EXPECTS(frame.frame.ndim() == 2, ValueError,
                   "the image view shows 2-D frames; '" + frame.frame.name() + "' has " +
                       std::to_string(frame.frame.ndim()) + " dims");
    AxisGrid y = axisGrid(frame.frame, 0),
             x = frame.cells ? cellsAxis(*frame.cells) : axisGrid(frame.frame, 1);
    const bool first = !frame_;
    const bool sameGrid = frame_ && x.edges == srcX_.edges && y.edges == srcY_.edges;
    const bool newAxes = !frame_ || !sameGrid || !drawsAlike(x, srcX_) || !drawsAlike(y, srcY_);
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
    // The grids shown now point into the frame they came from: it lives until they are replaced
    // (placeGrids compares them with the new ones), or a step between two frames of one grid
    // reads the coordinates of a frame already freed.
    const std::optional<ImageFrame> previous = std::move(frame_);
    frame_ = std::move(frame);
    ++frameVersion_;
    contourRange_.reset();
    contourError_.clear();
    vectorError_.clear();
    hasMissing_.reset();
    extremes_.reset();
    // The grids point into the frame's coordinates: take them from the stored copy.
    x.coordinate = x.fromIndices ? nullptr : frame_->frame.coords().find(x.dim);
    y.coordinate = y.fromIndices ? nullptr : frame_->frame.coords().find(y.dim);
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
    const bool placed = applyGrid(std::move(x), std::move(y));
    return changed || placed || first;
}

bool ImageContent::applyGrid(AxisGrid x, AxisGrid y) {
    if (!curvilinearOn()) return placeGrids(std::move(x), std::move(y));
    if (!settings_.projection.empty()) { // on a map it is resampled like any other frame
        const bool placed = placeGrids(x, y);
        if (map_) return placed; // else (the map refused it) its cells in lon/lat, below
    }
    srcX_ = std::move(x);
    srcY_ = std::move(y);
    // Cells in longitude/latitude are not resampled onto a map (yet): said, and drawn unprojected.
    map_.reset();
    projectionProblem_.clear();
    if (!settings_.projection.empty())
        projectionProblem_ =
            "the projection " + settings_.projection + " is not applied to a curvilinear grid";
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
    AxisGrid dx = axis(curv_->lonName, e.x0, e.x1), dy = axis(curv_->latName, e.y0, e.y1);
    const bool same = dx.edges == x_.edges && dy.edges == y_.edges;
    x_ = std::move(dx);
    y_ = std::move(dy);
    regular_ = false;
    return !same;
}

bool ImageContent::placeGrids(AxisGrid x, AxisGrid y) {
    srcX_ = std::move(x);
    srcY_ = std::move(y);
    AxisGrid dx = srcX_, dy = srcY_;
    projectionProblem_.clear();
    // Sphere cells are always on a map: the plain longitude/latitude one when none is chosen.
    const std::string name =
        settings_.projection.empty() && frame_ && frame_->cells ? "PlateCarree" : settings_.projection;
    std::shared_ptr<const Reprojection> map;
    if (!name.empty()) {
        try {
            // A grid mapping's frame (its own x/y) is reprojected through its CRS.
            // A curvilinear grid (2-D longitude/latitude, shown as cells) through its cells.
            // Sphere cells (HEALPix, a mesh) through their own index of the map's pixels.
            const CurvilinearGrid* curv = curvilinearOn() ? curv_.get() : nullptr;
            const std::shared_ptr<const SphereCells> cells = frame_ ? frame_->cells : nullptr;
            const std::optional<MapCrs> crs =
                !curv && !cells && frame_ && frame_->crs && !isLonLatView(srcX_, srcY_) ? frame_->crs
                                                                                        : std::nullopt;
            if (!isLonLatView(srcX_, srcY_) && !crs && !curv && !cells)
                STRATA_FAIL(ValueError, "the projection " + name + " needs x longitude and y latitude");
            const Projection p = Projection::byName(name);
            // The same cells object (the frame service's, kept per variable) at every step: a
            // subset's cell list is compared only when a new one comes.
            const SphereCells* had = map_ ? map_->sourceCells() : nullptr;
            const bool sameCells = map_ && (had == cells.get() || (had && cells && had->sameAs(*cells)));
            const bool same = map_ && map_->projection() == p && map_->lonEdges() == srcX_.edges &&
                              map_->latEdges() == srcY_.edges && map_->sourceCrs() == crs &&
                              map_->sourceGrid() == curv && sameCells;
            if (same) {
                map = map_;
            } else {
                // The map image: 4/3 of a pixel a longitude cell, 720 to 1920 across, its height
                // from the projection's aspect; a grid mapping's, over its outline on the map.
                const MapExtent e = crs     ? regionOnMap(p, *crs, srcX_.edges, srcY_.edges)
                                    : curv  ? cellsOnMap(p, *curv)
                                    : cells ? sphereCellsOnMap(p, *cells)
                                            : p.extent();
                // Sphere cells: as many pixels across as the cells would need at a pixel each
                // around the equator's 360° (√ of the count, doubled), within the same bounds.
                const std::int64_t across =
                    cells ? 2 * static_cast<std::int64_t>(std::sqrt(double(cells->size())))
                          : srcX_.size() * 4 / 3;
                const int w = static_cast<int>(std::clamp<std::int64_t>(across, 720, 1920));
                const int h = std::max(1, static_cast<int>(std::lround(w * e.height() / e.width())));
                if (cells)
                    map = std::make_shared<const Reprojection>(p, cells, e, w, h);
                else if (curv)
                    map = std::make_shared<const Reprojection>(p, curv_, e, w, h);
                else if (crs)
                    map =
                        std::make_shared<const Reprojection>(p, *crs, srcX_.centres, srcY_.centres, e, w, h);
                else
                    map = std::make_shared<const Reprojection>(p, srcX_.centres, srcY_.centres, e, w, h);
            }
            auto axis = [](Coordinate& c, const std::string& dim, std::int64_t n, double v0, double v1) {
                AxisGrid g;
                g.dim = dim;
                for (std::int64_t i = 0; i <= n; ++i) g.edges.push_back(v0 + (v1 - v0) * i / n);
                for (std::int64_t i = 0; i < n; ++i) g.centres.push_back((g.edges[i] + g.edges[i + 1]) / 2);
                c = Coordinate{};
                c.name = dim;
                c.dims = {dim};
                c.shape = {n};
                c.values = g.centres;
                c.attrs.set({"units", DType::Char, std::string("m")});
                g.coordinate = &c;
                g.title = "map " + dim + " [m]";
                return g;
            };
            const MapExtent e = map->extent();
            dx = axis(mapX_, "x", map->width(), e.x0, e.x1);
            dy = axis(mapY_, "y", map->height(), e.y0, e.y1);
        } catch (const Error& e) { // drawn unprojected, and the reason kept
            projectionProblem_ = e.what();
            map.reset();
        }
    }
    const bool sameGrid = dx.edges == x_.edges && dy.edges == y_.edges && map == map_;
    if (!sameGrid || !drawsAlike(dx, x_) || !drawsAlike(dy, y_)) ++gridVersion_;
    map_ = std::move(map);
    x_ = std::move(dx);
    y_ = std::move(dy);
    if (!sameGrid) regular_ = isUniform(x_.edges) && isUniform(y_.edges);
    return !sameGrid;
}

bool ImageContent::setSettings(const ImageViewSettings& s) {
    const bool recolour = s.colouring != settings_.colouring || s.allowInterop != settings_.allowInterop ||
                          fillBands(s) != fillBands(settings_); // filled contours band the colours
    if (recolour)
        (void)colormapTable(s.colouring.colormap); // throws for an unknown map before anything changes
    const bool regrid = s.grid != settings_.grid && curv_;
    const bool reproject = s.projection != settings_.projection && frame_;
    settings_ = s;
    if (regrid || reproject) {
        if (regrid) {
            ++gridVersion_;
            ++cellsVersion_;
        }
        (void)applyGrid(srcX_, srcY_); // copies: the frame's grids, their coordinates kept
        return true;
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
    if (curvilinearOn() && !map_) {
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
        p.xLabel = srcX_.label(p.column);
        p.yLabel = srcY_.label(p.row);
        return p;
    }
    if (!map_) return pickCell(t, x_, y_, px, py);
    // On a map: the pixel's longitude and latitude (the projection's inverse) and the frame's
    // cell there.
    Pick p;
    const PixelRect& r = layout.plot;
    if (!(px >= r.x0 && px < r.x1 && py >= r.y0 && py < r.y1)) return p;
    double lon = 0, lat = 0;
    if (!projInverse(map_->projection().params(), t.dataX(px), t.dataY(py), lon, lat)) return p;
    std::int64_t row = 0, col = 0;
    if (!map_->sourceCellAt(lon, lat, row, col)) return p;
    p.inside = true;
    p.row = row;
    p.column = col;
    p.x = lon * (180 / M_PI);
    p.y = lat * (180 / M_PI);
    if (frame_->cells) { // the cell's index, or its value in the frame's coordinate along the cells
        const Coordinate* c = frame_->frame.coords().find(frame_->cells->dim());
        const bool along =
            c && c->dims.size() == 1 && std::int64_t(c->values.size()) == frame_->cells->size();
        p.xCentre = along ? c->values[std::size_t(col)] : double(col);
        p.xLabel = along ? c->label(col) : std::to_string(col);
        p.yLabel = "0";
        return p;
    }
    p.xCentre = srcX_.centres[static_cast<std::size_t>(col)];
    p.yCentre = srcY_.centres[static_cast<std::size_t>(row)];
    p.xLabel = srcX_.label(col);
    p.yLabel = srcY_.label(row);
    return p;
}

std::string ImageContent::title() const {
    if (!frame_) return {};
    return frame_->title.empty() ? frameTitle(frame_->frame) : frame_->title;
}

FrameValues ImageContent::frameValues() const {
    FrameValues v;
    if (!frame_) return v;
    // A frame on a device is asked there for its extremes and its count of values (24 bytes
    // back), so that its picture is its host copy's (triangles only where values pass a fixed
    // range, the missing swatch only where values are missing), unless the frame service knows
    // its range (FrameResult::frameRange): the window's steps copy nothing, and a floating-point
    // frame there may have missing values (the bar shows the swatch). A host frame is looked at.
    const DataArray& f = frame_->frame;
    const bool onHost = f.device().isHost();
    const bool rangeKnown = !onHost && frame_->frameRange.has_value();
    if (!hasMissing_) {
        bool missing = false;
        if (isFloating(f.dtype()) && f.size() > 0) {
            if (!rangeKnown) {
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
        if (!extremes_) extremes_ = rangeKnown ? *frame_->frameRange : minmaxValues(f);
        v.extremes = *extremes_;
    }
    return v;
}

std::string ImageContent::barTitle() const {
    return frame_ ? frame_->frame.attrs().text("units").value_or("") : std::string();
}

} // namespace strata::detail

namespace strata::detail {

void ImageContent::useMapLines(const CoastKey& key, AnnotationContent& c, const MapLinesPlan& plan) const {
    if (!coast_ || !(coastKey_ == key)) {
        auto [lines, graticule] = plan(ViewTransform(key.plot, key.window));
        lines.insert(lines.end(), graticule.lines.begin(), graticule.lines.end());
        coast_ = std::make_shared<const std::vector<PixelPolyline>>(std::move(lines));
        mapLabels_ = std::move(graticule.labels);
        coastKey_ = key;
    }
    c.coast = coast_;
    c.mapLabels = mapLabels_;
}

const std::vector<LonLatLine>* ImageContent::useCoast(double degreesPerPixel, const LonLatBox& box,
                                                      char finest) const {
    const std::vector<CoastLevel>& levels = coastLevels();
    CoastPick pick = pickCoast(levels, std::fabs(degreesPerPixel), box, finest);
    coastProblem_ = std::move(pick.problem);
    coastLines_ = std::move(pick.lines);
    if (pick.level < 0) {
        coastDrawn_ = {};
        return nullptr;
    }
    const CoastLevel& level = levels[static_cast<std::size_t>(pick.level)];
    coastDrawn_ = {level.resolution, level.path, describeCoastLevel(level)};
    return coastLines_.get();
}

AnnotationContent ImageContent::annotations(const ViewLayout& layout, std::vector<Rgba8> table,
                                            MinMax range) const {
    AnnotationContent c;
    c.layout = layout;
    c.window = window();
    if (frame_) {
        c.x = &x_;
        c.y = &y_;
    }
    // Without a table there is no bar to draw (coastlinesDrawn asks for the rest): the frame's
    // values are not looked at.
    const FrameValues values = table.empty() ? FrameValues{} : frameValues();
    c.bar = colourBarContent(settings_.colouring, std::move(table), range, values);
    c.title = title();
    c.barTitle = barTitle();
    coastDrawn_ = {}; // set again below where coastlines are drawn
    c.contours = contourLines(layout, c.window, range);
    c.contourLabels = contourLabels_;
    c.contourColour = settings_.contourColour;
    c.contourWidth = settings_.contourWidth;
    c.vectors = vectorGlyphs(layout, c.window);
    c.vectorLabels = vectorLabels_;
    if (frame_ && map_ && layout.plot.width() > 0) {
        c.map = true;
        c.x = c.y = nullptr;
        // The coastlines (when on) and the graticule, projected: planned again only when the
        // window, the plot or the map change. The lines are those of the bins the window's
        // longitude/latitude box meets, at the level its zoom asks for.
        const ProjParams& params = map_->projection().params();
        const std::vector<LonLatLine>* lines = nullptr;
        if (settings_.coastlines) {
            // Degrees a pixel at the map's centre, from its metres: R·π/180 metres a degree.
            const double metresPerPixel = (c.window.x1 - c.window.x0) / layout.plot.width();
            const LonLatBox box = visibleBox(c.window, [&](double x, double y, double& lon, double& lat) {
                if (!projInverse(params, x, y, lon, lat)) return false;
                lon /= M_PI / 180;
                lat /= M_PI / 180;
                return true;
            });
            lines = useCoast(metresPerPixel / (params.R * M_PI / 180), box, 'f');
        }
        // The graticule's labels go outside the map, in the view's margins: not in the title's
        // band above the plot, nor over the colour bar and its labels.
        LabelRoom room;
        room.area = PixelRect{0, 0, double(layout.width), layout.plot.y1};
        room.avoid = PixelRect{layout.colourBar.x0, 0, double(layout.width), double(layout.height)};
        useMapLines(CoastKey{lines, c.window, layout.plot, map_.get()}, c, [&](const ViewTransform& t) {
            return std::make_pair(lines ? planProjectedLines(*lines, params, t)
                                        : std::vector<PixelPolyline>{},
                                  planGraticule(params, t, kLabelSize * layout.scale, room));
        });
    } else if (frame_ && frame_->crs && settings_.coastlines && !curvilinearOn() && layout.plot.width() > 0) {
        // A map in the frame's own CRS: the coastlines and a graticule forward-projected into it.
        try {
            if (!native_ || !(native_->crs() == *frame_->crs)) {
                native_ = std::make_shared<const NativeMap>(*frame_->crs);
                nativeCoast_.clear();
                ++nativeVersion_;
            }
            const double unitsPerPixel = std::fabs(c.window.x1 - c.window.x0) / layout.plot.width();
            const std::vector<LonLatLine>* lines = nullptr;
            const LonLatBox box = visibleBox(c.window, [&](double x, double y, double& lon, double& lat) {
                return native_->inverse(x, y, lon, lat);
            });
            if (useCoast(unitsPerPixel * native_->degreesPerUnit(), box, 'f')) {
                if (nativeCoast_.size() > 4 && !nativeCoast_.count(coastLines_)) { // bounded
                    nativeCoast_.clear();
                    ++nativeVersion_; // a freed projection's address may come back
                }
                auto& projected = nativeCoast_[coastLines_];
                if (!projected)
                    projected =
                        std::make_shared<const std::vector<LonLatLine>>(native_->forward(*coastLines_));
                lines = projected.get();
            }
            useMapLines(CoastKey{lines, c.window, layout.plot, nullptr, nativeVersion_}, c,
                        [&](const ViewTransform& t) {
                            return std::make_pair(
                                lines ? planCoast(*lines, t, 0.5, false) : std::vector<PixelPolyline>{},
                                planNativeGraticule(*native_, t, kLabelSize * layout.scale));
                        });
        } catch (const Error& e) { // PROJ refused the CRS: the frame alone, and why
            coastProblem_ = e.what();
        }
    } else if (frame_ && settings_.coastlines && isLonLatView(x_, y_) && layout.plot.width() > 0) {
        // Only the bins in the window are read, at the level its zoom asks for.
        const LonLatBox box{c.window.x0, c.window.x1, c.window.y0, c.window.y1};
        if (const auto* lines = useCoast((c.window.x1 - c.window.x0) / layout.plot.width(), box, 'f')) {
            CoastKey key{lines, c.window, layout.plot, nullptr};
            if (!coast_ || !(coastKey_ == key)) {
                coast_ = std::make_shared<const std::vector<PixelPolyline>>(
                    planCoast(*lines, ViewTransform(layout.plot, c.window)));
                coastKey_ = key;
            }
            c.coast = coast_;
        }
    }
    return c;
}

} // namespace strata::detail
