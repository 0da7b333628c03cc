#include "mf_source.h"

#include <netcdf.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <list>
#include <mutex>
#include <unordered_map>

#include "direct_read.h"
#include "io_pool.h"
#include "nc_call.h"
#include "nc_source.h"
#include "strata/core/error.h"
#include "strata/core/settings.h"
#include "strata/io/netcdf.h"

namespace strata::io::detail {

// ---- MemberFiles ----

struct MemberFiles::State {
    struct Entry {
        std::string path;
        std::shared_ptr<const RawFile> raw;
        std::shared_ptr<const NcFile> nc;
    };
    std::mutex mutex;
    std::list<Entry> lru; // most recent first
    std::unordered_map<std::string, std::list<Entry>::iterator> index;

    Entry& touch(const std::string& path, std::size_t capacity) {
        auto it = index.find(path);
        if (it != index.end()) {
            lru.splice(lru.begin(), lru, it->second);
            return lru.front();
        }
        while (lru.size() >= capacity && !lru.empty()) { // close the least recently used
            index.erase(lru.back().path);
            lru.pop_back(); // a read still using it keeps it open until it ends
        }
        lru.push_front(Entry{path, nullptr, nullptr});
        index[path] = lru.begin();
        return lru.front();
    }
};

namespace {
std::size_t defaultCapacity() {
    if (const auto n = settings::openFiles()) return *n;
    rlimit limit{};
    std::size_t soft = 1024;
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) soft = limit.rlim_cur;
    return std::clamp<std::size_t>(soft / 4, 16, 1024);
}
} // namespace

MemberFiles::MemberFiles(std::size_t capacity)
    : state_(std::make_unique<State>()), capacity_(capacity ? capacity : defaultCapacity()) {}
MemberFiles::~MemberFiles() = default;

std::shared_ptr<const RawFile> MemberFiles::raw(const std::string& path) {
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        auto& e = state_->touch(path, capacity_);
        if (e.raw) return e.raw;
    }
    auto file = RawFile::open(path, "cannot read '" + path + "'"); // outside the lock: may be slow
    std::lock_guard<std::mutex> lock(state_->mutex);
    auto& e = state_->touch(path, capacity_);
    if (!e.raw) e.raw = file;
    return e.raw;
}

std::shared_ptr<const NcFile> MemberFiles::netcdf(const std::string& path) {
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        auto& e = state_->touch(path, capacity_);
        if (e.nc) return e.nc;
    }
    auto file = NcFile::open(path);
    std::lock_guard<std::mutex> lock(state_->mutex);
    auto& e = state_->touch(path, capacity_);
    if (!e.nc) e.nc = file;
    return e.nc;
}

std::size_t MemberFiles::openNow() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    std::size_t n = 0;
    for (const auto& e : state_->lru) n += (e.raw ? 1 : 0) + (e.nc ? 1 : 0);
    return n;
}

// ---- MultiFileSource ----

MultiFileSource::MultiFileSource(std::shared_ptr<MemberFiles> files, std::vector<MemberPiece> pieces,
                                 std::string label, std::string setName, std::vector<std::int64_t> shape,
                                 int recordAxis, DType stored)
    : files_(std::move(files)), pieces_(std::move(pieces)), label_(std::move(label)),
      setName_(std::move(setName)), shape_(std::move(shape)), recordAxis_(recordAxis), stored_(stored) {}

std::string MultiFileSource::describe() const { return setName_ + ": variable '" + label_ + "'"; }

std::string MultiFileSource::readPath() const {
    const auto direct =
        std::count_if(pieces_.begin(), pieces_.end(), [](const auto& p) { return p.layout != nullptr; });
    return "file set: " + std::to_string(pieces_.size()) + " files, " + std::to_string(direct) +
           " read in parallel by byte offset, the rest through netCDF-C";
}

std::size_t MultiFileSource::parallelReadBytes() const {
    return (std::size_t(8) << 20) * std::size_t(ioThreads());
}

namespace {
// Boxes this small (a series through a point, a Hovmöller row) are read as runs of bytes by
// offset, not as whole chunks.
constexpr std::uint64_t kSmallBox = std::uint64_t(1) << 20;
constexpr std::uint64_t kMostRuns = 1 << 16;
void swapInPlace(unsigned char* p, int n) { std::reverse(p, p + n); }

// The byte offset of one element in a layout read by offset, or nullopt when it has none that
// simple (filtered chunks, a chunk never written: the caller reads otherwise).
std::optional<std::uint64_t> elementOffset(const DirectLayout& l, const std::vector<std::int64_t>& at) {
    const std::size_t n = l.shape.size();
    if (l.kind == DirectLayout::Kind::Contiguous) {
        if (!l.stored) return std::nullopt;
        std::uint64_t flat = 0;
        for (std::size_t i = 1; i < n; ++i) flat = flat * std::uint64_t(l.shape[i]) + std::uint64_t(at[i]);
        return l.base + (n ? std::uint64_t(at[0]) * l.outerStride : 0) + flat * std::uint64_t(l.elemSize);
    }
    if (l.kind != DirectLayout::Kind::Chunked || !l.pipeline.empty()) return std::nullopt;
    std::uint64_t chunkIndex = 0, inChunk = 0;
    for (std::size_t i = 0; i < n; ++i) {
        chunkIndex = chunkIndex * std::uint64_t(l.lattice[i]) + std::uint64_t(at[i] / l.chunk[i]);
        inChunk = inChunk * std::uint64_t(l.chunk[i]) + std::uint64_t(at[i] % l.chunk[i]);
    }
    if (chunkIndex >= l.chunks.size()) return std::nullopt;
    const StoredChunk& c = l.chunks[std::size_t(chunkIndex)];
    if (c.address == StoredChunk::kNone) return std::nullopt;
    return c.address + inChunk * std::uint64_t(l.elemSize);
}
} // namespace

// Reads the box as runs along its last dim (each within one chunk), one pread a run. False,
// with nothing meaningful in `out`, when some element has no plain offset (filtered or
// unwritten chunks) or the box has too many runs.
bool MultiFileSource::readRuns(const std::string& path, const DirectLayout& l,
                               const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& count,
                               const std::vector<std::int64_t>& stride, void* out,
                               const std::string& what) const {
    const std::size_t n = start.size();
    if (n == 0 || l.shape.size() != n) return false;
    const std::size_t last = n - 1;
    std::uint64_t rows = 1;
    for (std::size_t d = 0; d < last; ++d) rows *= std::uint64_t(count[d]);
    const bool unitLast = stride[last] == 1;
    if (rows * (unitLast ? 1 : std::uint64_t(count[last])) > kMostRuns) return false;
    const std::uint64_t elem = std::uint64_t(l.elemSize);
    struct Run {
        std::uint64_t offset, bytes, at;
    };
    std::vector<Run> runs;
    std::vector<std::int64_t> at(n);
    for (std::uint64_t row = 0; row < rows; ++row) {
        std::uint64_t rest = row;
        for (std::size_t d = last; d-- > 0;) {
            at[d] = start[d] + std::int64_t(rest % std::uint64_t(count[d])) * stride[d];
            rest /= std::uint64_t(count[d]);
        }
        for (std::int64_t j = 0; j < count[last];) {
            at[last] = start[last] + j * stride[last];
            const auto off = elementOffset(l, at);
            if (!off) return false;
            std::int64_t len = 1;
            if (unitLast) {
                len = count[last] - j;
                if (l.kind == DirectLayout::Kind::Chunked)
                    len = std::min(len, l.chunk[last] - at[last] % l.chunk[last]);
            }
            if (runs.size() >= kMostRuns) return false;
            runs.push_back({*off, std::uint64_t(len) * elem,
                            (row * std::uint64_t(count[last]) + std::uint64_t(j)) * elem});
            j += len;
        }
    }
    auto* o = static_cast<unsigned char*>(out);
    const auto file = files_->raw(path);
    for (const Run& r : runs) {
        file->read(r.offset, r.bytes, o + r.at, what);
        if (l.swap)
            for (std::uint64_t b = 0; b < r.bytes; b += elem) swapInPlace(o + r.at + b, int(elem));
    }
    return true;
}

void MultiFileSource::readPiece(const MemberPiece& piece, std::vector<std::int64_t> start,
                                const std::vector<std::int64_t>& count,
                                const std::vector<std::int64_t>& stride, void* out) const {
    const std::string what = fileName(piece.path) + ": variable '" + label_ + "'";
    std::uint64_t elements = 1;
    for (std::int64_t c : count) elements *= std::uint64_t(c);
    if (elements == 0) return;
    const int elem = int(sizeOf(stored_));
    const bool unit = std::all_of(stride.begin(), stride.end(), [](auto k) { return k == 1; });
    if (piece.layout && readMode() == ReadMode::Parallel) {
        const DirectLayout& l = *piece.layout;
        if (elements * std::uint64_t(elem) <= kSmallBox &&
            readRuns(piece.path, l, start, count, stride, out, what)) {
            countRead(elements * std::uint64_t(elem));
            return;
        }
        if (unit && directReadPays(l, start, count)) {
            DirectLayout withFile = l;
            withFile.file = files_->raw(piece.path);
            directRead(withFile, start, count, out, what);
            countRead(elements * std::uint64_t(elem));
            return;
        }
    }
    const auto file = files_->netcdf(piece.path);
    std::vector<std::size_t> st(start.begin(), start.end()), co(count.begin(), count.end());
    std::vector<std::ptrdiff_t> sd(stride.begin(), stride.end());
    int rc;
    {
        NetcdfLock lock(netcdfMutex());
        int varId = -1;
        rc = nc_inq_varid(file->id(), label_.c_str(), &varId);
        if (rc == NC_NOERR)
            rc = unit ? nc_get_vara(file->id(), varId, st.data(), co.data(), out)
                      : nc_get_vars(file->id(), varId, st.data(), co.data(), sd.data(), out);
    }
    check(rc, what + ": reading failed");
    countRead(elements * std::uint64_t(elem));
}

void MultiFileSource::read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                           std::span<const std::int64_t> stride, void* out) const {
    const std::size_t n = shape_.size();
    STRATA_EXPECTS(start.size() == n && count.size() == n && stride.size() == n, NetcdfError,
                   describe() + ": a read needs " + std::to_string(n) + " starts, counts and strides");
    std::uint64_t inner = 1, outer = 1;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t s = start[i], c = count[i], k = stride[i];
        checkReadAlong(describe(), i, s, c, k, shape_[i]);
        if (c == 0) return;
        if (int(i) < recordAxis_) outer *= std::uint64_t(c);
        if (int(i) > recordAxis_) inner *= std::uint64_t(c);
    }
    const std::size_t r = std::size_t(recordAxis_);
    const std::size_t elem = sizeOf(stored_);
    struct Task {
        const MemberPiece* piece;
        std::int64_t j0, count, localStart;
    };
    std::vector<Task> tasks;
    for (const MemberPiece& p : pieces_) { // the selected records j: start + j * stride
        const std::int64_t s = start[r], k = stride[r], c = count[r];
        const std::int64_t j0 = p.first <= s ? 0 : (p.first - s + k - 1) / k;
        const std::int64_t last = p.first + p.records - 1;
        if (last < s || j0 >= c) continue;
        const std::int64_t j1 = std::min(c - 1, (last - s) / k);
        if (j1 < j0) continue;
        tasks.push_back({&p, j0, j1 - j0 + 1, s + j0 * k - p.first});
    }
    ioParallel(tasks.size(), [&](std::size_t t) {
        const Task& task = tasks[t];
        std::vector<std::int64_t> st(start.begin(), start.end()), co(count.begin(), count.end()),
            sd(stride.begin(), stride.end());
        st[r] = task.localStart;
        co[r] = task.count;
        auto* dst = static_cast<unsigned char*>(out);
        if (outer == 1) { // records are whole blocks of the output
            readPiece(*task.piece, st, co, sd, dst + std::uint64_t(task.j0) * inner * elem);
            return;
        }
        std::vector<unsigned char> tmp(outer * std::uint64_t(task.count) * inner * elem);
        readPiece(*task.piece, st, co, sd, tmp.data());
        const std::uint64_t block = std::uint64_t(task.count) * inner * elem;
        for (std::uint64_t o = 0; o < outer; ++o)
            std::memcpy(dst + (o * std::uint64_t(count[r]) + std::uint64_t(task.j0)) * inner * elem,
                        tmp.data() + o * block, block);
    });
}

void HostValuesSource::read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                            std::span<const std::int64_t> stride, void* out) const {
    STRATA_EXPECTS(start.size() == 1 && count.size() == 1 && stride.size() == 1, NetcdfError,
                   what_ + ": a read needs one start, count and stride");
    const std::int64_t n = std::int64_t(values_.size()), s = start[0], c = count[0], k = stride[0];
    STRATA_EXPECTS(s >= 0 && c >= 0 && k >= 1 && (c == 0 || (s < n && (c - 1) <= (n - 1 - s) / k)),
                   NetcdfError, what_ + ": read outside its " + std::to_string(n) + " values");
    auto* o = static_cast<double*>(out);
    for (std::int64_t j = 0; j < c; ++j) o[j] = values_[std::size_t(s + j * k)];
}

} // namespace strata::io::detail
