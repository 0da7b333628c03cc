// Strata's direct reader against netCDF-C's read: the same bytes from both over a matrix of files
// written here and over tests/data; the reason given for each variable left to netCDF-C; an
// error naming the variable, never a crash, on damaged chunks and chunk indexes; and a whole
// load cancelled mid-way.
#include "gpu_skip.h"
#include "test_seed.h"
#include <QtTest>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "direct_files.h"
#include "h5_write.h"
#include "hostile_files.h"
#include "nc_call.h"
#include "strata/core/error.h"
#include "strata/core/residency.h"
#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"

using namespace strata;
using Bytes = std::vector<unsigned char>;
using hostiletest::Hostile;

namespace {

std::uint64_t seed = 0; // per run; printed at the start and in every failure about values

// The read mode for a scope; the one before it again after it.
class ModeScope {
public:
    explicit ModeScope(io::ReadMode mode) : previous_(io::readMode()) { io::setReadMode(mode); }
    ~ModeScope() { io::setReadMode(previous_); }
    ModeScope(const ModeScope&) = delete;
    ModeScope& operator=(const ModeScope&) = delete;

private:
    io::ReadMode previous_;
};

struct Slab {
    const char* what;
    std::vector<std::int64_t> start, count, stride;
};

// The whole variable, then boxes that cross chunk edges, single elements, a row along the last
// dim, a box starting past 0 on every dim, a random box, a strided one and an empty one.
std::vector<Slab> slabsOf(const Shape& shape, const std::vector<std::size_t>& chunks, std::mt19937_64& rng) {
    const std::size_t n = shape.size();
    const std::vector<std::int64_t> zeros(n, 0), ones(n, 1);
    std::vector<Slab> slabs = {{"whole", zeros, shape, ones}};
    if (n == 0 || std::find(shape.begin(), shape.end(), 0) != shape.end()) return slabs;
    Slab edges{"across chunk edges", zeros, ones, ones}, middle{"one element", zeros, ones, ones},
        last{"the last element", zeros, ones, ones}, row{"one row along the last dim", zeros, ones, ones},
        inner{"a nonzero start on every dim", zeros, ones, ones}, box{"a random box", zeros, ones, ones},
        strided{"stride 2", zeros, ones, std::vector<std::int64_t>(n, 2)},
        empty{"an empty box", zeros, shape, ones};
    empty.count[0] = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t len = shape[i];
        const std::int64_t c = chunks.empty() ? len / 2 + 1 : std::int64_t(chunks[i]);
        edges.start[i] = c < len ? c - 1 : std::max<std::int64_t>(0, len - 2);
        edges.count[i] = std::min(c + 2, len - edges.start[i]);
        middle.start[i] = len / 2;
        last.start[i] = len - 1;
        row.start[i] = i + 1 < n ? len / 2 : 0;
        row.count[i] = i + 1 < n ? 1 : len;
        inner.start[i] = len > 1 ? 1 : 0;
        inner.count[i] = std::max<std::int64_t>(1, len - inner.start[i] - 1);
        box.start[i] = std::int64_t(rng() % std::uint64_t(len));
        box.count[i] = 1 + std::int64_t(rng() % std::uint64_t(len - box.start[i]));
        strided.start[i] = len > 2 ? 1 : 0;
        strided.count[i] = (len - strided.start[i] + 1) / 2;
    }
    slabs.insert(slabs.end(), {edges, middle, last, row, inner, box, strided, empty});
    return slabs;
}

QString slabText(const Slab& s) {
    QStringList parts;
    for (std::size_t i = 0; i < s.start.size(); ++i)
        parts << QString("%1:+%2:%3").arg(s.start[i]).arg(s.count[i]).arg(s.stride[i]);
    return QString("%1 [%2]").arg(s.what, parts.join(", "));
}

// Reads `slab` in `mode` into a buffer first filled with `poison`, and followed by a guard of
// poison that must stay as it is.
Bytes readSlab(const DataSource& source, const Slab& slab, std::size_t elem, io::ReadMode mode,
               unsigned char poison) {
    const std::size_t guard = 64;
    std::int64_t n = 1;
    for (std::int64_t c : slab.count) n *= c;
    Bytes out(std::size_t(n) * elem + guard, poison);
    {
        ModeScope scope(mode);
        source.read(slab.start, slab.count, slab.stride, out.data());
    }
    if (std::any_of(out.end() - guard, out.end(), [&](unsigned char b) { return b != poison; }))
        throw std::runtime_error("the read wrote past the end of its buffer");
    out.resize(out.size() - guard);
    return out;
}

// Where two reads differ, for a message; empty when their bytes are the same. Elements that
// `defined` marks false are not compared.
QString firstDifference(const Bytes& netcdfC, const Bytes& parallel, std::size_t elem,
                        const std::vector<bool>& defined = {}) {
    if (netcdfC.size() != parallel.size())
        return QString("netCDF-C gave %1 bytes, parallel %2").arg(netcdfC.size()).arg(parallel.size());
    std::size_t differing = 0, first = 0;
    for (std::size_t i = 0; i < netcdfC.size(); i += elem)
        if ((defined.empty() || defined[i / elem]) &&
            std::memcmp(netcdfC.data() + i, parallel.data() + i, elem) != 0 && differing++ == 0)
            first = i;
    if (differing == 0) return {};
    const auto hex = [&](const Bytes& b) {
        return QByteArray(reinterpret_cast<const char*>(b.data() + first), qsizetype(elem)).toHex();
    };
    return QString("%1 of %2 elements differ; the first, element %3: netCDF-C %4, parallel %5 (seed %6)")
        .arg(differing)
        .arg(netcdfC.size() / elem)
        .arg(first / elem)
        .arg(QString(hex(netcdfC)), QString(hex(parallel)))
        .arg(seed);
}

// The elements netCDF-C writes when it reads `slab`: those two reads into differently poisoned
// buffers agree on. It leaves the others as they were (chunks never written of a variable
// without fill, whose values are undefined).
std::vector<bool> definedElements(const Variable& netcdfC, const Slab& slab) {
    const std::size_t elem = sizeOf(netcdfC.encoding().packed);
    const Bytes a = readSlab(*netcdfC.source(), slab, elem, io::ReadMode::NetcdfC, 0xa5);
    const Bytes b = readSlab(*netcdfC.source(), slab, elem, io::ReadMode::NetcdfC, 0x5a);
    std::vector<bool> defined(a.size() / elem);
    for (std::size_t i = 0; i < defined.size(); ++i)
        defined[i] = std::memcmp(a.data() + i * elem, b.data() + i * elem, elem) == 0;
    return defined;
}

// A loaded host variable's bytes.
Bytes hostBytes(const Variable& v) {
    if (v.size() == 0) return {};
    if (!v.isContiguous() || !v.device().isHost()) throw std::runtime_error("not a contiguous host variable");
    const auto* p = static_cast<const unsigned char*>(v.buffer()->data()) + v.offset() * sizeOf(v.dtype());
    return Bytes(p, p + v.nbytes());
}

// A variable's values in `mode` as Variable::load decodes them, as bytes.
Bytes loadBytes(const Variable& var, io::ReadMode mode) {
    ModeScope scope(mode);
    return hostBytes(var.load(Device::host(), Stream::host()));
}

// The same through the model's path: a DataArray loaded onto `device`, brought back.
Bytes loadBytes(const DataArray& array, io::ReadMode mode, Device device = Device::host()) {
    ModeScope scope(mode);
    return hostBytes(array.load(device, defaultStream(device)).asHost().variable());
}

struct Opened {
    Dataset netcdfC, parallel;
};
Opened openBoth(const std::string& path) {
    Opened o;
    {
        ModeScope scope(io::ReadMode::NetcdfC);
        o.netcdfC = openDataset(path);
    }
    o.parallel = openDataset(path);
    return o;
}

// Compares `slabs` of the variable as read in both modes; the first difference, or empty.
// Elements netCDF-C leaves undefined are an error unless `undefinedAllowed`, and then skipped.
QString compareSlabs(const Variable& netcdfC, const Variable& parallel, const std::vector<Slab>& slabs,
                     bool undefinedAllowed = false) {
    const std::size_t elem = sizeOf(netcdfC.encoding().packed);
    for (const Slab& s : slabs) {
        try {
            const std::vector<bool> defined = definedElements(netcdfC, s);
            if (!undefinedAllowed && std::find(defined.begin(), defined.end(), false) != defined.end())
                return slabText(s) + ": netCDF-C left elements of the buffer as they were";
            const Bytes a = readSlab(*netcdfC.source(), s, elem, io::ReadMode::NetcdfC, 0xa5);
            const Bytes b = readSlab(*parallel.source(), s, elem, io::ReadMode::Parallel, 0x5a);
            const QString d = firstDifference(a, b, elem, defined);
            if (!d.isEmpty()) return slabText(s) + ": " + d;
        } catch (const std::exception& e) {
            return slabText(s) + ": " + e.what() + QString(" (seed %1)").arg(seed);
        }
    }
    return {};
}

// Reads through another source but asks loads for slabs of their own size, so that a load of a
// few MB is several slabs on any machine (a parallel source asks for more with more threads).
class SmallSlabs final : public DataSource {
public:
    explicit SmallSlabs(std::shared_ptr<const DataSource> inner) : inner_(std::move(inner)) {}
    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override {
        inner_->read(start, count, stride, out);
    }
    std::string describe() const override { return inner_->describe(); }
    std::string readPath() const override { return inner_->readPath(); }

private:
    std::shared_ptr<const DataSource> inner_;
};

// True when `read` finishes while another thread holds netCDF-C's lock (which every call into
// netCDF-C takes): it did not go through netCDF-C. The lock is let go after a while either way.
bool servedWithoutNetcdfC(const std::function<void()>& read) {
    std::promise<void> locked, release;
    std::future<void> released = release.get_future();
    std::thread holder([&] {
        std::lock_guard lock(io::detail::netcdfMutex());
        locked.set_value();
        released.wait();
    });
    locked.get_future().wait();
    std::future<void> done = std::async(std::launch::async, read);
    const bool quick = done.wait_for(std::chrono::seconds(3)) == std::future_status::ready;
    release.set_value();
    holder.join();
    done.get();
    return quick;
}

QByteArray lower(const std::string& s) { return QByteArray::fromStdString(s).toLower(); }

} // namespace

class TestDirectRead : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::vector<directtest::File> files_ = directtest::matrixFiles();
    std::string path(const std::string& name) const {
        return dir_.filePath(QString::fromStdString(name)).toStdString();
    }

    // A good read after a bad one: the process goes on, and reads another file as before.
    void goodReadStillWorks() {
        const Opened o = openBoth(path("nc4_le.nc"));
        const Variable* a = o.netcdfC.findVariable("float_sd");
        const Variable* b = o.parallel.findVariable("float_sd");
        QVERIFY(a && b);
        std::mt19937_64 rng(seed);
        const QString d = compareSlabs(*a, *b, {slabsOf(a->shape(), {}, rng).front()});
        QVERIFY2(d.isEmpty(), qPrintable(d));
    }

    // A file large enough for reads spread over threads and loads of several slabs: "v", 12 MB
    // of float32 deflated in chunks of 4×64×64, and "c", 12 MB of contiguous float64.
    std::string bigFile() {
        const std::string p = path("big.nc");
        if (QFileInfo::exists(QString::fromStdString(p))) return p;
        nctest::Writer w(p, NC_NETCDF4);
        const int t = w.dim("t", 48), y = w.dim("y", 256), x = w.dim("x", 256);
        const int v = w.var("v", NC_FLOAT, {t, y, x}), c = w.var("c", NC_DOUBLE, {w.dim("half", 24), y, x});
        const std::size_t chunks[3] = {4, 64, 64};
        nctest::ok(nc_def_var_chunking(w.id(), v, NC_CHUNKED, chunks), "chunking");
        nctest::ok(nc_def_var_deflate(w.id(), v, 1, 1, 1), "deflate");
        nctest::ok(nc_def_var_chunking(w.id(), c, NC_CONTIGUOUS, nullptr), "contiguous");
        w.enddef();
        std::mt19937_64 rng(seed);
        std::vector<float> values(48 * 256 * 256);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = std::sin(float(i % 4099) * 0.01f) + float(rng() % 16) / 64.f;
        w.put(v, values);
        w.put(c, std::vector<double>(values.begin(), values.begin() + std::ptrdiff_t(values.size() / 2)));
        return p;
    }

private slots:
    void cleanup() { test::reportSeedOnFailure(); }
    void initTestCase() {
        QVERIFY(dir_.isValid());
        seed = test::testSeed();
        std::mt19937_64 rng(seed);
        for (const directtest::File& f : files_) directtest::write(f, path(f.name), rng);
    }

    void readModeSwitches() {
        {
            ModeScope scope(io::ReadMode::NetcdfC);
            QCOMPARE(io::readMode(), io::ReadMode::NetcdfC);
        }
        QCOMPARE(io::readMode(), io::ReadMode::Parallel);
    }

    void matrix_data() {
        QTest::addColumn<int>("file");
        QTest::addColumn<int>("var");
        for (std::size_t f = 0; f < files_.size(); ++f)
            for (std::size_t v = 0; v < files_[f].vars.size(); ++v)
                QTest::addRow("%s/%s%s%s", files_[f].name.c_str(), files_[f].vars[v].group.c_str(),
                              files_[f].vars[v].group.empty() ? "" : "/", files_[f].vars[v].name.c_str())
                    << int(f) << int(v);
    }
    void matrix() {
        QFETCH(int, file);
        QFETCH(int, var);
        const directtest::File& f = files_[std::size_t(file)];
        const directtest::Var& spec = f.vars[std::size_t(var)];
        if (spec.written != directtest::Written::All && spec.storage == directtest::Storage::Chunked) {
            const h5test::ChunkCount n = h5test::chunkCount(path(f.name), spec.name.c_str());
            QVERIFY2(n.stored < n.total || n.total == 0, "every chunk is stored: none is left unwritten");
        }
        const Opened o = openBoth(path(f.name));
        const Variable* a = o.netcdfC.findGroup(spec.group).findVariable(spec.name);
        const Variable* b = o.parallel.findGroup(spec.group).findVariable(spec.name);
        QVERIFY(a && b && a->source() && b->source());
        const std::string how = b->source()->readPath();
        if (spec.parallel)
            QVERIFY2(how.starts_with("parallel"), qPrintable(QString("readPath() is '%1'").arg(how.c_str())));
        std::mt19937_64 rng(seed + std::uint64_t(file * 1000 + var));
        const std::vector<Slab> slabs = slabsOf(a->shape(), spec.chunks, rng);
        if (spec.parallel && spec.direct) {
            const std::size_t elem = sizeOf(b->encoding().packed);
            QVERIFY2(servedWithoutNetcdfC(
                         [&] { readSlab(*b->source(), slabs.front(), elem, io::ReadMode::Parallel, 0); }),
                     "the whole variable was read through netCDF-C");
        }
        const QString d = compareSlabs(*a, *b, slabs, spec.noFill);
        QVERIFY2(d.isEmpty(), qPrintable(d));
        if (a->ndim() > 0 && a->size() > 0) { // one past the end of the last dim: refused in both modes
            Slab beyond{"beyond", std::vector<std::int64_t>(a->ndim(), 0), a->shape(),
                        std::vector<std::int64_t>(a->ndim(), 1)};
            ++beyond.count.back();
            const std::size_t elem = sizeOf(a->encoding().packed);
            QVERIFY_THROWS_EXCEPTION(NetcdfError,
                                     readSlab(*a->source(), beyond, elem, io::ReadMode::NetcdfC, 0));
            QVERIFY_THROWS_EXCEPTION(NetcdfError,
                                     readSlab(*b->source(), beyond, elem, io::ReadMode::Parallel, 0));
        }
        // The model's path: a DataArray loaded (and decoded) onto the host.
        const Bytes decodedC = loadBytes(o.netcdfC.findGroup(spec.group)[spec.name], io::ReadMode::NetcdfC);
        const Bytes decodedP = loadBytes(o.parallel.findGroup(spec.group)[spec.name], io::ReadMode::Parallel);
        const std::vector<bool> defined =
            spec.noFill ? definedElements(*a, slabs.front()) : std::vector<bool>{};
        const QString e = firstDifference(decodedC, decodedP, sizeOf(a->dtype()), defined);
        QVERIFY2(e.isEmpty(), qPrintable("loaded: " + e));
    }

    void dataFiles_data() {
        QTest::addColumn<QString>("file");
        const QDir root(STRATA_TEST_DATA);
        QDirIterator it(root.path(), {"*.nc"}, QDir::Files, QDirIterator::Subdirectories);
        QStringList files;
        while (it.hasNext()) {
            const QString f = root.relativeFilePath(it.next());
            if (!f.startsWith("bad/")) files << f;
        }
        files.sort();
        QVERIFY(!files.isEmpty());
        for (const QString& f : files) QTest::newRow(qPrintable(f)) << root.filePath(f);
    }
    void dataFiles() {
        QFETCH(QString, file);
        const std::string p = file.toStdString();
        QString refused;
        try {
            ModeScope scope(io::ReadMode::NetcdfC);
            openDataset(p);
        } catch (const NetcdfError& e) {
            refused = e.what();
        }
        if (!refused.isEmpty()) { // a damaged file: refused in both modes
            QVERIFY_THROWS_EXCEPTION(NetcdfError, openDataset(p));
            return;
        }
        const Opened o = openBoth(p);
        int compared = 0;
        std::mt19937_64 rng(seed);
        std::function<void(const Dataset&, const Dataset&)> walk = [&](const Dataset& a, const Dataset& b) {
            QCOMPARE(a.variables.size(), b.variables.size());
            for (std::size_t i = 0; i < a.variables.size(); ++i) {
                const Variable& va = a.variables[i].second;
                const Variable& vb = b.variables[i].second;
                if (!isNumeric(va.encoding().packed) || !va.source() || !vb.source()) continue;
                const QString d = compareSlabs(va, vb, slabsOf(va.shape(), {}, rng));
                QVERIFY2(d.isEmpty(),
                         qPrintable(QString::fromStdString(a.group + " " + a.variables[i].first) + ": " + d));
                ++compared;
            }
            QCOMPARE(a.groups.size(), b.groups.size());
            for (std::size_t g = 0; g < a.groups.size(); ++g) walk(a.groups[g], b.groups[g]);
        };
        walk(o.netcdfC, o.parallel);
        if (QTest::currentTestFailed()) return;
        qInfo("%d numeric variables compared", compared);
    }

    // Reads from several threads at once (the frame service and a load do that), each while the
    // reader's own pool works: netCDF-C's bytes, and no thread left waiting.
    void concurrentReads() {
        struct Job {
            std::shared_ptr<const DataSource> source;
            Slab slab;
            Bytes want;
            QString name;
        };
        std::vector<Job> jobs;
        std::mt19937_64 rng(seed);
        for (const directtest::File& f : files_) {
            if (f.name == "nc4_be.nc" || f.name == "nc4_shapes.nc" || f.name == "offset64.nc") continue;
            const Opened o = openBoth(path(f.name));
            for (const directtest::Var& spec : f.vars) {
                const Variable& a = *o.netcdfC.findGroup(spec.group).findVariable(spec.name);
                if (a.ndim() == 0 || spec.noFill) continue;
                const std::size_t elem = sizeOf(a.encoding().packed);
                for (const Slab& s : slabsOf(a.shape(), spec.chunks, rng))
                    jobs.push_back({o.parallel.findGroup(spec.group).findVariable(spec.name)->source(), s,
                                    readSlab(*a.source(), s, elem, io::ReadMode::NetcdfC, 0),
                                    QString("%1/%2 %3").arg(f.name.c_str(), spec.name.c_str(), slabText(s))});
            }
        }
        const Opened big = openBoth(bigFile()); // reads the reader spreads over its threads
        for (const char* name : {"v", "c"}) {
            const Variable& a = *big.netcdfC.findVariable(name);
            for (const Slab& s : slabsOf(a.shape(), {4, 64, 64}, rng))
                if (s.what == std::string("whole") || s.what == std::string("a random box"))
                    jobs.push_back({big.parallel.findVariable(name)->source(), s,
                                    readSlab(*a.source(), s, sizeOf(a.dtype()), io::ReadMode::NetcdfC, 0),
                                    QString("big.nc/%1 %2").arg(name, slabText(s))});
        }
        const int threads = 6;
        std::mutex mutex;
        QStringList failures;
        std::atomic<int> finished{0};
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t)
            workers.emplace_back([&, t] {
                for (std::size_t k = 0; k < 4 * jobs.size(); ++k) { // each thread in an order of its own
                    const Job& j = jobs[(k + std::size_t(t) * jobs.size() / threads) % jobs.size()];
                    Bytes got(j.want.size() + 1, 0x5a);
                    try {
                        j.source->read(j.slab.start, j.slab.count, j.slab.stride, got.data());
                        got.pop_back();
                        if (got != j.want) {
                            std::lock_guard lock(mutex);
                            failures << j.name + ": not netCDF-C's bytes";
                        }
                    } catch (const std::exception& e) {
                        std::lock_guard lock(mutex);
                        failures << j.name + ": " + e.what();
                    }
                }
                ++finished;
            });
        const QDeadlineTimer deadline(60000);
        while (finished < threads && !deadline.hasExpired()) QThread::msleep(10);
        if (finished < threads) qFatal("concurrent reads still running after 60 s: a deadlock?");
        for (std::thread& w : workers) w.join();
        QVERIFY2(failures.isEmpty(), qPrintable(QString("%1 failed reads (seed %2), first: %3")
                                                    .arg(failures.size())
                                                    .arg(seed)
                                                    .arg(failures.value(0))));
        qInfo("%zu reads on each of %d threads", 4 * jobs.size(), threads);
    }

    // The matrix's loads onto a GPU, where the reader has the device place its chunks.
    void deviceLoads() {
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Device gpu = Device::cuda(0);
        for (const directtest::File& f : files_) {
            const Opened o = openBoth(path(f.name));
            for (const directtest::Var& spec : f.vars) {
                const Bytes c =
                    loadBytes(o.netcdfC.findGroup(spec.group)[spec.name], io::ReadMode::NetcdfC, gpu);
                const Bytes p =
                    loadBytes(o.parallel.findGroup(spec.group)[spec.name], io::ReadMode::Parallel, gpu);
                const Variable& v = *o.netcdfC.findGroup(spec.group).findVariable(spec.name);
                const std::vector<std::int64_t> zeros(v.ndim(), 0), ones(v.ndim(), 1);
                const std::vector<bool> defined =
                    spec.noFill ? definedElements(v, {"whole", zeros, v.shape(), ones}) : std::vector<bool>{};
                const QString d = firstDifference(c, p, sizeOf(v.dtype()), defined);
                QVERIFY2(d.isEmpty(),
                         qPrintable(QString("%1/%2 on %3: %4")
                                        .arg(f.name.c_str(), spec.name.c_str(), gpu.toString().c_str(), d)));
            }
        }
    }

    // A file of more variables than a desktop lets a process hold files open (1024), every one
    // of them read: all by the direct reader, and files open as before afterwards.
    void manyVariables_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("64-bit offset") << int(NC_64BIT_OFFSET);
        QTest::newRow("netCDF-4") << int(NC_NETCDF4);
    }
    void manyVariables() {
        QFETCH(int, mode);
        const std::string p = path("many_" + std::to_string(mode) + ".nc");
        const int count = 1500;
        const auto values = [](int i) { return std::vector<short>{short(i), short(-i), short(i * 3), 7}; };
        {
            nctest::Writer w(p, mode);
            const int n = w.dim("n", 4);
            for (int i = 0; i < count; ++i) w.var(("v" + std::to_string(i)).c_str(), NC_SHORT, {n});
            w.enddef();
            for (int i = 0; i < count; ++i) w.put(i, values(i));
        }
        rlimit before{};
        QVERIFY(getrlimit(RLIMIT_NOFILE, &before) == 0);
        rlimit lower = before;
        lower.rlim_cur = std::min<rlim_t>(before.rlim_cur, 1024);
        QVERIFY(setrlimit(RLIMIT_NOFILE, &lower) == 0);
        QString failure;
        {
            const Dataset ds = openDataset(p);
            for (int i = 0; i < count && failure.isEmpty(); ++i) {
                const Variable& v = *ds.findVariable("v" + std::to_string(i));
                std::vector<short> got(4);
                try {
                    const std::string how = v.source()->readPath();
                    v.source()->read(std::vector<std::int64_t>{0}, std::vector<std::int64_t>{4},
                                     std::vector<std::int64_t>{1}, got.data());
                    if (!how.starts_with("parallel"))
                        failure = QString("v%1: readPath() is '%2'").arg(i).arg(how.c_str());
                    else if (got != values(i))
                        failure = QString("v%1: wrong values").arg(i);
                } catch (const std::exception& e) {
                    failure = e.what();
                }
            }
            if (failure.isEmpty()) goodReadStillWorks(); // with ds and its variables still open
        }
        setrlimit(RLIMIT_NOFILE, &before);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    // Variables the direct reader must leave to netCDF-C, each with its reason in readPath().
    void fallback_data() {
        QTest::addColumn<QString>("reason");
        for (const char* r : {"scaleoffset", "nbit", "szip", "compact"}) QTest::newRow(r) << QString(r);
    }
    void fallback() {
        QFETCH(QString, reason);
        if (reason == "szip") {
            // Not optional: Debian's HDF5 (libhdf5-dev, which scripts/setup.sh installs) writes
            // szip through libaec; an HDF5 that cannot would leave this row untested.
            unsigned config = 0;
            QVERIFY2(
                H5Zfilter_avail(H5Z_FILTER_SZIP) > 0 && H5Zget_filter_info(H5Z_FILTER_SZIP, &config) >= 0 &&
                    (config & H5Z_FILTER_CONFIG_ENCODE_ENABLED),
                "this HDF5 cannot write szip (Debian's libhdf5-dev, which scripts/setup.sh installs, can: "
                "another HDF5 was found)");
        }
        const std::string p = path("fallback_" + reason.toStdString() + ".h5");
        std::mt19937_64 rng(seed);
        std::vector<std::int32_t> values(10 * 37);
        for (std::int32_t& v : values) v = std::int32_t(rng() % 200000) - 100000; // scaleoffset: lossless
        const std::vector<hsize_t> chunk = {4, 16};
        h5test::writeDataset(
            p, "v", {10, 37},
            [&](hid_t dcpl) {
                if (reason == "compact") {
                    H5Pset_layout(dcpl, H5D_COMPACT);
                    return;
                }
                H5Pset_chunk(dcpl, 2, chunk.data());
                if (reason == "scaleoffset") H5Pset_scaleoffset(dcpl, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT);
                if (reason == "nbit") H5Pset_nbit(dcpl);
                if (reason == "szip") H5Pset_szip(dcpl, H5_SZIP_NN_OPTION_MASK, 8);
            },
            values);
        const Opened o = openBoth(p);
        const Variable* a = o.netcdfC.findVariable("v");
        const Variable* b = o.parallel.findVariable("v");
        QVERIFY(a && b);
        const std::string how = b->source()->readPath();
        QVERIFY2(how.starts_with("netCDF-C") && lower(how).contains(reason.toLatin1()),
                 qPrintable(QString("readPath() is '%1'").arg(how.c_str())));
        const QString d = compareSlabs(*a, *b, slabsOf(a->shape(), {4, 16}, rng));
        QVERIFY2(d.isEmpty(), qPrintable(d));
        std::vector<std::int32_t> got(values.size());
        std::memcpy(got.data(), loadBytes(*b, io::ReadMode::Parallel).data(), got.size() * 4);
        QCOMPARE(got, values);
    }

    // Damaged chunks and chunk indexes in Parallel mode: a NetcdfError naming the variable (or
    // the file, when it is refused at open), then reads of other files as before.
    void hostile_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("openMayFail");
        QTest::addColumn<QString>("says"); // besides "variable 'v'", one of these words ("|")
        QTest::newRow("zip bomb") << int(Hostile::ZipBomb) << false << QString();
        QTest::newRow("truncated deflate stream") << int(Hostile::TruncatedStream) << false << QString();
        QTest::newRow("deflate stream of half a chunk") << int(Hostile::ShortStream) << false << QString();
        QTest::newRow("garbage as deflate") << int(Hostile::Garbage) << false << QString();
        QTest::newRow("wrong fletcher32") << int(Hostile::Fletcher32) << false << QString();
        QTest::newRow("address past the end") << int(Hostile::AddressPastEnd) << true << QString();
        QTest::newRow("file truncated in a chunk") << int(Hostile::TruncatedFile) << true << QString();
        QTest::newRow("overlapping chunks") << int(Hostile::Overlap) << false << QString("overlap|damaged");
        QTest::newRow("size past the end") << int(Hostile::SizePastEnd) << true << QString();
    }
    void hostile() {
        QFETCH(int, kind);
        QFETCH(bool, openMayFail);
        QFETCH(QString, says);
        const std::string p = path("hostile_" + std::to_string(kind) + ".h5");
        hostiletest::writeHostile(Hostile(kind), p);
        QString message;
        std::string prefix;
        try {
            const Dataset ds = openDataset(p);
            const Variable* v = ds.findVariable("v");
            QVERIFY(v && v->source());
            prefix = v->source()->describe();
            if (kind <= int(Hostile::Fletcher32)) { // damaged chunks, not index: the reader's to meet
                const std::string how = v->source()->readPath();
                QVERIFY2(how.starts_with("parallel"),
                         qPrintable(QString("readPath() is '%1'").arg(how.c_str())));
            }
            Bytes out(std::size_t(v->size()) * 4);
            const std::vector<std::int64_t> zeros = {0, 0}, ones = {1, 1};
            try {
                v->source()->read(zeros, v->shape(), ones, out.data());
            } catch (const NetcdfError& e) {
                message = e.what();
            }
            QVERIFY2(!message.isEmpty(), "the read did not fail");
            QVERIFY_THROWS_EXCEPTION(NetcdfError, ds["v"].load(Device::host(), Stream::host()));
        } catch (const NetcdfError& e) { // refused at open
            QVERIFY2(openMayFail && prefix.empty(), e.what());
            QVERIFY2(QString(e.what()).contains(QFileInfo(QString::fromStdString(p)).fileName()), e.what());
            goodReadStillWorks();
            return;
        }
        QVERIFY2(message.startsWith(QString::fromStdString(prefix)) && message.contains("variable 'v'"),
                 qPrintable(message));
        if (!says.isEmpty()) {
            bool found = false;
            for (const QString& w : says.split('|'))
                found = found || message.contains(w, Qt::CaseInsensitive);
            QVERIFY2(found, qPrintable(message));
        }
        qInfo("%s", qPrintable(message));
        goodReadStillWorks();
    }

    // A chunk stored without its filters, its filter mask saying so (HDF5 writes one when an
    // optional filter fails): read as stored, whichever path takes it.
    void chunkFilterMask() {
        using namespace hostiletest;
        const std::string p = path("filter_mask.h5");
        const std::vector<float> values = hostileValues();
        h5test::writeRawChunks(
            p, "v", kHostileShape, kHostileChunk,
            {{{0, 0}, deflate(asBytes(values, 0, 512))}, {kChunk1, asBytes(values, 512, 512), 1}});
        const Opened o = openBoth(p);
        const Variable* a = o.netcdfC.findVariable("v");
        const Variable* b = o.parallel.findVariable("v");
        QVERIFY(a && b);
        qInfo("readPath() is '%s'", b->source()->readPath().c_str());
        std::mt19937_64 rng(seed);
        const QString d = compareSlabs(*a, *b, slabsOf(a->shape(), {2, 256}, rng));
        QVERIFY2(d.isEmpty(), qPrintable(d));
        QCOMPARE(loadBytes(*b, io::ReadMode::Parallel), asBytes(values, 0, values.size()));
    }

    // An HDF5 file whose chunk 1 was never written, with HDF5's default fill (zeros) or one of
    // its own, stored little- or big-endian: the same values by either path.
    void hdf5Fill_data() {
        QTest::addColumn<bool>("ownFill");
        QTest::addColumn<bool>("bigEndian");
        QTest::newRow("default fill") << false << false;
        QTest::newRow("own fill") << true << false;
        QTest::newRow("own fill, big-endian") << true << true;
    }
    void hdf5Fill() {
        QFETCH(bool, ownFill);
        QFETCH(bool, bigEndian);
        using namespace hostiletest;
        const std::string p = path("fill_" + std::to_string(ownFill) + std::to_string(bigEndian) + ".h5");
        std::vector<float> values = hostileValues();
        Bytes chunk0 = asBytes(values, 0, 512);
        if (bigEndian)
            for (std::size_t i = 0; i < chunk0.size(); i += 4)
                std::reverse(chunk0.begin() + i, chunk0.begin() + i + 4);
        h5test::writeRawChunks(
            p, "v", kHostileShape, kHostileChunk, {{{0, 0}, deflate(chunk0)}},
            [&](hid_t dcpl) {
                const float fill = -7.25f;
                if (ownFill) H5Pset_fill_value(dcpl, H5T_NATIVE_FLOAT, &fill);
            },
            bigEndian ? H5T_IEEE_F32BE : H5T_IEEE_F32LE);
        const Opened o = openBoth(p);
        const Variable* a = o.netcdfC.findVariable("v");
        const Variable* b = o.parallel.findVariable("v");
        QVERIFY(a && b);
        const std::string how = b->source()->readPath();
        QVERIFY2(how.starts_with("parallel"), qPrintable(QString("readPath() is '%1'").arg(how.c_str())));
        std::mt19937_64 rng(seed);
        const QString d = compareSlabs(*a, *b, slabsOf(a->shape(), {2, 256}, rng));
        QVERIFY2(d.isEmpty(), qPrintable(d));
        std::fill(values.begin() + 512, values.end(), ownFill ? -7.25f : 0.f);
        QCOMPARE(readSlab(*b->source(), slabsOf(a->shape(), {}, rng).front(), 4, io::ReadMode::Parallel, 0),
                 asBytes(values, 0, values.size()));
    }

    // A whole load cancelled after its first slab gives nothing; the next load, every byte.
    void cancelMidway() {
        const std::string p = bigFile();
        const Dataset ds = openDataset(p);
        const DataArray whole = ds["v"];
        const Variable& lazy = whole.variable();
        QVERIFY(lazy.source()->readPath().starts_with("parallel"));
        const DataArray var("v", Variable::lazy(lazy.dims(), lazy.shape(), lazy.encoding(),
                                                std::make_shared<SmallSlabs>(lazy.source()), lazy.attrs()));
        const CancelToken cancel;
        int reports = 0;
        const std::size_t slab = std::size_t(1) << 20; // 4 rows of 256 KiB: 12 slabs
        QCOMPARE(loadSlabBytes(var, slab), slab);
        QVERIFY_THROWS_EXCEPTION(CancelledError, loadWhole(
                                                     var, Device::host(), Stream::host(),
                                                     [&](double) {
                                                         ++reports;
                                                         cancel.cancel();
                                                     },
                                                     cancel, slab));
        QCOMPARE(reports, 1);
        const Bytes want = loadBytes(*openBoth(p).netcdfC.findVariable("v"), io::ReadMode::NetcdfC);
        const CancelToken never;
        for (const DataArray& again : {var, whole}) { // slab by slab, then as the reader asks
            const DataArray loaded = loadWhole(again, Device::host(), Stream::host(), {}, never, slab);
            QVERIFY(loaded.isLoaded());
            const Variable& v = loaded.variable();
            const auto* bytes = static_cast<const unsigned char*>(v.buffer()->data());
            const QString d = firstDifference(want, Bytes(bytes, bytes + v.nbytes()), 4);
            QVERIFY2(d.isEmpty(), qPrintable(d));
        }
    }
};

QTEST_GUILESS_MAIN(TestDirectRead)
#include "tst_direct_read.moc"
