// The window's colour state: a colouring belongs to one variable of one file (a fixed range
// means nothing for another variable), remembered in the settings by file and variable, so that
// a variable shows its own colours again, and one never seen starts from the defaults.
#include <QFileInfo>
#include <QJsonDocument>
#include <QSettings>

#include "main_window.h"
#include "strata/render/colour_range.h"
#include "view_json.h"

namespace strata::app {
namespace {

QString colouringKey(const std::string& file, const std::string& variable) {
    // '#' parts the file from the variable: QSettings keeps it, and no absolute path ends in it.
    return "colourings/" + QFileInfo(QString::fromStdString(file)).absoluteFilePath() + "#" +
           QString::fromStdString(variable);
}

} // namespace

Colouring MainWindow::colouringFor(const std::string& variable) const {
    if (!ds_) return {};
    if (ds_->path.empty() && memoryRange_) { // strata.show(..., vmin=, vmax=)
        Colouring c;
        c.range = *memoryRange_;
        return c;
    }
    const QByteArray saved = QSettings().value(colouringKey(ds_->path, variable)).toByteArray();
    const QJsonDocument doc = QJsonDocument::fromJson(saved);
    if (!doc.isObject()) return {};
    try {
        return colouringFromJson(doc.object());
    } catch (const Error&) {
        return {}; // written by another version, or edited by hand: the defaults
    }
}

void MainWindow::rememberColouring() {
    if (!ds_ || ds_->path.empty() || spec_.variable.empty()) return;
    QSettings().setValue(colouringKey(ds_->path, spec_.variable),
                         QJsonDocument(toJson(spec_.colouring)).toJson(QJsonDocument::Compact));
}

MinMax MainWindow::shownColourRange() const {
    if (shown_.ndim() == 0) return {0, 1};
    try {
        return frameColourRange(spec_.colouring.range, shown_, variableRange_, frameRange_);
    } catch (const Error&) {
        return {0, 1};
    }
}

} // namespace strata::app
