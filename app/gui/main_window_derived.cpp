// Derived variables in the window: File ▸ New Derived Variable… (Ctrl+D), editing one by
// double-clicking it in the dataset panel, and the command line's --derive. A derived variable
// joins the dataset as any other; what is resident stays resident.
#include <QInputDialog>
#include <QStatusBar>
#include <algorithm>

#include "anomaly_dialog.h"

#include "dataset_panel.h"
#include "main_window.h"
#include "strata/core/expression.h"

namespace strata::app {
namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
} // namespace

bool MainWindow::addDerived(const QString& statement, bool dialogOnError) {
    if (!ws_.dataset()) {
        showError(tr("No dataset"), tr("Open a file before deriving a variable from it."), true);
        return false;
    }
    auto next = std::make_shared<Dataset>(*ws_.dataset());
    std::string name;
    try {
        name = parseExpression(statement.toStdString()).name;
        derive(*next, statement.toStdString(), others_);
    } catch (const Error& e) {
        showError(tr("Cannot derive a variable"), q(e.what()), dialogOnError);
        return false;
    }
    const ViewSpec before = view();
    std::shared_ptr<const Dataset> ds = std::move(next);
    ws_.setDataset(ds, true);
    service_->updateDataset(ds);
    datasetPanel_->setDataset(ds);
    ViewSpec fitted;
    ViewSpec carried = before; // a variable of the shown one's dims: seen as it was seen
    carried.variable = name;
    const Variable* made = ds->findVariable(name);
    const bool sameDims = made && ws_.variable().dims() == made->dims() && before.variable != name;
    if (sameDims) {
        carried.colouring = Colouring{};
        if (const DerivedSource* d = derivedSourceOf(*made);
            d && d->statement().find("anomaly(") != std::string::npos) {
            carried.colouring.colormap = "RdBu"; // diverging, warm above the climatology
            carried.colouring.reversed = true;
        }
    }
    if (before.variable == name && fitViewTo(before, *ds, fitted, gridFile_.get())) { // redefined while shown
        datasetPanel_->setCurrent(q(name));
        applyView(fitted);
    } else if (sameDims && fitViewTo(carried, *ds, fitted, gridFile_.get())) {
        datasetPanel_->setCurrent(q(name));
        applyView(fitted);
    } else {
        datasetPanel_->setCurrent(q(name));
        showVariable(q(name));
    }
    statusBar()->showMessage(tr("Derived %1").arg(q(name)), 4000);
    return true;
}

void MainWindow::addDerivedQuietly(const std::vector<std::string>& statements) {
    const std::vector<std::string> have = derivedStatementsOf(*ws_.dataset());
    auto next = std::make_shared<Dataset>(*ws_.dataset());
    bool changed = false;
    for (const std::string& s : statements) {
        if (std::find(have.begin(), have.end(), s) != have.end()) continue;
        derive(*next, s, others_);
        changed = true;
    }
    if (!changed) return;
    std::shared_ptr<const Dataset> ds = std::move(next);
    ws_.setDataset(ds, true);
    service_->updateDataset(ds);
    datasetPanel_->setDataset(ds);
}

void MainWindow::derivedDialog(const QString& statement) {
    bool ok = false;
    QString text = statement;
    for (;;) { // asked again, as written, until it is taken or cancelled
        text = QInputDialog::getText(
            this, tr("Derived Variable"),
            tr("NAME = EXPRESSION, over this dataset's variables (NAME [units] = … sets the units).\n"
               "For example: speed = hypot(u, v)   ·   t_c = tas - 273.15   ·\n"
               "anom = anomaly(tas, \"month\", 1991, 2020)   ·   smooth = rolling_mean(tas, \"time\", 30)"),
            QLineEdit::Normal, text, &ok);
        if (!ok || text.trimmed().isEmpty() || addDerived(text)) return;
    }
}

void MainWindow::anomalyDialog(const QString& timeDim) {
    if (!ws_.dataset() || view().variable.empty()) return;
    std::string base = view().variable;
    // The anomaly shown already: its dialog works on the variable it is the anomaly of.
    if (const Variable* v = ws_.dataset()->findVariable(base))
        if (const DerivedSource* d = derivedSourceOf(*v); d && base.size() > 8 &&
                                                          base.ends_with("_anomaly") &&
                                                          d->statement().starts_with(base + " = anomaly("))
            base.resize(base.size() - 8);
    const Coordinate* time = ws_.dataset()->coords.find(timeDim.toStdString());
    if (!time || !time->time || time->time->dates.empty()) return;
    int first = time->time->dates.front().year, last = first;
    for (const DateTime& d : time->time->dates) {
        first = std::min(first, d.year);
        last = std::max(last, d.year);
    }
    if (anomaly_) anomaly_->close();
    auto* dialog = new AnomalyDialog(q(base), first, last, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &AnomalyDialog::changed, this,
            [this](const QString& statement) { addDerived(statement, false); }); // while dragging: no dialog
    anomaly_ = dialog;
    dialog->show();
    addDerived(dialog->statement());
}

} // namespace strata::app
