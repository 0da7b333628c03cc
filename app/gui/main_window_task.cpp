// The status bar's word on a long computation: what the frame asked for waits on ("mean over
// time", "whole-variable range"), with a percentage while its variable loads or while the file
// is read slab by slab (a streamed reduction, a range of a variable not in memory), and Cancel,
// which goes back to the view on the screen. Until the new frame is shown, the frame on the
// screen and its title stay as they are.
#include <QLabel>
#include <QPushButton>
#include <QStatusBar>

#include "main_window.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// "mean over time", "max over lat, lon", "area-weighted mean over lat, lon; std over time".
QString reductionText(const ViewSpec& spec) {
    QStringList parts;
    QString op;
    QStringList dims;
    auto flush = [&] {
        if (!dims.isEmpty()) parts << QObject::tr("%1 over %2").arg(op, dims.join(", "));
        dims.clear();
    };
    for (const auto& [dim, reduceOp] : spec.reductions) {
        QString name = q(std::string(strata::name(reduceOp)));
        if (reduceOp == ReduceOp::Mean && spec.areaWeighted) name = QObject::tr("area-weighted mean");
        if (name != op) flush();
        op = name;
        dims << q(dim);
    }
    flush();
    return parts.join("; ");
}

} // namespace

void MainWindow::buildTask() {
    taskLabel_ = new QLabel(this);
    taskLabel_->setObjectName("task");
    cancelTask_ = new QPushButton(tr("Cancel"), this);
    cancelTask_->setObjectName("cancelTask");
    cancelTask_->setToolTip(tr("Stop this computation and go back to the view on the screen"));
    statusBar()->insertPermanentWidget(0, taskLabel_);
    statusBar()->insertPermanentWidget(1, cancelTask_);
    taskLabel_->hide();
    cancelTask_->hide();
    connect(cancelTask_, &QPushButton::clicked, this, &MainWindow::cancelTask);
    connect(service_, &FrameService::computeProgress, this, [this](quint64 id, double done) {
        if (id != wantedFrame_) return; // an older request's pass: overtaken
        taskDone_ = done;
        showTask();
    });
}

void MainWindow::noteTask(const ViewSpec& before) {
    taskDone_ = -1; // a new request: its pass, if it streams, tells its own progress
    const bool otherVariable = spec_.variable != before.variable || spec_.file != before.file;
    const bool newReduction =
        otherVariable || spec_.reductions != before.reductions || spec_.areaWeighted != before.areaWeighted;
    const bool newRange = needsVariableRange(spec_.colouring.range.mode) &&
                          (otherVariable || !needsVariableRange(before.colouring.range.mode));
    // A step while a reduction is computed keeps the word: the new frame is that work too.
    if (!newReduction && !newRange) return showTask();
    QStringList what;
    if (newReduction && !spec_.reductions.empty()) what << reductionText(spec_);
    if (newRange) what << tr("whole-variable range");
    taskText_ = what.join("; ");
    showTask();
}

void MainWindow::endTask() {
    taskText_.clear();
    showTask();
}

void MainWindow::showTask() {
    if (!taskLabel_) return;
    QString text = taskText_;
    if (!text.isEmpty() && !spec_.variable.empty()) {
        const ResidencyStatus s = service_->residency(spec_.variable);
        if (s.state == Residence::Loading) // the frame waits for the load
            text += QString(": %1 %").arg(int(s.progress * 100));
        else if (taskDone_ >= 0) // read from the file slab by slab
            text += QString(": %1 %").arg(int(taskDone_ * 100));
        else
            text += QString::fromUtf8("…");
    }
    taskLabel_->setText(text);
    taskLabel_->setVisible(!text.isEmpty());
    cancelTask_->setVisible(!text.isEmpty() && shownSpec_.has_value());
}

void MainWindow::cancelTask() {
    if (!shownSpec_) return;
    const QString what = taskText_;
    endTask();
    // As Undo does when the change was the last one (then Redo asks for it again).
    if (const ViewSpec* last = history_.last(); last && *last == *shownSpec_)
        undo();
    else
        applyView(*shownSpec_);
    statusBar()->showMessage(tr("Cancelled: %1").arg(what), 5000);
}

} // namespace strata::app
