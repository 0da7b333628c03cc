#include "series_dock.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>

namespace strata::app {

SeriesDock::SeriesDock(QWidget* parent)
    : QDockWidget(tr("Series"), parent), plot_(new LinePlotView(this)), dim_(new QComboBox(this)) {
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Along"), body));
    dim_->setObjectName("seriesDim");
    row->addWidget(dim_);
    row->addStretch(1);
    layout->addLayout(row);
    plot_->setMinimumHeight(220);
    layout->addWidget(plot_, 1);
    setObjectName("seriesDock");
    setWidget(body);
    connect(dim_, &QComboBox::activated, this, [this] { preferred_ = dim_->currentText(); });
    connect(dim_, &QComboBox::currentIndexChanged, this, [this] {
        if (row_ >= 0) emit alongChanged();
    });
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

void SeriesDock::plot(DataArray series, LineSeries line, const QString& along) {
    series_ = std::move(series);
    plot_->setSeries(std::move(line));
    setWindowTitle(tr("Series along %1").arg(along));
}

void SeriesDock::clear() {
    row_ = column_ = -1;
    setWindowTitle(tr("Series"));
    if (series_.ndim() == 0) return; // nothing plotted (and the plot's GL not loaded for nothing)
    series_ = DataArray();
    plot_->setSeries(LineSeries{});
}

} // namespace strata::app
