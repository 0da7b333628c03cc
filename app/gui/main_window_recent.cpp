// The window's memory of files: the last view of each file (and file set), and File ▸ Open
// Recent, each entry enabled while what it names is there (a glob or a directory while it
// matches files) and opened as it was (a glob, a directory or a file set as one dataset).
#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QTimer>

#include "main_window.h"
#include "strata/core/units.h"
#include "strata/io/multifile.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// Whether a recent entry can be opened now: a file or store that is there, a glob or a
// directory that still names files, a file set of which a file is left (the others are left
// out with a note), or an address (not looked up here).
struct RecentState {
    bool openable = false;
    QString why; // its tooltip: the files it names now, or why it is greyed out
};

RecentState recentState(const QStringList& paths) {
    if (paths.size() == 1 && paths[0].contains("://")) return {true, paths[0]};
    std::vector<std::string> args;
    for (const QString& p : paths) args.push_back(p.toStdString());
    try {
        int there = 0;
        const std::vector<std::string> named = expandPaths(args);
        for (const std::string& f : named) there += QFileInfo::exists(q(f));
        if (there == 0) return {false, QObject::tr("%1: not there any more").arg(paths.join(", "))};
        if (named.size() == 1) return {true, q(named[0])};
        const QString missing = std::size_t(there) == named.size()
                                    ? QString()
                                    : QObject::tr(" (%1 not there any more)").arg(named.size() - there);
        return {true, QObject::tr("%1 files, opened as one dataset%2").arg(QString::number(there), missing)};
    } catch (const Error& e) { // a glob that matches nothing now, a directory without netCDF files
        return {false, q(e.what())};
    }
}

} // namespace

void MainWindow::rememberViewSoon() { rememberTimer_->start(); }

void MainWindow::rememberView() {
    rememberTimer_->stop();
    const auto& ds = ws_.dataset();
    if (!ds || ds->path.empty() || view().variable.empty()) return; // in memory: nothing to key it by
    ViewSpec last = view();
    last.derived = derivedStatementsOf(*ds); // made again when the file opens, where they can be
    settings_.setLastView(*ds, last);
    // A variable's colours are kept in its own units: a fixed range set in display units is
    // converted back (the variable's next first view shows it as stored).
    Colouring colouring = view().colouring;
    if (!view().units.empty() && colouring.range.mode == RangeMode::Fixed) {
        const auto r = rangeInUnits({colouring.range.fixedMin, colouring.range.fixedMax}, view().units,
                                    ws_.variable().attrs().text("units").value_or(""));
        if (!r) return; // no way back to the variable's own units: its colours are left as they were
        std::tie(colouring.range.fixedMin, colouring.range.fixedMax) = *r;
    }
    settings_.setColouring(*ds, view().variable, colouring);
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = settings_.recentFiles();
    int n = 0;
    for (const QString& p : recent) {
        const QStringList paths = p.split('\n');
        std::vector<std::string> files;
        for (const QString& f : paths) files.push_back(f.toStdString());
        const QString label =
            paths.size() == 1 ? p : QFileInfo(paths[0]).dir().filePath(q(fileSetLabel(files)));
        QAction* a = recentMenu_->addAction(QString("&%1 %2").arg(++n % 10).arg(label), this,
                                            [this, paths] { openFiles(paths); });
        const RecentState state = recentState(paths);
        a->setEnabled(state.openable);
        a->setToolTip(state.why);
    }
    recentMenu_->setEnabled(!recent.isEmpty());
    recentMenu_->setToolTipsVisible(true);
}

} // namespace strata::app
