// The status bar's word on a long computation: what the frame asked for waits on ("mean over
// time", "whole-variable range"), with a percentage while its variable loads or while the file
// is read slab by slab (a streamed reduction, a range of a variable not in memory), which the
// busy bar shows too, and Cancel, which goes back to the view on the screen. Until the new frame
// is shown, the frame on the screen and its title stay as they are.
#include <QStatusBar>

#include "main_window.h"
#include "status_panel.h"

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

void MainWindow::noteTask(const ViewSpec& before) {
    const ViewSpec& now = view();
    task_.done = -1; // a new request: its pass, if it streams, tells its own progress
    const bool otherVariable = now.variable != before.variable || now.file != before.file;
    const bool newReduction =
        otherVariable || now.reductions != before.reductions || now.areaWeighted != before.areaWeighted;
    const bool newRange = needsVariableRange(now.colouring.range.mode) &&
                          (otherVariable || !needsVariableRange(before.colouring.range.mode));
    // A step while a reduction is computed keeps the word: the new frame is that work too.
    if (!newReduction && !newRange) return showTask();
    QStringList what;
    if (newReduction && !now.reductions.empty()) what << reductionText(now);
    if (newRange) what << tr("whole-variable range");
    task_.what = what.join("; ");
    showTask();
}

void MainWindow::endTask() {
    task_.what.clear();
    showTask();
}

void MainWindow::showTask() {
    if (!status_) return;
    QString text = task_.what;
    double fraction = -1; // how far, where known: the busy bar shows it as the text does
    if (!view().variable.empty()) {
        const ResidencyStatus s = service_->residency(view().variable);
        if (s.state == Residence::Loading) // the frame waits for the load; else "Data: loading 43 %"
            fraction = s.progress;
        else if (!text.isEmpty() && task_.done >= 0) // read from the file slab by slab
            fraction = task_.done;
        if (!text.isEmpty())
            text += fraction >= 0 ? QString(": %1 %").arg(int(fraction * 100)) : QString::fromUtf8("…");
    }
    status_->setTask(text, ws_.screen().view.has_value());
    status_->setFraction(fraction);
}

void MainWindow::cancelTask() {
    const std::optional<ViewSpec> shown = ws_.screen().view;
    if (!shown) return;
    const QString what = task_.what;
    endTask();
    // As Undo does when the change was the last one (then Redo asks for it again).
    if (ws_.undoReturnsTo(*shown))
        undo();
    else
        applyView(*shown);
    statusBar()->showMessage(tr("Cancelled: %1").arg(what), 5000);
}

} // namespace strata::app
