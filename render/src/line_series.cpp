// The line plot's pieces that need no VTK: the series of an array, its finite runs, the
// exports (through the VTK views module) and LinePlotView, which loads that module when it is
// first given a series.
#include <QLabel>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QWindow>
#include <algorithm>
#include <cmath>

#include "strata/core/error.h"
#include "strata/render/frame_labels.h"
#include "strata/render/line_plot.h"
#include "strata/render/vtk_views.h"

namespace strata {

LineSeries lineSeries(const DataArray& a) {
    STRATA_EXPECTS(a.ndim() == 1, ValueError,
                   "a line plot needs a 1-D array; '" + a.name() + "' has " + std::to_string(a.ndim()) +
                       " dims");
    STRATA_EXPECTS(a.device().isHost(), ValueError,
                   "a line plot reads host values: call asHost() on '" + a.name() + "' first");
    LineSeries s;
    s.y = a.values<double>();
    const std::string& dim = a.dims()[0];
    const Coordinate* c = a.coords().find(dim);
    if (c && c->dims.size() == 1 && c->values.size() == s.y.size()) {
        s.x = c->values;
        s.xTime = c->time;
        s.xTitle = axisTitle(dim, c->attrs, c->time.has_value());
    } else {
        for (std::size_t i = 0; i < s.y.size(); ++i) s.x.push_back(static_cast<double>(i));
        s.xTitle = dim;
    }
    s.yTitle = variableTitle(a);
    s.title = frameTitle(a);
    return s;
}

std::vector<std::pair<std::size_t, std::size_t>> finiteRuns(const LineSeries& s) {
    std::vector<std::pair<std::size_t, std::size_t>> runs;
    const std::size_t n = std::min(s.x.size(), s.y.size());
    std::size_t i = 0;
    while (i < n) {
        while (i < n && !(std::isfinite(s.x[i]) && std::isfinite(s.y[i]))) ++i;
        std::size_t j = i;
        while (j < n && std::isfinite(s.x[j]) && std::isfinite(s.y[j])) ++j;
        if (j > i) runs.emplace_back(i, j);
        i = j;
    }
    return runs;
}

QImage renderLinePlot(const LineSeries& series, QSize pixels, double scale) {
    return vtkViews().renderLinePlot(series, pixels, scale);
}

void exportLinePlotPng(const LineSeries& series, QSize pixels, const QString& path, double scale) {
    QImage image = renderLinePlot(series, pixels, scale);
    STRATA_EXPECTS(image.save(path, "PNG"), IoError, "could not write the PNG file " + path.toStdString());
}

LinePlotView::LinePlotView(QWidget* parent) : QWidget(parent) { setMinimumSize(200, 150); }

LinePlotView::~LinePlotView() = default; // the plot's GL objects go with its surface

void LinePlotView::setSeries(LineSeries series) {
    series_ = std::move(series);
    if (!surface_ && !message_) {
        try {
            ViewHooks hooks;
            hooks.prepared = [](const std::exception*) {};
            hooks.presented = [this] { emit frameSwapped(); };
            surface_ = vtkViews().makeLinePlot(this, std::move(hooks));
            surface_->widget()->setGeometry(rect());
            surface_->widget()->show();
            // The mouse moves in the GL window, which fills this widget at its origin.
            if (QWindow* w = surface_->glWindow()) w->installEventFilter(this);
        } catch (const std::exception& e) { // the plot cannot be drawn: say why, in its place
            message_ = new QLabel(tr("The plot cannot be drawn: %1").arg(QString::fromUtf8(e.what())), this);
            message_->setWordWrap(true);
            message_->setAlignment(Qt::AlignCenter);
            message_->setGeometry(rect());
            message_->show();
            emit unavailable(message_->text());
        }
    }
    if (surface_) surface_->setSeries(series_);
}

void LinePlotView::setMarker(std::optional<double> x) {
    series_.marker = x;
    if (surface_) surface_->setMarker(x);
}

PlotXAxis LinePlotView::xAxis() const { return surface_ ? surface_->xAxis() : PlotXAxis{}; }

QString LinePlotView::unavailableReason() const { return message_ ? message_->text() : QString(); }

QImage LinePlotView::grabFramebuffer() { return surface_ ? surface_->grabFramebuffer() : QImage(); }

QWindow* LinePlotView::glWindow() const { return surface_ ? surface_->glWindow() : nullptr; }

void LinePlotView::resizeEvent(QResizeEvent*) {
    if (surface_) surface_->widget()->setGeometry(rect());
    if (message_) message_->setGeometry(rect());
}

bool LinePlotView::eventFilter(QObject* watched, QEvent* e) {
    if (surface_ && watched == surface_->glWindow()) {
        if (e->type() == QEvent::MouseMove) emit hovered(static_cast<QMouseEvent*>(e)->position());
        if (e->type() == QEvent::Leave) emit hoverLeft();
    }
    return QWidget::eventFilter(watched, e);
}

} // namespace strata
