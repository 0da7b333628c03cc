// Member summaries of a file set, read in child processes: each child takes a share of the
// files, opens them one after the other and writes one record per file to its pipe.
#include "mf_summary.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>

#include "nc_call.h"
#include "nc_source.h"
#include "strata/core/error.h"
#include "strata/core/format.h"
#include "strata/io/netcdf.h"

namespace strata::io::detail {

const MemberVariable* MemberSummary::findVariable(const std::string& name) const {
    for (const auto& v : variables)
        if (v.name == name) return &v;
    return nullptr;
}
const MemberCoordinate* MemberSummary::findCoord(const std::string& name) const {
    for (const auto& c : coords)
        if (c.name == name) return &c;
    return nullptr;
}
const Dimension* MemberSummary::findDim(const std::string& name) const {
    for (const auto& d : dims)
        if (d.name == name) return &d;
    return nullptr;
}

namespace {

// ---- a small binary record: sizes first, every read checked against the record's end ----

struct Writer {
    std::string out;
    void raw(const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); }
    void u64(std::uint64_t v) { raw(&v, sizeof v); }
    void i64(std::int64_t v) { raw(&v, sizeof v); }
    void f64(double v) { raw(&v, sizeof v); }
    void str(const std::string& s) {
        u64(s.size());
        raw(s.data(), s.size());
    }
    template <class T, class F> void list(const std::vector<T>& items, F each) {
        u64(items.size());
        for (const T& x : items) each(x);
    }
};

struct Reader {
    const char* p;
    const char* end;
    void raw(void* dst, std::size_t n) {
        if (std::size_t(end - p) < n) STRATA_FAIL(NetcdfError, "a file set's summary record is cut short");
        std::memcpy(dst, p, n);
        p += n;
    }
    std::uint64_t u64() {
        std::uint64_t v;
        raw(&v, sizeof v);
        return v;
    }
    std::int64_t i64() {
        std::int64_t v;
        raw(&v, sizeof v);
        return v;
    }
    double f64() {
        double v;
        raw(&v, sizeof v);
        return v;
    }
    std::size_t count(std::size_t each) { // a list's length, no longer than what is left
        const std::uint64_t n = u64();
        if (n > std::uint64_t(end - p) / std::max<std::size_t>(each, 1))
            STRATA_FAIL(NetcdfError, "a file set's summary record is damaged");
        return std::size_t(n);
    }
    std::string str() {
        std::string s(count(1), '\0');
        raw(s.data(), s.size());
        return s;
    }
    template <class T, class F> std::vector<T> list(std::size_t each, F one) {
        std::vector<T> items(count(each));
        for (T& x : items) x = one();
        return items;
    }
};

std::string encodingText(const CfEncoding& e) {
    std::ostringstream s;
    s.precision(17);
    s << int(e.packed) << '/' << int(e.decoded) << " fill";
    for (double f : e.fillValues) s << ' ' << f;
    s << " valid " << (e.validMin ? std::to_string(*e.validMin) : "-") << ' '
      << (e.validMax ? std::to_string(*e.validMax) : "-");
    if (e.scaled) s << " scale " << e.scale << " offset " << e.offset;
    return s.str();
}

void writeLayout(Writer& w, const DirectLayout& l) {
    w.i64(int(l.kind));
    w.list(l.shape, [&](std::int64_t x) { w.i64(x); });
    w.i64(l.elemSize);
    w.i64(l.swap);
    w.str(std::string(l.fill.begin(), l.fill.end()));
    w.i64(l.stored);
    w.u64(l.base);
    w.u64(l.outerStride);
    w.list(l.chunk, [&](std::int64_t x) { w.i64(x); });
    w.list(l.lattice, [&](std::int64_t x) { w.i64(x); });
    w.list(l.chunks, [&](const StoredChunk& c) {
        w.u64(c.address);
        w.u64(c.bytes);
        w.u64(c.skipMask);
    });
    w.list(l.pipeline.filters, [&](FilterKind f) { w.i64(int(f)); });
    w.i64(l.pipeline.shuffleElement);
    w.i64(l.deferShuffle);
    w.str(l.reason);
}

DirectLayout readLayout(Reader& r) {
    DirectLayout l;
    l.kind = DirectLayout::Kind(std::clamp<std::int64_t>(r.i64(), 0, 2));
    l.shape = r.list<std::int64_t>(8, [&] { return r.i64(); });
    l.elemSize = int(r.i64());
    l.swap = r.i64() != 0;
    const std::string fill = r.str();
    l.fill.assign(fill.begin(), fill.end());
    l.stored = r.i64() != 0;
    l.base = r.u64();
    l.outerStride = r.u64();
    l.chunk = r.list<std::int64_t>(8, [&] { return r.i64(); });
    l.lattice = r.list<std::int64_t>(8, [&] { return r.i64(); });
    l.chunks = r.list<StoredChunk>(24, [&] {
        StoredChunk c;
        c.address = r.u64();
        c.bytes = r.u64();
        c.skipMask = std::uint32_t(r.u64());
        return c;
    });
    l.pipeline.filters =
        r.list<FilterKind>(8, [&] { return FilterKind(std::clamp<std::int64_t>(r.i64(), 0, 2)); });
    l.pipeline.shuffleElement = int(r.i64());
    l.deferShuffle = r.i64() != 0;
    l.reason = r.str();
    return l;
}

// The record of one member, read in the child.
std::string summarise(const std::string& path) {
    Writer w;
    try {
        OpenNotes notes;
        const Dataset ds = openDataset(path, notes);
        w.str(""); // no error
        w.str(ds.format);
        w.list(ds.dims, [&](const Dimension& d) {
            w.str(d.name);
            w.i64(d.length);
            w.i64(d.unlimited);
        });
        w.list(ds.variables, [&](const std::pair<std::string, Variable>& nv) {
            const Variable& v = nv.second;
            w.str(nv.first);
            w.list(v.dims(), [&](const std::string& d) { w.str(d); });
            w.list(v.shape(), [&](std::int64_t x) { w.i64(x); });
            w.i64(int(v.encoding().packed));
            w.str(encodingText(v.encoding()));
            std::shared_ptr<const DirectLayout> layout; // 1-D variables are read whole, through netCDF-C
            if (auto* nc = dynamic_cast<const NcVariableSource*>(v.source().get()); nc && v.ndim() > 1) try {
                    layout = nc->layout();
                } catch (const Error&) {
                }
            w.i64(layout && layout->kind != DirectLayout::Kind::NetcdfC);
            if (layout && layout->kind != DirectLayout::Kind::NetcdfC) writeLayout(w, *layout);
        });
        std::vector<const Coordinate*> index;
        for (const Coordinate& c : ds.coords)
            if (c.isIndex()) index.push_back(&c);
        w.list(index, [&](const Coordinate* c) {
            w.str(c->name);
            w.list(c->values, [&](double x) { w.f64(x); });
            w.str(c->attrs.text("units").value_or(""));
            w.str(c->attrs.text("calendar").value_or(""));
        });
    } catch (const std::exception& e) {
        Writer err;
        err.str(e.what()[0] ? e.what() : "cannot open '" + path + "'");
        return err.out;
    }
    return w.out;
}

MemberSummary parse(const std::string& path, const std::string& record) {
    MemberSummary m;
    m.path = path;
    Reader r{record.data(), record.data() + record.size()};
    m.error = r.str();
    if (!m.error.empty()) return m;
    m.format = r.str();
    m.dims = r.list<Dimension>(24, [&] {
        Dimension d;
        d.name = r.str();
        d.length = r.i64();
        d.unlimited = r.i64() != 0;
        return d;
    });
    m.variables = r.list<MemberVariable>(40, [&] {
        MemberVariable v;
        v.name = r.str();
        v.dims = r.list<std::string>(8, [&] { return r.str(); });
        v.shape = r.list<std::int64_t>(8, [&] { return r.i64(); });
        v.stored = DType(r.i64());
        v.encoding = r.str();
        if (r.i64()) v.layout = readLayout(r);
        return v;
    });
    m.coords = r.list<MemberCoordinate>(32, [&] {
        MemberCoordinate c;
        c.name = r.str();
        c.values = r.list<double>(8, [&] { return r.f64(); });
        c.units = r.str();
        c.calendar = r.str();
        return c;
    });
    return m;
}

bool writeAll(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += std::size_t(n);
    }
    return true;
}

[[noreturn]] void runWorker(const std::vector<std::string>& paths, std::size_t from, std::size_t to, int fd) {
    setReadMode(ReadMode::NetcdfC); // coordinates through netCDF-C: no reader threads here
    for (std::size_t i = from; i < to; ++i) {
        const std::string record = summarise(paths[i]);
        const std::uint64_t n = record.size();
        if (!writeAll(fd, std::string(reinterpret_cast<const char*>(&n), sizeof n) + record)) ::_exit(1);
    }
    ::_exit(0);
}

struct Worker {
    pid_t pid = -1;
    int fd = -1;
    std::size_t next = 0, to = 0; // the file it is reading, and the end of its share
    std::string buffer;
    std::chrono::steady_clock::time_point lastHeard;
};

std::string signalText(int sig) {
    const char* text = ::strsignal(sig);
    return "signal " + std::to_string(sig) + (text ? std::string(", ") + text : std::string());
}

} // namespace

std::vector<MemberSummary> readMemberSummaries(const std::vector<std::string>& paths, int workers,
                                               int timeoutMs) {
    using Clock = std::chrono::steady_clock;
    std::vector<MemberSummary> out(paths.size());
    std::vector<bool> done(paths.size(), false);
    std::vector<Worker> live;

    auto start = [&](std::size_t from, std::size_t to) {
        int fds[2];
        STRATA_EXPECTS(::pipe2(fds, O_CLOEXEC) == 0, NetcdfError,
                       "cannot open a file set: no pipe to a reading process (" +
                           std::string(std::strerror(errno)) + ")");
        netcdfMutex().lock(); // fork while no thread is inside netCDF-C
        const pid_t pid = ::fork();
        if (pid == 0) {
            for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS})
                ::signal(sig, SIG_DFL);
            ::close(fds[0]);
            replaceNetcdfMutexInChild();
            runWorker(paths, from, to, fds[1]);
        }
        netcdfMutex().unlock();
        ::close(fds[1]);
        if (pid < 0) {
            ::close(fds[0]);
            STRATA_FAIL(NetcdfError, "cannot open a file set: no reading process (" +
                                         std::string(std::strerror(errno)) + ")");
        }
        live.push_back({pid, fds[0], from, to, {}, Clock::now()});
    };
    // Ends worker k; the file it was reading (if any) gets `why`, and the rest of its share a new worker.
    auto finish = [&](std::size_t k, bool kill, const std::string& why) {
        Worker w = std::move(live[k]);
        live.erase(live.begin() + std::ptrdiff_t(k));
        ::close(w.fd);
        if (kill) ::kill(w.pid, SIGKILL);
        int status = 0;
        while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (w.next >= w.to) return;
        std::string text = why;
        if (text.empty() && WIFSIGNALED(status))
            text = "netCDF-C or HDF5 crashed while reading it (" + signalText(WTERMSIG(status)) +
                   "); the file is damaged";
        if (text.empty())
            text = "the process reading it failed: netCDF-C or HDF5 met something they could not survive";
        out[w.next].path = paths[w.next];
        out[w.next].error = "cannot open '" + paths[w.next] + "': " + text;
        done[w.next] = true;
        if (w.next + 1 < w.to) start(w.next + 1, w.to);
    };

    const std::size_t n = paths.size();
    const std::size_t k =
        std::max<std::size_t>(1, std::min<std::size_t>(std::size_t(std::max(workers, 1)), n));
    for (std::size_t i = 0; i < k; ++i)
        if (n * i / k < n * (i + 1) / k) start(n * i / k, n * (i + 1) / k);

    while (!live.empty()) {
        std::vector<pollfd> polls;
        for (const Worker& w : live) polls.push_back({w.fd, POLLIN, 0});
        const int ready = ::poll(polls.data(), polls.size(), 200);
        if (ready < 0 && errno != EINTR)
            STRATA_FAIL(NetcdfError, "cannot open a file set: " + std::string(std::strerror(errno)));
        for (std::size_t i = live.size(); i-- > 0;) {
            Worker& w = live[i];
            bool ended = false;
            if (polls[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                char chunk[1 << 16];
                const ssize_t got = ::read(w.fd, chunk, sizeof chunk);
                if (got < 0 && errno == EINTR) continue;
                if (got <= 0)
                    ended = true;
                else {
                    w.buffer.append(chunk, std::size_t(got));
                    w.lastHeard = Clock::now();
                }
                for (;;) { // complete records
                    std::uint64_t len = 0;
                    if (w.buffer.size() < sizeof len) break;
                    std::memcpy(&len, w.buffer.data(), sizeof len);
                    if (w.buffer.size() - sizeof len < len) break;
                    try {
                        out[w.next] = parse(paths[w.next], w.buffer.substr(sizeof len, std::size_t(len)));
                    } catch (const Error& e) {
                        out[w.next] = MemberSummary{};
                        out[w.next].path = paths[w.next];
                        out[w.next].error = "cannot open '" + paths[w.next] + "': " + e.what();
                    }
                    done[w.next] = true;
                    ++w.next;
                    w.buffer.erase(0, sizeof len + std::size_t(len));
                }
            }
            if (ended)
                finish(i, false, "");
            else if (Clock::now() - w.lastHeard > std::chrono::milliseconds(timeoutMs))
                finish(i, true,
                       "reading its metadata took longer than " + formatNumber(timeoutMs / 1000.0) +
                           " s (netCDF-C or HDF5 may be looping on a damaged file); the reading was stopped");
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!done[i]) {
            out[i].path = paths[i];
            out[i].error = "cannot open '" + paths[i] + "': its reading process ended early";
        }
    return out;
}

} // namespace strata::io::detail
