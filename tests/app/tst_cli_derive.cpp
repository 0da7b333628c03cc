// Derived variables from the command line (issue 31), as a user runs them: --derive 'NAME = EXPR'
// shown with --var and exported, and --with ALIAS=PATH for a second file's variables. Each CSV
// is checked against the expression worked out here on netCDF-C's reading of the files
// (tests/data/geostrophic_500.nc: zg, ua, va on 2 × 73 × 144, NaN at the poles' winds); a bad
// expression is refused, naming it and the problem, and writes nothing.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#if STRATA_HAVE_RENDER
#include <QImage>
#endif
#include <cmath>

#include "io/nc_write.h"
#include "nc_frame.h"
#include "strata_process.h"

using stratatest::readCsv;
using stratatest::Run;
using stratatest::runStrata;

namespace {

const QString kWinds = QStringLiteral(STRATA_TEST_DATA "/geostrophic_500.nc");

// `v` read as the CSV writes it: empty for a missing value.
double cell(const QString& v) { return v.isEmpty() ? NAN : v.toDouble(); }

// Empty when the CSV's rows (lat, lon, ..., value) give `want(j, i)` over the 73 × 144 grid,
// row by row of latitude, to float precision (the frame is float32), NaN as NaN.
template <class Want> QString compare(const QList<QStringList>& rows, Want want) {
    if (rows.size() != 1 + 73 * 144) return QString("%1 rows").arg(rows.size());
    int finite = 0;
    for (int j = 0; j < 73; ++j)
        for (int i = 0; i < 144; ++i) {
            const QStringList& r = rows[1 + j * 144 + i];
            const double have = cell(r.back()), expected = want(j, i);
            if (std::isnan(expected) != std::isnan(have) ||
                (!std::isnan(expected) &&
                 std::fabs(have - expected) > 2e-6 * std::max(1.0, std::fabs(expected))))
                return QString("row %1 (%2): %3, expected %4")
                    .arg(1 + j * 144 + i)
                    .arg(r.join(','))
                    .arg(have)
                    .arg(expected);
            finite += !std::isnan(expected);
        }
    return finite > 73 * 144 / 2 ? QString() : "too few values";
}

} // namespace

class TestCliDerive : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    // speed = hypot(ua, va) at the first step (the default view: lat × lon, time sliced at 0).
    void aDerivedVariableIsShownAndExported() {
        const QString csv = dir_.filePath("speed.csv");
        const Run r =
            runStrata({kWinds, "--derive", "speed = hypot(ua, va)", "--var", "speed", "--export-csv", csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QList<QStringList> rows = readCsv(csv);
        QCOMPARE(rows.value(0), (QStringList{"lat", "lon", "time", "speed"}));
        const auto u = nctest::readDecoded(kWinds.toStdString(), "ua"),
                   v = nctest::readDecoded(kWinds.toStdString(), "va");
        QVERIFY(u && v);
        const QString why = compare(rows, [&](int j, int i) {
            const std::size_t k = std::size_t(j) * 144 + std::size_t(i); // time 0
            return std::hypot(u->values[k], v->values[k]);
        });
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // --with b=OTHER: d = zg - b.zg, averaged over time, where the other file's zg is half this
    // one's plus the latitude's row number.
    void anotherFilesVariableByItsAlias() {
        const std::string path = kWinds.toStdString();
        const auto zg = nctest::readDecoded(path, "zg");
        QVERIFY(zg);
        const QString other = dir_.filePath("half.nc");
        {
            nctest::Writer f(other.toStdString(), NC_NETCDF4);
            const int t = f.dim("time", 2), y = f.dim("lat", 73), x = f.dim("lon", 144);
            const int time = f.var("time", NC_INT, {t}), lat = f.var("lat", NC_FLOAT, {y}),
                      lon = f.var("lon", NC_FLOAT, {x}), v = f.var("zg", NC_FLOAT, {t, y, x});
            f.text(time, "units", "months since 1958-1-1 00:00:00");
            f.text(time, "calendar", "standard");
            f.text(lat, "units", "degrees_north");
            f.text(lon, "units", "degrees_east");
            f.text(v, "units", "m");
            f.enddef();
            f.put(time, std::vector<int>{0, 1});
            std::vector<float> lats, lons, values;
            for (double d : nctest::readPlain(path, "lat")) lats.push_back(float(d));
            for (double d : nctest::readPlain(path, "lon")) lons.push_back(float(d));
            for (std::size_t k = 0; k < zg->values.size(); ++k)
                values.push_back(float(zg->values[k] * 0.5 + double(k / 144 % 73)));
            f.put(lat, lats);
            f.put(lon, lons);
            f.put(v, values);
        }
        const QString csv = dir_.filePath("d.csv");
        const Run r = runStrata({kWinds, "--with", "b=" + other, "--derive", "d = zg - b.zg", "--var", "d",
                                 "--reduce", "time=mean", "--export-csv", csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QList<QStringList> rows = readCsv(csv);
        QCOMPARE(rows.value(0), (QStringList{"lat", "lon", "d"}));
        const QString why = compare(rows, [&](int j, int i) {
            double sum = 0;
            for (std::size_t t = 0; t < 2; ++t) {
                const std::size_t k = (t * 73 + std::size_t(j)) * 144 + std::size_t(i);
                sum += zg->values[k] - double(float(zg->values[k] * 0.5 + double(j)));
            }
            return sum / 2;
        });
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // A derived map as a PNG: drawn (many colours), not refused.
    void aDerivedVariableAsAPicture() {
#if !STRATA_HAVE_RENDER
        QSKIP("PNG export needs the render layer");
#else
        const QString png = dir_.filePath("speed.png");
        const Run r =
            runStrata({kWinds, "--derive", "speed = hypot(ua, va)", "--var", "speed", "--export-png", png});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QImage img(png);
        QVERIFY(!img.isNull());
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 3)
            for (int x = 0; x < img.width(); x += 3) colours.insert(img.pixel(x, y));
        QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
#endif
    }

    // Refused with the expression and the problem; no file written.
    void aBadExpressionIsRefused() {
        const QString csv = dir_.filePath("bad.csv");
        Run r = runStrata({kWinds, "--derive", "speed = nosuch(ua)", "--var", "speed", "--export-csv", csv});
        QVERIFY(r.status != 0);
        QVERIFY2(r.err.contains("speed = nosuch(ua)") && r.err.contains("unknown function 'nosuch'"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(csv));
        r = runStrata({kWinds, "--derive", "d = zg - c.zg", "--var", "d", "--export-csv", csv});
        QVERIFY(r.status != 0);
        QVERIFY2(r.err.contains("c.zg") || r.err.contains("'c'"), qPrintable(r.err));
        QVERIFY(!QFile::exists(csv));
    }
};

QTEST_GUILESS_MAIN(TestCliDerive)
#include "tst_cli_derive.moc"
