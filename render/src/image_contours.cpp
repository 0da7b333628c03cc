// The image view's isolines (ImageViewSettings::contours): why none are drawn, and the lines,
// labels and dashes in window pixels through the axes, a curvilinear grid's centres or a map.
#include <algorithm>
#include <cmath>

#include "coast_plan.h"
#include "contour_labels.h"
#include "image_content.h"
#include "index_space.h"
#include "map_plan.h"
#include "strata/core/contour.h"
#include "strata/core/error.h"
#include "strata/core/flow.h"
#include "strata/core/format.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/render/projection.h"
#include "strata/render/sphere_cells.h"

namespace strata {

std::string contourFrameProblem(const DataArray& frame, const DataArray& contours) {
    // A map of sphere cells (HEALPix, a mesh's faces or nodes) is a 1-D frame along them, and
    // another variable along the same cells has its isolines traced in the same map.
    const bool cellsAlike = frame.ndim() == 1 && contours.ndim() == 1;
    if (contours.ndim() != 2 && !cellsAlike)
        return "the contour variable " + describeGrid(contours) + " is not a " +
               std::to_string(frame.ndim()) + "-D frame like " + describeGrid(frame);
    if (sameGrid(frame, contours)) return {};
    return "the contour variable " + describeGrid(contours) + " is on another grid than " +
           describeGrid(frame) + " (its dims, sizes or coordinate values differ)";
}

std::shared_ptr<const TracedIsolines> traceIsolines(const DataArray& frame, const ContourSpec& spec,
                                                    std::optional<MinMax> range,
                                                    std::optional<MinMax> extremes) {
    if (frame.ndim() != 2 || !frame.isLoaded()) return nullptr;
    auto t = std::make_shared<TracedIsolines>();
    t->extremes = extremes ? *extremes : minmaxValues(frame);
    const auto [lo, hi] = t->extremes;
    if (!(lo < hi)) return nullptr; // no values, or one: no isolines (the view says why)
    const MinMax r = range.value_or(t->extremes);
    t->levels = contourLevels(spec, r.first, r.second);
    if (t->levels.empty()) return nullptr;
    // The seam as ImageContent finds it for the frame's own axes.
    t->wrapX = detail::wholeTurn(axisGrid(frame, 1), axisGrid(frame, 0));
    t->lines = isolines(frame, t->levels, t->wrapX);
    return t;
}

std::size_t bytesOf(const TracedIsolines& t) {
    std::size_t n = sizeof(t) + t.levels.size() * sizeof(double);
    for (const Isoline& l : t.lines) n += sizeof(l) + l.xy.size() * sizeof(double);
    return n;
}

} // namespace strata

namespace strata::detail {

std::string ImageContent::contourProblem() const {
    std::string why = contourBlocker();
    return why.empty() ? contourError_ : why;
}

std::string ImageContent::contourBlocker() const {
    if (!settings_.contours || !frame_) return {};
    const DataArray& f = frame_->contourFrame ? *frame_->contourFrame : frame_->frame;
    if (!f.isLoaded()) return "contours are drawn for a frame in memory; this one is not loaded";
    if (frame_->contourFrame)
        if (std::string why = contourFrameProblem(frame_->frame, *frame_->contourFrame); !why.empty())
            return why;
    if (!contourRange_) contourRange_ = frame_->isolines ? frame_->isolines->extremes : minmaxValues(f);
    const auto [lo, hi] = *contourRange_;
    if (!(lo <= hi)) return "'" + f.name() + "' has no values here to draw isolines of";
    if (lo == hi) return "'" + f.name() + "' is " + formatNumber(lo) + " everywhere here: it has no isolines";
    return {};
}

namespace {

// A row of sphere cells' values as its map shows them (the map's pixels, NaN off the cells):
// isolines on a HEALPix grid or a mesh are traced in the map itself.
DataArray cellsImage(const Reprojection& map, const DataArray& row) {
    STRATA_EXPECTS(row.dtype() == DType::Float32 || row.dtype() == DType::Float64, ValueError,
                   "isolines of '" + row.name() + "' on " + map.sourceCells()->describe() +
                       " need float values, not " + std::string(name(row.dtype())));
    const Stream s = row.device().isHost() ? Stream::host() : defaultStream(row.device());
    const std::uint64_t nan = row.dtype() == DType::Float64 ? 0x7ff8000000000000ull : 0x7fc00000u;
    DataArray image = map.apply(map.interpolates() ? map.resample(row, s) : row, nan, s);
    s.synchronize();
    return image;
}

// Lines in a map image's index space (x the column, y the row from the bottom) in window pixels.
std::vector<PixelPolyline> mapImageLines(const Reprojection& map, const std::vector<Isoline>& lines,
                                         const ViewTransform& t) {
    const MapExtent e = map.extent();
    const double dx = (e.x1 - e.x0) / map.width(), dy = (e.y1 - e.y0) / map.height();
    std::vector<PixelPolyline> out;
    for (const Isoline& l : lines) {
        PixelPolyline p;
        for (std::size_t k = 0; k + 1 < l.xy.size(); k += 2) {
            p.xy.push_back(t.pixelX(e.x0 + (l.xy[k] + 0.5) * dx));
            p.xy.push_back(t.pixelY(e.y0 + (l.xy[k + 1] + 0.5) * dy));
        }
        out.push_back(std::move(p));
    }
    return out;
}

// `line` as dashes `on` pixels long with gaps of `off`, for isolines below zero.
void dashed(const PixelPolyline& line, double on, double off, std::vector<PixelPolyline>& out) {
    PixelPolyline dash;
    bool drawing = true;
    double left = on; // of the current dash or gap
    for (std::size_t k = 0; k + 3 < line.xy.size(); k += 2) {
        double x0 = line.xy[k], y0 = line.xy[k + 1];
        const double x1 = line.xy[k + 2], y1 = line.xy[k + 3];
        double step = std::hypot(x1 - x0, y1 - y0);
        if (drawing && dash.xy.empty()) dash.xy = {x0, y0};
        while (step > left) {
            const double t = left / step;
            x0 += t * (x1 - x0);
            y0 += t * (y1 - y0);
            step -= left;
            if (drawing) {
                dash.xy.insert(dash.xy.end(), {x0, y0});
                out.push_back(std::move(dash));
                dash.xy.clear();
            } else {
                dash.xy = {x0, y0};
            }
            drawing = !drawing;
            left = drawing ? on : off;
        }
        left -= step;
        if (drawing) dash.xy.insert(dash.xy.end(), {x1, y1});
    }
    if (dash.xy.size() >= 4) out.push_back(std::move(dash));
}

} // namespace

std::shared_ptr<const std::vector<PixelPolyline>>
ImageContent::contourLines(const ViewLayout& layout, const ViewWindow& window, MinMax range) const {
    if (!settings_.contours || !frame_ || layout.plot.width() <= 0 || !contourBlocker().empty()) {
        contourLabels_.clear();
        return nullptr;
    }
    // Another variable's isolines: at levels in its own range.
    const DataArray& f = frame_->contourFrame ? *frame_->contourFrame : frame_->frame;
    if (frame_->contourFrame) range = *contourRange_; // read by contourProblem()
    const std::vector<double> levels = contourLevels(*settings_.contours, range.first, range.second);
    ContourKey key{frameVersion_,
                   cellsVersion_,
                   map_.get(),
                   levels,
                   window,
                   layout.plot,
                   layout.scale,
                   settings_.contourLabels,
                   settings_.contourDashNegative};
    if (contours_ && contourKey_ == key) return contourError_.empty() ? contours_ : nullptr;
    contourError_.clear();
    const ViewTransform t(layout.plot, window);
    const CurvilinearGrid* curv = curvilinearOn() ? curv_.get() : nullptr;
    // Cells of the sphere (one row of them): traced in the map's own pixels.
    const bool onCells = map_ && map_->sourceCells() && f.ndim() == 2 && f.dims()[0] == kCellRowDim;
    // A global longitude: lines go over the seam (their longitudes are made continuous below).
    const bool turn = !curv && !onCells && wholeTurn(map_ ? srcX_ : x_, map_ ? srcY_ : y_);
    std::vector<Isoline> found;
    const std::vector<Isoline>* traced = &found;
    const TracedIsolines* ahead = frame_->isolines.get();
    try {
        if (ahead && !onCells && ahead->levels == levels && ahead->wrapX == turn)
            traced = &ahead->lines; // traced off the GUI thread (the window's worker)
        else if (!levels.empty())
            found = isolines(onCells ? cellsImage(*map_, f) : f, levels, turn);
    } catch (const Error& e) { // too many crossings, or the device failed: said, and none drawn
        contourError_ = e.what();
        contourLabels_.clear();
        contours_ = std::make_shared<const std::vector<PixelPolyline>>();
        contourKey_ = std::move(key);
        return nullptr;
    }
    // Each isoline in pixels, in one piece or several (cut at a map's seam): with its level.
    std::vector<const std::vector<double>*> inIndex;
    for (const Isoline& l : *traced) inIndex.push_back(&l.xy);
    std::vector<std::size_t> owner;
    std::vector<PixelPolyline> pieces;
    if (onCells) {
        pieces = mapImageLines(*map_, *traced, t);
        for (std::size_t k = 0; k < traced->size(); ++k) owner.push_back(k);
    } else {
        pieces = pixelLines(inIndex, t, turn, owner);
    }
    std::vector<std::size_t> pieceLevel;
    for (std::size_t k : owner)
        pieceLevel.push_back(
            std::size_t(std::lower_bound(levels.begin(), levels.end(), (*traced)[k].level) - levels.begin()));
    contourLabels_.clear();
    if (settings_.contourLabels) {
        const std::vector<std::string> texts = contourLabelTexts(levels);
        std::vector<LabelledLine> labelled;
        for (std::size_t k = 0; k < pieces.size(); ++k)
            labelled.push_back({&pieces[k], &texts[pieceLevel[k]]});
        contourLabels_ = placeContourLabels(std::move(labelled), layout.plot,
                                            0.85 * kLabelSize * layout.scale, 300 * layout.scale);
    }
    auto lines = std::make_shared<std::vector<PixelPolyline>>();
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        if (settings_.contourDashNegative && levels[pieceLevel[k]] < 0)
            dashed(pieces[k], 6 * layout.scale, 4 * layout.scale, *lines);
        else
            lines->push_back(std::move(pieces[k]));
    }
    contours_ = std::move(lines);
    contourKey_ = std::move(key);
    return contours_;
}

std::vector<PixelPolyline> ImageContent::pixelLines(const std::vector<const std::vector<double>*>& lines,
                                                    const ViewTransform& t, bool turn,
                                                    std::vector<std::size_t>& owner) const {
    std::vector<PixelPolyline> pieces;
    owner.clear();
    const CurvilinearGrid* curv = curvilinearOn() ? curv_.get() : nullptr;
    if (map_ || curv || turn) {
        // Through longitude and latitude: a curvilinear grid's own, the axes' of a lon/lat grid,
        // or the inverse of the frame's grid mapping; then onto the map, or the lon/lat plane.
        std::unique_ptr<NativeMap> source;
        if (map_ && map_->sourceCrs() && !curv) source = std::make_unique<NativeMap>(*map_->sourceCrs());
        for (std::size_t n = 0; n < lines.size(); ++n) {
            const std::vector<double>& xy = *lines[n];
            LonLatLine ll;
            ll.lon.reserve(xy.size() / 2);
            ll.lat.reserve(xy.size() / 2);
            for (std::size_t k = 0; k + 1 < xy.size(); k += 2) {
                double lon = 0, lat = 0;
                if (curv) {
                    lonLatAt(*curv, xy[k], xy[k + 1], lon, lat);
                } else if (source) {
                    if (!source->inverse(along(srcX_.centres, xy[k]), along(srcY_.centres, xy[k + 1]), lon,
                                         lat))
                        lon = lat = NAN; // off the globe: the line is cut there
                } else {
                    lon = along(srcX_.centres, xy[k]);
                    lat = along(srcY_.centres, xy[k + 1]);
                }
                // Continuous along the line: a step over the seam (x from 0 to nx - 1) is not a turn.
                if (turn && !ll.lon.empty() && std::fabs(lon - ll.lon.back()) > 180)
                    lon = ll.lon.back() + std::remainder(lon - ll.lon.back(), 360.0);
                ll.lon.push_back(lon);
                ll.lat.push_back(lat);
            }
            const auto [lon0, lon1] = std::minmax_element(ll.lon.begin(), ll.lon.end());
            const auto [lat0, lat1] = std::minmax_element(ll.lat.begin(), ll.lat.end());
            if (lon0 == ll.lon.end()) continue;
            ll.lonMin = *lon0, ll.lonMax = *lon1, ll.latMin = *lat0, ll.latMax = *lat1;
            std::vector<LonLatLine> one; // moved in (a list's elements would be copied)
            one.push_back(std::move(ll));
            for (PixelPolyline& p :
                 map_ ? planProjectedLines(one, map_->projection().params(), t) : planCoast(one, t, 0.25)) {
                pieces.push_back(std::move(p));
                owner.push_back(n);
            }
        }
    } else if (x_.centres.size() >= 2 && y_.centres.size() >= 2) {
        for (std::size_t n = 0; n < lines.size(); ++n) {
            const std::vector<double>& xy = *lines[n];
            PixelPolyline p;
            p.xy.reserve(xy.size());
            for (std::size_t k = 0; k + 1 < xy.size(); k += 2) {
                p.xy.push_back(t.pixelX(along(x_.centres, xy[k])));
                p.xy.push_back(t.pixelY(along(y_.centres, xy[k + 1])));
            }
            pieces.push_back(std::move(p));
            owner.push_back(n);
        }
    }
    return pieces;
}

} // namespace strata::detail
