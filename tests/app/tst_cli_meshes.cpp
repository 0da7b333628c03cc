// The command line on cells of the sphere (issue 37), as a user runs it: an MPAS mesh and a
// UGRID mesh whose data come in another file (--grid-file). --info says which mesh a variable
// lies on; the default view is the cell dim alone; the CSV gives each face's index with its
// centre, checked against netCDF-C's reading of the file (MPAS: latCell/lonCell in radians);
// the PNG is a map of the faces (or of values across them, from the nodes), not a line; an area
// mean weighs the faces by the grid's areas.
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

const QString kMesh = QStringLiteral(STRATA_TEST_DATA) + "/mesh/";

#if STRATA_HAVE_RENDER
// The number of distinct colours in a PNG.
int coloursIn(const QString& path) {
    const QImage img(path);
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) colours.insert(img.pixel(x, y));
    return int(colours.size());
}
#endif

} // namespace

class TestCliMeshes : public QObject {
    Q_OBJECT
private slots:
    void infoNamesTheMesh() {
        const Run r = runStrata({kMesh + "mpas_QU1920km.nc", "--info"});
        QCOMPARE(r.status, 0);
        const QString line = r.out.split('\n').filter(QRegularExpression("^\\s+areaCell\\s")).value(0);
        QVERIFY2(line.contains("MPAS mesh: on its 162 faces along nCells"), qPrintable(r.out));
    }

    // The MPAS variable areaCell: x is nCells and there is no y; the CSV's rows are the faces,
    // each with its centre in degrees (netCDF-C's radians converted here) and its value.
    void mpasCsvGivesEachFaceWithItsCentre() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("area.csv");
        const std::string path = (kMesh + "mpas_QU1920km.nc").toStdString();
        const Run r = runStrata({kMesh + "mpas_QU1920km.nc", "--var", "areaCell", "--export-csv", csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QList<QStringList> rows = readCsv(csv);
        QCOMPARE(rows.value(0), (QStringList{"nCells", "lat", "lon", "areaCell"}));
        const std::vector<double> lat = nctest::readPlain(path, "latCell"),
                                  lon = nctest::readPlain(path, "lonCell"),
                                  area = nctest::readPlain(path, "areaCell");
        QCOMPARE(qsizetype(rows.size()), qsizetype(1 + area.size()));
        for (std::size_t k = 0; k < area.size(); ++k) {
            const QStringList& row = rows[qsizetype(1 + k)];
            QCOMPARE(row.value(0).toLongLong(), qlonglong(k));
            QVERIFY2(std::fabs(row.value(1).toDouble() - lat[k] * 180 / M_PI) < 1e-9 &&
                         std::fabs(row.value(2).toDouble() - lon[k] * 180 / M_PI) < 1e-9 &&
                         std::fabs(row.value(3).toDouble() - area[k]) <= 1e-12 * std::fabs(area[k]),
                     qPrintable(row.join(',')));
        }
    }

    // The PNG: a map of the faces (hundreds of colours on Robinson), where the same 1-D frame
    // drawn as a line would have a few dozen.
    void mpasPngIsAMap() {
#if !STRATA_HAVE_RENDER
        QSKIP("PNG export needs the render layer");
#else
        QTemporaryDir dir;
        const QString png = dir.filePath("area.png");
        const Run r = runStrata({kMesh + "mpas_QU1920km.nc", "--var", "areaCell", "--projection", "Robinson",
                                 "--size", "640x400", "--export-png", png});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("not applied"), qPrintable(r.err));
        QVERIFY2(coloursIn(png) > 100, qPrintable(QString("%1 colours").arg(coloursIn(png))));
#endif
    }

    // Another variable's isolines over a mesh map (--contour-var): zCell, each face's height
    // on the sphere, drawn over areaCell at the height of the 30th parallel. The lines change
    // the picture (a parallel's worth of pixels); a variable on the mesh's vertices is on
    // other cells, and is refused with both named.
    void contourVariableOverMeshFaces() {
#if !STRATA_HAVE_RENDER
        QSKIP("PNG export needs the render layer");
#else
        QTemporaryDir dir;
        const QString plain = dir.filePath("plain.png"), lined = dir.filePath("lined.png");
        const QStringList base = {
            kMesh + "mpas_QU1920km.nc", "--var", "areaCell", "--projection", "Robinson", "--size", "640x400"};
        Run r = runStrata(base + QStringList{"--export-png", plain});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        // MPAS' unit sphere: sin 30°, a non-integer (an integer asks for that many levels).
        r = runStrata(base +
                      QStringList{"--contour-var", "zCell", "--contours", "0.5", "--export-png", lined});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QImage a(plain), b(lined);
        QCOMPARE(a.size(), b.size());
        int differing = 0;
        for (int y = 0; y < a.height(); ++y)
            for (int x = 0; x < a.width(); ++x) differing += a.pixel(x, y) != b.pixel(x, y);
        QVERIFY2(differing > 300, qPrintable(QString("%1 pixels differ").arg(differing)));

        r = runStrata(base +
                      QStringList{"--contour-var", "areaTriangle", "--export-png", dir.filePath("x.png")});
        QVERIFY(r.status != 0);
        QVERIFY2(r.err.contains("areaTriangle") && r.err.contains("areaCell"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("x.png")));
#endif
    }

    // UGRID data in one file, the mesh in another: with --grid-file the data's `ncol` (the
    // size of the grid's faces) is drawn on the faces and the CSV has their centres; without
    // it, the frame is a line and the CSV has no centres.
    void aGridFileGivesTheMesh() {
        QTemporaryDir dir;
        const QString data = kMesh + "ugrid_outCSne30_vortex.nc", grid = kMesh + "ugrid_outCSne30.ug";
        const QString csv = dir.filePath("psi.csv"), png = dir.filePath("psi.png");
        Run r = runStrata({data, "--grid-file", grid, "--var", "psi", "--export-csv", csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QList<QStringList> rows = readCsv(csv);
        QCOMPARE(rows.value(0), (QStringList{"ncol", "lat", "lon", "psi"}));
        QCOMPARE(rows.size(), qsizetype(1 + 5400));
#if STRATA_HAVE_RENDER
        r = runStrata({data, "--grid-file", grid, "--var", "psi", "--export-png", png, "--size", "640x400"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(coloursIn(png) > 100, qPrintable(QString("%1 colours").arg(coloursIn(png))));
#else
        (void)png;
#endif
        r = runStrata({data, "--var", "psi", "--export-csv", csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        rows = readCsv(csv);
        QCOMPARE(rows.value(0), (QStringList{"ncol", "psi"}));
        // A grid file that is not there: said, naming it.
        r = runStrata({data, "--grid-file", dir.filePath("none.nc"), "--var", "psi", "--export-csv", csv});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("--grid-file") && r.err.contains("none.nc"), qPrintable(r.err));
    }

    // MPAS' areaTriangle lies on the mesh's nodes (nVertices): the PNG is a map, each face
    // the mean of its corners (hundreds of colours, where its line would have a few dozen),
    // with nothing said against it; the CSV gives each node with its place.
    void nodeDataAreAMap() {
        QTemporaryDir dir;
        const QString png = dir.filePath("nodes.png"), csv = dir.filePath("nodes.csv");
        Run r = runStrata({kMesh + "mpas_QU1920km.nc", "--var", "areaTriangle", "--export-csv", csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QList<QStringList> rows = readCsv(csv);
        QCOMPARE(rows.value(0), (QStringList{"nVertices", "lat", "lon", "areaTriangle"}));
        const std::string path = (kMesh + "mpas_QU1920km.nc").toStdString();
        const std::vector<double> lat = nctest::readPlain(path, "latVertex");
        QCOMPARE(qsizetype(rows.size()), qsizetype(1 + lat.size()));
        QVERIFY(std::fabs(rows[5].value(1).toDouble() - lat[4] * 180 / M_PI) < 1e-9);
#if STRATA_HAVE_RENDER
        r = runStrata(
            {kMesh + "mpas_QU1920km.nc", "--var", "areaTriangle", "--export-png", png, "--size", "640x400"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("not drawn"), qPrintable(r.err));
        QVERIFY2(coloursIn(png) > 100, qPrintable(QString("%1 colours").arg(coloursIn(png))));
#else
        (void)png;
#endif
    }

    // --reduce nCells=area-mean on data beside an MPAS grid file: each step's mean weighs the
    // faces by the grid's areaCell (read here by netCDF-C), NaNs left out; without the grid
    // nothing says what the cells are, and the message says what an area mean needs.
    void areaMeanOverFacesWeighsByTheirAreas() {
        QTemporaryDir dir;
        const QString grid = kMesh + "mpas_QU1920km.nc", data = dir.filePath("value.nc"),
                      csv = dir.filePath("mean.csv");
        const std::vector<double> area = nctest::readPlain(grid.toStdString(), "areaCell");
        const std::size_t n = area.size();
        std::vector<float> values;
        for (int t = 0; t < 2; ++t)
            for (std::size_t i = 0; i < n; ++i) // grows with the area: the weights matter
                values.push_back(i % 11 == 3 ? NAN : float(100 * area[i] + t + 0.01 * double(i % 7)));
        {
            nctest::Writer w(data.toStdString(), NC_NETCDF4);
            const int time = w.dim("time", 2), cells = w.dim("nCells", n);
            const int v = w.var("value", NC_FLOAT, {time, cells});
            w.enddef();
            w.put(v, values);
        }
        Run r = runStrata({data, "--grid-file", grid, "--var", "value", "--reduce", "nCells=area-mean",
                           "--export-csv", csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QList<QStringList> rows = readCsv(csv);
        QCOMPARE(rows.size(), qsizetype(3));
        for (int t = 0; t < 2; ++t) {
            double s = 0, sw = 0, plain = 0;
            int count = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const float v = values[std::size_t(t) * n + i];
                if (std::isnan(v)) continue;
                s += area[i] * v, sw += area[i], plain += v, ++count;
            }
            const double want = s / sw, got = rows[t + 1].value(1).toDouble();
            QVERIFY2(std::fabs(got - want) < 1e-5 * std::fabs(want), qPrintable(rows[t + 1].join(',')));
            QVERIFY(std::fabs(plain / count - want) > 1e-3 * std::fabs(want)); // not the plain mean
        }
        r = runStrata(
            {data, "--var", "value", "--x", "time", "--reduce", "nCells=area-mean", "--export-csv", csv});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("area-weighted mean") && r.err.contains("latitude"), qPrintable(r.err));
    }
};

QTEST_MAIN(TestCliMeshes)
#include "tst_cli_meshes.moc"
