#pragma once
// Running the strata executable as a user would, for the app tests: exit status, stdout and
// stderr; and reading back the CSV files it writes.
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace stratatest {

struct Run {
    int status = -1; // -1: it did not finish within two minutes
    QString out, err;
};

// `strata args...` on the CPU backend (STRATA_CPU=1), with DISPLAY removed when asked.
inline Run runStrata(const QStringList& args, bool withoutDisplay = false) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("STRATA_CPU", "1");
    if (withoutDisplay) env.remove("DISPLAY");
    p.setProcessEnvironment(env);
    p.start(STRATA_APP_BINARY, args);
    if (!p.waitForFinished(120000)) return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
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
