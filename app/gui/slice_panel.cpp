#include "slice_panel.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QPolygonF>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <algorithm>

namespace strata::app {
namespace {

// The play and pause buttons' icons, drawn here in the palette's text colour. The style's
// standard icons are looked up in the icon theme first: 8 ms of a file's first frame, the first
// time, on the GUI thread.
QIcon mediaIcon(bool pause, const QColor& ink) {
    QPixmap pixmap(32, 32); // scaled down to the button's icon size, sharp on a HiDPI screen
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(ink);
    if (pause) {
        p.drawRect(QRectF(8, 6, 6, 20));
        p.drawRect(QRectF(18, 6, 6, 20));
    } else {
        p.drawPolygon(QPolygonF({QPointF(9, 5), QPointF(9, 27), QPointF(26, 16)}));
    }
    return QIcon(pixmap);
}

} // namespace

QString coordinateText(const DataArray& var, const std::string& dim, std::int64_t i) {
    const Coordinate* c = var.coords().find(dim);
    if (!c || !c->isIndex() || i < 0 || i >= static_cast<std::int64_t>(c->values.size()))
        return QString("index %1").arg(i);
    return QString::fromStdString(c->labelWithUnits(i));
}

SlicePanel::SlicePanel(QWidget* parent)
    : QWidget(parent), rows_(new QVBoxLayout), rateRow_(new QWidget(this)), rate_(new QSpinBox(rateRow_)),
      timer_(new QTimer(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addLayout(rows_);
    auto* rateRow = new QHBoxLayout(rateRow_);
    rateRow->setContentsMargins(0, 0, 0, 0);
    rateRow->addStretch(1);
    rateRow->addWidget(new QLabel(tr("Play rate"), rateRow_));
    rate_->setRange(1, 60);
    rate_->setValue(10);
    rate_->setSuffix(tr(" frames/s"));
    rate_->setObjectName("playRate");
    rateRow->addWidget(rate_);
    rateRow_->setObjectName("playRateRow");
    rateRow_->hide(); // until a dim has steps to play
    layout->addWidget(rateRow_);
    connect(rate_, &QSpinBox::valueChanged, this, [this](int fps) { timer_->setInterval(1000 / fps); });
    timer_->setInterval(1000 / rate_->value());
    connect(timer_, &QTimer::timeout, this, &SlicePanel::onTick);
}

void SlicePanel::clear() {
    timer_->stop();
    playing_.clear();
    widgets_.clear();
    delete body_;
    body_ = nullptr;
    rateRow_->hide();
}

void SlicePanel::show(const DataArray& var, const ViewSpec& spec) {
    const QString keepActive = active_, keepPlaying = playing_;
    clear();
    var_ = var;
    body_ = new QWidget(this);
    auto* grid = new QGridLayout(body_);
    grid->setContentsMargins(0, 0, 0, 0);
    int row = 0;
    for (const auto& d : spec.slicedDims(var.dims())) {
        const QString dim = QString::fromStdString(d);
        const qint64 n = var.sizeOf(d);
        Row r;
        r.slider = new QSlider(Qt::Horizontal, body_);
        r.slider->setObjectName("slider:" + dim);
        r.slider->setRange(0, static_cast<int>(std::max<qint64>(n - 1, 0)));
        r.slider->setPageStep(static_cast<int>(std::max<qint64>(1, n / 10)));
        r.slider->setValue(static_cast<int>(spec.indexOf(d)));
        r.index = new QSpinBox(body_);
        r.index->setObjectName("position:" + dim);
        r.index->setRange(1, static_cast<int>(std::max<qint64>(n, 1)));
        r.index->setValue(r.slider->value() + 1);
        r.index->setSuffix(QString(" / %1").arg(n));
        r.value = new QLabel(coordinateText(var, d, spec.indexOf(d)), body_);
        r.value->setObjectName("value:" + dim);
        r.value->setMinimumWidth(160);
        r.value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        r.play = new QToolButton(body_);
        r.play->setObjectName("play:" + dim);
        r.play->setIcon(mediaIcon(false, palette().color(QPalette::ButtonText)));
        r.play->setToolTip(tr("Play/Pause (Space)"));
        r.play->setCheckable(true);
        if (n < 2) r.play->hide(); // nothing to play through
        grid->addWidget(new QLabel("<b>" + dim + "</b>", body_), row, 0);
        grid->addWidget(r.slider, row, 1);
        grid->addWidget(r.index, row, 2);
        grid->addWidget(r.value, row, 3);
        grid->addWidget(r.play, row, 4);
        grid->setColumnStretch(1, 1);
        connect(r.slider, &QSlider::valueChanged, this, [this, dim](int v) {
            if (updating_) return;
            const qint64 before = widgets_.at(dim).index->value() - 1;
            const qint64 delta = v - before;
            setIndex(dim, v, delta == 1 ? 1 : delta == -1 ? -1 : 0);
        });
        connect(r.slider, &QSlider::sliderPressed, this, [this, dim] { active_ = dim; });
        connect(r.index, &QSpinBox::valueChanged, this, [this, dim](int position) {
            if (updating_) return;
            const int v = position - 1;
            const qint64 before = widgets_.at(dim).slider->value();
            setIndex(dim, v, v - before == 1 ? 1 : v - before == -1 ? -1 : 0);
        });
        connect(r.play, &QToolButton::clicked, this, [this, dim] { togglePlay(dim); });
        widgets_[dim] = r;
        ++row;
    }
    rows_->addWidget(body_);
    rateRow_->setVisible(std::any_of(widgets_.begin(), widgets_.end(),
                                     [](const auto& w) { return w.second.slider->maximum() > 0; }));
    active_ = widgets_.count(keepActive) ? keepActive
              : widgets_.empty()         ? QString()
                                         : widgets_.begin()->first;
    if (!spec.slicedDims(var.dims()).empty() && !widgets_.count(keepActive))
        active_ = QString::fromStdString(spec.slicedDims(var.dims()).front());
    if (widgets_.count(keepPlaying)) togglePlay(keepPlaying);
}

QSlider* SlicePanel::slider(const QString& dim) const {
    auto it = widgets_.find(dim);
    return it == widgets_.end() ? nullptr : it->second.slider;
}
QLabel* SlicePanel::valueLabel(const QString& dim) const {
    auto it = widgets_.find(dim);
    return it == widgets_.end() ? nullptr : it->second.value;
}
QSpinBox* SlicePanel::positionBox(const QString& dim) const {
    auto it = widgets_.find(dim);
    return it == widgets_.end() ? nullptr : it->second.index;
}
QToolButton* SlicePanel::playButton(const QString& dim) const {
    auto it = widgets_.find(dim);
    return it == widgets_.end() ? nullptr : it->second.play;
}

QString SlicePanel::activeDim() const { return active_; }
void SlicePanel::setActiveDim(const QString& dim) {
    if (widgets_.count(dim)) active_ = dim;
}

void SlicePanel::setIndex(const QString& dim, qint64 index, int direction) {
    auto it = widgets_.find(dim);
    if (it == widgets_.end()) return;
    Row& r = it->second;
    active_ = dim;
    updating_ = true;
    r.slider->setValue(static_cast<int>(index));
    r.index->setValue(static_cast<int>(index) + 1);
    updating_ = false;
    r.value->setText(coordinateText(var_, dim.toStdString(), index));
    emit indexChanged(dim, index, direction);
}

void SlicePanel::step(int delta, bool wrap) {
    auto it = widgets_.find(active_);
    if (it == widgets_.end()) return;
    const int n = it->second.slider->maximum() + 1;
    int next = it->second.slider->value() + delta;
    if (wrap) {
        next = ((next % n) + n) % n;
    } else {
        next = std::clamp(next, 0, n - 1);
    }
    if (next == it->second.slider->value()) return;
    setIndex(active_, next, delta > 0 ? 1 : -1);
}

void SlicePanel::togglePlay(const QString& dim) {
    const bool start = playing_ != dim;
    if (!playing_.isEmpty() && widgets_.count(playing_)) {
        widgets_.at(playing_).play->setChecked(false);
        widgets_.at(playing_).play->setIcon(mediaIcon(false, palette().color(QPalette::ButtonText)));
    }
    timer_->stop();
    playing_.clear();
    if (!start || !widgets_.count(dim) || widgets_.at(dim).slider->maximum() < 1) return;
    playing_ = dim;
    active_ = dim;
    widgets_.at(dim).play->setChecked(true);
    widgets_.at(dim).play->setIcon(mediaIcon(true, palette().color(QPalette::ButtonText)));
    timer_->start();
}

bool SlicePanel::playing() const { return !playing_.isEmpty(); }

void SlicePanel::onTick() {
    if (playing_.isEmpty()) return;
    const QString keep = active_; // the arrow keys go on stepping the dim the user picked
    active_ = playing_;
    step(+1, true);
    if (widgets_.count(keep)) active_ = keep;
}

void SlicePanel::setIndices(const ViewSpec& spec) {
    updating_ = true;
    for (auto& [dim, r] : widgets_) {
        const std::int64_t i = spec.indexOf(dim.toStdString());
        if (r.slider->value() == i) continue;
        r.slider->setValue(static_cast<int>(i));
        r.index->setValue(static_cast<int>(i) + 1);
        r.value->setText(coordinateText(var_, dim.toStdString(), i));
    }
    updating_ = false;
}

} // namespace strata::app
