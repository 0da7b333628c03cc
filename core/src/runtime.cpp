#include "strata/core/runtime.h"

#include <atomic>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>

#include "cuda_check.h"
#include "strata/core/settings.h"

namespace strata {
namespace {

bool forcedCpu = false;

struct CudaProbe {
    int count = 0;
    std::string why; // why there is no device, when count == 0
};

CudaProbe probeCuda() {
    CudaProbe p;
#if STRATA_HAVE_CUDA
    cudaError_t status = cudaGetDeviceCount(&p.count);
    if (status != cudaSuccess) {
        p.count = 0;
        p.why = std::string("no usable CUDA device (") + cudaGetErrorString(status) + ")";
        cudaGetLastError(); // clear the sticky-free error so later probes start clean
    } else if (p.count == 0) {
        p.why = "no CUDA device found";
    } else {
        // Keep freed pool memory cached: a viewer frees and reallocates the same sizes per frame.
        for (int d = 0; d < p.count; ++d) {
            cudaMemPool_t pool;
            if (cudaDeviceGetDefaultMemPool(&pool, d) == cudaSuccess) {
                std::uint64_t threshold = UINT64_MAX;
                cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
            }
        }
    }
#else
    p.why = "built without the CUDA backend";
#endif
    return p;
}

const CudaProbe& cudaProbe() {
    static const CudaProbe probe = probeCuda();
    return probe;
}

ComputeInfo decide() {
    ComputeInfo info;
    const bool envCpu = settings::cpu();
    const std::string cpuName = "CPU (" + std::to_string(hostThreads()) + " threads)";
    if (forcedCpu || envCpu) {
        info = {Device::host(), cpuName, forcedCpu ? "CPU requested (--cpu)" : "STRATA_CPU is set", 0};
        return info;
    }
    const CudaProbe& probe = cudaProbe();
    if (probe.count == 0) return {Device::host(), cpuName, probe.why, 0};
#if STRATA_HAVE_CUDA
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    info = {Device::cuda(0), prop.name, "CUDA device 0 of " + std::to_string(probe.count),
            prop.totalGlobalMem};
#endif
    return info;
}

} // namespace

void forceCpu(bool on) { forcedCpu = on; }

namespace {
std::atomic<const ComputeInfo*> decided{nullptr};
}

const ComputeInfo& computeInfo() {
    static const ComputeInfo info = decide();
    decided.store(&info, std::memory_order_release);
    return info;
}

const ComputeInfo* computeInfoIfDecided() { return decided.load(std::memory_order_acquire); }

bool cudaDeviceLikely() {
    if (const ComputeInfo* info = computeInfoIfDecided()) return !info->device.isHost();
    return cudaCompiled() && !forcedCpu && !settings::cpu() && ::access("/dev/nvidiactl", F_OK) == 0;
}

bool cudaCompiled() {
#if STRATA_HAVE_CUDA
    return true;
#else
    return false;
#endif
}

int cudaDeviceCount() { return cudaProbe().count; }

std::size_t deviceFreeMemory(Device d) {
    if (d.isHost()) return SIZE_MAX;
#if STRATA_HAVE_CUDA
    std::size_t freeBytes = 0, total = 0;
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(d.ordinal);
    if (cudaMemGetInfo(&freeBytes, &total) != cudaSuccess) freeBytes = 0;
    cudaSetDevice(previous);
    return freeBytes;
#else
    return 0;
#endif
}

int hostThreads() {
    static const int n = [] {
        unsigned h = std::thread::hardware_concurrency();
        return h == 0 ? 1 : static_cast<int>(h);
    }();
    return n;
}

} // namespace strata
