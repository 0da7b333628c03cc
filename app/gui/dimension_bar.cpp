#include "dimension_bar.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QMenu>
#include <QMouseEvent>

#include "strata/core/area.h"

namespace strata::app {
namespace {

QString opText(ReduceOp op) { return QString::fromUtf8(std::string(name(op)).c_str()); }

ReduceOp opOf(const ViewSpec& spec, const std::string& dim) {
    for (const auto& [d, op] : spec.reductions)
        if (d == dim) return op;
    return ReduceOp::Mean;
}

} // namespace

DimChip::DimChip(const QString& dim, qint64 length, QWidget* parent)
    : QFrame(parent), dim_(dim), label_(new QLabel(QString("%1  %2").arg(dim).arg(length), this)),
      opButton_(new QToolButton(this)) {
    setObjectName("chip:" + dim);
    setFrameShape(QFrame::StyledPanel);
    setFocusPolicy(Qt::StrongFocus);
    setCursor(Qt::OpenHandCursor);
    setToolTip(tr("Drag onto X, Y, Slice or Reduce; or press X, Y, S or R"));
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 4, 2);
    layout->setSpacing(4);
    layout->addWidget(label_);
    layout->addWidget(opButton_);
    opButton_->setPopupMode(QToolButton::InstantPopup);
    opButton_->setAutoRaise(true);
    auto* menu = new QMenu(opButton_);
    for (ReduceOp op : chipReduceOps())
        menu->addAction(opText(op), this, [this, op] { emit opAsked(dim_, op); });
    areaMean_ = menu->addAction(tr("area mean"), this, [this] { emit areaMeanAsked(dim_); });
    areaMean_->setToolTip(tr("Weighted by cell area: cos(latitude), the file's cell_measures, or a mesh's or "
                             "HEALPix grid's cells"));
    areaMean_->setVisible(false);
    opButton_->setMenu(menu);
    opButton_->hide();
    setStyleSheet("strata--app--DimChip { border-radius: 4px; }");
}

DimChip::~DimChip() { delete ghost_; } // a drag cut short by a rebuild leaves no ghost

void DimChip::setReduceOp(std::optional<ReduceOp> op, bool areaWeighted) {
    opButton_->setVisible(op.has_value());
    if (op) opButton_->setText(areaWeighted && *op == ReduceOp::Mean ? tr("area mean") : opText(*op));
}

void DimChip::setAreaMeanOffered(bool on) {
    areaMeanOffered_ = on;
    areaMean_->setVisible(on);
}

void DimChip::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QFrame::mousePressEvent(e);
    pressed_ = true;
    dragging_ = false;
    pressedAt_ = e->position().toPoint();
    setFocus(Qt::MouseFocusReason);
}

void DimChip::mouseMoveEvent(QMouseEvent* e) {
    if (!pressed_ || !(e->buttons() & Qt::LeftButton)) return;
    const QPoint global = mapToGlobal(e->position().toPoint());
    if (!dragging_) {
        if ((e->position().toPoint() - pressedAt_).manhattanLength() < QApplication::startDragDistance())
            return;
        dragging_ = true;
        setCursor(Qt::ClosedHandCursor);
        // A window of its own, so that it also shows over the views' native GL windows.
        ghost_ = new QLabel(nullptr, Qt::ToolTip | Qt::FramelessWindowHint | Qt::WindowTransparentForInput);
        ghost_->setPixmap(grab());
        ghost_->setAttribute(Qt::WA_TransparentForMouseEvents);
        ghost_->setWindowOpacity(0.8);
        ghost_->show();
        ghost_->raise();
    }
    if (ghost_) ghost_->move(global - pressedAt_);
    emit dragMoved(global);
}

void DimChip::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !pressed_) return QFrame::mouseReleaseEvent(e);
    pressed_ = false;
    setCursor(Qt::OpenHandCursor);
    if (ghost_) ghost_->deleteLater();
    if (!dragging_) return;
    dragging_ = false;
    emit dropped(dim_, mapToGlobal(e->position().toPoint()));
}

void DimChip::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
    case Qt::Key_X:
        emit roleAsked(dim_, Role::X);
        return;
    case Qt::Key_Y:
        emit roleAsked(dim_, Role::Y);
        return;
    case Qt::Key_S:
        emit roleAsked(dim_, Role::Slice);
        return;
    case Qt::Key_R:
        emit roleAsked(dim_, Role::Reduce);
        return;
    default:
        QFrame::keyPressEvent(e);
    }
}

void DimChip::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    menu.addAction(tr("Show on &X"), this, [this] { emit roleAsked(dim_, Role::X); })->setShortcut(Qt::Key_X);
    menu.addAction(tr("Show on &Y"), this, [this] { emit roleAsked(dim_, Role::Y); })->setShortcut(Qt::Key_Y);
    menu.addAction(tr("&Slice"), this, [this] { emit roleAsked(dim_, Role::Slice); })->setShortcut(Qt::Key_S);
    QMenu* reduce = menu.addMenu(tr("&Reduce"));
    for (ReduceOp op : chipReduceOps())
        reduce->addAction(opText(op), this, [this, op] { emit opAsked(dim_, op); });
    if (areaMeanOffered_) reduce->addAction(tr("area mean"), this, [this] { emit areaMeanAsked(dim_); });
    if (anomalyOffered_) {
        menu.addSeparator();
        menu.addAction(tr("&Anomaly…"), this, [this] { emit anomalyAsked(dim_); });
    }
    menu.exec(e->globalPos());
}

RoleSlot::RoleSlot(Role role, QWidget* parent)
    : QFrame(parent), role_(role), chips_(new QHBoxLayout), empty_(new QLabel(tr("drop a dim here"), this)) {
    setObjectName(QString("slot:") + roleName(role));
    setFrameShape(QFrame::StyledPanel);
    setMinimumHeight(40);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    auto* title = new QLabel(QString("<b>%1</b>").arg(roleName(role)), this);
    layout->addWidget(title);
    layout->addLayout(chips_);
    empty_->setEnabled(false);
    chips_->addWidget(empty_);
    layout->addStretch(1);
}

void RoleSlot::addChip(DimChip* chip) {
    empty_->hide();
    chips_->addWidget(chip);
}

void RoleSlot::showEmpty() { empty_->show(); }

void RoleSlot::setHighlighted(bool on) {
    setFrameShadow(on ? QFrame::Sunken : QFrame::Plain);
    setBackgroundRole(on ? QPalette::Highlight : QPalette::Window);
    setAutoFillBackground(on);
}

DimensionBar::DimensionBar(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    for (Role r : {Role::X, Role::Y, Role::Slice, Role::Reduce}) {
        auto* s = new RoleSlot(r, this);
        slots_[r] = s;
        layout->addWidget(s, r == Role::Slice || r == Role::Reduce ? 2 : 1);
    }
}

void DimensionBar::clear() {
    for (auto& [d, c] : chips_) {
        c->hide();
        c->setParent(this); // out of its slot's layout
        c->deleteLater();   // a chip may be in the middle of its own mouse handler
    }
    chips_.clear();
    for (auto& [r, s] : slots_) s->showEmpty();
}

void DimensionBar::show(const DataArray& var, const ViewSpec& spec, bool onCells) {
    // Keyboard focus stays with the dim the user was moving (its chip is made anew).
    QString focused;
    for (const auto& [d, c] : chips_)
        if (c->hasFocus()) focused = d;
    clear();
    spec_ = spec;
    const bool areaOffered =
        onCells || !latitudeDim(var).empty() || var.attrs().text("cell_measures").has_value();
    auto add = [&](const std::string& d, Role role) {
        auto* c = new DimChip(QString::fromStdString(d), var.sizeOf(d), this);
        connect(c, &DimChip::dropped, this, &DimensionBar::onDropped);
        connect(c, &DimChip::dragMoved, this, &DimensionBar::onDragMoved);
        connect(c, &DimChip::roleAsked, this, [this](const QString& dim, Role r) {
            emit roleRequested(dim, r, opOf(spec_, dim.toStdString()));
        });
        connect(c, &DimChip::opAsked, this,
                [this](const QString& dim, ReduceOp op) { emit opChosen(dim, op, false); });
        connect(c, &DimChip::areaMeanAsked, this,
                [this](const QString& dim) { emit opChosen(dim, ReduceOp::Mean, true); });
        c->setAreaMeanOffered(areaOffered);
        if (const Coordinate* t = var.coords().find(d); t && t->isIndex() && t->time) {
            c->setAnomalyOffered(true);
            connect(c, &DimChip::anomalyAsked, this, &DimensionBar::anomalyRequested);
        }
        if (role == Role::Reduce) c->setReduceOp(opOf(spec, d), spec.areaWeighted);
        slots_[role]->addChip(c);
        c->show(); // now, not when the layout gets round to it
        chips_[c->dim()] = c;
    };
    if (!spec.xDim.empty()) add(spec.xDim, Role::X);
    if (!spec.yDim.empty()) add(spec.yDim, Role::Y);
    for (const auto& d : spec.slicedDims(var.dims())) add(d, Role::Slice);
    for (const auto& [d, op] : spec.reductions) add(d, Role::Reduce);
    if (DimChip* c = chip(focused)) c->setFocus(Qt::OtherFocusReason);
}

RoleSlot* DimensionBar::slot(Role r) const { return slots_.at(r); }

DimChip* DimensionBar::chip(const QString& dim) const {
    auto it = chips_.find(dim);
    return it == chips_.end() ? nullptr : it->second;
}

RoleSlot* DimensionBar::slotAt(QPoint globalPosition) const {
    for (const auto& [r, s] : slots_)
        if (s->isVisible() && s->rect().contains(s->mapFromGlobal(globalPosition))) return s;
    return nullptr;
}

void DimensionBar::onDragMoved(QPoint globalPosition) {
    RoleSlot* under = slotAt(globalPosition);
    for (const auto& [r, s] : slots_) s->setHighlighted(s == under);
}

void DimensionBar::onDropped(const QString& dim, QPoint globalPosition) {
    for (const auto& [r, s] : slots_) s->setHighlighted(false);
    RoleSlot* target = slotAt(globalPosition);
    if (!target) return;
    emit roleRequested(dim, target->role(), opOf(spec_, dim.toStdString()));
}

} // namespace strata::app
