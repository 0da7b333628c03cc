#pragma once
// WindowSettings: everything the window keeps between sessions, in one place — the last view of
// each file (and file set), each variable's colours, recent files, the folders last used, the
// export size, the memory budget, and the window's layout. Keys are made here alone, so what is
// saved under one key is read back under the same one.
#include <QByteArray>
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>

#include "strata/core/colour_range.h"
#include "strata/core/dataset.h"
#include "view_spec.h"

namespace strata::app {

// The key of a dataset in the settings: the file's absolute path; for a file set, its label
// ("tas_*.nc (480 files)") in its first file's folder. Empty for data held in memory.
QString datasetKey(const Dataset& ds);

class WindowSettings {
public:
    // The last view shown of `ds`, when one was kept (and can be read).
    std::optional<ViewSpec> lastView(const Dataset& ds) const;
    void setLastView(const Dataset& ds, const ViewSpec& view);
    // The colours `variable` of `ds` was last shown with, when kept.
    std::optional<Colouring> colouring(const Dataset& ds, const std::string& variable) const;
    void setColouring(const Dataset& ds, const std::string& variable, const Colouring& colouring);

    // Recent entries: a path, or a file set's paths joined by newlines; newest first, 10 at most.
    QStringList recentFiles() const;
    void addRecent(const QStringList& paths);

    QString lastFolder() const;
    void setLastFolder(const QString& folder);
    // Where View ▸ Save/Load View start: the last folder used, else the user's documents.
    QString viewFolder() const;
    void setViewFolder(const QString& folder);
    QString exportFolder() const;
    void setExportFolder(const QString& folder);
    QSize exportSize() const; // 1200 × 800 until one is chosen
    void setExportSize(QSize size);

    // Settings ▸ Memory Budget…: "8G", "60%" (empty: none chosen).
    QString residentBudget() const;
    void setResidentBudget(const QString& text);

    QByteArray windowGeometry() const;
    QByteArray windowState() const;
    void setWindowLayout(const QByteArray& geometry, const QByteArray& state);
};

} // namespace strata::app
