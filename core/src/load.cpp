// Variable::load: the one place where a variable's data crosses between the file, the host
// and a device.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <numeric>

#include "cuda_check.h"
#include "decode.h"
#include "load_tuning.h"
#include "strata/core/chunks.h"
#include "strata/core/data_array.h"
#include "strata/core/derived.h"
#include "strata/core/error.h"
#include "strata/core/load_plan.h"
#include "strata/core/memory_budget.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"

namespace strata {
namespace {

constexpr std::size_t kSlabBytes = std::size_t(64) << 20;
std::atomic<std::size_t> batchBytes{kSlabBytes};
std::atomic<bool> batchForced{false}; // set by a test: the budget of every upload, chunked or not

std::string mib(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

std::size_t hostMemory() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : SIZE_MAX;
}

std::string describe(const Variable& v) {
    return v.source() ? v.source()->describe() : std::string("variable");
}

// Refuses, before allocating, a load that cannot fit.
void checkFits(const Variable& v, Device device, std::size_t bytes) {
    checkMemoryBudget(bytes, describe(v) + ": loading onto " + device.toString());
    const std::size_t available = device.isHost() ? hostMemory() : deviceFreeMemory(device);
    STRATA_EXPECTS(bytes <= available, OutOfMemoryError,
                   describe(v) + ": needs " + mib(bytes) + " on " + device.toString() + " but only " +
                       mib(available) + (device.isHost() ? " of memory exist" : " are free") +
                       " (streaming larger variables is not supported yet)");
}

// A buffer for `v`'s data; running out of memory names the variable.
Buffer allocateFor(const Variable& v, std::size_t bytes, Device device, Stream stream) {
    try {
        return Buffer(bytes, device, stream);
    } catch (const OutOfMemoryError& e) {
        throw OutOfMemoryError(describe(v) + ": " + e.what(), e.where());
    }
}

// The contiguous strides of the hyperslab as read (source dim order), mapped to the
// variable's visible (possibly transposed) dims.
std::vector<std::int64_t> visibleStrides(const Variable& v) {
    const auto& count = v.sourceCount();
    std::vector<std::int64_t> readStrides(count.size(), 1);
    for (int i = static_cast<int>(count.size()) - 2; i >= 0; --i)
        readStrides[i] = readStrides[i + 1] * count[i + 1];
    std::vector<std::int64_t> strides;
    for (int sa : v.sourceAxis()) strides.push_back(readStrides[sa]);
    return strides;
}

ArrayView packedView(const void* data, DType packed, std::int64_t n) {
    ArrayView view;
    view.data = data;
    view.dtype = packed;
    view.ndim = 1;
    view.shape[0] = n;
    view.strides[0] = 1;
    return view;
}

// The slabs a device upload of `v` reads (source order; one slab for a 0-d variable): at
// most the staging budget, which for a parallel source is at least its threads' share.
std::vector<SlabRows> slabPlan(const Variable& v, std::size_t rowBytes) {
    const DataSource& src = *v.source();
    const std::vector<std::int64_t>& count = v.sourceCount();
    if (count.empty()) return {SlabRows{0, 1}};
    const std::vector<std::int64_t> chunk = src.chunkShape();
    const std::size_t batch = detail::uploadBatchBytes();
    const std::size_t budget =
        chunk.empty() || batchForced.load() ? batch : std::max(batch, src.parallelReadBytes());
    return planSlabs(count[0], rowBytes, budget, v.sourceStart()[0], v.sourceStep()[0],
                     chunk.empty() ? 0 : chunk[0]);
}

#if STRATA_HAVE_CUDA
// Two pinned staging buffers reused by every load (page-locking is slow: do it once).
struct Staging {
    std::mutex mutex;
    Buffer slabs[2];
    cudaEvent_t done[2] = {nullptr, nullptr};
};
Staging& staging() {
    static Staging* s = new Staging; // kept for the process's life, like the driver's own state
    return *s;
}

// Reads the hyperslab slab by slab along its outermost dim into pinned memory and copies each
// slab to `dst` on `stream` while the next one is read. The slabs follow the source's chunks
// (load_plan.h): a chunked source (Zarr) decodes each chunk once, its chunks in parallel
// straight into the pinned slab.
void uploadSlabs(const Variable& v, void* dst, Device device, Stream stream) {
    const DataSource& src = *v.source();
    const std::vector<std::int64_t>& count = v.sourceCount();
    const std::size_t elem = sizeOf(v.encoding().packed);
    std::int64_t rowElems = 1;
    for (std::size_t i = 1; i < count.size(); ++i) rowElems *= count[i];
    const std::size_t rowBytes = std::size_t(rowElems) * elem;
    const std::vector<SlabRows> plan = slabPlan(v, rowBytes);
    const std::size_t slabBytes = std::size_t(largestSlab(plan)) * rowBytes;

    Staging& st = staging();
    std::lock_guard<std::mutex> lock(st.mutex);
    for (int b = 0; b < 2; ++b) {
        if (st.slabs[b].size() < slabBytes || !st.slabs[b].isPinned())
            st.slabs[b] = Buffer(slabBytes, Device::host(), Stream::host(), HostMemory::Pinned);
        if (!st.done[b]) STRATA_CUDA_TRY(cudaEventCreateWithFlags(&st.done[b], cudaEventDisableTiming));
    }
    cudaStream_t s = static_cast<cudaStream_t>(stream.handle());
    std::vector<std::int64_t> start = v.sourceStart(), slabCount = count;
    const std::vector<std::int64_t>& step = v.sourceStep();
    int b = 0;
    for (const SlabRows& slab : plan) {
        STRATA_CUDA_TRY(cudaEventSynchronize(st.done[b])); // the copy that last used this slab is done
        if (!count.empty()) {
            start[0] = v.sourceStart()[0] + slab.first * step[0];
            slabCount[0] = slab.count;
        }
        src.read(start, slabCount, step, st.slabs[b].data());
        copyBytes(static_cast<char*>(dst) + std::size_t(slab.first) * rowBytes, device, st.slabs[b].data(),
                  Device::host(), std::size_t(slab.count) * rowBytes, stream);
        STRATA_CUDA_TRY(cudaEventRecord(st.done[b], s));
        b ^= 1;
    }
    // The staging buffers are reused by the next load: wait for the last copies to leave them.
    STRATA_CUDA_TRY(cudaEventSynchronize(st.done[0]));
    STRATA_CUDA_TRY(cudaEventSynchronize(st.done[1]));
}

// A source stored in filtered chunks: the reader's threads inflate a batch of chunk rows into
// pinned memory while the device unshuffles and places the one before (placeChunks), so that
// the CPU only inflates. False when the source does not offer its chunks for this hyperslab.
bool uploadChunks(const Variable& v, void* dst, Device device, Stream stream) {
    const DataSource& src = *v.source();
    const std::vector<std::int64_t>& step = v.sourceStep();
    if (v.sourceCount().empty() ||
        std::any_of(step.begin(), step.end(), [](std::int64_t k) { return k != 1; }))
        return false;
    std::vector<std::int64_t> start = v.sourceStart(), count = v.sourceCount();
    const auto whole = src.planChunks(start, count);
    if (!whole) return false;
    const std::int64_t first = start[0], rows = count[0], c0 = whole->grid.chunk[0];
    const std::size_t rowBytes =
        std::size_t(std::accumulate(count.begin() + 1, count.end(), std::int64_t(1), std::multiplies<>())) *
        std::size_t(whole->grid.elemSize);
    // Chunk rows per batch: about uploadBatchBytes() of inflated chunks, at least one row.
    const std::int64_t chunkRows = (first + rows - 1) / c0 - first / c0 + 1;
    const std::uint64_t perRow =
        std::max<std::uint64_t>(1, whole->storedChunks / std::uint64_t(chunkRows)) * whole->chunkBytes;
    const std::int64_t rowsPerBatch = std::max<std::int64_t>(
        1, std::int64_t(detail::uploadBatchBytes() / std::max<std::uint64_t>(perRow, 1)));

    // The staging lives as long as the process (page-locking is slow: done once per size), on
    // the device's own stream (a load's stream may be gone when it is freed).
    struct Slot {
        Buffer pinned, onDevice;
        cudaEvent_t done = nullptr;
    };
    struct ChunkStaging {
        std::mutex mutex;
        Slot slots[2];
    };
    static ChunkStaging* staging = new ChunkStaging;
    std::lock_guard<std::mutex> lock(staging->mutex);
    Slot* slots = staging->slots;
    for (int i = 0; i < 2; ++i)
        if (!slots[i].done) STRATA_CUDA_TRY(cudaEventCreateWithFlags(&slots[i].done, cudaEventDisableTiming));
    cudaStream_t cs = static_cast<cudaStream_t>(stream.handle());
    auto finish = [&] { // the copies have left the pinned memory, the kernels the device batches
        for (int i = 0; i < 2; ++i) cudaEventSynchronize(slots[i].done);
    };
    try {
        int b = 0;
        for (std::int64_t r = first; r < first + rows; b ^= 1) {
            const std::int64_t end = std::min(first + rows, (r / c0 + rowsPerBatch) * c0);
            start[0] = r;
            count[0] = end - r;
            const auto plan = src.planChunks(start, count);
            STRATA_EXPECTS(plan.has_value(), ValueError,
                           describe(v) + ": its chunks changed during the load");
            const std::size_t bytes = std::size_t(plan->storedChunks * plan->chunkBytes);
            Slot& s = slots[b];
            STRATA_CUDA_TRY(cudaEventSynchronize(s.done));
            if (s.pinned.size() < bytes)
                s.pinned = Buffer(bytes, Device::host(), Stream::host(), HostMemory::Pinned);
            if (s.onDevice.size() < bytes || s.onDevice.device() != device) {
                const Stream home = defaultStream(device);
                s.onDevice = Buffer(); // freed in order on its home stream, after the waits above
                s.onDevice = Buffer(bytes, device, home);
                home.synchronize(); // allocated before `stream` uses it
            }
            const std::vector<ChunkRef> refs =
                src.inflateChunks(start, count, s.pinned.data(), s.pinned.size());
            if (bytes > 0)
                copyBytes(s.onDevice.data(), device, s.pinned.data(), Device::host(), bytes, stream);
            placeChunks(plan->grid, s.onDevice.data(), refs, plan->fill.data(),
                        static_cast<char*>(dst) + std::size_t(r - first) * rowBytes, device, stream);
            STRATA_CUDA_TRY(cudaEventRecord(s.done, cs));
            r = end;
        }
    } catch (...) {
        finish();
        throw;
    }
    finish();
    return true;
}
#endif

} // namespace

std::vector<SlabRows> uploadSlabPlan(const Variable& v) {
    STRATA_EXPECTS(v.source() != nullptr, ValueError, "uploadSlabPlan: the variable has no source");
    std::int64_t rowElems = 1;
    for (std::size_t i = 1; i < v.sourceCount().size(); ++i) rowElems *= v.sourceCount()[i];
    return slabPlan(v, std::size_t(rowElems) * sizeOf(v.encoding().packed));
}

void detail::setUploadBatchBytes(std::size_t bytes) {
    batchBytes = bytes ? bytes : kSlabBytes;
    batchForced = bytes != 0;
}
std::size_t detail::uploadBatchBytes() { return batchBytes.load(); }
bool detail::uploadBatchForced() { return batchForced.load(); }

Variable loadVariable(const Variable& v, Device device, Stream stream) {
    if (v.isLoaded() && v.size() > 0) {
        if (v.device() == device) return v;
        DataArray a("", v);
        // Move only the bytes of the view: gather it where it is, then copy.
        const Variable packed = v.isContiguous() ? v : contiguous(a, v.buffer()->stream()).variable();
        const std::size_t bytes = packed.nbytes();
        checkFits(v, device, bytes);
        Stream copyStream = device.isCuda() ? stream : packed.buffer()->stream();
        Buffer out = allocateFor(v, bytes, device, device.isCuda() ? stream : Stream::host());
        copyBytes(out.data(), device,
                  static_cast<const char*>(packed.buffer()->data()) +
                      packed.offset() * std::int64_t(sizeOf(v.dtype())),
                  packed.device(), bytes, copyStream);
        if (device.isHost()) copyStream.synchronize();
        return Variable(v.dims(), v.shape(), v.dtype(), std::move(out), v.attrs());
    }
    if (v.size() == 0) {
        Variable empty(v.dims(), v.shape(), v.dtype(), Buffer(0, device, stream), v.attrs());
        return empty;
    }

    // A computed source (a derived variable) evaluates the box where it is asked for, within the
    // memory budget as a file's variable is (the whole of one is made only when asked for).
    if (derivedSourceOf(v)) checkFits(v, device, std::size_t(v.size()) * sizeOf(v.dtype()));
    if (std::optional<Buffer> computed =
            v.source()->evaluate(v.sourceStart(), v.sourceCount(), v.sourceStep(), device, stream)) {
        auto shared = std::make_shared<const Buffer>(std::move(*computed));
        return Variable(v.dims(), v.shape(), v.dtype(), std::move(shared), visibleStrides(v), 0, v.attrs());
    }

    const CfEncoding& enc = v.encoding();
    STRATA_EXPECTS(enc.problem.empty(), DecodeError, describe(v) + ": " + enc.problem);
    STRATA_EXPECTS(isNumeric(enc.packed), ValueError,
                   describe(v) + ": cannot load " + std::string(name(enc.packed)) + " data as an array");
    const std::size_t n = std::size_t(v.size());
    const std::size_t packedBytes = n * sizeOf(enc.packed);
    const std::size_t decodedBytes = enc.isIdentity() ? 0 : n * sizeOf(enc.decoded);
    checkFits(v, device, packedBytes + decodedBytes);

    Buffer packed = allocateFor(v, packedBytes, device, device.isCuda() ? stream : Stream::host());
    if (device.isHost()) {
        v.source()->read(v.sourceStart(), v.sourceCount(), v.sourceStep(), packed.data());
    } else {
#if STRATA_HAVE_CUDA
        if (!uploadChunks(v, packed.data(), device, stream)) uploadSlabs(v, packed.data(), device, stream);
#endif
    }
    Buffer data = enc.isIdentity() ? std::move(packed)
                                   : detail::decodeCf(packedView(packed.data(), enc.packed, std::int64_t(n)),
                                                      enc, device, device.isCuda() ? stream : Stream::host());
    auto shared = std::make_shared<const Buffer>(std::move(data));
    return Variable(v.dims(), v.shape(), v.dtype(), std::move(shared), visibleStrides(v), 0, v.attrs());
}

Variable Variable::load(Device device, Stream stream) const { return loadVariable(*this, device, stream); }

} // namespace strata
