// The settings reader: every STRATA_* variable fed garbage falls back to its default with one
// warning naming it; good values parse; the budgets that once threw no longer do.
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <functional>

#include "strata/core/memory_budget.h"
#include "strata/core/residency.h"
#include "strata/core/settings.h"

using namespace strata;

namespace {

// The 16 variables Strata reads, written out here (not taken from the reader).
const QList<QByteArray> kNames{
    "STRATA_CPU",           "STRATA_CPU_ISA",        "STRATA_MEMORY_BUDGET", "STRATA_RESIDENT_BUDGET",
    "STRATA_OPEN_FILES",    "STRATA_IO_THREADS",     "STRATA_READ",          "STRATA_HTTP_TOKEN",
    "STRATA_HTTP_TIMEOUT",  "STRATA_TRACE_FRAMES",   "STRATA_TRACE_STARTUP", "STRATA_TRACE_TRANSFERS",
    "STRATA_QUIT_AFTER_MS", "STRATA_COASTLINES_DIR", "STRATA_GSHHG_DIR",     "STRATA_VTKVIEWS",
    "STRATA_FONT_FILE",
};

QString opt(const std::optional<std::size_t>& v) { return v ? QString::number(*v) : "none"; }

// Each variable's getter, its value written as text.
QString valueOf(const QByteArray& name) {
    if (name == "STRATA_CPU") return settings::cpu() ? "on" : "off";
    if (name == "STRATA_CPU_ISA") return settings::cpuIsa() == settings::CpuIsa::Base ? "base" : "auto";
    if (name == "STRATA_MEMORY_BUDGET") return opt(settings::memoryBudget());
    if (name == "STRATA_RESIDENT_BUDGET") return opt(settings::residentBudget(1000));
    if (name == "STRATA_OPEN_FILES") return opt(settings::openFiles());
    if (name == "STRATA_IO_THREADS") {
        const auto n = settings::ioThreads();
        return n ? QString::number(*n) : "none";
    }
    if (name == "STRATA_READ")
        return settings::reader() == settings::Reader::NetcdfC ? "netcdf-c" : "parallel";
    if (name == "STRATA_HTTP_TOKEN") {
        const auto t = settings::httpToken();
        return t ? QString::fromStdString(*t) : "none";
    }
    if (name == "STRATA_HTTP_TIMEOUT") return QString::number(settings::httpTimeoutSeconds());
    if (name == "STRATA_TRACE_FRAMES") return settings::traceFrames() ? "on" : "off";
    if (name == "STRATA_TRACE_STARTUP") return settings::traceStartup() ? "on" : "off";
    if (name == "STRATA_TRACE_TRANSFERS") return opt(settings::traceTransfers());
    if (name == "STRATA_QUIT_AFTER_MS") return QString::number(settings::quitAfterMs());
    if (name == "STRATA_COASTLINES_DIR") return QString::fromStdString(settings::coastlinesDir());
    if (name == "STRATA_GSHHG_DIR") return QString::fromStdString(settings::gshhgDir());
    if (name == "STRATA_VTKVIEWS") {
        const auto p = settings::vtkViewsPath();
        return p ? QString::fromStdString(*p) : "none";
    }
    if (name == "STRATA_FONT_FILE") {
        const auto p = settings::fontFile();
        return p ? QString::fromStdString(*p) : "none";
    }
    qFatal("no getter for %s", name.constData());
}

// The defaults, as the README states them.
QString defaultOf(const QByteArray& name) {
    if (name == "STRATA_CPU" || name == "STRATA_TRACE_FRAMES" || name == "STRATA_TRACE_STARTUP") return "off";
    if (name == "STRATA_CPU_ISA") return "auto";
    if (name == "STRATA_READ") return "parallel";
    if (name == "STRATA_HTTP_TIMEOUT") return "30";
    if (name == "STRATA_QUIT_AFTER_MS") return "0";
    if (name == "STRATA_COASTLINES_DIR") return "/usr/share/cartopy/data/shapefiles/gshhs";
    if (name == "STRATA_GSHHG_DIR") return "/usr/share/gmt-gshhg";
    return "none";
}

const QList<QByteArray> kSwitchGarbage{"2", "-1", "maybe", "nan", "yes please", "\xff\xfe", "   ", "1\n"};
const QList<QByteArray> kSizeGarbage{
    "   ",  "-5M", "99999999999999999999G", "8Q", "8GG", "NaN", "inf", "1e3", "\xff\xfe", "12abc",
    "0x10", "%",   "18446744073709551616"};
const QList<QByteArray> kCountGarbage{
    "   ", "-1", "99999999999999999999", "4x", "4.5", "0x10", "nan", "1e2", "\xff\xfe", "+-3", "4 4"};
const QList<QByteArray> kPathGarbage{"   ",       "\xff\xfe", "/tmp/a\nb",
                                     "/tmp/\x01", "\xc0\xaf", "/tmp/\xe2\x82"};

QList<QByteArray> garbageOf(const QByteArray& name) {
    if (name == "STRATA_CPU" || name == "STRATA_TRACE_FRAMES" || name == "STRATA_TRACE_STARTUP")
        return kSwitchGarbage;
    if (name == "STRATA_CPU_ISA")
        return {"avx512", "bas", "-1", "99999999999999999999", "\xff\xfe", "   ", "auto;base"};
    if (name == "STRATA_MEMORY_BUDGET" || name == "STRATA_TRACE_TRANSFERS") return kSizeGarbage;
    if (name == "STRATA_RESIDENT_BUDGET")
        return kSizeGarbage + QList<QByteArray>{"150%", "0%", "-50%", "NaN%", "half", "inf%", "50%%"};
    if (name == "STRATA_OPEN_FILES") return kCountGarbage + QList<QByteArray>{"0", "100001"};
    if (name == "STRATA_IO_THREADS") return kCountGarbage + QList<QByteArray>{"0", "257"};
    if (name == "STRATA_HTTP_TIMEOUT") return kCountGarbage + QList<QByteArray>{"0", "3601", "30s"};
    if (name == "STRATA_QUIT_AFTER_MS") return kCountGarbage + QList<QByteArray>{"2147483648"};
    if (name == "STRATA_READ") return {"netcdf", "hdf5", "-1", "   ", "\xff\xfe", "parallel,netcdf-c"};
    if (name == "STRATA_HTTP_TOKEN")
        return {"zebra quokka", "wombat\nzebra", "\xff\xfe", "quokka\twombat", "   ", "caf\xc3\xa9", "\x7f"};
    if (name == "STRATA_COASTLINES_DIR" || name == "STRATA_GSHHG_DIR" || name == "STRATA_VTKVIEWS")
        return kPathGarbage;
    if (name == "STRATA_FONT_FILE") // a path, and a file there
        return kPathGarbage + QList<QByteArray>{"/nonexistent/DejaVuSans.ttf", "/tmp"};
    qFatal("no garbage for %s", name.constData());
}

// How a warning shows a value: printable ASCII as is, any other byte as \xNN.
QString shownAs(const QByteArray& value) {
    QString out;
    for (const char c : value) {
        const auto b = static_cast<unsigned char>(c);
        out += b >= 0x20 && b < 0x7f ? QString(QChar(c)) : QString("\\x%1").arg(b, 2, 16, QChar('0'));
    }
    return out;
}

void unsetAll() {
    for (const QByteArray& n : kNames) qunsetenv(n.constData());
}

} // namespace

class TestSettings : public QObject {
    Q_OBJECT
    QStringList warnings_;

    void listen() {
        warnings_.clear();
        settings::setWarningSink(
            [this](const std::string& line) { warnings_ << QString::fromStdString(line); });
    }

private slots:
    void init() {
        unsetAll();
        listen();
    }
    void cleanupTestCase() {
        unsetAll();
        settings::setWarningSink(nullptr);
    }

    // Unset or empty: the default, and not a word.
    void unsetAndEmptyAreTheDefault() {
        for (const QByteArray& name : kNames) {
            QCOMPARE(valueOf(name), defaultOf(name));
            qputenv(name.constData(), "");
            QCOMPARE(valueOf(name), defaultOf(name));
        }
        QCOMPARE(warnings_, QStringList());
    }

    void garbageFallsBackWithOneWarning_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        for (const QByteArray& name : kNames)
            for (const QByteArray& value : garbageOf(name))
                QTest::addRow("%s='%s'", name.constData(), qPrintable(shownAs(value))) << name << value;
    }
    void garbageFallsBackWithOneWarning() {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        qputenv(name.constData(), value);
        QCOMPARE(valueOf(name), defaultOf(name));
        QCOMPARE(valueOf(name), defaultOf(name)); // read again: no second warning
        QCOMPARE(warnings_.size(), 1);
        const QString& w = warnings_.front();
        const QString n = QString::fromLatin1(name);
        QVERIFY2(!w.contains('\n') && w.contains(n) && w.contains("expected") &&
                     w.contains("using the default"),
                 qPrintable(w));
        if (name == "STRATA_HTTP_TOKEN") { // a secret, even a malformed one, is never shown
            for (const QString& part : QString::fromLatin1(value).split(QRegularExpression("[^a-z]+")))
                QVERIFY2(part.size() < 3 || !w.contains(part), qPrintable(w));
        } else {
            QVERIFY2(w.contains(n + "='" + shownAs(value) + "'"), qPrintable(w));
        }
    }

    void goodValuesParse_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("expected");
        const auto row = [](const char* name, const char* value, const QString& expected) {
            QTest::addRow("%s=%s", name, value) << QByteArray(name) << QByteArray(value) << expected;
        };
        row("STRATA_CPU", "1", "on");
        row("STRATA_CPU", " TRUE ", "on");
        row("STRATA_CPU", "yes", "on");
        row("STRATA_CPU", "0", "off");
        row("STRATA_CPU", "Off", "off");
        row("STRATA_CPU_ISA", "base", "base");
        row("STRATA_CPU_ISA", "auto", "auto");
        row("STRATA_MEMORY_BUDGET", "1048576", "1048576");
        row("STRATA_MEMORY_BUDGET", "512M", QString::number(512LL << 20));
        row("STRATA_MEMORY_BUDGET", "8 GiB", QString::number(8LL << 30));
        row("STRATA_MEMORY_BUDGET", "1.5T", QString::number(3LL << 39));
        row("STRATA_RESIDENT_BUDGET", "50%", "500");
        row("STRATA_RESIDENT_BUDGET", "100%", "1000");
        row("STRATA_RESIDENT_BUDGET", "0", "0");
        row("STRATA_RESIDENT_BUDGET", "8G", QString::number(8LL << 30));
        row("STRATA_OPEN_FILES", "1", "1");
        row("STRATA_OPEN_FILES", " 64 ", "64");
        row("STRATA_OPEN_FILES", "100000", "100000");
        row("STRATA_IO_THREADS", "1", "1");
        row("STRATA_IO_THREADS", "256", "256");
        row("STRATA_READ", "netcdf-c", "netcdf-c");
        row("STRATA_READ", "parallel", "parallel");
        row("STRATA_HTTP_TOKEN", "abc.DEF-123_~+/=", "abc.DEF-123_~+/=");
        row("STRATA_HTTP_TIMEOUT", "1", "1");
        row("STRATA_HTTP_TIMEOUT", "3600", "3600");
        row("STRATA_TRACE_FRAMES", "1", "on");
        row("STRATA_TRACE_FRAMES", "no", "off");
        row("STRATA_TRACE_STARTUP", "on", "on");
        row("STRATA_TRACE_STARTUP", "0", "off");
        row("STRATA_TRACE_TRANSFERS", "0", "0");
        row("STRATA_TRACE_TRANSFERS", "4096", "4096");
        row("STRATA_TRACE_TRANSFERS", "1M", "1048576");
        row("STRATA_QUIT_AFTER_MS", "6000", "6000");
        row("STRATA_QUIT_AFTER_MS", "2147483647", "2147483647");
        row("STRATA_COASTLINES_DIR", "/opt/app/coast", "/opt/app/coast");
        row("STRATA_COASTLINES_DIR", "/data/côtes et îles", QString::fromUtf8("/data/côtes et îles"));
        row("STRATA_GSHHG_DIR", "/opt/app/gshhg", "/opt/app/gshhg");
        row("STRATA_VTKVIEWS", "/opt/app/bin/libstrata_vtkviews.so", "/opt/app/bin/libstrata_vtkviews.so");
        row("STRATA_FONT_FILE", STRATA_SOURCE_DIR "/README.md", STRATA_SOURCE_DIR "/README.md"); // any file
    }
    void goodValuesParse() {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        qputenv(name.constData(), value);
        QCOMPARE(valueOf(name), expected);
        QCOMPARE(warnings_, QStringList());
    }

    // Another bad value of the same variable is another warning; the same one is not repeated,
    // and a new sink hears it again.
    void eachWarningOncePerProcess() {
        qputenv("STRATA_IO_THREADS", "lots");
        for (int i = 0; i < 3; ++i) QCOMPARE(settings::ioThreads(), std::nullopt);
        qputenv("STRATA_IO_THREADS", "-4");
        QCOMPARE(settings::ioThreads(), std::nullopt);
        QCOMPARE(warnings_.size(), 2);
        QVERIFY(warnings_[0].contains("'lots'") && warnings_[1].contains("'-4'"));
        qputenv("STRATA_IO_THREADS", "lots");
        QCOMPARE(settings::ioThreads(), std::nullopt);
        QCOMPARE(warnings_.size(), 2);
        listen();
        QCOMPARE(settings::ioThreads(), std::nullopt);
        QCOMPARE(warnings_.size(), 1);
    }

    // checkAll reads every variable: one warning for each bad one.
    void checkAllReportsEveryVariable() {
        for (const QByteArray& name : kNames) qputenv(name.constData(), "\x01garbage\xff");
        settings::checkAll();
        QCOMPARE(warnings_.size(), kNames.size());
        for (const QByteArray& name : kNames)
            QVERIFY2(warnings_.filter(QString::fromLatin1(name) + (name == "STRATA_HTTP_TOKEN" ? " " : "="))
                             .size() == 1,
                     qPrintable(name));
    }

    // The two budgets threw on a bad value (the window died in its constructor); now the
    // default holds. memoryBudget() reads its variable once per process: here first.
    void budgetsSurviveGarbage() {
        qputenv("STRATA_MEMORY_BUDGET", "99999999999999999999G");
        QCOMPARE(memoryBudget(), kUnlimitedMemory);
        qputenv("STRATA_RESIDENT_BUDGET", "half");
        const std::size_t b = defaultResidentBudget(Device::host());
        const std::size_t available = hostAvailableMemory();
        // 60 % of what was available when each was read; the two reads are moments apart.
        QVERIFY2(b > 0 && b <= available, qPrintable(QString("%1 of %2").arg(b).arg(available)));
        QCOMPARE(warnings_.size(), 2);
        QVERIFY(warnings_.filter("STRATA_MEMORY_BUDGET='99999999999999999999G'").size() == 1);
        QVERIFY(warnings_.filter("STRATA_RESIDENT_BUDGET='half'").size() == 1);
    }

    // The reader's list is the 17 variables, each described; the README has a row for each.
    void everyVariableIsListedAndDocumented() {
        QList<QByteArray> listed;
        for (const settings::Variable& v : settings::variables()) {
            listed << QByteArray(v.name);
            QVERIFY(*v.accepted && *v.fallback && *v.what);
        }
        QCOMPARE(listed, kNames);
        QFile readme(STRATA_SOURCE_DIR "/README.md");
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QByteArray text = readme.readAll();
        for (const QByteArray& name : kNames)
            QVERIFY2(text.contains("\n| `" + name + "` |"), name.constData());
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
