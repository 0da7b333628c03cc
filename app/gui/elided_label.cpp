#include "elided_label.h"

#include <QPainter>

namespace strata::app {

ElidedLabel::ElidedLabel(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

void ElidedLabel::setText(const QString& text) {
    text_ = text;
    updateToolTip();
    update();
}

QString ElidedLabel::shownText() const {
    return fontMetrics().elidedText(text_, Qt::ElideRight, contentsRect().width() - 4);
}

QSize ElidedLabel::sizeHint() const {
    return {fontMetrics().horizontalAdvance(text_) + 4, fontMetrics().height() + 4};
}

QSize ElidedLabel::minimumSizeHint() const {
    return {fontMetrics().horizontalAdvance(QStringLiteral("Mm…")), fontMetrics().height() + 4};
}

void ElidedLabel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setPen(palette().color(isEnabled() ? QPalette::Active : QPalette::Disabled, QPalette::WindowText));
    p.drawText(contentsRect().adjusted(2, 0, -2, 0), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine,
               shownText());
}

void ElidedLabel::resizeEvent(QResizeEvent*) { updateToolTip(); }

void ElidedLabel::updateToolTip() { setToolTip(shownText() != text_ ? text_ : QString()); }

} // namespace strata::app
