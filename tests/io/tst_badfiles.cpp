// The corpus of hostile and odd files in tests/data/bad (scripts/make_bad_corpus.py; found/ holds
// inputs found by the fuzzer). Each file has one exact outcome: an error of the right type whose
// message names the file, the variable and the problem, or a correct reading of an odd file.
#include <QtTest>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>

#include "note_checks.h"
#include "strata/core/error.h"
#include "strata/io/netcdf.h"

using namespace strata;

using nctest::anyNoteHas;

namespace {

std::string bad(const QString& name) {
    return std::string(STRATA_SOURCE_DIR) + "/tests/data/bad/" + name.toStdString();
}
std::string good(const char* name) { return std::string(STRATA_SOURCE_DIR) + "/tests/data/" + name; }

std::uintmax_t sizeOf(const std::string& path) { return std::filesystem::file_size(path); }

// The message of the error of type E that `f` throws; "no error" or "other error: ..." otherwise.
template <class E> QString errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const E& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return "other error: " + QString::fromStdString(e.what());
    }
    return "no error";
}

std::vector<double> hostValues(const Dataset& ds, const char* name) {
    return ds[name].load(Device::host(), Stream::host()).values<double>();
}

bool sameValues(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
    return true;
}

} // namespace

class TestBadFiles : public QObject {
    Q_OBJECT

private slots:
    // ---- files refused at open: NetcdfError naming the file and the problem --------------------
    void refusedAtOpen_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("parts");
        const auto base = sizeOf(bad("trunc_classic_short1.nc")) + 1; // the untruncated size
        const auto base4 = sizeOf(bad("trunc_nc4_short1.nc")) + 1;
        const QString describes = QString("its header describes %1: variable 't' ends there").arg(base);
        const QString records = QString("its HDF5 superblock records %1").arg(base4);
        QTest::newRow("classic cut after the magic")
            << "trunc_classic_magic.nc"
            << QStringList{"header is damaged", "ends inside the number of records", "4 bytes"};
        QTest::newRow("classic cut in the header")
            << "trunc_classic_header.nc" << QStringList{"header is damaged", "variables, more than the"};
        QTest::newRow("classic cut in the data")
            << "trunc_classic_data.nc"
            << QStringList{"truncated", QString("it has %1 bytes").arg(sizeOf(bad("trunc_classic_data.nc"))),
                           describes};
        QTest::newRow("classic one byte short")
            << "trunc_classic_short1.nc"
            << QStringList{"truncated", QString("it has %1 bytes").arg(base - 1), describes};
        QTest::newRow("netCDF-4 cut after the signature")
            << "trunc_nc4_sig.nc" << QStringList{"HDF error", "probably truncated or damaged"};
        QTest::newRow("netCDF-4 cut after the superblock")
            << "trunc_nc4_superblock.nc" << QStringList{"truncated", "it has 96 bytes", records};
        QTest::newRow("netCDF-4 cut in half") << "trunc_nc4_half.nc" << QStringList{"truncated", records};
        QTest::newRow("netCDF-4 one byte short")
            << "trunc_nc4_short1.nc" << QStringList{"truncated", records};
        QTest::newRow("random bytes behind CDF1")
            << "random_after_cdf1.nc"
            << QStringList{"netCDF-3 header is damaged", "the dimension list has tag"};
        QTest::newRow("random bytes behind the HDF5 signature")
            << "random_after_hdf5.nc" << QStringList{"HDF error", "probably truncated or damaged"};
        const QStringList overflow{"variable 'v'", "overflows 64 bits", "a = 1099511627776",
                                   "b = 1073741824"};
        QTest::newRow("CDF-5 dims overflowing 64 bits") << "overflow_cdf5.nc" << overflow;
        QTest::newRow("netCDF-4 dims overflowing 64 bits") << "overflow_nc4.nc" << overflow;
        QTest::newRow("a rank of 3523215360")
            << "huge_rank_cdf5.nc"
            << QStringList{"variable 'v' declares 3523215360 dimensions", "at most 1024"};
        QTest::newRow("a name of 300 bytes")
            << "long_name_cdf1.nc" << QStringList{"dimension 0 has a name of 300 bytes", "at most 256"};
        QTest::newRow("a dim id out of range")
            << "bad_dimid_cdf1.nc"
            << QStringList{"variable 'v' uses dimension id 7", "declares 1 dimensions"};
        // Found by the fuzzer: netCDF-C allocated what these headers declare (or overran a name).
        QTest::newRow("found: a name length of 7998392938210000896")
            << "found/classic_huge_name_alloc.nc"
            << QStringList{"header is damaged", "name of 7998392938210000896 bytes"};
        QTest::newRow("found: 1716 dims in 1622 bytes")
            << "found/classic_name_overflow.nc" << QStringList{"header is damaged", "1716 dimensions"};
        QTest::newRow("found: a rank of 3523215360")
            << "found/classic_huge_rank.nc"
            << QStringList{"variable 'var_big' declares 3523215360 dimensions"};
        QTest::newRow("found: 268435458 dims")
            << "found/classic_huge_count_a.nc"
            << QStringList{"268435458 dimensions, more than the 288 bytes left"};
        QTest::newRow("found: 1128547841 variables")
            << "found/classic_huge_count_b.nc" << QStringList{"1128547841 variables, more than the"};
    }
    void refusedAtOpen() {
        QFETCH(QString, file);
        QFETCH(QStringList, parts);
        const std::string path = bad(file);
        const QString m = errorOf<NetcdfError>([&] { openDataset(path); });
        QVERIFY2(m.contains(QFileInfo(file).fileName()), qPrintable(m));
        for (const QString& p : parts) QVERIFY2(m.contains(p), qPrintable("missing \"" + p + "\" in: " + m));
        // Checked in a child process first, the same error comes back, of the same type.
        QCOMPARE(errorOf<NetcdfError>([&] { checkInChildProcess(path); }), m);
    }

    // ---- files that crash or hang netCDF-C/HDF5: only a child process survives them -----------
    void crashInsideHdf5IsContained_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("wild free in dense links") << "hdf5_crash_dense_links.nc";
        QTest::newRow("bad global heap address") << "hdf5_crash_global_heap.nc";
    }
    void crashInsideHdf5IsContained() {
        QFETCH(QString, file);
        const std::string path = bad(file);
        const QString m = errorOf<NetcdfError>([&] { checkInChildProcess(path); });
        QVERIFY2(m.contains(QString::fromStdString(path)), qPrintable(m));
        // SIGSEGV in a plain build, SIGBUS with ASan's heap; or a sanitizer's report and its exit status.
        QVERIFY2(m.contains("netCDF-C or HDF5 crashed while reading it (signal ") ||
                     m.contains("the process reading it failed (exit status"),
                 qPrintable(m));
        // This process and its netCDF library are unharmed: a good file opens and reads after it.
        OpenNotes notes;
        const Dataset ds = openDatasetIsolated(good("reduced.nc"), notes);
        QVERIFY(ds["sst"].size() > 0);
        QCOMPARE(std::int64_t(hostValues(ds, "sst").size()), ds["sst"].size());
    }
    void hangInsideHdf5IsStopped() {
        const auto start = std::chrono::steady_clock::now();
        const QString m = errorOf<NetcdfError>(
            [&] { checkInChildProcess(bad("found/hdf5_hang.nc"), IsolatedCheck{1500}); });
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        QVERIFY2(m.contains("hdf5_hang.nc") && m.contains("took longer than 1.5 s") && m.contains("stopped"),
                 qPrintable(m));
        // The file hangs HDF5 for good: returning at all proves the child was stopped. The bound
        // only keeps a broken stop from waiting out ctest's timeout; it is not a speed target
        // (a loaded machine may take seconds to fork, kill and reap).
        QVERIFY2(seconds < 60.0, qPrintable(QString::number(seconds)));
    }
    // ---- a check begun early (the command line's file, while the window is built) -------------
    void begunCheckAnswersForItsFile() {
        // A crashing file: the answer waited for is the begun child's, and no second child starts.
        const std::string crash = bad("hdf5_crash_dense_links.nc");
        const int before = checkProcessesStarted();
        beginCheckInChildProcess(crash);
        QCOMPARE(checkProcessesStarted(), before + 1);
        const QString m = errorOf<NetcdfError>([&] { checkInChildProcess(crash); });
        QCOMPARE(checkProcessesStarted(), before + 1);
        QVERIFY2(m.contains(QString::fromStdString(crash)) &&
                     (m.contains("crashed while reading it") || m.contains("the process reading it failed")),
                 qPrintable(m));
        // A good file, named by another path: taken by identity, not by spelling.
        const std::string reduced = good("reduced.nc");
        beginCheckInChildProcess(reduced);
        const std::string other = std::string(STRATA_SOURCE_DIR) + "/tests/data/../data/reduced.nc";
        OpenNotes notes;
        const Dataset ds = openDatasetIsolated(other, notes);
        QCOMPARE(checkProcessesStarted(), before + 2);
        QCOMPARE(std::int64_t(hostValues(ds, "sst").size()), ds["sst"].size());
    }
    void begunCheckIsNotTakenForAnotherFile() {
        // Begun on a good file that is then replaced by a crashing one: the stale answer must not
        // stand for the new content, which is checked anew.
        const QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("swapped.nc").toStdString();
        std::filesystem::copy_file(good("reduced.nc"), path);
        const int before = checkProcessesStarted();
        beginCheckInChildProcess(path);
        std::filesystem::remove(path);
        std::filesystem::copy_file(bad("hdf5_crash_dense_links.nc"), path);
        const QString m = errorOf<NetcdfError>([&] { checkInChildProcess(path); });
        QCOMPARE(checkProcessesStarted(), before + 2);
        QVERIFY2(m.contains("swapped.nc") &&
                     (m.contains("crashed while reading it") || m.contains("the process reading it failed")),
                 qPrintable(m));
        // Begun on one file, a check of another ends it and answers for its own file.
        beginCheckInChildProcess(bad("hdf5_crash_global_heap.nc"));
        checkInChildProcess(good("reduced.nc")); // no throw: reduced.nc's own answer
        QCOMPARE(checkProcessesStarted(), before + 4);
        // Nothing to begin for what is not a regular file: the check proper says why.
        beginCheckInChildProcess(dir.filePath("missing.nc").toStdString());
        QCOMPARE(checkProcessesStarted(), before + 4);
    }
    void isolatedOpenReadsLikeOpen() {
        OpenNotes a, b;
        const Dataset direct = openDataset(good("test_hgroups.nc"), a);
        const Dataset isolated = openDatasetIsolated(good("test_hgroups.nc"), b);
        QCOMPARE(isolated.summary(), direct.summary());
        QCOMPARE(b.lines, a.lines);
    }

    // ---- odd files that read correctly -------------------------------------------------------
    void zeroLengthDims() {
        const Dataset ds = openDataset(bad("zero_dims.nc"));
        QCOMPARE(ds["a"].shape(), (Shape{0, 3}));
        QCOMPARE(ds["b"].shape(), (Shape{0, 3}));
        QVERIFY(ds.findDim("time") && ds.findDim("time")->unlimited && ds.findDim("time")->length == 0);
        QVERIFY(ds.findDim("empty") && ds.findDim("empty")->unlimited && ds.findDim("empty")->length == 0);
        QCOMPARE(ds["a"].load(Device::host(), Stream::host()).size(), std::int64_t(0));
        QCOMPARE(hostValues(ds, "b").size(), std::size_t(0));
        QVERIFY(sameValues(ds.coords.find("x")->values, {1, 2, 3}));

        const Dataset classic = openDataset(bad("zero_records_classic.nc"));
        QCOMPARE(classic["r"].shape(), (Shape{0, 2}));
        QCOMPARE(hostValues(classic, "r").size(), std::size_t(0));
        const Coordinate* t = classic.coords.find("time");
        QVERIFY(t && t->values.empty() && t->time && t->time->dates.empty() && t->problem.empty());
    }
    void scaleFactorOfTheWrongKind() {
        for (const auto& [file, problem] :
             {std::pair{"scale_text.nc", "attribute 'scale_factor' is text (\"0.01\"), not a number"},
              std::pair{"scale_array.nc", "attribute 'scale_factor' has 2 values, expected one"}}) {
            const Dataset ds = openDataset(bad(file)); // metadata reads; the data cannot be decoded
            const QString m = errorOf<DecodeError>([&] { ds["p"].load(Device::host(), Stream::host()); });
            QVERIFY2(m.contains(file) && m.contains("variable 'p'") && m.contains(problem), qPrintable(m));
        }
    }
    void fillValueOfAnotherType() {
        // A double _FillValue of -999 on a short variable masks the shorts equal to -999.
        const Dataset ds = openDataset(bad("fill_double_on_short.nc"));
        const double nan = std::nan("");
        QCOMPARE(ds["s"].dtype(), DType::Float32);
        QVERIFY(sameValues(hostValues(ds, "s"), {1, nan, 3, nan}));
        // 1e20 cannot be a short: ignored, as xarray does (which still decodes to float32), with
        // a note naming the file, the variable, the attribute, its value and the type.
        OpenNotes notes;
        const Dataset wide = openDataset(bad("fill_unrepresentable.nc"), notes);
        QCOMPARE(wide["s"].dtype(), DType::Float32);
        QVERIFY(sameValues(hostValues(wide, "s"), {1, -999, 3, -999}));
        QVERIFY(
            anyNoteHas(notes, {"fill_unrepresentable.nc: variable 's': attribute '_FillValue' value 1e+20 "
                               "cannot be represented in int16; ignored, as xarray does"}));
    }
    void timeThatCannotBeDecoded_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("problem");
        QTest::newRow("unknown calendar") << "calendar_unknown.nc"
                                          << "unknown calendar 'martian'";
        QTest::newRow("unparsable units") << "units_unparsable.nc"
                                          << "bad time units 'days since the flood'";
    }
    void timeThatCannotBeDecoded() {
        QFETCH(QString, file);
        QFETCH(QString, problem);
        OpenNotes notes;
        const Dataset ds = openDataset(bad(file), notes);
        const Coordinate* t = ds.coords.find("time");
        QVERIFY(t);
        QVERIFY(!t->time); // no dates invented
        const QString p = QString::fromStdString(t->problem);
        QVERIFY2(p.contains(file) && p.contains("variable 'time'") && p.contains(problem), qPrintable(p));
        QVERIFY(anyNoteHas(notes, {"variable 'time'", problem.toUtf8().constData()}));
        QVERIFY(sameValues(t->values, {0, 1, 2}));                 // the raw numbers stay as labels
        QVERIFY(sameValues(hostValues(ds, "v"), {1.5, 2.5, 3.5})); // and the data are unaffected
    }
    void coordinatesNotMonotonicOrNaN() {
        const Dataset ds = openDataset(bad("coords_odd.nc"));
        const double nan = std::nan("");
        QVERIFY(sameValues(ds.coords.find("lat")->values, {0, nan, 2}));
        QVERIFY(sameValues(ds.coords.find("lon")->values, {10, 30, 20, 0}));
        const DataArray v = ds["v"];
        // v = 0..11 over (lat 3, lon 4): the column at lon = 20 is the third one, {2, 6, 10}.
        QVERIFY(
            sameValues(v.sel("lon", 21.0).load(Device::host(), Stream::host()).values<double>(), {2, 6, 10}));
        // NaN latitudes are never the nearest: 1.2 is nearer to NaN's neighbours 0 and 2, picks 2.
        QCOMPARE(v.nearestIndex("lat", 1.2), std::int64_t(2));
        QCOMPARE(v.nearestIndex("lon", 4.0), std::int64_t(3));
    }
    void ranksZeroOneFiveAndTooMany() {
        OpenNotes notes;
        const Dataset ds = openDataset(bad("ranks.nc"), notes);
        QCOMPARE(ds["s"].ndim(), 0);
        QVERIFY(sameValues(hostValues(ds, "s"), {42.5}));
        QVERIFY(sameValues(hostValues(ds, "v1"), {7, 8, 9}));
        const DataArray v5 = ds["v5"];
        QCOMPARE(v5.shape(), (Shape{2, 3, 1, 2, 2}));
        std::vector<double> expected(24);
        for (int i = 0; i < 24; ++i) expected[i] = i;
        QVERIFY(sameValues(v5.load(Device::host(), Stream::host()).values<double>(), expected));
        // Element (1, 2, 0, 1, 1) in C order: 1·12 + 2·4 + 0·4 + 1·2 + 1 = 23.
        const DataArray one = v5.isel({{"a", std::int64_t(1)},
                                       {"b", std::int64_t(2)},
                                       {"c", std::int64_t(0)},
                                       {"d", std::int64_t(1)},
                                       {"e", std::int64_t(1)}});
        QVERIFY(sameValues(one.load(Device::host(), Stream::host()).values<double>(), {23}));
        QVERIFY(!ds.findVariable("v9")); // 9 dims: more than operations take, skipped with a note
        QVERIFY(anyNoteHas(notes, {"ranks.nc", "variable 'v9'", "9 dims", "at most 8"}));
    }
    void stringAndCompoundVariables() {
        OpenNotes notes;
        const Dataset ds = openDataset(bad("string_compound.nc"), notes);
        QCOMPARE(ds.findVariable("names")->dtype(), DType::String);
        const QString m = errorOf<ValueError>([&] { ds["names"].load(Device::host(), Stream::host()); });
        QVERIFY2(m.contains("string_compound.nc") && m.contains("variable 'names'") &&
                     m.contains("cannot load"),
                 qPrintable(m));
        QVERIFY(!ds.findVariable("pairs"));
        QVERIFY(anyNoteHas(notes, {"variable 'pairs'", "user-defined"}));
        QVERIFY(sameValues(hostValues(ds, "w"), {0.25, 0.5, 0.75}));
    }
    void groupsFiftyDeep() {
        const Dataset ds = openDataset(bad("deep_groups.nc"));
        std::string path;
        const Dataset* g = &ds;
        for (int level = 1; level <= 50; ++level) {
            path += "/g" + std::to_string(level);
            QCOMPARE(g->groups.size(), std::size_t(1));
            g = &g->groups[0];
            QCOMPARE(g->group, path);
        }
        QVERIFY(g->groups.empty());
        QCOMPARE(&ds.findGroup(path), g);
        QVERIFY(g->findDim("x") && g->findDim("x")->length == 2); // the root's dim, 50 levels down
        QVERIFY(sameValues(hostValues(*g, "leaf"), {50, 50.5}));
    }
    void groupsTooDeep() {
        // 200 levels: the first 128 are read, the rest are left out with a note (each level is a
        // frame of recursion in every walk of the Dataset).
        OpenNotes notes;
        const Dataset ds = openDataset(bad("deeper_groups.nc"), notes);
        int levels = 0;
        for (const Dataset* g = &ds; !g->groups.empty(); g = &g->groups[0]) ++levels;
        QCOMPARE(levels, 128);
        QVERIFY(
            anyNoteHas(notes, {"deeper_groups.nc", "group '/g1/g2/", "/g128'", "more than 128 levels deep"}));
    }
    void namesWithSpacesAndNonAscii() {
        const Dataset ds = openDataset(bad("names_unicode.nc"));
        const DataArray v = ds["sea surface température"];
        QCOMPARE(v.dims(), (std::vector<std::string>{"время", "lat itude"}));
        QVERIFY(sameValues(v.load(Device::host(), Stream::host()).values<double>(),
                           {0, 0.25, 0.5, 0.75, 1, 1.25}));
        QCOMPARE(v.attrs().text("long name").value_or(""), std::string("température de surface (°C)"));
        QVERIFY(sameValues(ds.coords.find("lat itude")->values, {-1, 0, 1}));
        QVERIFY(v.coords().contains("lat itude"));
        QVERIFY(QString::fromStdString(ds.summary()).contains("sea surface température"));
        // A wrong name is refused naming the file and listing the real one.
        const QString m = errorOf<ValueError>([&] { ds["sst"]; });
        QVERIFY2(m.contains("names_unicode.nc") && m.contains("sea surface température"), qPrintable(m));
    }

    // ---- the corpus itself -------------------------------------------------------------------
    void everyCorpusFileIsCovered() {
        // A file added to tests/data/bad without an expectation here fails this test.
        const QStringList known{"bad_dimid_cdf1.nc",
                                "calendar_unknown.nc",
                                "coords_odd.nc",
                                "deep_groups.nc",
                                "deeper_groups.nc",
                                "fill_double_on_short.nc",
                                "fill_unrepresentable.nc",
                                "hdf5_crash_dense_links.nc",
                                "hdf5_crash_global_heap.nc",
                                "huge_rank_cdf5.nc",
                                "long_name_cdf1.nc",
                                "names_unicode.nc",
                                "overflow_cdf5.nc",
                                "overflow_nc4.nc",
                                "random_after_cdf1.nc",
                                "random_after_hdf5.nc",
                                "ranks.nc",
                                "scale_array.nc",
                                "scale_text.nc",
                                "string_compound.nc",
                                "trunc_classic_data.nc",
                                "trunc_classic_header.nc",
                                "trunc_classic_magic.nc",
                                "trunc_classic_short1.nc",
                                "trunc_nc4_half.nc",
                                "trunc_nc4_short1.nc",
                                "trunc_nc4_sig.nc",
                                "trunc_nc4_superblock.nc",
                                "units_unparsable.nc",
                                "zero_dims.nc",
                                "zero_records_classic.nc",
                                "found/classic_huge_count_a.nc",
                                "found/classic_huge_count_b.nc",
                                "found/classic_huge_name_alloc.nc",
                                "found/classic_huge_rank.nc",
                                "found/classic_name_overflow.nc",
                                "found/hdf5_hang.nc"};
        QStringList present;
        for (const auto& e : std::filesystem::recursive_directory_iterator(bad("")))
            if (e.path().extension() == ".nc")
                present << QString::fromStdString(std::filesystem::relative(e.path(), bad("")).string());
        present.sort();
        QStringList expected = known;
        expected.sort();
        QCOMPARE(present, expected);
    }
};

QTEST_GUILESS_MAIN(TestBadFiles)
#include "tst_badfiles.moc"
