#include "strata/core/buffer.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>

#include "cuda_check.h"
#include "fault_injection.h"
#include "host_pool.h"
#include "poison.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"

namespace strata {
namespace detail {
namespace {
std::atomic<int> poison{-1};
}
void setPoisonPattern(int byteOrMinus1) { poison.store(byteOrMinus1); }
int poisonPattern() { return poison.load(); }

namespace {

constexpr std::size_t kHostAlignment = 64;
constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kHugeFrom = std::size_t(8) << 20; // fresh blocks this large: huge pages

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPoolOn = false; // ASan must see every block freed
#else
constexpr bool kPoolOn = true;
#endif

std::size_t roundUp(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

// What a request of `bytes` really takes: whole 64-byte lines, whole huge pages from 8 MiB.
std::size_t blockSize(std::size_t bytes) {
    const std::size_t lines = roundUp(bytes, kHostAlignment);
    return lines >= kHugeFrom ? roundUp(lines, kHugePage) : lines;
}

struct HostPool {
    std::mutex mutex;
    std::deque<std::pair<std::size_t, void*>> blocks; // most recently released first
    std::size_t bytes = 0;
    HostPoolLimits limits;

    void trimTo(std::size_t maxBytes, std::size_t maxBlocks) { // mutex held
        while (!blocks.empty() && (bytes > maxBytes || blocks.size() > maxBlocks)) {
            bytes -= blocks.back().first;
            std::free(blocks.back().second);
            blocks.pop_back();
        }
    }
};

HostPool& hostPool() {
    static HostPool* pool = new HostPool; // never destroyed: Buffers may be released at exit
    return *pool;
}

bool poolable(std::size_t block, const HostPoolLimits& limits) {
    return kPoolOn && block >= limits.minBytes && block <= limits.maxBytes;
}

} // namespace

void* hostAllocate(std::size_t bytes) {
    if (bytes > (SIZE_MAX >> 1)) return nullptr; // no such memory; and the rounding would overflow
    const std::size_t block = blockSize(bytes);
    HostPool& pool = hostPool();
    {
        std::lock_guard lock(pool.mutex);
        if (poolable(block, pool.limits))
            for (auto it = pool.blocks.begin(); it != pool.blocks.end(); ++it)
                if (it->first == block) {
                    void* data = it->second;
                    pool.bytes -= block;
                    pool.blocks.erase(it);
                    return data;
                }
    }
    const std::size_t alignment = block >= kHugeFrom ? kHugePage : kHostAlignment;
    void* data = std::aligned_alloc(alignment, block);
    if (!data) { // what is kept for reuse may be what is missing
        trimHostPool();
        data = std::aligned_alloc(alignment, block);
    }
#ifdef MADV_HUGEPAGE
    if (data && alignment == kHugePage) ::madvise(data, block, MADV_HUGEPAGE); // advice only
#endif
    return data;
}

void hostRelease(void* data, std::size_t bytes) noexcept {
    if (!data) return;
    const std::size_t block = blockSize(bytes);
    HostPool& pool = hostPool();
    std::lock_guard lock(pool.mutex);
    if (!poolable(block, pool.limits)) {
        std::free(data);
        return;
    }
    pool.blocks.emplace_front(block, data);
    pool.bytes += block;
    pool.trimTo(pool.limits.maxBytes, pool.limits.maxBlocks);
}

std::size_t hostPoolBytes() {
    std::lock_guard lock(hostPool().mutex);
    return hostPool().bytes;
}

std::size_t hostPoolBlocks() {
    std::lock_guard lock(hostPool().mutex);
    return hostPool().blocks.size();
}

void trimHostPool() {
    std::lock_guard lock(hostPool().mutex);
    hostPool().trimTo(0, 0);
}

void setHostPoolLimits(const HostPoolLimits& limits) {
    std::lock_guard lock(hostPool().mutex);
    hostPool().limits = limits;
    hostPool().trimTo(limits.maxBytes, limits.maxBlocks);
}

HostPoolLimits hostPoolLimits() {
    std::lock_guard lock(hostPool().mutex);
    return hostPool().limits;
}

} // namespace detail

namespace {

std::string megabytes(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

#if STRATA_HAVE_CUDA
cudaStream_t cudaStreamOf(Stream s) { return static_cast<cudaStream_t>(s.handle()); }
#endif

} // namespace

Buffer::Buffer(std::size_t bytes, Device device, Stream stream, HostMemory host)
    : size_(bytes), device_(device), stream_(stream) {
    if (bytes > 0) detail::checkInjectedFault(device, bytes, false); // a test hook; off by default
    if (device.isHost()) {
        stream_ = Stream::host();
#if STRATA_HAVE_CUDA
        if (host == HostMemory::Pinned && cudaDeviceCount() > 0 && bytes > 0) {
            if (cudaMallocHost(&data_, bytes) == cudaSuccess) {
                pinned_ = true;
            } else {
                cudaGetLastError();
                data_ = nullptr;
            }
        }
#else
        (void)host;
#endif
        if (!data_ && bytes > 0) {
            data_ = detail::hostAllocate(bytes);
            STRATA_EXPECTS(data_, OutOfMemoryError,
                           "out of host memory: could not allocate " + megabytes(bytes));
        }
        if (bytes > 0) detail::countHostAllocation(static_cast<std::int64_t>(bytes));
        if (int p = detail::poisonPattern(); p >= 0 && bytes > 0) std::memset(data_, p, bytes);
        return;
    }
#if STRATA_HAVE_CUDA
    STRATA_EXPECTS(stream.device() == device, ValueError,
                   "Buffer on " + device.toString() + " needs a stream of that device, got " +
                       stream.device().toString());
    if (bytes == 0) return;
    STRATA_CUDA_TRY(cudaSetDevice(device.ordinal));
    cudaError_t status = cudaMallocAsync(&data_, bytes, cudaStreamOf(stream));
    if (status != cudaSuccess) {
        cudaGetLastError();
        data_ = nullptr;
        STRATA_FAIL(OutOfMemoryError, "out of GPU memory on " + device.toString() + ": could not allocate " +
                                          megabytes(bytes) + " (" + megabytes(deviceFreeMemory(device)) +
                                          " free)");
    }
    detail::countDeviceAllocation(static_cast<std::int64_t>(bytes));
    if (int p = detail::poisonPattern(); p >= 0)
        STRATA_CUDA_TRY(cudaMemsetAsync(data_, p, bytes, cudaStreamOf(stream)));
#else
    STRATA_FAIL(ValueError, "this build has no CUDA backend: cannot allocate on " + device.toString());
#endif
}

Buffer Buffer::borrow(void* data, std::size_t bytes, Device device, Stream stream,
                      std::shared_ptr<const void> owner) {
    STRATA_EXPECTS(owner != nullptr, ValueError, "a borrowed Buffer needs an owner to keep its memory alive");
    STRATA_EXPECTS(data != nullptr || bytes == 0, ValueError,
                   "a borrowed Buffer of " + std::to_string(bytes) + " bytes has no address");
    Buffer b;
    b.data_ = data;
    b.size_ = bytes;
    b.device_ = device;
    b.stream_ = device.isHost() ? Stream::host() : stream;
    b.owner_ = std::move(owner);
    return b;
}

void Buffer::release() noexcept {
    if (owner_) { // borrowed: the owner frees the memory when the last reference goes
        owner_.reset();
        data_ = nullptr;
        return;
    }
    if (!data_) return;
    if (device_.isHost()) {
        detail::countHostAllocation(-static_cast<std::int64_t>(size_));
#if STRATA_HAVE_CUDA
        if (pinned_) {
            cudaFreeHost(data_);
            data_ = nullptr;
            return;
        }
#endif
        detail::hostRelease(data_, size_);
    } else {
#if STRATA_HAVE_CUDA
        cudaFreeAsync(data_, cudaStreamOf(stream_)); // errors here cannot be reported: never throw
        detail::countDeviceAllocation(-static_cast<std::int64_t>(size_));
#endif
    }
    data_ = nullptr;
}

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& o) noexcept
    : data_(o.data_), size_(o.size_), device_(o.device_), stream_(o.stream_), pinned_(o.pinned_),
      owner_(std::move(o.owner_)) {
    o.data_ = nullptr;
    o.size_ = 0;
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
    if (this != &o) {
        release();
        data_ = o.data_;
        size_ = o.size_;
        device_ = o.device_;
        stream_ = o.stream_;
        pinned_ = o.pinned_;
        owner_ = std::move(o.owner_);
        o.data_ = nullptr;
        o.size_ = 0;
    }
    return *this;
}

Buffer Buffer::copyTo(Device target, Stream stream) const {
    // A host target is pageable memory; a CUDA target is allocated on the CUDA side's stream.
    Stream allocStream =
        target.isHost() ? Stream::host() : (stream.device() == target ? stream : defaultStream(target));
    Buffer out(size_, target, allocStream);
    Stream copyStream = stream.device().isCuda() ? stream : (device_.isCuda() ? stream_ : allocStream);
    copyBytes(out.data(), target, data_, device_, size_, copyStream);
    if (target.isHost()) copyStream.synchronize(); // the bytes must be there when this returns
    return out;
}

void copyBytes(void* dst, Device dstDevice, const void* src, Device srcDevice, std::size_t bytes,
               Stream stream) {
    if (bytes == 0) return;
    detail::checkInjectedFault(dstDevice, 0, true); // a test hook: a lost device refuses copies
    detail::checkInjectedFault(srcDevice, 0, true);
    if (dstDevice.isHost() && srcDevice.isHost()) {
        std::memcpy(dst, src, bytes);
        return;
    }
#if STRATA_HAVE_CUDA
    STRATA_EXPECTS(stream.device().isCuda(), ValueError,
                   "a copy to or from a CUDA device needs a CUDA stream");
    cudaStream_t s = static_cast<cudaStream_t>(stream.handle());
    if (dstDevice.isCuda() && srcDevice.isCuda() && dstDevice.ordinal != srcDevice.ordinal) {
        STRATA_CUDA_TRY(cudaMemcpyPeerAsync(dst, dstDevice.ordinal, src, srcDevice.ordinal, bytes, s));
    } else {
        STRATA_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s));
    }
    if (srcDevice.isHost() && dstDevice.isCuda()) detail::countHostToDevice(bytes);
    if (srcDevice.isCuda() && dstDevice.isHost()) detail::countDeviceToHost(bytes);
#else
    (void)stream;
    STRATA_FAIL(ValueError, "this build has no CUDA backend: cannot copy between " + srcDevice.toString() +
                                " and " + dstDevice.toString());
#endif
}

} // namespace strata
