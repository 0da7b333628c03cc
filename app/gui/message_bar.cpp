#include "message_bar.h"

#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QSizeGrip>
#include <QStyleOption>
#include <QToolTip>

namespace strata::app {

MessageBar::MessageBar(QWidget* parent) : QStatusBar(parent) {
    setObjectName("messageBar");
    connect(this, &QStatusBar::messageChanged, this, [this] { update(); });
}

QRect MessageBar::messageRect() const {
    // As QStatusBar places its message: 6 pixels in, up to 2 pixels short of the first widget on
    // its right. Every widget here is a permanent one (the window adds no other kind).
    int right = width() - 12;
    for (const QWidget* w : findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (w->isVisible() && !w->isWindow()) // not a tooltip
            right = std::min(right, w->x() - (qobject_cast<const QSizeGrip*>(w) ? 0 : 2));
    return QRect(6, 0, std::max(0, right - 6), height());
}

QString MessageBar::shownMessage() const {
    return fontMetrics().elidedText(currentMessage().simplified(), Qt::ElideRight, messageRect().width());
}

void MessageBar::paintEvent(QPaintEvent* e) {
    if (currentMessage().isEmpty()) return QStatusBar::paintEvent(e);
    // QStatusBar's paint with the message shortened: the panel, the frames of the permanent
    // widgets, the message.
    QPainter p(this);
    QStyleOption panel;
    panel.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &panel, &p, this);
    for (QWidget* w : findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!w->isVisible() || w->isWindow() || qobject_cast<QSizeGrip*>(w)) continue;
        QStyleOption frame;
        frame.rect = w->geometry().adjusted(-2, -1, 2, 1);
        frame.palette = palette();
        frame.state = QStyle::State_None;
        if (e->rect().intersects(frame.rect))
            style()->drawPrimitive(QStyle::PE_FrameStatusBarItem, &frame, &p, w);
    }
    p.setPen(palette().windowText().color());
    p.drawText(messageRect(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine, shownMessage());
}

bool MessageBar::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString whole = currentMessage();
        if (!whole.isEmpty() && messageRect().contains(help->pos()) && shownMessage() != whole) {
            // The message shortened: the whole of it (and what the bar's own tooltip says).
            QToolTip::showText(help->globalPos(), toolTip().isEmpty() ? whole : whole + "\n\n" + toolTip(),
                               this, messageRect());
            return true;
        }
    }
    return QStatusBar::event(e);
}

} // namespace strata::app
