#include "series_dock.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "slice_panel.h"
#include "view_roles.h"

namespace strata::app {

SeriesDock::SeriesDock(QWidget* parent)
    : QDockWidget(tr("Series"), parent), plot_(new LinePlotView(this)), dim_(new QComboBox(this)),
      readout_(new QLabel(this)),
      placeholder_(new QLabel(tr("Click a cell of the map to plot its series"), this)),
      export_(new QPushButton(tr("Export CSV…"), this)) {
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Along"), body));
    dim_->setObjectName("seriesDim");
    row->addWidget(dim_);
    readout_->setObjectName("seriesReadout");
    readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long readout is cut, not the dock widened.
    readout_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    row->addSpacing(8);
    row->addWidget(readout_, 1);
    export_->setObjectName("seriesExport");
    export_->setToolTip(tr("Write the series to a CSV file: its coordinate and values, with units"));
    row->addWidget(export_);
    layout->addLayout(row);
    plot_->setMinimumHeight(220);
    layout->addWidget(plot_, 1);
    placeholder_->setObjectName("seriesPlaceholder");
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setEnabled(false); // greyed: a hint, not content
    layout->addWidget(placeholder_);
    setObjectName("seriesDock");
    setWidget(body);
    plot_->hide(); // until there is a series: the placeholder says how to get one
    export_->setEnabled(false);
    connect(dim_, &QComboBox::activated, this, [this] { preferred_ = dim_->currentText(); });
    connect(dim_, &QComboBox::currentIndexChanged, this, [this] {
        if (row_ >= 0) emit alongChanged();
    });
    connect(export_, &QPushButton::clicked, this, &SeriesDock::exportCsvRequested);
    connect(plot_, &LinePlotView::hovered, this, &SeriesDock::showReadout);
    connect(plot_, &LinePlotView::hoverLeft, readout_, &QLabel::clear);
}

void SeriesDock::setDims(const std::vector<std::string>& sliced, const std::string& x, const std::string& y) {
    dim_->blockSignals(true);
    dim_->clear();
    for (const auto& d : sliced) dim_->addItem(QString::fromStdString(d));
    dim_->addItem(QString::fromStdString(x));
    if (!y.empty()) dim_->addItem(QString::fromStdString(y));
    const bool keep = std::find(sliced.begin(), sliced.end(), preferred_.toStdString()) != sliced.end();
    dim_->setCurrentIndex(keep ? dim_->findText(preferred_) : 0);
    dim_->blockSignals(false);
}

QString SeriesDock::along() const { return dim_->currentText(); }

void SeriesDock::plot(DataArray series, LineSeries line, const QString& along, ValueText valueText) {
    series_ = std::move(series);
    x_ = lineSeries(series_).x; // the coordinate's values (indices without one), as the plot's x
    y_ = series_.values<double>();
    valueText_ = std::move(valueText);
    step_.reset();
    line.marker.reset(); // followView marks the step
    readout_->clear();
    showPlot(true);
    plot_->setSeries(std::move(line));
    setWindowTitle(tr("Series along %1").arg(along));
}

void SeriesDock::clear() {
    row_ = column_ = -1;
    setWindowTitle(tr("Series"));
    readout_->clear();
    step_.reset();
    if (series_.ndim() == 0) return; // nothing plotted (and the plot's GL not loaded for nothing)
    series_ = DataArray();
    x_.clear();
    y_.clear();
    plot_->setSeries(LineSeries{});
    showPlot(false);
}

void SeriesDock::followView(const ViewSpec& view) {
    std::optional<std::int64_t> step;
    if (series_.ndim() == 1 && roleOf(view, series_.dims()[0]) == Role::Slice) {
        const std::int64_t i = view.indexOf(series_.dims()[0]);
        if (i >= 0 && i < std::int64_t(x_.size())) step = i;
    }
    if (step == step_) return;
    step_ = step;
    plot_->setMarker(step ? std::optional<double>(x_[std::size_t(*step)]) : std::nullopt);
}

std::optional<std::int64_t> SeriesDock::sampleAt(QPointF pos) const {
    const PlotXAxis axis = plot_->xAxis();
    if (x_.empty() || !axis.drawn() || pos.x() < axis.left - 1 || pos.x() > axis.right + 1) return {};
    const double x = axis.xAt(pos.x());
    std::optional<std::int64_t> nearest;
    double best = INFINITY;
    for (std::size_t i = 0; i < x_.size(); ++i)
        if (const double d = std::fabs(x_[i] - x); d < best) { // a NaN x is never nearest
            best = d;
            nearest = std::int64_t(i);
        }
    return nearest;
}

QString SeriesDock::readoutText(std::int64_t i) const {
    if (series_.ndim() != 1 || i < 0 || i >= std::int64_t(y_.size())) return {};
    const std::string& dim = series_.dims()[0];
    return QString("%1 = %2: %3 = %4")
        .arg(QString::fromStdString(dim), coordinateText(series_, dim, i),
             QString::fromStdString(series_.name()), valueText_(y_[std::size_t(i)]));
}

void SeriesDock::showReadout(QPointF pos) {
    const auto i = sampleAt(pos);
    readout_->setText(i ? readoutText(*i) : QString());
}

void SeriesDock::showPlot(bool shown) {
    export_->setEnabled(shown);
    if (shown == plot_->isVisibleTo(this) && shown != placeholder_->isVisibleTo(this)) return;
    if (!shown && plot_->isVisibleTo(this) && isVisible()) plotHeight_ = height();
    plot_->setVisible(shown);
    placeholder_->setVisible(!shown);
    widget()->layout()->invalidate(); // its minimum now, not the one cached before
    // Cleared, the dock is a line of text; plotting again, it takes back the height it had.
    if (!shown)
        fitHeight(minimumSizeHint().height());
    else if (plotHeight_ > 0)
        fitHeight(plotHeight_);
}

void SeriesDock::fitHeight(int height) {
    if (!isVisible()) return; // a hidden dock is sized when shown
    if (isFloating()) {
        resize(width(), std::max(height, minimumSizeHint().height()));
        return;
    }
    if (auto* window = qobject_cast<QMainWindow*>(parentWidget()))
        window->resizeDocks({this}, {height}, Qt::Vertical);
}

} // namespace strata::app
