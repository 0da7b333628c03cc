// Edit ▸ Undo/Redo of view changes (the Workspace keeps the views gone through, see
// ViewHistory), and the docks' and window's layout, kept in the settings between sessions.
#include <QAction>
#include <QMenu>

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

void MainWindow::updateUndoActions() {
    if (!undoAction_) return;
    undoAction_->setEnabled(ws_.canUndo());
    redoAction_->setEnabled(ws_.canRedo());
    // Each says what it would change back: "Undo Colour Map", "Redo Axes and Reduction".
    const QString undo = QString::fromStdString(ws_.undoText()),
                  redo = QString::fromStdString(ws_.redoText());
    undoAction_->setText(undo.isEmpty() ? tr("&Undo View Change") : tr("&Undo %1").arg(undo));
    redoAction_->setText(redo.isEmpty() ? tr("&Redo View Change") : tr("&Redo %1").arg(redo));
}

void MainWindow::undo() {
    if (const std::optional<ViewSpec> back = ws_.undo()) replay(*back);
}

void MainWindow::redo() {
    if (const std::optional<ViewSpec> again = ws_.redo()) replay(*again);
}

void MainWindow::replay(const ViewSpec& spec) {
    if (spec.variable != view().variable) datasetPanel_->setCurrent(QString::fromStdString(spec.variable));
    showView(spec, false);
    updateUndoActions();
}

void MainWindow::restoreLayout() {
    restoreGeometry(settings_.windowGeometry());
    restoreState(settings_.windowState());
}

void MainWindow::saveLayout() const { WindowSettings().setWindowLayout(saveGeometry(), saveState()); }

} // namespace strata::app
