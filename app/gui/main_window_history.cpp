// The window's memory: Edit ▸ Undo/Redo of view changes (a stack of whole ViewSpecs, see
// ViewHistory), and the docks' and window's layout, kept in the settings between sessions.
#include <QAction>
#include <QByteArray>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>

#include "dataset_panel.h"
#include "main_window.h"

namespace strata::app {

void MainWindow::buildEditMenu(QMenu* edit) {
    undoAction_ = edit->addAction(tr("&Undo View Change"), this, &MainWindow::undo);
    undoAction_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Z)});
    redoAction_ = edit->addAction(tr("&Redo View Change"), this, &MainWindow::redo);
    redoAction_->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    updateUndoActions();
}

void MainWindow::recordView(const ViewSpec& before) {
    if (replaying_) return;
    history_.record(before, spec_);
    updateUndoActions();
}

void MainWindow::updateUndoActions() {
    if (!undoAction_) return;
    undoAction_->setEnabled(history_.canUndo());
    redoAction_->setEnabled(history_.canRedo());
}

void MainWindow::undo() {
    ViewSpec back;
    if (ds_ && history_.undo(spec_, back)) replay(back);
}

void MainWindow::redo() {
    ViewSpec again;
    if (ds_ && history_.redo(spec_, again)) replay(again);
}

void MainWindow::replay(const ViewSpec& spec) {
    replaying_ = true;
    if (spec.variable != spec_.variable) datasetPanel_->setCurrent(QString::fromStdString(spec.variable));
    applyView(spec);
    replaying_ = false;
    updateUndoActions();
}

void MainWindow::restoreLayout() {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
}

void MainWindow::saveLayout() const {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
}

} // namespace strata::app
