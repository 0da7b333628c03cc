// Isolines against contourpy, matplotlib's contour engine (tests/io/contour_oracle.py, Debian's
// python3-contourpy): on analytic fields with saddles and missing data, on noise (a saddle in
// many cells), and on a real 500 hPa height field. For each level the two must have the same
// lines, open and closed, through the same points.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <random>

#include "strata/core/contour.h"
#include "strata/core/ops.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

struct Lines {
    int lines = 0, closed = 0;
    std::vector<std::pair<double, double>> points; // sorted
};

// Ours are closed when they come back to their first point exactly (both ends are computed from
// the same two samples the same way); contourpy's as its codes say.
bool comesBack(const std::vector<double>& xy) {
    const std::size_t n = xy.size();
    return n >= 6 && xy[0] == xy[n - 2] && xy[1] == xy[n - 1];
}

void add(Lines& l, const std::vector<double>& xy, bool closed) {
    ++l.lines;
    l.closed += closed;
    for (std::size_t k = 0; k + 1 < xy.size(); k += 2) l.points.emplace_back(xy[k], xy[k + 1]);
}

// Every point of `a` has one of `b` within `tol`.
QString missing(const Lines& a, const Lines& b, double tol) {
    for (const auto& [x, y] : a.points) {
        auto it = std::lower_bound(b.points.begin(), b.points.end(), std::make_pair(x - tol, -HUGE_VAL));
        bool found = false;
        for (; it != b.points.end() && it->first <= x + tol && !found; ++it)
            found = std::abs(it->second - y) <= tol;
        if (!found) return QString("(%1, %2)").arg(x, 0, 'g', 10).arg(y, 0, 'g', 10);
    }
    return {};
}

// contourpy's lines for `levels`, by level.
std::vector<Lines> oracle(const QStringList& args, const std::vector<double>& levels) {
    QStringList all = {QString(STRATA_SOURCE_DIR) + "/tests/io/contour_oracle.py"};
    all += args;
    for (double v : levels) all << QString::number(v, 'g', 17);
    QProcess py;
    py.start("/usr/bin/python3", all);
    if (!py.waitForFinished(120000) || py.exitCode() != 0) {
        qWarning("contour_oracle.py: %s", py.readAllStandardError().constData());
        return {};
    }
    const QJsonArray byLevel =
        QJsonDocument::fromJson(py.readAllStandardOutput()).object()["levels"].toArray();
    std::vector<Lines> out;
    for (const QJsonValue lv : byLevel) {
        Lines l;
        const QJsonArray lines = lv.toObject()["lines"].toArray(), closed = lv.toObject()["closed"].toArray();
        for (qsizetype k = 0; k < lines.size(); ++k) {
            std::vector<double> xy;
            for (const QJsonValue v : lines[k].toArray()) xy.push_back(v.toDouble());
            add(l, xy, closed[k].toBool());
        }
        std::sort(l.points.begin(), l.points.end());
        out.push_back(std::move(l));
    }
    return out;
}

// Ours and contourpy's agree level by level: as many lines, as many closed, the same points.
void agree(const DataArray& frame, const std::vector<double>& levels, const QStringList& oracleArgs) {
    const std::vector<Lines> theirs = oracle(oracleArgs, levels);
    QCOMPARE(theirs.size(), levels.size());
    const std::vector<Isoline> lines = isolines(frame, levels);
    int nonEmpty = 0;
    for (std::size_t k = 0; k < levels.size(); ++k) {
        Lines ours;
        for (const Isoline& l : lines)
            if (l.level == levels[k]) {
                QCOMPARE(l.closed, comesBack(l.xy));
                add(ours, l.xy, l.closed);
            }
        std::sort(ours.points.begin(), ours.points.end());
        const QString at = QString("level %1").arg(levels[k]);
        QVERIFY2(ours.lines == theirs[k].lines,
                 qPrintable(at + QString(": %1 lines, contourpy %2").arg(ours.lines).arg(theirs[k].lines)));
        QVERIFY2(
            ours.closed == theirs[k].closed,
            qPrintable(at + QString(": %1 closed, contourpy %2").arg(ours.closed).arg(theirs[k].closed)));
        const double tol = 1e-9 * (1 + double(std::max(frame.shape()[0], frame.shape()[1])));
        const QString a = missing(ours, theirs[k], tol), b = missing(theirs[k], ours, tol);
        QVERIFY2(a.isEmpty(), qPrintable(at + ": our point " + a + " is not on contourpy's lines"));
        QVERIFY2(b.isEmpty(), qPrintable(at + ": contourpy's point " + b + " is not on ours"));
        nonEmpty += ours.lines > 0;
    }
    QVERIFY(nonEmpty > 0);
}

} // namespace

class TestContourOracle : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    void againstRaw(std::int64_t ny, std::int64_t nx,
                    const std::function<double(std::int64_t, std::int64_t)>& f,
                    const std::vector<double>& levels) {
        std::vector<double> v;
        for (std::int64_t j = 0; j < ny; ++j)
            for (std::int64_t i = 0; i < nx; ++i) v.push_back(f(j, i));
        const QString path = dir_.filePath("field.f8");
        std::ofstream(path.toStdString(), std::ios::binary)
            .write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(double)));
        const DataArray frame = DataArray::fromHost("f", {"y", "x"}, {ny, nx}, v);
        agree(frame, levels, {"raw", path, QString::number(ny), QString::number(nx)});
    }

private slots:
    // Waves whose crests and troughs meet in saddles, with a round hole and scattered missing
    // points: lines end at the hole's edge and around each missing point.
    void wavesWithHoles() {
        std::mt19937_64 rng(20261205);
        std::uniform_real_distribution<double> u(0, 1);
        againstRaw(97, 131,
                   [&](std::int64_t j, std::int64_t i) {
                       const double x = double(i), y = double(j);
                       if ((x - 60) * (x - 60) + (y - 40) * (y - 40) < 120 || u(rng) < 0.01)
                           return double(NAN);
                       return std::sin(x / 7) * std::cos(y / 5) + 0.3 * std::sin((x + y) / 11);
                   },
                   {-0.9, -0.6, -0.3, 0, 0.3, 0.6, 0.9});
    }

    // Noise: saddles everywhere, each resolved by its cell's mean on both sides.
    void noiseIsFullOfSaddles() {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(0, 1);
        againstRaw(40, 50, [&](std::int64_t, std::int64_t) { return u(rng) < 0.05 ? double(NAN) : u(rng); },
                   {0.25, 0.5, 0.75});
    }

    // A real field: NCEP's 500 hPa height over the globe (tests/data/hgt.nc), first and last
    // months, at the automatic levels and at ones every 20 gpm.
    void a500hPaHeightField() {
        const std::string path = std::string(STRATA_SOURCE_DIR) + "/tests/data/hgt.nc";
        const Dataset ds = openDataset(path);
        for (std::int64_t t : {0, 20}) {
            const DataArray frame = ds["HGT"].isel({{"time", t}}).load(Device::host(), Stream::host());
            const auto [lo, hi] = minmaxValues(frame);
            for (const char* spec : {"auto", "20:0"}) {
                const std::vector<double> levels = contourLevels(parseContourSpec(spec), lo, hi);
                QVERIFY(levels.size() >= 5);
                agree(frame, levels, {"nc", QString::fromStdString(path), "HGT", QString::number(t)});
                if (QTest::currentTestFailed()) return;
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestContourOracle)
#include "tst_contouroracle.moc"
