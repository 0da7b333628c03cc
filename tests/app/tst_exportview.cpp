// One export for the window and the command line (under Xvfb): the same view exported from the
// window (MainWindow::exportPng/exportCsv) and by the strata executable gives the same CSV bytes
// and the same PNG pixels, on a grid-mapped file (lcc_km.nc, Lambert conformal in km) and on a
// map projection (the sample in Robinson). The CSVs' contents are checked against netCDF-C's
// reads of the files and, for the grid mapping's latitude/longitude, against Lambert conformal's
// inverse written out here from Snyder's formulas (not PROJ, which Strata uses).
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "app/healpix_file.h"
#include "app/window_fixture.h"
#include "nc_read.h"
#include "view_roles.h"

using namespace strata;
using strata::app::MainWindow;
using strata::app::ViewSpec;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kLcc = kData + "/lcc_km.nc";
const QString kSample = kData + "/../../resources/sample/tas_rectilinear_grid_2D.nc";

// The strata executable with `args`, in this test's environment: on the device the window in
// this process computes on (STRATA_CPU as here). Its stderr when it fails; empty when it succeeds.
QString runCli(const QStringList& args) {
    QProcess p;
    p.start(qEnvironmentVariable("STRATA_APP_BINARY", STRATA_APP_BINARY), args);
    if (!p.waitForFinished(120000)) return "did not finish in two minutes";
    const QString err = QString::fromUtf8(p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? QString() : "failed: " + err;
}

QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

double attribute(int nc, int var, const char* name, int at = 0) {
    double v[2] = {NAN, NAN};
    return nc_get_att_double(nc, var, name, v) == NC_NOERR ? v[at] : NAN;
}

// Latitude and longitude (degrees) of projected (x, y) in metres on the ellipsoidal Lambert
// conformal conic with two standard parallels: Snyder, Map Projections — A Working Manual (1987),
// equations 15-1 to 15-11 and 7-9, read from the grid mapping's attributes with netCDF-C.
struct LambertInverse {
    double a = 0, e = 0, n = 0, F = 0, rho0 = 0, lambda0 = 0, x0 = 0, y0 = 0;

    explicit LambertInverse(const std::string& path) {
        int nc = 0, gm = 0;
        if (nc_open(path.c_str(), NC_NOWRITE, &nc) != NC_NOERR) return;
        if (nc_inq_varid(nc, "lambert_conformal_conic", &gm) == NC_NOERR) {
            const double rad = M_PI / 180;
            a = attribute(nc, gm, "semi_major_axis");
            const double f = 1 / attribute(nc, gm, "inverse_flattening");
            e = std::sqrt(2 * f - f * f);
            const double p1 = attribute(nc, gm, "standard_parallel", 0) * rad,
                         p2 = attribute(nc, gm, "standard_parallel", 1) * rad,
                         p0 = attribute(nc, gm, "latitude_of_projection_origin") * rad;
            lambda0 = attribute(nc, gm, "longitude_of_central_meridian") * rad;
            x0 = attribute(nc, gm, "false_easting");
            y0 = attribute(nc, gm, "false_northing");
            n = (std::log(m(p1)) - std::log(m(p2))) / (std::log(t(p1)) - std::log(t(p2)));
            F = m(p1) / (n * std::pow(t(p1), n));
            rho0 = a * F * std::pow(t(p0), n);
        }
        nc_close(nc);
    }
    double m(double phi) const {
        return std::cos(phi) / std::sqrt(1 - e * e * std::sin(phi) * std::sin(phi));
    }
    double t(double phi) const {
        const double s = e * std::sin(phi);
        return std::tan(M_PI / 4 - phi / 2) / std::pow((1 - s) / (1 + s), e / 2);
    }
    std::pair<double, double> latLon(double x, double y) const {
        x -= x0;
        y -= y0;
        const double sign = n < 0 ? -1 : 1;
        const double rho = sign * std::sqrt(x * x + (rho0 - y) * (rho0 - y));
        const double theta = std::atan2(sign * x, sign * (rho0 - y));
        const double tt = std::pow(rho / (a * F), 1 / n);
        double phi = M_PI / 2 - 2 * std::atan(tt);
        for (int i = 0; i < 20; ++i) {
            const double s = e * std::sin(phi);
            phi = M_PI / 2 - 2 * std::atan(tt * std::pow((1 - s) / (1 + s), e / 2));
        }
        return {phi * 180 / M_PI, (theta / n + lambda0) * 180 / M_PI};
    }
};

// The CSV's rows split at commas, the header first.
QList<QList<QByteArray>> rowsOf(const QByteArray& csv) {
    QList<QList<QByteArray>> rows;
    for (const QByteArray& line : csv.trimmed().split('\n')) rows.append(line.split(','));
    return rows;
}

// A cell's text as netCDF-C's float reads: NaN is an empty field, a number reads back the same.
bool sameValue(const QByteArray& text, float want) {
    if (std::isnan(want)) return text.isEmpty();
    bool ok = false;
    return text.toFloat(&ok) == want && ok;
}

} // namespace

class TestExportView : public QObject {
    Q_OBJECT
private slots:
    void init() { w_ = test::makeTestWindow("tst_exportview"); }
    void cleanup() { w_.reset(); }

    // lcc_km.nc: the window's CSV (with the grid mapping's lat/lon) is the command line's, byte
    // for byte, and its rows are netCDF-C's values at the inverse projection's latitude/longitude.
    void gridMappedCsvIsTheSameFromWindowAndCommandLine() {
        QVERIFY(test::openAndShow(*w_, kLcc));
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("prcp"));
        const QString fromWindow = dir_.filePath("lcc_window.csv"), fromCli = dir_.filePath("lcc_cli.csv");
        QVERIFY2(w_->exportCsv(fromWindow), qPrintable(w_->lastError()));
        const QString failed = runCli({kLcc, "--var", "prcp", "--export-csv", fromCli});
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const QByteArray window = contents(fromWindow), cli = contents(fromCli);
        QVERIFY(window.size() > 1000);
        QVERIFY2(window == cli,
                 qPrintable("the window's CSV and the command line's differ; headers: " +
                            window.left(window.indexOf('\n')) + " | " + cli.left(cli.indexOf('\n'))));

        const auto rows = rowsOf(window);
        const QList<QByteArray>& header = rows.front();
        const int yc = header.indexOf("y"), xc = header.indexOf("x"), latc = header.indexOf("lat"),
                  lonc = header.indexOf("lon"), vc = header.indexOf("prcp");
        QVERIFY2(yc >= 0 && xc >= 0 && latc >= 0 && lonc >= 0 && vc >= 0, header.join(',').constData());
        const auto y = nctest::readNcFloats(kLcc.toStdString(), "y"),
                   x = nctest::readNcFloats(kLcc.toStdString(), "x"),
                   prcp = nctest::readNcFloats(kLcc.toStdString(), "prcp");
        const std::size_t ny = y.values.size(), nx = x.values.size();
        QCOMPARE(ny, std::size_t(569));
        QCOMPARE(nx, std::size_t(619));
        QCOMPARE(std::size_t(rows.size()), 1 + ny * nx);
        const LambertInverse lcc(kLcc.toStdString());
        double worst = 0;
        for (std::size_t i = 0; i < ny * nx; ++i) {
            const QList<QByteArray>& row = rows[int(1 + i)];
            const std::size_t r = i / nx, c = i % nx;
            QVERIFY2(row.size() == header.size() && sameValue(row[yc], y.values[r]) &&
                         sameValue(row[xc], x.values[c]) && sameValue(row[vc], prcp.values[i]),
                     qPrintable(QString("row %1: %2").arg(1 + i).arg(QString(row.join(',')))));
            const auto [lat, lon] = lcc.latLon(1000.0 * x.values[c], 1000.0 * y.values[r]); // km
            worst = std::max(
                {worst, std::fabs(row[latc].toDouble() - lat), std::fabs(row[lonc].toDouble() - lon)});
        }
        QVERIFY2(worst < 1e-6, qPrintable(QString("lat/lon off the inverse by %1°").arg(worst)));
    }

    // The same grid-mapped view as PNG: the same pixels from both.
    void gridMappedPngIsTheSameFromWindowAndCommandLine() {
        QVERIFY(test::openAndShow(*w_, kLcc));
        samePng({kLcc, "--var", "prcp"}, "lcc");
    }

    // The sample on Robinson's map: the same PNG pixels and CSV bytes from both, and the CSV's
    // rows are netCDF-C's values of the first time.
    void projectedMapIsTheSameFromWindowAndCommandLine() {
        QVERIFY(test::openAndShow(*w_, kSample));
        w_->setProjection("Robinson"); // the same frame, drawn on the map
        QCOMPARE(QString::fromStdString(w_->view().projection), QString("Robinson"));
        QCOMPARE(QString::fromStdString(w_->imageView()->settings().projection), QString("Robinson"));
        samePng({kSample, "--var", "tas", "--projection", "Robinson"}, "robinson");
        // On the map indeed: not the picture without it.
        const QString plain = dir_.filePath("plain_cli.png");
        const QString failedPlain =
            runCli({kSample, "--var", "tas", "--size", "640x400", "--export-png", plain});
        QVERIFY2(failedPlain.isEmpty(), qPrintable(failedPlain));
        QVERIFY(QImage(plain).convertToFormat(QImage::Format_ARGB32) !=
                QImage(dir_.filePath("robinson_window.png")).convertToFormat(QImage::Format_ARGB32));

        const QString fromWindow = dir_.filePath("robinson_window.csv"),
                      fromCli = dir_.filePath("robinson_cli.csv");
        QVERIFY(w_->exportCsv(fromWindow));
        const QString failed =
            runCli({kSample, "--var", "tas", "--projection", "Robinson", "--export-csv", fromCli});
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const QByteArray window = contents(fromWindow);
        QVERIFY2(window == contents(fromCli), "the window's CSV and the command line's differ");
        const auto rows = rowsOf(window);
        QCOMPARE(rows.front(), (QList<QByteArray>{"lat", "lon", "time", "tas"}));
        const auto tas = nctest::readNcFloats(kSample.toStdString(), "tas"),
                   lat = nctest::readNcFloats(kSample.toStdString(), "lat"),
                   lon = nctest::readNcFloats(kSample.toStdString(), "lon");
        const std::size_t ny = lat.values.size(), nx = lon.values.size();
        QCOMPARE(std::size_t(rows.size()), 1 + ny * nx);
        for (std::size_t i = 0; i < ny * nx; ++i) {
            const QList<QByteArray>& row = rows[int(1 + i)];
            QVERIFY2(row.size() == 4 && sameValue(row[0], lat.values[i / nx]) &&
                         sameValue(row[1], lon.values[i % nx]) &&
                         sameValue(row[3], tas.at(0, i / nx, i % nx)),
                     qPrintable(QString("row %1: %2").arg(1 + i).arg(QString(row.join(',')))));
        }
    }

    // A line (a zonal mean along longitude): its plot the same from both.
    void linePlotIsTheSameFromWindowAndCommandLine() {
        QVERIFY(test::openAndShow(*w_, kSample));
        ViewSpec spec = w_->view();
        spec.xDim = "lon";
        spec.yDim.clear();
        spec.reductions = {{"lat", ReduceOp::Mean}};
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        w_->applyView(spec);
        QVERIFY(shown.wait(20000) || shown.count() > 0);
        QCOMPARE(w_->shownFrame().ndim(), std::size_t(1));
        samePng({kSample, "--var", "tas", "--x", "lon", "--reduce", "lat=mean"}, "line");
    }

    // A HEALPix variable: a map of its cells (on Mollweide's map) from both, the same pixels;
    // a map indeed, not the line its 1-D frame would otherwise be drawn as (a line plot has a
    // few dozen colours, this map hundreds).
    void healpixMapIsTheSameFromWindowAndCommandLine() {
        const QString path = dir_.filePath("healpix.nc");
        test::writeHealpixFile(path.toStdString());
        QVERIFY(test::openAndShow(*w_, path));
        QCOMPARE(w_->view().xDim, std::string("cell"));
        QVERIFY(w_->view().yDim.empty());
        w_->setProjection("Mollweide");
        QTRY_COMPARE(QString::fromStdString(w_->imageView()->settings().projection), QString("Mollweide"));
        samePng({path, "--projection", "Mollweide"}, "healpix");
        // A map fills the plot with colours; a line leaves it white but for the line.
        const QImage png(dir_.filePath("healpix_cli.png"));
        QSet<QRgb> colours;
        long coloured = 0;
        for (int y = 0; y < png.height(); ++y)
            for (int x = 0; x < png.width(); ++x) {
                const QColor c(png.pixel(x, y));
                colours.insert(c.rgb());
                coloured +=
                    std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()}) > 40;
            }
        QVERIFY2(colours.size() > 150 && coloured * 4 > png.width() * png.height(),
                 qPrintable(QString("%1 colours, %2 coloured pixels").arg(colours.size()).arg(coloured)));
    }

private:
    // The window's PNG of its view and the command line's of `args` at 640 × 400: the same pixels.
    void samePng(QStringList args, const QString& name) {
        const QSize size(640, 400);
        const QString fromWindow = dir_.filePath(name + "_window.png"),
                      fromCli = dir_.filePath(name + "_cli.png");
        QVERIFY2(w_->exportPng(fromWindow, size), qPrintable(w_->lastError()));
        args << "--size"
             << "640x400"
             << "--export-png" << fromCli;
        const QString failed = runCli(args);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const QImage a = QImage(fromWindow).convertToFormat(QImage::Format_ARGB32),
                     b = QImage(fromCli).convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(a.size(), size);
        QCOMPARE(b.size(), size);
        int differing = 0;
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x) differing += a.pixel(x, y) != b.pixel(x, y);
        QVERIFY2(differing == 0,
                 qPrintable(QString("%1 pixels differ: %2, %3").arg(differing).arg(fromWindow, fromCli)));
        // Not a blank picture: the frame or line and its labels are drawn.
        QSet<QRgb> colours;
        for (int y = 0; y < size.height(); y += 4)
            for (int x = 0; x < size.width(); x += 4) colours.insert(a.pixel(x, y));
        QVERIFY2(colours.size() > 4, qPrintable(fromWindow));
    }

    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;
};

QTEST_MAIN(TestExportView)
#include "tst_exportview.moc"
