#pragma once
// Running the strata executable as a user would, for the app tests: exit status, stdout and
// stderr; and reading back the CSV files it writes.
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace stratatest {

struct Run {
    int status = -1; // -1: it did not finish within two minutes; -2: it crashed
    QString out, err;
};

// The environment the tests run strata in: this one on the CPU backend (STRATA_CPU=1), with
// `set` ("NAME=value") added, `unset` removed, and HOME and XDG_CONFIG_HOME at `home` when it is
// given (no remembered view or settings).
inline QProcessEnvironment strataEnvironment(const QStringList& set = {}, const QStringList& unset = {},
                                             const QString& home = {}) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("STRATA_CPU", "1");
    for (const QString& s : set) env.insert(s.section('=', 0, 0), s.section('=', 1));
    for (const QString& name : unset) env.remove(name);
    if (!home.isEmpty()) {
        env.insert("HOME", home);
        env.insert("XDG_CONFIG_HOME", home);
    }
    return env;
}

// `strata args...` in `env`.
inline Run runStrata(const QStringList& args, const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(STRATA_APP_BINARY, args);
    if (!p.waitForFinished(120000)) return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

// `strata args...` on the CPU backend, with DISPLAY removed when asked.
inline Run runStrata(const QStringList& args, bool withoutDisplay = false) {
    return runStrata(args, strataEnvironment({}, withoutDisplay ? QStringList{"DISPLAY"} : QStringList{}));
}

// The rows of a CSV file, split at commas (the files Strata writes quote nothing).
inline QList<QStringList> readCsv(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QList<QStringList> rows;
    while (!f.atEnd()) rows.append(QString::fromUtf8(f.readLine()).trimmed().split(','));
    return rows;
}

} // namespace stratatest
