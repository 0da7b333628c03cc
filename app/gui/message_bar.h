#pragma once
// MessageBar: the window's status bar. Its messages (QStatusBar::showMessage) are drawn in the
// room left of its permanent widgets, shortened with "…" where they would not fit, and the whole
// message is the tooltip over them; currentMessage() stays the whole message.
#include <QStatusBar>

namespace strata::app {

class MessageBar : public QStatusBar {
    Q_OBJECT
public:
    explicit MessageBar(QWidget* parent = nullptr);

    // Where the message is drawn (left of the leftmost permanent widget shown), and the message
    // as drawn there.
    QRect messageRect() const;
    QString shownMessage() const;

protected:
    void paintEvent(QPaintEvent* e) override;
    bool event(QEvent* e) override;
};

} // namespace strata::app
