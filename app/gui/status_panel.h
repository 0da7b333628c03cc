#pragma once
// StatusPanel: the status bar's permanent part — the long computation the wanted frame waits on
// with its Cancel, the open in progress with its Cancel, the busy bar (filled as far as the work
// has gone where that is known), where the shown variable's data is with Cancel load, the
// compute device, the render path and the last frame's time. It shows what it is told and says
// which Cancel was pressed; the window decides what they mean.
#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;
class QTimer;

namespace strata::app {

class StatusPanel : public QObject {
    Q_OBJECT
public:
    explicit StatusPanel(QStatusBar* bar);

    // An open in progress: the busy bar and its Cancel.
    void setOpening(bool opening);
    bool opening() const { return opening_; }
    // The frame service computes: the busy bar (unless an open shows it already).
    void setBusy(bool busy);
    // How far the work the bar stands for has gone (0..1), when that is known (the text beside
    // the bar says so too): the bar fills to it. < 0: not known, the bar is a busy stripe.
    void setFraction(double fraction);

    // The long computation the wanted frame waits on ("mean over time: 43 %"); empty: none.
    // `cancellable`: there is a view on the screen to go back to.
    void setTask(const QString& text, bool cancellable);

    void setResidency(const QString& text, const QString& toolTip, bool loading);
    void setDevice(const QString& text, const QString& toolTip);
    void setRender(const QString& text, const QString& toolTip);
    // The last frame's time; the label is refreshed at most twice a second (a repaint of the
    // status bar per frame is work a step does not need).
    void setFrameMs(double ms);
    // Nothing is drawn (a scalar, a dataset without a variable to show): no data, no frame time.
    void clearShown();

    QLabel* deviceLabel() const { return device_; }
    QLabel* renderLabel() const { return render_; }
    QLabel* frameTimeLabel() const { return frameTime_; }

signals:
    void cancelOpenClicked();
    void cancelLoadClicked();
    void cancelTaskClicked();

private:
    void showProgress();

    QProgressBar* progress_;
    QPushButton *cancelOpen_, *cancelLoad_, *cancelTask_;
    QLabel *task_, *residency_, *device_, *render_, *frameTime_;
    QTimer* frameTimer_;
    double frameMs_ = 0;
    double fraction_ = -1;
    bool opening_ = false, busy_ = false;
};

} // namespace strata::app
