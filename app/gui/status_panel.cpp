#include "status_panel.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>

namespace strata::app {

StatusPanel::StatusPanel(QStatusBar* bar)
    : QObject(bar), progress_(new QProgressBar(bar)), cancelOpen_(new QPushButton(tr("Cancel"), bar)),
      cancelLoad_(new QPushButton(tr("Cancel load"), bar)), cancelTask_(new QPushButton(tr("Cancel"), bar)),
      task_(new QLabel(bar)), residency_(new QLabel(bar)), device_(new QLabel(bar)), render_(new QLabel(bar)),
      frameTime_(new QLabel(bar)), frameTimer_(new QTimer(this)) {
    task_->setObjectName("task");
    cancelTask_->setObjectName("cancelTask");
    cancelTask_->setToolTip(tr("Stop this computation and go back to the view on the screen"));
    progress_->setRange(0, 0);
    progress_->setTextVisible(false); // the label beside it says the percentage
    progress_->setMaximumWidth(160);
    progress_->setObjectName("progress");
    cancelOpen_->setObjectName("cancel");
    residency_->setObjectName("residency");
    cancelLoad_->setObjectName("cancelLoad");
    cancelLoad_->setToolTip(tr("Stop loading this variable: its frames keep coming from the file"));
    for (QWidget* w : std::initializer_list<QWidget*>{task_, cancelTask_, progress_, cancelOpen_, residency_,
                                                      cancelLoad_, device_, render_, frameTime_})
        bar->addPermanentWidget(w);
    for (QWidget* w :
         std::initializer_list<QWidget*>{task_, cancelTask_, progress_, cancelOpen_, cancelLoad_})
        w->hide();
    render_->setText(tr("Render: none"));
    frameTime_->setText(tr("Frame: —"));
    connect(cancelOpen_, &QPushButton::clicked, this, &StatusPanel::cancelOpenClicked);
    connect(cancelLoad_, &QPushButton::clicked, this, &StatusPanel::cancelLoadClicked);
    connect(cancelTask_, &QPushButton::clicked, this, &StatusPanel::cancelTaskClicked);
    frameTimer_->setSingleShot(true);
    frameTimer_->setInterval(500);
    connect(frameTimer_, &QTimer::timeout, this,
            [this] { frameTime_->setText(tr("Frame: %1 ms").arg(frameMs_, 0, 'f', 1)); });
}

void StatusPanel::setOpening(bool opening) {
    opening_ = opening;
    cancelOpen_->setVisible(opening);
    showProgress();
}

void StatusPanel::setBusy(bool busy) {
    busy_ = busy;
    showProgress();
}

void StatusPanel::setFraction(double fraction) {
    fraction_ = fraction;
    showProgress();
}

void StatusPanel::showProgress() {
    progress_->setVisible(opening_ || busy_);
    if (opening_ || fraction_ < 0) { // an open tells no fraction
        progress_->setRange(0, 0);
        return;
    }
    progress_->setRange(0, 100);
    progress_->setValue(std::clamp(int(fraction_ * 100), 0, 100));
}

void StatusPanel::clearShown() {
    setResidency(QString(), QString(), false);
    setTask(QString(), false);
    setFraction(-1);
    frameTimer_->stop();
    frameTime_->setText(tr("Frame: —"));
}

void StatusPanel::setTask(const QString& text, bool cancellable) {
    task_->setText(text);
    task_->setVisible(!text.isEmpty());
    cancelTask_->setVisible(!text.isEmpty() && cancellable);
}

void StatusPanel::setResidency(const QString& text, const QString& toolTip, bool loading) {
    residency_->setText(text);
    residency_->setToolTip(toolTip);
    residency_->setVisible(!text.isEmpty());
    cancelLoad_->setVisible(loading);
}

void StatusPanel::setDevice(const QString& text, const QString& toolTip) {
    device_->setText(text);
    device_->setToolTip(toolTip);
}

void StatusPanel::setRender(const QString& text, const QString& toolTip) {
    render_->setText(text);
    render_->setToolTip(toolTip);
}

void StatusPanel::setFrameMs(double ms) {
    frameMs_ = ms;
    if (!frameTimer_->isActive()) frameTimer_->start();
}

} // namespace strata::app
