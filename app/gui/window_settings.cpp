#include "window_settings.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSettings>
#include <QStandardPaths>

#include "strata/io/multifile.h"
#include "view_json.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString colouringKey(const QString& dataset, const std::string& variable) {
    // '#' parts the dataset from the variable: QSettings keeps it, and no absolute path ends in it.
    return "colourings/" + dataset + "#" + q(variable);
}

} // namespace

QString datasetKey(const Dataset& ds) {
    if (!ds.files.empty())
        return QFileInfo(q(ds.files.front())).absoluteDir().filePath(q(fileSetLabel(ds.files)));
    return ds.path.empty() ? QString() : QFileInfo(q(ds.path)).absoluteFilePath();
}

std::optional<ViewSpec> WindowSettings::lastView(const Dataset& ds) const {
    const QString key = datasetKey(ds);
    if (key.isEmpty()) return std::nullopt;
    const QByteArray saved = QSettings().value("views/" + key).toByteArray();
    if (saved.isEmpty()) return std::nullopt;
    try {
        return viewFromJsonText(saved);
    } catch (const Error&) {
        return std::nullopt; // written by another version, or edited by hand
    }
}

void WindowSettings::setLastView(const Dataset& ds, const ViewSpec& view) {
    if (const QString key = datasetKey(ds); !key.isEmpty())
        QSettings().setValue("views/" + key, toJsonText(view));
}

std::optional<Colouring> WindowSettings::colouring(const Dataset& ds, const std::string& variable) const {
    const QString key = datasetKey(ds);
    if (key.isEmpty()) return std::nullopt;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QSettings().value(colouringKey(key, variable)).toByteArray());
    if (!doc.isObject()) return std::nullopt;
    try {
        return colouringFromJson(doc.object());
    } catch (const Error&) {
        return std::nullopt;
    }
}

void WindowSettings::setColouring(const Dataset& ds, const std::string& variable,
                                  const Colouring& colouring) {
    if (const QString key = datasetKey(ds); !key.isEmpty())
        QSettings().setValue(colouringKey(key, variable),
                             QJsonDocument(toJson(colouring)).toJson(QJsonDocument::Compact));
}

QStringList WindowSettings::recentFiles() const { return QSettings().value("recentFiles").toStringList(); }

void WindowSettings::addRecent(const QStringList& paths) {
    QStringList recent = recentFiles();
    QStringList absolutes;
    for (const QString& p : paths) absolutes << QFileInfo(p).absoluteFilePath();
    const QString entry = absolutes.join('\n');
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > 10) recent.removeLast();
    QSettings().setValue("recentFiles", recent);
}

QString WindowSettings::lastFolder() const { return QSettings().value("lastFolder").toString(); }
void WindowSettings::setLastFolder(const QString& folder) { QSettings().setValue("lastFolder", folder); }
QString WindowSettings::viewFolder() const {
    return QSettings()
        .value("viewFolder", QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
        .toString();
}
void WindowSettings::setViewFolder(const QString& folder) { QSettings().setValue("viewFolder", folder); }
QString WindowSettings::exportFolder() const { return QSettings().value("exportFolder").toString(); }
void WindowSettings::setExportFolder(const QString& folder) { QSettings().setValue("exportFolder", folder); }
QSize WindowSettings::exportSize() const {
    return QSettings().value("export/size", QSize(1200, 800)).toSize();
}
void WindowSettings::setExportSize(QSize size) { QSettings().setValue("export/size", size); }
QString WindowSettings::residentBudget() const { return QSettings().value("residency/budget").toString(); }
void WindowSettings::setResidentBudget(const QString& text) {
    QSettings().setValue("residency/budget", text);
}
QByteArray WindowSettings::windowGeometry() const {
    return QSettings().value("window/geometry").toByteArray();
}
QByteArray WindowSettings::windowState() const { return QSettings().value("window/state").toByteArray(); }

void WindowSettings::setWindowLayout(const QByteArray& geometry, const QByteArray& state) {
    QSettings settings;
    settings.setValue("window/geometry", geometry);
    settings.setValue("window/state", state);
}

} // namespace strata::app
