// HEALPix pyramids (healpix_pyramid.h) on tests/data/healpix_pyramid: tas at zooms 0 to 4 written
// by xarray and zarr-python (make_healpix_pyramid.py), one store a zoom and one store of a group
// a zoom. Both open as one Dataset whose groups are the zooms and whose root lists tas once; each
// zoom is the one it says (a cell is the mean of its four children at the next zoom, nest order,
// missing ones skipped); the zoom drawn follows a pixel's footprint; stores that cannot be one
// pyramid are refused, naming them.
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>

#include "strata/core/healpix_grid.h"
#include "strata/core/healpix_pyramid.h"
#include "strata/io/multifile.h"

using namespace strata;

namespace {

const std::string kDir = STRATA_TEST_DATA "/healpix_pyramid";

std::string store(int zoom) { return kDir + "/tas_z" + std::to_string(zoom) + ".zarr"; }

std::vector<double> valuesOf(const DataArray& v) {
    return v.load(Device::host(), Stream::host()).values<double>();
}

// Equal values, NaN where the other has NaN.
bool same(const std::vector<double>& a, const std::vector<double>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); });
}

std::string slurp(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

void replaceIn(const std::string& path, const std::string& from, const std::string& to) {
    std::string text = slurp(path);
    const auto at = text.find(from);
    QVERIFY2(at != std::string::npos, path.c_str());
    text.replace(at, from.size(), to);
    std::ofstream(path) << text;
}

// Empty when `ds` is the test pyramid: zooms 0–4 in groups /z0 … /z4, tas at each with 12·4^z
// cells, each zoom's cells the NaN-skipping means of their children, the root's tas zoom 0's.
QString notThePyramid(const Dataset& ds) {
    const std::optional<healpix::Pyramid> p = healpix::pyramidOf(ds);
    if (!p) return "no pyramid found";
    if (p->levels.size() != 5 || p->variables != std::vector<std::string>{"tas"} ||
        p->order != healpix::Order::Nest)
        return QString::fromStdString("not zooms 0-4 of tas, nest: " + p->describe());
    std::vector<std::vector<double>> zooms;
    for (int z = 0; z < 5; ++z) {
        const healpix::PyramidLevel& l = p->levels[std::size_t(z)];
        if (l.zoom != z || l.nside != (std::int64_t(1) << z) || l.group != "/z" + std::to_string(z))
            return QString("level %1 is zoom %2, nside %3, in %4")
                .arg(z)
                .arg(l.zoom)
                .arg(l.nside)
                .arg(l.group.c_str());
        if (p->level(z) != &l) return QString("level(%1) is not the level of zoom %1").arg(z);
        const DataArray tas = ds.findGroup(l.group)["tas"];
        if (tas.shape() != Shape{3, 12 * (std::int64_t(1) << (2 * z))})
            return QString("zoom %1's shape").arg(z);
        zooms.push_back(valuesOf(tas));
    }
    for (int z = 0; z < 4; ++z) {
        const std::vector<double>&coarse = zooms[std::size_t(z)], &fine = zooms[std::size_t(z + 1)];
        const std::size_t n = coarse.size() / 3, m = fine.size() / 3;
        std::size_t compared = 0;
        for (std::size_t t = 0; t < 3; ++t)
            for (std::size_t c = 0; c < n; ++c) {
                double sum = 0;
                int count = 0;
                for (std::size_t k = 0; k < 4; ++k)
                    if (const double v = fine[t * m + 4 * c + k]; !std::isnan(v)) sum += v, ++count;
                const double have = coarse[t * n + c];
                if (count == 0 ? !std::isnan(have) : std::fabs(have - sum / count) > 1e-3)
                    return QString("zoom %1, step %2, cell %3: %4, its children's mean %5")
                        .arg(z)
                        .arg(t)
                        .arg(c)
                        .arg(have)
                        .arg(count ? sum / count : NAN);
                compared += count > 0;
            }
        if (compared < 3 * n / 2) return QString("zoom %1: too few cells with values").arg(z);
    }
    const DataArray root = ds["tas"];
    if (root.shape() != Shape{3, 12} || !same(valuesOf(root), zooms[0]))
        return "the root's tas is not zoom 0's";
    if (!healpix::gridOf(ds, root)) return "the root's tas is on no HEALPix grid";
    return {};
}

} // namespace

class TestHealpixPyramid : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    // "tas_z*.zarr" (a glob that matches the stores), and the stores named in any order.
    void theStoresOfTheZoomsOpenAsOne() {
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{kDir + "/tas_z*.zarr"},
              std::vector<std::string>{store(3), store(0), store(4), store(1), store(2)}}) {
            io::OpenNotes notes;
            const Dataset ds = io::openPaths(args, notes);
            const QString why = notThePyramid(ds);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            QCOMPARE(QString::fromStdString(ds.path), QString::fromStdString(store(0))); // the coarsest
            QVERIFY(std::any_of(notes.lines.begin(), notes.lines.end(), [](const std::string& l) {
                return l.find("HEALPix pyramid, zoom 0\u20134 (nside 1\u201316, 5 levels), nest") !=
                       std::string::npos;
            }));
            QVERIFY2(QString::fromStdString(ds.summary())
                         .contains("HEALPix pyramid, zoom 0–4 (nside 1–16, 5 levels), nest in the groups "
                                   "below: tas shown at the zoom that fits the screen"),
                     ds.summary().c_str());
            // Each zoom is read as its store alone reads.
            io::OpenNotes own;
            const Dataset z2 = io::openPaths({store(2)}, own);
            QVERIFY(!healpix::pyramidOf(z2));
            QVERIFY(
                same(valuesOf(ds.findGroup("/z4")["tas"]), valuesOf(io::openPaths({store(4)}, own)["tas"])));
            QVERIFY(same(valuesOf(ds.findGroup("/z2")["tas"]), valuesOf(z2["tas"])));
        }
    }

    // One store whose groups are the zooms: the root takes zoom 0's variables.
    void aStoreOfZoomGroupsListsItsVariablesOnce() {
        io::OpenNotes notes;
        const Dataset ds = io::openPaths({kDir + "/tas_pyramid.zarr"}, notes);
        const QString why = notThePyramid(ds);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        io::OpenNotes own;
        const Dataset z4 = io::openPaths({store(4)}, own);
        QVERIFY(same(valuesOf(ds.findGroup("/z4")["tas"]), valuesOf(z4["tas"])));
        std::vector<std::string> names = ds.dataVariables();
        std::sort(names.begin(), names.end());
        QCOMPARE(names, (std::vector<std::string>{"crs", "tas"}));
    }

    // The coarsest zoom whose cells are no wider than a pixel's footprint, else the finest.
    void theZoomFollowsAPixelsFootprint() {
        io::OpenNotes notes;
        const healpix::Pyramid p = *healpix::pyramidOf(io::openPaths({kDir + "/tas_pyramid.zarr"}, notes));
        QCOMPARE(healpix::cellWidth(1),
                 std::sqrt(4 * std::numbers::pi / 12)); // a cell's solid angle, square-rooted
        QCOMPARE(healpix::cellWidth(8) * 8, healpix::cellWidth(1));
        const auto zoomFor = [&](double radians) { return p.levelFor(radians).zoom; };
        QCOMPARE(zoomFor(2.0), 0);
        QCOMPARE(zoomFor(healpix::cellWidth(1)), 0);
        QCOMPARE(zoomFor(healpix::cellWidth(1) * 0.999), 1);
        QCOMPARE(zoomFor(healpix::cellWidth(4) * 1.5), 2);
        QCOMPARE(zoomFor(healpix::cellWidth(16)), 4);
        QCOMPARE(zoomFor(1e-6), 4); // finer than the finest: the finest
        QCOMPARE(zoomFor(NAN), 4);  // not known: the finest
        QCOMPARE(zoomFor(0), 4);
        QCOMPARE(QString::fromStdString(p.pathOf("tas", p.levelFor(0.3))), QString("/z2/tas"));
        QVERIFY(p.has("tas") && !p.has("crs"));
        QVERIFY(!p.level(5));
    }

    // Zooms in different orders, and a store that is not HEALPix among them.
    void storesThatAreNoPyramidAreRefused() {
        namespace fs = std::filesystem;
        const std::string ring = dir_.filePath("ring_z1.zarr").toStdString();
        fs::copy(store(1), ring, fs::copy_options::recursive);
        replaceIn(ring + "/.zmetadata", "\"healpix_order\": \"nest\"", "\"healpix_order\": \"ring\"");
        replaceIn(ring + "/crs/.zattrs", "\"healpix_order\": \"nest\"", "\"healpix_order\": \"ring\"");
        io::OpenNotes notes;
        try {
            io::openPaths({store(0), ring}, notes);
            QFAIL("zooms in two orders opened");
        } catch (const ValueError& e) {
            const QString what = e.what();
            QVERIFY2(what.contains("ring_z1.zarr") && what.contains("tas_z0.zarr") && what.contains("order"),
                     e.what());
        }
        // Two stores of one zoom are not a pyramid: they go to the record set's rules.
        const std::string again = dir_.filePath("again_z2.zarr").toStdString();
        fs::copy(store(2), again, fs::copy_options::recursive);
        try {
            QVERIFY(!healpix::pyramidOf(io::openPaths({store(2), again}, notes)));
        } catch (const ValueError& e) {
            QVERIFY2(!QString(e.what()).contains("pyramid"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestHealpixPyramid)
#include "tst_healpixpyramid.moc"
