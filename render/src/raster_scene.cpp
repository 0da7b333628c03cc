#include "raster_scene.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QPen>
#include <QPolygonF>
#include <QRegion>
#include <cmath>
#include <cstring>

#include "annotation_plan.h"
#include "curvilinear_raster.h"
#include "strata/core/error.h"
#include "strata/core/ops.h"
#include "strata/render/colormaps.h"
#include "strata/render/colour_range.h"

namespace strata::detail {
namespace {

const QColor kInk(26, 26, 26); // the GL scene's 0.1 grey

QFont font(double pixels) {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(std::max(1, static_cast<int>(std::lround(pixels))));
    return f;
}

// `s` placed at (x, y) (device pixels, origin top left) with the given alignment; `upright`
// turns it a quarter anticlockwise about that point.
void text(QPainter& p, const QString& s, double x, double y, double size, Align h, VAlign v,
          bool upright = false, bool halo = false) {
    if (s.isEmpty()) return;
    const QFont f = font(size);
    const QFontMetricsF m(f);
    const double w = m.horizontalAdvance(s), asc = m.ascent(), desc = m.descent();
    const double left = h == Align::Left ? 0 : h == Align::Centre ? -w / 2 : -w;
    const double base = v == VAlign::Top ? asc : v == VAlign::Centre ? (asc - desc) / 2 : -desc;
    p.save();
    p.setFont(f);
    p.setPen(kInk);
    p.translate(x, y);
    if (upright) p.rotate(-90);
    if (halo) p.fillRect(QRectF(left - 2, base - asc - 1, w + 4, asc + desc + 2), QColor(255, 255, 255, 191));
    p.drawText(QPointF(left, base), s);
    p.restore();
}

// A filled rectangle of whole pixels from window coordinates (origin bottom left).
void fillBox(QPainter& p, int height, const PixelRect& r, const QColor& c) {
    const int l = static_cast<int>(std::floor(std::min(r.x0, r.x1))),
              rt = static_cast<int>(std::ceil(std::max(r.x0, r.x1)));
    const int b = static_cast<int>(std::floor(std::min(r.y0, r.y1))),
              t = static_cast<int>(std::ceil(std::max(r.y0, r.y1)));
    p.fillRect(QRect(l, height - t, std::max(1, rt - l), std::max(1, t - b)), c);
}

} // namespace

void RasterScene::setFrame(ImageFrame frame) {
    STRATA_EXPECTS(frame.frame.device().isHost(), ValueError,
                   "the raster view draws frames on the host; '" + frame.frame.name() + "' is on " +
                       frame.frame.device().toString());
    content_.setFrame(std::move(frame));
    colourDirty_ = true;
}

void RasterScene::clearFrame() {
    content_.clearFrame();
    coloured_.reset();
    colourDirty_ = true;
}

void RasterScene::setSettings(const ImageViewSettings& s) {
    if (content_.setSettings(s)) colourDirty_ = true;
}

void RasterScene::colour() {
    const ImageFrame& f = *content_.frame();
    const Colouring& c = content_.settings().colouring;
    table_ = colormapTable(c.colormap, c.reversed);
    const std::optional<ContourSpec> bands = fillBands(content_.settings());
    // Bytes in the window's order are copied as they are; R, G, B, A converted as they are. A
    // frame coloured ahead has no bands.
    const Reprojection* map = content_.map();
    const bool interpolated = map && map->interpolates(); // the map's pixels coloured, not the nodes
    colouredAhead_ = f.coloured && !bands && !interpolated && colouredFor(*f.coloured, c, f.frame) &&
                     (f.coloured->order == PixelOrder::Rgba || f.coloured->order == kWindowPixelOrder);
    if (colouredAhead_) {
        coloured_ = f.coloured;
    } else if (interpolated) { // in the nodes' range
        std::optional<MinMax> nodes;
        if (needsFrameRange(c.range, f.variableRange.has_value())) nodes = minmaxValues(f.frame);
        coloured_ = std::make_shared<const ColouredFrame>(colourFrame(
            map->resample(f.frame, Stream::host()), c, f.variableRange, kWindowPixelOrder, bands, nodes));
    } else {
        coloured_ = std::make_shared<const ColouredFrame>(
            colourFrame(f.frame, c, f.variableRange, kWindowPixelOrder, bands));
    }
    if (bands) // the colour bar in the same bands
        table_ = bandedTable(table_, coloured_->range,
                             contourLevels(*bands, coloured_->range.first, coloured_->range.second));
    if (map) { // the colours resampled into the map, white off it
        auto projected = std::make_shared<ColouredFrame>(*coloured_);
        projected->rgba = map->apply(coloured_->rgba, kWhitePixel, Stream::host());
        coloured_ = std::move(projected);
    }
    STRATA_EXPECTS(coloured_->rgba.variable().isContiguous(), ValueError,
                   "the raster view needs the frame's colours contiguous on the host");
    path_ = {FramePath::HostRaster, "the frame is on the host: painted into the window without GL"};
    colourDirty_ = false;
}

void RasterScene::paint(QPainter& painter, int width, int height, double scale) {
    layout_ = content_.layoutFor(width, height, scale);
    copied_ = false;
    if (!content_.hasFrame()) {
        painter.fillRect(QRect(0, 0, width, height), Qt::white);
        return;
    }
    if (colourDirty_) colour();
    // White around the plot (the frame's pixels cover the plot itself).
    for (const QRect& r : QRegion(0, 0, width, height).subtracted(plotPixels()))
        painter.fillRect(r, Qt::white);
    paintFrame(painter);
    const AnnotationPlan plan = planAnnotations(content_.annotations(layout_, table_, range()));
    paintCoast(painter, plan);
    paintInk(painter, InkGroup{{}, {}, plan.overFrame}, plan.lineWidth);
    paintFill(painter, plan.barFill);
    for (const InkGroup* g : {&plan.axes, &plan.bar, &plan.title}) paintInk(painter, *g, plan.lineWidth);
    paintInk(painter, InkGroup{{}, {}, plan.beyondMap}, plan.lineWidth);
}

QImage RasterScene::image(int width, int height, double scale) {
    QImage out(width, height, QImage::Format_RGB32);
    QPainter p(&out);
    paint(p, width, height, scale);
    return out;
}

QRect RasterScene::plotPixels() const {
    const PixelRect& p = layout_.plot;
    const auto x0 = std::lround(p.x0), x1 = std::lround(p.x1), y0 = std::lround(p.y0), y1 = std::lround(p.y1);
    return QRect(static_cast<int>(x0), static_cast<int>(layout_.height - y1), static_cast<int>(x1 - x0),
                 static_cast<int>(y1 - y0));
}

void RasterScene::paintFrame(QPainter& painter) {
    const QRect pixels = plotPixels();
    const int x0 = pixels.left(), w = pixels.width(), h = pixels.height();
    const int y1 = layout_.height - pixels.top(); // the plot's top, origin bottom left
    if (w <= 0 || h <= 0) return;
    const PixelRect& plot = layout_.plot;
    const ViewTransform t(plot, content_.window());
    const auto* rgba = static_cast<const std::uint8_t*>(coloured_->rgba.variable().view().data);
    const QImage::Format format =
        coloured_->order == PixelOrder::Bgra ? QImage::Format_RGB32 : QImage::Format_RGBX8888;
    const std::uint32_t outside = 0xFFD1D1D1u;               // grey (209, 209, 209) in either order
    if (const CurvilinearGrid* g = content_.curvilinear()) { // the cells as polygons in lon/lat
        if (plotImage_.size() != QSize(w, h) || plotImage_.format() != format)
            plotImage_ = QImage(w, h, format);
        plotImage_.fill(QColor(209, 209, 209));
        PixelBlock block{reinterpret_cast<std::uint32_t*>(plotImage_.bits()),
                         w,
                         h,
                         static_cast<std::int64_t>(plotImage_.bytesPerLine() / 4),
                         static_cast<double>(x0),
                         static_cast<double>(y1)};
        rasteriseCells(*g, reinterpret_cast<const std::uint32_t*>(rgba), t, block);
        painter.drawImage(pixels.topLeft(), plotImage_);
        return;
    }
    // Each pixel's cell, looked up at the pixel's centre: columns left to right, rows top down.
    const AxisGrid &xg = content_.xGrid(), &yg = content_.yGrid();
    columns_.resize(static_cast<std::size_t>(w));
    rows_.resize(static_cast<std::size_t>(h));
    for (int i = 0; i < w; ++i)
        columns_[static_cast<std::size_t>(i)] = cellIndex(xg.edges, t.dataX(x0 + i + 0.5));
    for (int j = 0; j < h; ++j)
        rows_[static_cast<std::size_t>(j)] = cellIndex(yg.edges, t.dataY(y1 - j - 0.5));
    // One pixel per cell with every pixel inside: a straight run of cells, left to right
    // (columns) or top down (rows).
    auto run = [](const std::vector<std::int64_t>& cells) {
        bool straight = cells.front() >= 0;
        for (std::size_t i = 1; i < cells.size() && straight; ++i)
            straight = cells[i] == cells.front() + static_cast<std::int64_t>(i);
        return straight;
    };
    const bool columnRun = run(columns_);
    copied_ = columnRun;
    const std::int64_t ncols = xg.size();
    const QPoint at = pixels.topLeft();
    if (columnRun && run(rows_)) {
        // The visible cells are a block of the frame's colours as they lie in memory: drawn
        // from there (copied as they are in the window's order, converted from RGBA).
        const QImage block(rgba + (rows_.front() * ncols + columns_.front()) * 4, w, h,
                           static_cast<qsizetype>(ncols * 4), format);
        painter.drawImage(at, block);
        return;
    }
    // Otherwise the pixels are gathered: whole rows copied where the columns run straight,
    // each pixel's cell looked up where they do not; a row that repeats the one above is
    // copied from it.
    if (plotImage_.size() != QSize(w, h) || plotImage_.format() != format) plotImage_ = QImage(w, h, format);
    for (int j = 0; j < h; ++j) {
        auto* dst = reinterpret_cast<std::uint32_t*>(plotImage_.scanLine(j));
        const std::int64_t row = rows_[static_cast<std::size_t>(j)];
        if (row < 0) {
            std::fill(dst, dst + w, outside);
        } else if (j > 0 && row == rows_[static_cast<std::size_t>(j - 1)]) {
            std::memcpy(dst, plotImage_.constScanLine(j - 1), static_cast<std::size_t>(w) * 4);
        } else if (columnRun) {
            std::memcpy(dst, rgba + (row * ncols + columns_.front()) * 4, static_cast<std::size_t>(w) * 4);
        } else {
            const auto* src = reinterpret_cast<const std::uint32_t*>(rgba + row * ncols * 4);
            for (int i = 0; i < w; ++i) {
                const std::int64_t c = columns_[static_cast<std::size_t>(i)];
                dst[i] = c < 0 ? outside : src[c];
            }
        }
    }
    painter.drawImage(at, plotImage_);
}

void RasterScene::paintFill(QPainter& p, const ColourBarFill& fill) const {
    // One band per map entry, low at the bottom, exactly the map's colours; the triangles in the
    // under and over colours; the missing swatch in the NaN colour.
    const ColourBarContent& bar = fill.content;
    if (bar.table.empty()) return;
    const int H = layout_.height;
    const PixelRect& bands = fill.geometry.bands;
    const auto n = static_cast<double>(bar.table.size());
    const QRect clip(static_cast<int>(std::lround(bands.x0)), static_cast<int>(std::lround(H - bands.y1)),
                     static_cast<int>(std::lround(bands.width())),
                     static_cast<int>(std::lround(bands.height())));
    for (std::size_t i = 0; i < bar.table.size(); ++i) {
        const double b = bands.y0 + bands.height() * static_cast<double>(i) / n;
        const double top = bands.y0 + bands.height() * static_cast<double>(i + 1) / n;
        const Rgba8& c = bar.table[i];
        const QRectF band(bands.x0, H - top, bands.width(), top - b);
        p.fillRect(band.toAlignedRect().intersected(clip), QColor(c.r, c.g, c.b));
    }
    auto triangle = [&](const Triangle& t, const Rgba8& c) {
        QPolygonF corners;
        for (int k = 0; k < 3; ++k) corners << QPointF(t.xy[2 * k], H - t.xy[2 * k + 1]);
        p.save();
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(c.r, c.g, c.b));
        p.drawPolygon(corners);
        p.restore();
    };
    if (fill.geometry.under) triangle(*fill.geometry.under, bar.under);
    if (fill.geometry.over) triangle(*fill.geometry.over, bar.over);
    if (fill.geometry.missing && bar.missing) {
        const PixelRect& m = *fill.geometry.missing;
        fillBox(p, H, m, QColor(bar.missing->r, bar.missing->g, bar.missing->b));
    }
}

void RasterScene::paintCoast(QPainter& p, const AnnotationPlan& plan) const {
    const int H = layout_.height;
    auto draw = [&](const std::vector<PixelPolyline>& lines, const QColor& colour, double width) {
        p.save();
        p.setClipRect(plotPixels());
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(QPen(colour, width));
        QPolygonF line;
        for (const PixelPolyline& l : lines) {
            line.resize(static_cast<qsizetype>(l.xy.size() / 2));
            for (std::size_t i = 0; i + 1 < l.xy.size(); i += 2)
                line[static_cast<qsizetype>(i / 2)] = QPointF(l.xy[i], H - l.xy[i + 1]);
            p.drawPolyline(line);
        }
        p.restore();
    };
    const Rgba8& c = plan.contourColour;
    if (plan.contours) draw(*plan.contours, QColor(c.r, c.g, c.b, c.a), plan.contourWidth);
    if (plan.vectors)
        for (const InkLines& g : *plan.vectors) {
            const QColor ink(g.colour.r, g.colour.g, g.colour.b, g.colour.a);
            if (!g.filled) {
                draw(g.lines, ink, g.width);
                continue;
            }
            p.save();
            p.setClipRect(plotPixels());
            p.setRenderHint(QPainter::Antialiasing, false);
            p.setPen(Qt::NoPen);
            p.setBrush(ink);
            for (const PixelPolyline& l : g.lines) {
                QPolygonF shape;
                for (std::size_t i = 0; i + 1 < l.xy.size(); i += 2)
                    shape << QPointF(l.xy[i], H - l.xy[i + 1]);
                p.drawPolygon(shape);
            }
            p.restore();
        }
    if (plan.coast) draw(*plan.coast, kInk, plan.lineWidth);
}

void RasterScene::paintInk(QPainter& p, const InkGroup& ink, double lineWidth) const {
    const int H = layout_.height;
    for (const PixelRect& r : ink.boxes) fillBox(p, H, r, kInk);
    if (!ink.lines.empty()) {
        p.save();
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(QPen(kInk, lineWidth));
        for (const Segment& l : ink.lines) p.drawLine(QPointF(l.x0, H - l.y0), QPointF(l.x1, H - l.y1));
        p.restore();
    }
    for (const TextItem& t : ink.texts) {
        QString s = QString::fromStdString(t.text);
        if (t.maxWidth > 0) s = QFontMetricsF(font(t.size)).elidedText(s, Qt::ElideRight, t.maxWidth);
        text(p, s, t.x, H - t.y, t.size, t.h, t.v, t.upright, t.halo);
    }
}

} // namespace strata::detail
