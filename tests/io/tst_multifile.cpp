// openMultiDataset on sets of files written here through netCDF-C. Expected values come from
// netCDF-C reads of each member (nc_read.h), dates worked out by hand.
#include <QTemporaryDir>
#include <QtTest>

#include <dirent.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "gpu_skip.h"
#include "nc_read.h"
#include "nc_write.h"
#include "strata/core/error.h"
#include "strata/core/residency.h"
#include "strata/core/runtime.h"
#include "strata/io/multifile.h"

using namespace strata;

namespace {

struct MemberSpec {
    std::vector<double> times{15};
    std::string units = "days since 2000-01-01";
    std::string calendar = "standard";
    int ny = 4, nx = 5;
    double latShift = 0;
    bool withPr = false;
    bool unlimited = true;
    int mode = NC_NETCDF4;
    float base = 0; // tas = base + 100 t + 10 y + x
};

void writeMember(const std::string& path, const MemberSpec& s) {
    nctest::Writer w(path, s.mode);
    const int t = w.dim("time", s.unlimited ? NC_UNLIMITED : s.times.size());
    const int y = w.dim("lat", std::size_t(s.ny)), x = w.dim("lon", std::size_t(s.nx));
    const int tv = w.var("time", NC_DOUBLE, {t}), yv = w.var("lat", NC_DOUBLE, {y}),
              xv = w.var("lon", NC_DOUBLE, {x});
    const int tas = w.var("tas", NC_FLOAT, {t, y, x});
    w.text(tv, "units", s.units);
    w.text(tv, "calendar", s.calendar);
    w.text(yv, "units", "degrees_north");
    w.text(xv, "units", "degrees_east");
    w.text(tas, "units", "K");
    w.att(tas, "_FillValue", NC_FLOAT, std::vector<float>{-999.f});
    int pr = -1;
    if (s.withPr) pr = w.var("pr", NC_FLOAT, {t, y, x});
    w.text(NC_GLOBAL, "title", "member " + path);
    w.enddef();
    std::vector<double> lat, lon;
    for (int i = 0; i < s.ny; ++i) lat.push_back(-60 + 40 * i + s.latShift);
    for (int i = 0; i < s.nx; ++i) lon.push_back(72 * i);
    w.put(yv, lat);
    w.put(xv, lon);
    const std::size_t nt = s.times.size();
    w.putAt(tv, {0}, {nt}, s.times);
    std::vector<float> v;
    for (std::size_t k = 0; k < nt; ++k)
        for (int i = 0; i < s.ny; ++i)
            for (int j = 0; j < s.nx; ++j)
                v.push_back(s.base + 100.f * float(k) + 10.f * float(i) + float(j));
    w.putAt(tas, {0, 0, 0}, {nt, std::size_t(s.ny), std::size_t(s.nx)}, v);
    if (pr >= 0) {
        for (float& f : v) f = -f;
        w.putAt(pr, {0, 0, 0}, {nt, std::size_t(s.ny), std::size_t(s.nx)}, v);
    }
}

std::vector<float> loadFloats(const Dataset& ds, const std::string& name,
                              const std::vector<Indexer>& isel = {}) {
    return ds[name].isel(isel).load(Device::host(), Stream::host()).values<float>();
}

// The members' values of `var` as netCDF-C reads them, one after the other.
std::vector<float> concatenated(const std::vector<std::string>& files, const std::string& var) {
    std::vector<float> out;
    for (const auto& f : files) {
        const auto v = nctest::readNcFloats(f, var);
        out.insert(out.end(), v.values.begin(), v.values.end());
    }
    return out;
}

// Twelve monthly members, two records each, whose names sort in another order than their times.
std::vector<std::string> writeYear(const QString& dir, int mode) {
    std::vector<std::string> inTimeOrder;
    const char* names[12] = {"k", "c", "a", "l", "b", "j", "d", "f", "e", "g", "i", "h"};
    for (int m = 0; m < 12; ++m) {
        MemberSpec s;
        s.times = {m * 30.0 + 1, m * 30.0 + 16};
        s.base = 1000.f * float(m);
        s.mode = mode;
        const std::string path = (dir + "/tas_" + names[m] + ".nc").toStdString();
        writeMember(path, s);
        inTimeOrder.push_back(path);
    }
    return inTimeOrder;
}

// January's member in days since 2000-01-01 (2000-01-16) and February's in hours since
// 2000-02-01 (2000-02-15): one record each, in other time units.
std::pair<MemberSpec, MemberSpec> janAndFeb() {
    MemberSpec jan;
    jan.times = {15};
    MemberSpec feb;
    feb.units = "hours since 2000-02-01 00:00:00";
    feb.times = {24 * 14};
    return {jan, feb};
}

int openDescriptors() {
    int n = 0;
    if (DIR* d = opendir("/proc/self/fd")) {
        while (readdir(d)) ++n;
        closedir(d);
    }
    return n;
}

bool mentions(const OpenNotes& notes, const std::string& text) {
    for (const auto& l : notes.lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

} // namespace

class TestMultiFile : public QObject {
    Q_OBJECT
private slots:
    void combinesByTime_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("netCDF-4") << int(NC_NETCDF4);
        QTest::newRow("classic") << int(NC_CLASSIC_MODEL & 0);
        QTest::newRow("64-bit offset") << int(NC_64BIT_OFFSET);
    }
    void combinesByTime() {
        QFETCH(int, mode);
        QTemporaryDir dir;
        const auto files = writeYear(dir.path(), mode);
        OpenNotes notes;
        const Dataset ds = openMultiDataset(expandPaths({dir.path().toStdString()}), notes);
        QCOMPARE(ds.files, files); // time order, not name order
        QCOMPARE(ds.findDim("time")->length, std::int64_t(24));
        QCOMPARE(*ds.attrs.text("title"), "member " + files[0]); // attributes of the first member
        const Coordinate* t = ds.coords.find("time");
        QVERIFY(t && t->time);
        QCOMPARE(t->values.size(), std::size_t(24));
        QCOMPARE(t->time->dates[0].iso(true), std::string("2000-01-02"));
        QCOMPARE(t->time->dates[23].iso(true), std::string("2000-12-12")); // day 346
        QCOMPARE(loadFloats(ds, "tas"), concatenated(files, "tas"));
        QCOMPARE(
            ds.findVariable("tas")->source()->readPath(),
            std::string("file set: 12 files, 12 read in parallel by byte offset, the rest through netCDF-C"));
        io::setReadMode(io::ReadMode::NetcdfC); // every member through netCDF-C's handles
        const auto throughNetcdf = loadFloats(ds, "tas", {{"time", Slice{1, 23, 1}}});
        io::setReadMode(io::ReadMode::Parallel);
        const auto all = concatenated(files, "tas");
        QCOMPARE(throughNetcdf, std::vector<float>(all.begin() + 20, all.end() - 20));
    }

    void slabAcrossBoundaries() {
        QTemporaryDir dir;
        const auto files = writeYear(dir.path(), NC_NETCDF4);
        OpenNotes notes;
        const Dataset ds = openMultiDataset(expandPaths({dir.path().toStdString() + "/*.nc"}), notes);
        const auto all = concatenated(files, "tas");
        // Records 1..6: the end of January, February and March whole, the start of April.
        const auto slab = loadFloats(ds, "tas", {{"time", Slice{1, 7, 1}}});
        QCOMPARE(slab, std::vector<float>(all.begin() + 20, all.begin() + 140));
        // Every third record, one row: strided across the members.
        const auto strided =
            loadFloats(ds, "tas", {{"time", Slice{0, std::nullopt, 3}}, {"lat", std::int64_t(2)}});
        std::vector<float> expect;
        for (int r = 0; r < 24; r += 3)
            for (int x = 0; x < 5; ++x) expect.push_back(all[std::size_t(r * 20 + 2 * 5 + x)]);
        QCOMPARE(strided, expect);
        // Time not first: a transposed read still gathers every member.
        const auto lonFirst = ds["tas"].isel({{"lat", std::int64_t(1)}}).transpose({"lon", "time"});
        const auto values = lonFirst.load(Device::host(), Stream::host()).values<float>();
        QCOMPARE(values.size(), std::size_t(5 * 24));
        for (int x = 0; x < 5; ++x)
            for (int r = 0; r < 24; ++r)
                QCOMPARE(values[std::size_t(x * 24 + r)], all[std::size_t(r * 20 + 1 * 5 + x)]);
    }

    void seriesThroughPoint() {
        QTemporaryDir dir;
        const auto files = writeYear(dir.path(), NC_NETCDF4);
        OpenNotes notes;
        const Dataset ds = openMultiDataset(expandPaths({dir.path().toStdString()}), notes);
        const auto series = loadFloats(ds, "tas", {{"lat", std::int64_t(3)}, {"lon", std::int64_t(4)}});
        std::vector<float> expect;
        for (const auto& f : files) {
            const auto v = nctest::readNcFloats(f, "tas");
            for (std::size_t r = 0; r < v.shape[0]; ++r) expect.push_back(v.at(r, 3, 4));
        }
        QCOMPARE(series, expect);
    }

    void sameAsOneFile() {
        QTemporaryDir dir;
        MemberSpec whole; // large enough that members are read as boxes, not value by value
        whole.ny = 12;
        whole.nx = 10;
        whole.times.clear();
        for (int k = 0; k < 6; ++k) whole.times.push_back(k * 10.0);
        const std::string one = (dir.path() + "/whole.nc").toStdString();
        writeMember(one, whole);
        std::vector<std::string> parts;
        for (int p = 0; p < 3; ++p) {
            MemberSpec s = whole;
            s.times = {p * 20.0, p * 20.0 + 10};
            s.base = 200.f * float(p);
            parts.push_back((dir.path() + "/part" + QString::number(p) + ".nc").toStdString());
            writeMember(parts.back(), s);
        }
        OpenNotes notes;
        const Dataset set = openMultiDataset(parts, notes);
        const Dataset single = openDataset(one);
        QCOMPARE(loadFloats(set, "tas"), loadFloats(single, "tas"));
        QCOMPARE(set.coords.find("time")->values, single.coords.find("time")->values);
    }

    void conflictsNameBothFiles() {
        QTemporaryDir dir;
        const std::string a = (dir.path() + "/a.nc").toStdString(), b = (dir.path() + "/b.nc").toStdString();
        writeMember(a, MemberSpec{});
        MemberSpec other;
        other.times = {45};
        other.ny = 3;
        writeMember(b, other);
        OpenNotes notes;
        try {
            openMultiDataset({a, b}, notes);
            QFAIL("a mismatched grid was combined");
        } catch (const ValueError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("a.nc") != std::string::npos && m.find("b.nc") != std::string::npos, e.what());
            QVERIFY2(m.find("dim 'lat' has 4 values") != std::string::npos, e.what());
        }
        other.ny = 4;
        other.latShift = 0.5;
        writeMember(b, other);
        try {
            openMultiDataset({a, b}, notes);
            QFAIL("a shifted grid was combined");
        } catch (const ValueError& e) {
            QVERIFY2(std::string(e.what()).find(
                         "coordinate 'lat' differs at index 0 (-60 in a.nc, -59.5 in b.nc)") !=
                         std::string::npos,
                     e.what());
        }
        other.latShift = 0;
        other.times = {10}; // inside a's time
        writeMember(b, other);
        MemberSpec first;
        first.times = {5, 15};
        writeMember(a, first);
        QVERIFY_THROWS_EXCEPTION(ValueError, openMultiDataset({a, b}, notes));
    }

    // A file set kept whole on a device by the residency (as the window keeps the variable it
    // shows): resident on the host, and on the GPU where there is one, with every member's values
    // as netCDF-C reads them, in time order (the files given out of it); then evicted for a
    // smaller budget.
    void aFileSetIsResident_data() {
        QTest::addColumn<bool>("cuda");
        QTest::newRow("cpu") << false;
        QTest::newRow("cuda") << true;
    }
    void aFileSetIsResident() {
        QFETCH(bool, cuda);
        if (cuda && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Device device = cuda ? Device::cuda(0) : Device::host();
        QTemporaryDir dir;
        const std::vector<std::string> files = writeYear(dir.path(), NC_NETCDF4);
        std::vector<std::string> shuffled = files;
        std::swap(shuffled[0], shuffled[7]);
        std::swap(shuffled[3], shuffled[11]);
        OpenNotes notes;
        const Dataset ds = openMultiDataset(shuffled, notes);
        const DataArray tas = ds["tas"];
        QCOMPARE(tas.shape(), (Shape{24, 4, 5}));
        {
            Residency residency(std::size_t(1) << 30);
            residency.setSlabBytes(3 * 4 * 5 * 4); // slabs across the members' boundaries
            residency.request("tas", tas, device);
            residency.wait();
            QCOMPARE(residency.status("tas").state, Residence::Resident);
            QCOMPARE(residency.status("tas").bytes, std::size_t(24 * 4 * 5 * 4));
            {
                const DataArray resident = *residency.get("tas");
                QCOMPARE(resident.device(), device);
                const std::vector<float> got = resident.asHost().values<float>();
                const std::vector<float> want = concatenated(files, "tas");
                QCOMPARE(got.size(), want.size());
                for (std::size_t i = 0; i < got.size(); ++i)
                    QVERIFY2(got[i] == want[i],
                             qPrintable(QString("%1: %2, netCDF-C %3").arg(i).arg(got[i]).arg(want[i])));
            }
            // Too big for a budget of half of it, once nothing holds it: evicted.
            residency.setBudget(24 * 4 * 5 * 4 / 2);
            QCOMPARE(residency.status("tas").state, Residence::None);
        }
    }

    void mixedTimeUnits() {
        QTemporaryDir dir;
        const auto [jan, feb] = janAndFeb();
        const std::string a = (dir.path() + "/z_jan.nc").toStdString(),
                          b = (dir.path() + "/a_feb.nc").toStdString();
        writeMember(a, jan);
        writeMember(b, feb);
        OpenNotes notes;
        const Dataset ds = openMultiDataset({b, a}, notes);
        QCOMPARE(ds.files, (std::vector<std::string>{a, b}));
        const Coordinate* t = ds.coords.find("time");
        QCOMPARE(t->values, (std::vector<double>{15, 45})); // days since 2000-01-01
        QCOMPARE(t->time->dates[1].iso(true), std::string("2000-02-15"));
        QCOMPARE(ds["time"].load(Device::host(), Stream::host()).values<double>(),
                 (std::vector<double>{15, 45}));
    }

    // Ordered by date, not by the numbers each file stores: March's 0 (days since 2000-03-01)
    // comes after January's 15 (days since 2000-01-01) and February's 336 hours.
    void mixedTimeUnitsOrderByDate() {
        QTemporaryDir dir;
        const auto [jan, feb] = janAndFeb();
        MemberSpec mar;
        mar.units = "days since 2000-03-01";
        mar.times = {0}; // 2000-03-01
        const std::string a = (dir.path() + "/a_mar.nc").toStdString(),
                          b = (dir.path() + "/b_jan.nc").toStdString(),
                          c = (dir.path() + "/c_feb.nc").toStdString();
        writeMember(a, mar);
        writeMember(b, jan);
        writeMember(c, feb);
        OpenNotes notes;
        const Dataset ds = openMultiDataset({a, b, c}, notes);
        QCOMPARE(ds.files, (std::vector<std::string>{b, c, a}));
        QCOMPARE(ds.coords.find("time")->values, (std::vector<double>{15, 45, 60})); // days since 2000-01-01
    }

    // Files that meet at one time (the first's last step is the second's first) overlap: the
    // step would be on the axis twice.
    void aSharedStepIsAnOverlap() {
        QTemporaryDir dir;
        MemberSpec first;
        first.times = {5, 15};
        MemberSpec second;
        second.times = {15, 25};
        const std::string a = (dir.path() + "/a.nc").toStdString(), b = (dir.path() + "/b.nc").toStdString();
        writeMember(a, first);
        writeMember(b, second);
        OpenNotes notes;
        try {
            openMultiDataset({a, b}, notes);
            QFAIL("files sharing a time step were combined");
        } catch (const ValueError& e) {
            QVERIFY2(std::string(e.what()).find("overlap") != std::string::npos, e.what());
        }
        second.times = {16, 25}; // a day later: they join
        writeMember(b, second);
        QCOMPARE(openMultiDataset({a, b}, notes).findDim("time")->length, std::int64_t(4));
    }

    void calendars() {
        QTemporaryDir dir;
        MemberSpec a360;
        a360.calendar = "360_day";
        a360.times = {59}; // 2000-02-30 in a 360-day year
        MemberSpec b360 = a360;
        b360.times = {89};
        const std::string a = (dir.path() + "/a.nc").toStdString(), b = (dir.path() + "/b.nc").toStdString();
        writeMember(a, a360);
        writeMember(b, b360);
        OpenNotes notes;
        const Dataset ds = openMultiDataset({a, b}, notes);
        QCOMPARE(ds.coords.find("time")->time->dates[0].iso(true), std::string("2000-02-30"));
        QCOMPARE(ds.coords.find("time")->time->calendar, Calendar::Day360);
        MemberSpec standard = b360;
        standard.calendar = "standard";
        writeMember(b, standard);
        try {
            openMultiDataset({a, b}, notes);
            QFAIL("different calendars were combined");
        } catch (const ValueError& e) {
            QVERIFY2(std::string(e.what()).find("different calendars ('360_day' and 'standard')") !=
                         std::string::npos,
                     e.what());
        }
    }

    void variableInSomeFiles() {
        QTemporaryDir dir;
        std::vector<std::string> files, withPr;
        for (int m = 0; m < 6; ++m) {
            MemberSpec s;
            s.times = {m * 30.0, m * 30.0 + 10};
            s.withPr = m >= 2 && m < 5;
            s.base = float(m);
            files.push_back((dir.path() + "/m" + QString::number(m) + ".nc").toStdString());
            writeMember(files.back(), s);
            if (s.withPr) withPr.push_back(files.back());
        }
        OpenNotes notes;
        const Dataset ds = openMultiDataset(files, notes);
        QVERIFY(mentions(notes, "variable 'pr' is in 3 of 6 files"));
        const Variable* pr = ds.findVariable("pr");
        QVERIFY(pr);
        QCOMPARE(pr->dims()[0], std::string("time_pr"));
        QCOMPARE(pr->shape()[0], std::int64_t(6));
        QCOMPARE(loadFloats(ds, "pr"), concatenated(withPr, "pr"));
        QCOMPARE(ds.coords.find("time_pr")->values, (std::vector<double>{60, 70, 90, 100, 120, 130}));
        QCOMPARE(loadFloats(ds, "tas"), concatenated(files, "tas"));
    }

    void damagedMember() {
        QTemporaryDir dir;
        const auto files = writeYear(dir.path(), NC_NETCDF4);
        const std::string bad = files[5];
        std::filesystem::resize_file(bad, std::filesystem::file_size(bad) / 2);
        OpenNotes notes;
        const Dataset ds = openMultiDataset(expandPaths({dir.path().toStdString()}), notes);
        QVERIFY(
            mentions(notes, std::filesystem::path(bad).filename().string() + ": left out of the file set"));
        std::vector<std::string> good = files;
        good.erase(good.begin() + 5);
        QCOMPARE(ds.files, good);
        QCOMPARE(loadFloats(ds, "tas"), concatenated(good, "tas"));
        // None usable: an error naming the file.
        std::filesystem::resize_file(files[0], 10);
        QVERIFY_THROWS_EXCEPTION(NetcdfError, openMultiDataset({files[0]}, notes));
    }

    void timeNotUnlimitedNorFirst() {
        // No unlimited dim: the CF time dim is the record dim, here the last of v(lat, time).
        QTemporaryDir dir;
        std::vector<std::string> files;
        for (int m = 0; m < 3; ++m) {
            files.push_back((dir.path() + "/v" + QString::number(2 - m) + ".nc").toStdString());
            nctest::Writer w(files.back(), NC_NETCDF4);
            const int y = w.dim("lat", 3), t = w.dim("time", 2);
            const int tv = w.var("time", NC_DOUBLE, {t}), v = w.var("v", NC_DOUBLE, {y, t});
            w.text(tv, "units", "hours since 1990-01-01");
            w.enddef();
            w.put(tv, std::vector<double>{m * 2.0, m * 2.0 + 1});
            std::vector<double> values;
            for (int i = 0; i < 3; ++i)
                for (int k = 0; k < 2; ++k) values.push_back(100 * i + 10 * m + k);
            w.put(v, values);
        }
        OpenNotes notes;
        const Dataset ds = openMultiDataset({files[2], files[0], files[1]}, notes);
        QCOMPARE(ds.files, files);
        QCOMPARE(ds.findDim("time")->length, std::int64_t(6));
        const auto got = ds["v"].load(Device::host(), Stream::host()).values<double>();
        std::vector<double> expect; // lat-major: each row runs through the three files
        for (int i = 0; i < 3; ++i)
            for (int m = 0; m < 3; ++m)
                for (int k = 0; k < 2; ++k) expect.push_back(100 * i + 10 * m + k);
        QCOMPARE(got, expect);
    }

    void crashingAndHangingMembers() {
        QTemporaryDir dir;
        const auto files = writeYear(dir.path(), NC_NETCDF4);
        const std::string bad = std::string(STRATA_SOURCE_DIR) + "/tests/data/bad/";
        // Named to sit among the good ones in one reading process's share.
        const std::string crash = (dir.path() + "/tas_d2.nc").toStdString();
        const std::string hang = (dir.path() + "/tas_g2.nc").toStdString();
        std::filesystem::copy_file(bad + "hdf5_crash_dense_links.nc", crash);
        std::filesystem::copy_file(bad + "found/hdf5_hang.nc", hang);
        MultiOpenOptions options;
        options.workers = 1; // one child: after each casualty the rest of its share goes on in a new one
        options.timeoutMs = 3000;
        OpenNotes notes;
        const Dataset ds = openMultiDataset(expandPaths({dir.path().toStdString()}), notes, options);
        QVERIFY(mentions(notes, "tas_d2.nc: left out of the file set"));
        QVERIFY(mentions(notes, "crashed while reading it"));
        QVERIFY(mentions(notes, "tas_g2.nc: left out of the file set"));
        QVERIFY(mentions(notes, "took longer than 3 s"));
        QCOMPARE(ds.files, files);
        QCOMPARE(loadFloats(ds, "tas"), concatenated(files, "tas"));
    }

    void thousandsOfFilesFewDescriptors() {
        QTemporaryDir dir;
        constexpr int kFiles = 10000;
        std::vector<std::string> files;
        for (int i = 0; i < kFiles; ++i) {
            files.push_back((dir.path() + QString("/t%1.nc").arg(i, 5, 10, QChar('0'))).toStdString());
            MemberSpec s;
            s.mode = NC_CLASSIC_MODEL & 0;
            s.ny = 1;
            s.nx = 2;
            s.times = {double(i)};
            s.base = float(i);
            writeMember(files.back(), s);
        }
        MultiOpenOptions options;
        options.openFiles = 32;
        OpenNotes notes;
        const int before = openDescriptors();
        const Dataset ds =
            openMultiDataset(expandPaths({dir.path().toStdString() + "/t*.nc"}), notes, options);
        QCOMPARE(ds.files.size(), std::size_t(kFiles));
        const auto series = loadFloats(ds, "tas", {{"lat", std::int64_t(0)}, {"lon", std::int64_t(1)}});
        QCOMPARE(series.size(), std::size_t(kFiles));
        for (int i = 0; i < kFiles; i += 997) QCOMPARE(series[std::size_t(i)], float(i) + 1.f);
        QCOMPARE(series.back(), float(kFiles - 1) + 1.f);
        QVERIFY2(openDescriptors() <= before + 32 + 4,
                 qPrintable(QString::number(openDescriptors() - before)));
    }

    void expandsArguments() {
        QTemporaryDir dir;
        const auto files = writeYear(dir.path(), NC_NETCDF4);
        auto sorted = files;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(expandPaths({dir.path().toStdString()}), sorted);
        QCOMPARE(expandPaths({dir.path().toStdString() + "/tas_[ab].nc"}),
                 (std::vector<std::string>{sorted[0], sorted[1]}));
        QCOMPARE(expandPaths({files[3], files[1], files[3]}), (std::vector<std::string>{files[3], files[1]}));
        QVERIFY_THROWS_EXCEPTION(ValueError, expandPaths({dir.path().toStdString() + "/nothing*.nc"}));
        // A Zarr store is a directory of its own kind: named as it is, not searched for .nc files.
        const std::string store = std::string(STRATA_SOURCE_DIR) + "/tests/data/zarr_v3/v3_bytes.zarr";
        QCOMPARE(expandPaths({store}), std::vector<std::string>{store});
        QCOMPARE(fileSetLabel(files), std::string("tas_*.nc (12 files)"));
        QCOMPARE(fileSetLabel({files[0]}), std::string("tas_k.nc"));
    }
};

QTEST_GUILESS_MAIN(TestMultiFile)
#include "tst_multifile.moc"
