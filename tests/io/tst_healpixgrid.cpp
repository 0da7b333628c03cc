// HEALPix grids as files say them (issue 37), in files written here through netCDF-C: the
// easygems `crs` (healpix_nside, healpix_order), CF 1.13's healpix grid mapping with a
// healpix_index coordinate naming a subset of cells, and xdggs' cell_ids; a lon/lat file says
// none; and each way a file can say an impossible grid is refused with a message naming the
// file, the variable and what is wrong.
#include <QtTest/QtTest>

#include <QFile>
#include <QTemporaryDir>
#include <numeric>

#include "nc_write.h"
#include "strata/core/error.h"
#include "strata/core/healpix_grid.h"
#include "strata/io/csv.h"
#include "strata/io/geo.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

struct Spec {
    std::size_t cells = 192;
    std::string mapping;                                 // "crs", "cf" or "" (none)
    std::vector<std::pair<std::string, double>> numbers; // the mapping's (or cell_ids') numbers
    std::vector<std::pair<std::string, std::string>> texts;
    std::vector<double> cellIds; // a cell_ids coordinate when not empty
    std::string cellIdsRole;     // "cf" (standard_name healpix_index) or "xdggs" (grid_name)
};

// A file with tas(time, cell) as `s` says it.
std::string write(const QTemporaryDir& dir, const char* name, const Spec& s) {
    const std::string path = dir.filePath(name).toStdString();
    nctest::Writer f(path, NC_NETCDF4);
    const int time = f.dim("time", 2), cell = f.dim("cell", s.cells);
    const int tas = f.var("tas", NC_FLOAT, {time, cell});
    int mapping = -1, ids = -1;
    if (!s.mapping.empty()) {
        mapping = f.var(s.mapping == "cf" ? "healpix" : "crs", NC_INT, {});
        f.text(tas, "grid_mapping", s.mapping == "cf" ? "healpix" : "crs");
        if (s.mapping == "cf") f.text(mapping, "grid_mapping_name", "healpix");
    }
    if (!s.cellIds.empty()) {
        ids = f.var("cell_ids", NC_INT64, {cell});
        f.text(tas, "coordinates", "cell_ids");
        if (s.cellIdsRole == "cf") f.text(ids, "standard_name", "healpix_index");
        if (s.cellIdsRole == "xdggs") f.text(ids, "grid_name", "healpix");
    }
    const int target = mapping >= 0 ? mapping : ids;
    for (const auto& [n, v] : s.numbers) f.att(target, n.c_str(), NC_INT, std::vector<int>{int(v)});
    for (const auto& [n, v] : s.texts) f.text(target, n.c_str(), v);
    f.enddef();
    std::vector<float> values(2 * s.cells);
    std::iota(values.begin(), values.end(), 0.0f);
    f.put(tas, values);
    if (ids >= 0) {
        std::vector<long long> c(s.cellIds.begin(), s.cellIds.end());
        f.put(ids, c);
    }
    return path;
}

std::vector<double> range(int from, int to) {
    std::vector<double> v;
    for (int i = from; i < to; ++i) v.push_back(i);
    return v;
}

} // namespace

class TestHealpixGrid : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void theThreeFormsAreRead() {
        {
            const Dataset ds = io::openDataset(write(
                dir_, "easygems.nc", {192, "crs", {{"healpix_nside", 4}}, {{"healpix_order", "nest"}}}));
            const auto g = healpix::gridOf(ds, ds["tas"]);
            QVERIFY(g);
            QCOMPARE(g->nside, std::int64_t(4));
            QVERIFY(g->order == healpix::Order::Nest);
            QCOMPARE(QString::fromStdString(g->dim), QString("cell"));
            QVERIFY(g->cells.empty()); // the whole sky
            QCOMPARE(QString::fromStdString(g->form), QString("healpix_nside"));
            // strata --info says it beside the variable
            QVERIFY2(QString::fromStdString(ds.summary())
                         .contains("HEALPix nside 4 nest, cells along cell: the whole sky"),
                     ds.summary().c_str());
        }
        {
            // easygems' crs as published names the mapping too, with no refinement_level: the
            // nside is healpix_nside's (it was refused as a CF mapping without a level)
            const Dataset ds =
                io::openDataset(write(dir_, "easygems_named.nc",
                                      {768,
                                       "crs",
                                       {{"healpix_nside", 8}},
                                       {{"healpix_order", "ring"}, {"grid_mapping_name", "healpix"}}}));
            const auto g = healpix::gridOf(ds, ds["tas"]);
            QVERIFY(g);
            QCOMPARE(g->nside, std::int64_t(8));
            QVERIFY(g->order == healpix::Order::Ring);
            QCOMPARE(QString::fromStdString(g->form), QString("healpix_nside"));
        }
        {
            const std::vector<double> subset{5, 17, 300, 301, 767, 0};
            const Dataset ds = io::openDataset(
                write(dir_, "cf.nc",
                      {6, "cf", {{"refinement_level", 3}}, {{"indexing_scheme", "ring"}}, subset, "cf"}));
            const auto g = healpix::gridOf(ds, ds["tas"]);
            QVERIFY(g);
            QCOMPARE(g->nside, std::int64_t(8));
            QVERIFY(g->order == healpix::Order::Ring);
            QCOMPARE(g->cells, (std::vector<std::int64_t>{5, 17, 300, 301, 767, 0}));
            QCOMPARE(QString::fromStdString(g->form), QString("CF healpix"));
            QVERIFY2(QString::fromStdString(ds.summary())
                         .contains("HEALPix nside 8 ring, cells along cell: 6 of them"),
                     ds.summary().c_str());
        }
        {
            const Dataset ds = io::openDataset(
                write(dir_, "xdggs.nc",
                      {192, "", {{"level", 2}}, {{"indexing_scheme", "nested"}}, range(0, 192), "xdggs"}));
            const auto g = healpix::gridOf(ds, ds["tas"]);
            QVERIFY(g);
            QCOMPARE(g->nside, std::int64_t(4));
            QVERIFY(g->cells.empty()); // every cell, in order: the whole sky
            QCOMPARE(QString::fromStdString(g->form), QString("xdggs"));
        }
        const Dataset plain = io::openDataset(STRATA_TEST_DATA "/tas_rectilinear_grid_2D.nc");
        QVERIFY(!healpix::gridOf(plain, plain["tas"]));
    }

    // A frame along the cells (as the CSV export gets it) gains each cell's centre as lat/lon:
    // the whole sky's and a subset's, healpy's centres (tst_healpix) of the cells named.
    void framesAlongTheCellsGetTheCentres() {
        const std::vector<double> subset{5, 17, 300, 767};
        for (bool whole : {true, false}) {
            const std::string path =
                whole
                    ? write(dir_, "centres.nc",
                            {192, "crs", {{"healpix_nside", 4}}, {{"healpix_order", "nest"}}})
                    : write(
                          dir_, "centres_subset.nc",
                          {4, "cf", {{"refinement_level", 3}}, {{"indexing_scheme", "ring"}}, subset, "cf"});
            const Dataset ds = io::openDataset(path);
            const DataArray frame = ds["tas"].isel({{"time", 1}});
            const DataArray placed = io::withLatLon(frame, ds);
            const Coordinate* lat = placed.coords().find("lat");
            const Coordinate* lon = placed.coords().find("lon");
            QVERIFY2(lat && lon, path.c_str());
            QCOMPARE(lat->dims, std::vector<std::string>{"cell"});
            QCOMPARE(lat->values.size(), std::size_t(frame.size()));
            for (std::size_t k = 0; k < lat->values.size(); ++k) {
                double wantLon = 0, wantLat = 0;
                if (whole)
                    healpix::centreOf(4, healpix::Order::Nest, std::int64_t(k), wantLon, wantLat);
                else
                    healpix::centreOf(8, healpix::Order::Ring, std::int64_t(subset[k]), wantLon, wantLat);
                QCOMPARE(lat->values[k], wantLat);
                QCOMPARE(lon->values[k], wantLon);
            }
            // The CSV export gives each cell's index (and its id, for a subset) with its centre.
            const std::string csv = dir_.filePath(whole ? "centres.csv" : "centres_subset.csv").toStdString();
            (void)io::writeCsv(placed, csv);
            QFile f(QString::fromStdString(csv));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QList<QByteArray> lines = f.readAll().split('\n');
            QCOMPARE(lines[0], QByteArray(whole ? "cell,lat,lon,tas" : "cell,cell_ids,lat,lon,tas"));
            const QList<QByteArray> row = lines[2].split(',');
            QCOMPARE(row.first().toInt(), 1);
            QCOMPARE(row[row.size() - 3].toDouble(), lat->values[1]);
            QCOMPARE(row[row.size() - 2].toDouble(), lon->values[1]);
        }
    }

    void impossibleGridsAreNamed_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        QTest::newRow("nest nside 12") << "nside12.nc"
                                       << "with nside 12 is not a power of two, as the nest order needs";
        QTest::newRow("unknown order") << "order.nc"
                                       << "whose order is 'hilbert', not nest (nested) or ring";
        QTest::newRow("duplicate cells") << "dup.nc"
                                         << "cell 17 appears twice in cell_ids";
        QTest::newRow("cell off the sky") << "off.nc"
                                          << "cell index 768 in cell_ids is not a cell of nside 8 (0 to 767)";
        QTest::newRow("size of no grid")
            << "size.nc"
            << "has 100 values along cell, not the 12 × 4² = 192 cells of the whole sky, and no cell_ids "
               "coordinate says which cells they are";
        QTest::newRow("no level") << "nolevel.nc"
                                  << "a HEALPix grid (CF healpix) without a valid nside or refinement level";
    }
    void impossibleGridsAreNamed() {
        QFETCH(QString, name);
        QFETCH(QString, message);
        Spec s;
        if (name == "nside12.nc") s = {1728, "crs", {{"healpix_nside", 12}}, {{"healpix_order", "nest"}}};
        if (name == "order.nc") s = {192, "crs", {{"healpix_nside", 4}}, {{"healpix_order", "hilbert"}}};
        if (name == "dup.nc")
            s = {3, "cf", {{"refinement_level", 3}}, {{"indexing_scheme", "ring"}}, {5, 17, 17}, "cf"};
        if (name == "off.nc")
            s = {2, "cf", {{"refinement_level", 3}}, {{"indexing_scheme", "ring"}}, {5, 768}, "cf"};
        if (name == "size.nc") s = {100, "crs", {{"healpix_nside", 4}}, {{"healpix_order", "ring"}}};
        if (name == "nolevel.nc") s = {192, "cf", {}, {{"indexing_scheme", "ring"}}};
        const std::string path = write(dir_, qPrintable(name), s);
        const Dataset ds = io::openDataset(path);
        QString said;
        try {
            (void)healpix::gridOf(ds, ds["tas"]);
        } catch (const ValueError& e) {
            said = e.what();
        }
        QVERIFY2(said.contains(QString::fromStdString(path) + ": tas: "), qPrintable(said));
        QVERIFY2(said.contains(message), qPrintable(said));
        // --info lists the file with the grid refused, and why, rather than failing
        const QString info = QString::fromStdString(ds.summary());
        QVERIFY2(info.contains("(HEALPix grid refused: ") && info.contains(message), qPrintable(info));
    }
};

QTEST_GUILESS_MAIN(TestHealpixGrid)
#include "tst_healpixgrid.moc"
