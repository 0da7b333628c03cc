// The GSHHG binned shoreline reader: its header and each bin's pieces against netCDF-C reads of
// the raw arrays done here; a hand-written file whose pieces are worked out by hand (unsigned
// steps, the shift of bins east of 180°, repeated points, the grounding line left out); points
// inside their bins; known geography (Lake Michigan's shore, the Cape of Good Hope); and missing,
// foreign, truncated and inconsistent files named in the error. Debian's gmt-gshhg-* files are
// read where installed (scripts/setup.sh), else those tests skip.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <filesystem>

#include <netcdf.h>

#include "io/nc_write.h"
#include "strata/core/error.h"
#include "strata/io/gshhg.h"

using namespace strata;
using namespace strata::io;

namespace {

const std::string kDir = "/usr/share/gmt-gshhg";
std::string gshhg(char r) { return kDir + "/binned_GSHHS_" + r + ".nc"; }

// A whole 1-D variable of the file, read through netCDF-C (not through strata_io).
template <class T> std::vector<T> raw(const std::string& path, const char* name) {
    int nc = -1, v = -1, dim = -1;
    nctest::ok(nc_open(path.c_str(), NC_NOWRITE, &nc), path.c_str());
    nctest::ok(nc_inq_varid(nc, name, &v), name);
    nctest::ok(nc_inq_vardimid(nc, v, &dim), name);
    std::size_t n = 0;
    nctest::ok(nc_inq_dimlen(nc, dim, &n), name);
    std::vector<T> out(n);
    if constexpr (sizeof(T) == 4)
        nctest::ok(nc_get_var_int(nc, v, reinterpret_cast<int*>(out.data())), name);
    else
        nctest::ok(nc_get_var_short(nc, v, reinterpret_cast<short*>(out.data())), name);
    nc_close(nc);
    return out;
}

// Kilometres between two points (equirectangular: fine at a few km).
double km(double lon0, double lat0, double lon1, double lat1) {
    const double x = (lon1 - lon0) * std::cos((lat0 + lat1) / 2 * M_PI / 180), y = lat1 - lat0;
    return std::hypot(x, y) * 111.2;
}

// The nearest point of `level` pieces around (lon, lat): the bins within one of its bin.
double nearestKm(const GshhgFile& f, int level, double lon, double lat) {
    const GshhgHeader& h = f.header();
    const double bs = h.binDegrees();
    const int row = int(std::floor((90 - lat) / bs)), col = int(std::floor(std::fmod(lon + 360, 360) / bs));
    double best = 1e9;
    for (int r = std::max(0, row - 1); r <= std::min(h.ny - 1, row + 1); ++r)
        for (int dc = -1; dc <= 1; ++dc) {
            const int c = (col + dc + h.nx) % h.nx;
            const auto bin = f.readBins(r * h.nx + c, 1);
            for (const GshhgPiece& p : bin.front())
                if (p.level == level)
                    for (std::size_t k = 0; k < p.lon.size(); ++k)
                        best = std::min(best, km(lon, lat, p.lon[k], p.lat[k]));
        }
    return best;
}

// Equal to a billionth of a degree.
bool near(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::abs(a[i] - b[i]) > 1e-9) return false;
    return true;
}

bool installed() { return std::filesystem::exists(gshhg('c')); }

// A 20° file (18 × 9 bins) of `segments` (packed words) and their points.
void writeFake(const std::string& path, std::vector<int> firstSegment, std::vector<short> segmentCount,
               std::vector<int> info, std::vector<int> firstPoint, std::vector<short> dx,
               std::vector<short> dy) {
    nctest::Writer w(path, NC_NETCDF4);
    const int one = w.dim("Dimension_of_scalar", 1), bins = w.dim("Dimension_of_bin_arrays", 162);
    const int segs = w.dim("Dimension_of_segment_arrays", info.size());
    const int pts = w.dim("Dimension_of_point_arrays", dx.size());
    std::vector<std::pair<const char*, int>> scalars{{"Bin_size_in_minutes", 1200},
                                                     {"N_bins_in_360_longitude_range", 18},
                                                     {"N_bins_in_180_degree_latitude_range", 9},
                                                     {"N_bins_in_file", 162},
                                                     {"N_segments_in_file", int(info.size())},
                                                     {"N_points_in_file", int(dx.size())}};
    std::vector<int> ids;
    for (const auto& s : scalars) ids.push_back(w.var(s.first, NC_INT, {one}));
    const int fs = w.var("Id_of_first_segment_in_a_bin", NC_INT, {bins});
    const int ns = w.var("N_segments_in_a_bin", NC_SHORT, {bins});
    const int in = w.var("Embedded_npts_levels_exit_entry_for_a_segment", NC_INT, {segs});
    const int fp = w.var("Id_of_first_point_in_a_segment", NC_INT, {segs});
    const int x = w.var("Relative_longitude_from_SW_corner_of_bin", NC_SHORT, {pts});
    const int y = w.var("Relative_latitude_from_SW_corner_of_bin", NC_SHORT, {pts});
    w.text(NC_GLOBAL, "version", "9.9.9");
    w.enddef();
    for (std::size_t k = 0; k < scalars.size(); ++k) w.put(ids[k], std::vector<int>{scalars[k].second});
    firstSegment.resize(162, int(info.size()));
    segmentCount.resize(162, 0);
    w.put(fs, firstSegment);
    w.put(ns, segmentCount);
    w.put(in, info);
    w.put(fp, firstPoint);
    w.put(x, dx);
    w.put(y, dy);
}

int word(int points, int level) { return points << 9 | level << 6 | 4 << 3 | 4; } // a closed piece

} // namespace

class TestGshhg : public QObject {
    Q_OBJECT
private slots:
    // Bin 0 (0–20°E, 70–90°N): a lake shore of 4 points, one repeated, its steps past 32767
    // (negative as shorts); a grounding line (level 6), left out. Bin 10 (200–220°E, 70–90°N):
    // a coast, shifted as a whole to -160…-140.
    void decodesAHandWrittenFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("binned_GSHHS_c.nc").toStdString();
        std::vector<int> first(11, 2);
        first[0] = 0;
        std::vector<short> count(11, 0);
        count[0] = 2;
        count[10] = 1;
        writeFake(path, first, count, {word(4, 2), word(2, 6), word(3, 1)}, {0, 4, 6},
                  {0, -1, -1, short(32768 - 65536), 0, 0, 0, -1, 0}, {0, 0, 0, -1, 0, 0, 0, 0, 32767});
        const GshhgFile f(path);
        QCOMPARE(f.header().binDegrees(), 20.0);
        QCOMPARE(f.header().version, std::string("9.9.9"));
        const auto bins = f.readBins(0, 11);
        QCOMPARE(bins.size(), std::size_t(11));
        QCOMPARE(bins[0].size(), std::size_t(1));
        const GshhgPiece& lake = bins[0][0];
        QCOMPARE(lake.level, 2);
        const double step = 20.0 / 65535;
        QVERIFY(near(lake.lon, {0, 20, 32768 * step}));
        QVERIFY(near(lake.lat, {70, 70, 90}));
        for (int b = 1; b < 10; ++b) QVERIFY(bins[std::size_t(b)].empty());
        QCOMPARE(bins[10].size(), std::size_t(1));
        QVERIFY(near(bins[10][0].lon, {-160, -140, -160}));
        QVERIFY(near(bins[10][0].lat, {70, 70, 70 + 32767 * step}));
        QCOMPARE(f.readBins(10, 1).front()[0].lon, bins[10][0].lon); // a run or one bin alike
    }

    void headerMatchesTheFile_data() {
        QTest::addColumn<char>("resolution");
        QTest::addColumn<double>("binDegrees");
        for (auto [r, bs] : {std::pair{'c', 20.0}, {'l', 10.0}, {'i', 5.0}, {'h', 2.0}, {'f', 1.0}})
            QTest::newRow(std::string(1, r).c_str()) << r << bs;
    }
    void headerMatchesTheFile() {
        QFETCH(char, resolution);
        QFETCH(double, binDegrees);
        if (!std::filesystem::exists(gshhg(resolution))) QSKIP("gmt-gshhg not installed (scripts/setup.sh)");
        const GshhgFile f(gshhg(resolution));
        const GshhgHeader& h = f.header();
        QCOMPARE(h.binDegrees(), binDegrees);
        QCOMPARE(h.nx, int(360 / binDegrees));
        QCOMPARE(h.ny, int(180 / binDegrees));
        QCOMPARE(h.version, std::string("2.3.7"));
        QVERIFY(h.title.find("World Vector Shoreline") != std::string::npos);
        QCOMPARE(h.segments,
                 long(raw<std::int32_t>(gshhg(resolution), "Id_of_first_point_in_a_segment").size()));
        const auto first = raw<std::int32_t>(gshhg(resolution), "Id_of_first_segment_in_a_bin");
        const auto count = raw<std::int16_t>(gshhg(resolution), "N_segments_in_a_bin");
        QCOMPARE(int(first.size()), h.bins());
        for (int b = 0; b < h.bins(); ++b) {
            QCOMPARE(f.firstSegment(b), first[std::size_t(b)]);
            QCOMPARE(f.segmentCount(b), int(count[std::size_t(b)]));
        }
    }

    // Every bin of c and l, read a row at a time: as many pieces as the raw arrays hold segments
    // of levels 1–4 of two distinct points or more, with their point counts (repeats dropped)
    // and their first and last points; and every point inside its bin.
    void binsMatchTheRawArrays_data() {
        QTest::addColumn<char>("resolution");
        QTest::newRow("c") << 'c';
        QTest::newRow("l") << 'l';
    }
    void binsMatchTheRawArrays() {
        QFETCH(char, resolution);
        if (!installed()) QSKIP("gmt-gshhg not installed (scripts/setup.sh)");
        const std::string path = gshhg(resolution);
        const auto info = raw<std::int32_t>(path, "Embedded_npts_levels_exit_entry_for_a_segment");
        const auto start = raw<std::int32_t>(path, "Id_of_first_point_in_a_segment");
        const auto dx = raw<std::int16_t>(path, "Relative_longitude_from_SW_corner_of_bin");
        const auto dy = raw<std::int16_t>(path, "Relative_latitude_from_SW_corner_of_bin");
        const auto first = raw<std::int32_t>(path, "Id_of_first_segment_in_a_bin");
        const auto count = raw<std::int16_t>(path, "N_segments_in_a_bin");
        const GshhgFile f(path);
        const GshhgHeader& h = f.header();
        const double bs = h.binDegrees(), scale = bs / 65535;
        long pieces = 0, lakes = 0;
        for (int row = 0; row < h.ny; ++row) {
            const auto bins = f.readBins(row * h.nx, h.nx);
            for (int col = 0; col < h.nx; ++col) {
                const int b = row * h.nx + col;
                const double west = col * bs - (col * bs >= 180 ? 360 : 0), south = 90 - (row + 1) * bs;
                std::size_t k = 0;
                for (int s = first[std::size_t(b)]; s < first[std::size_t(b)] + count[std::size_t(b)]; ++s) {
                    const int level = (info[std::size_t(s)] >> 6) & 7, n = info[std::size_t(s)] >> 9;
                    if (level < 1 || level > 4) continue;
                    std::vector<std::pair<int, int>> pts; // unsigned steps, repeats dropped
                    for (int i = 0; i < n; ++i) {
                        const std::pair p{dx[std::size_t(start[std::size_t(s)] + i)] & 0xffff,
                                          dy[std::size_t(start[std::size_t(s)] + i)] & 0xffff};
                        if (pts.empty() || pts.back() != p) pts.push_back(p);
                    }
                    if (pts.size() < 2) continue;
                    QVERIFY2(k < bins[std::size_t(col)].size(), qPrintable(QString("bin %1").arg(b)));
                    const GshhgPiece& got = bins[std::size_t(col)][k++];
                    QCOMPARE(got.level, level);
                    QCOMPARE(got.lon.size(), pts.size());
                    QCOMPARE(got.lon.front(), west + pts.front().first * scale);
                    QCOMPARE(got.lat.back(), south + pts.back().second * scale);
                    for (std::size_t i = 0; i < got.lon.size(); ++i)
                        QVERIFY(got.lon[i] >= west && got.lon[i] <= west + bs && got.lat[i] >= south &&
                                got.lat[i] <= south + bs);
                    ++pieces;
                    lakes += level == 2;
                }
                QCOMPARE(bins[std::size_t(col)].size(), k);
            }
        }
        QVERIFY(pieces > 100);
        QVERIFY(lakes > 0);
    }

    // Lake Michigan's east shore at (86.52°W, 44.05°N) is a lake shore (level 2) from the low
    // level on; the Cape of Good Hope (18.4704°E, 34.35°S) a coast within 0.2 km at i and h.
    void knownGeography() {
        if (!installed()) QSKIP("gmt-gshhg not installed (scripts/setup.sh)");
        for (char r : {'l', 'i', 'h'}) {
            const GshhgFile f(gshhg(r));
            QVERIFY2(nearestKm(f, 2, -86.52, 44.05) < 5,
                     qPrintable(QString("%1 at %2").arg(r).arg(nearestKm(f, 2, -86.52, 44.05))));
            QVERIFY(nearestKm(f, 1, -86.52, 44.05) > 100); // no sea coast there
        }
        for (char r : {'i', 'h'}) {
            const GshhgFile f(gshhg(r));
            QVERIFY2(nearestKm(f, 1, 18.4704, -34.35) < 0.2,
                     qPrintable(QString::number(nearestKm(f, 1, 18.4704, -34.35))));
        }
    }

    void missingFileIsNamed() {
        const std::string path = "/nonexistent/binned_GSHHS_h.nc";
        try {
            GshhgFile f(path);
            QFAIL("opened a missing file");
        } catch (const NetcdfError& e) {
            QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        }
    }

    // A netCDF file of other variables, one truncated to a third, and one whose bin index points
    // past its segments: each an error naming the file.
    void badFilesAreNamed() {
        QTemporaryDir dir;
        const std::string foreign = dir.filePath("foreign.nc").toStdString();
        {
            nctest::Writer w(foreign, NC_NETCDF4);
            const int d = w.dim("x", 2);
            const int v = w.var("tas", NC_FLOAT, {d});
            w.enddef();
            w.put(v, std::vector<float>{1, 2});
        }
        const std::string inconsistent = dir.filePath("inconsistent.nc").toStdString();
        writeFake(inconsistent, {0, 0}, {2, 0}, {word(2, 1)}, {0}, {0, 1}, {0, 1}); // 2 segments of 1
        std::vector<std::string> bad{foreign, inconsistent};
        if (installed()) {
            const std::string truncated = dir.filePath("truncated.nc").toStdString();
            std::filesystem::copy_file(gshhg('l'), truncated);
            std::filesystem::resize_file(truncated, std::filesystem::file_size(truncated) / 3);
            bad.push_back(truncated);
        }
        for (const std::string& path : bad) {
            try {
                GshhgFile f(path);
                for (int row = 0; row < f.header().ny; ++row)
                    (void)f.readBins(row * f.header().nx, f.header().nx);
                QFAIL(qPrintable(QString::fromStdString(path + " read without an error")));
            } catch (const Error& e) {
                QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
            }
        }
    }

    void binsOffTheFileAreRefused() {
        if (!installed()) QSKIP("gmt-gshhg not installed (scripts/setup.sh)");
        const GshhgFile f(gshhg('c'));
        QVERIFY_THROWS_EXCEPTION(ValueError, f.readBins(160, 3));
        QVERIFY_THROWS_EXCEPTION(ValueError, f.readBins(-1, 1));
        QCOMPARE(f.readBins(5, 0).size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestGshhg)
#include "tst_gshhg.moc"
