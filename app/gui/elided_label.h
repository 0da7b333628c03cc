#pragma once
// ElidedLabel: one line of text shortened with "…" to the width the layout gives it, the whole
// text as its tooltip while it is shortened. It asks for no more width than a few letters, so a
// long text never widens what holds it.
#include <QWidget>

namespace strata::app {

class ElidedLabel : public QWidget {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    void setText(const QString& text);
    QString text() const { return text_; }
    QString shownText() const; // as drawn: shortened where it does not fit

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void updateToolTip();
    QString text_;
};

} // namespace strata::app
