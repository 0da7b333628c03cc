#pragma once
// Which backend computes, and why. Decided once, on first use: the first usable CUDA device,
// unless CUDA was not compiled in, no device is usable, forceCpu(true) was called first, or
// the environment variable STRATA_CPU is on (strata/core/settings.h).
#include <cstddef>
#include <string>

#include "strata/core/device.h"

namespace strata {

struct ComputeInfo {
    Device device;               // where data and operations go
    std::string name;            // "NVIDIA H200" or "CPU (2 threads)"
    std::string reason;          // why this backend: "CUDA device 0 found", "STRATA_CPU is set", ...
    std::size_t totalMemory = 0; // bytes on that device (0 for the host)
};

// Must be called before the first computeInfo() to take effect (the app's --cpu flag).
void forceCpu(bool on);
const ComputeInfo& computeInfo();
inline Device computeDevice() { return computeInfo().device; }
// computeInfo() once it is decided, without deciding it or waiting for it: null while no
// thread has asked, or while the first to ask is still finding the device (the CUDA driver's
// start, about 200 ms on an H100). For a window that must not wait for it on its GUI thread.
const ComputeInfo* computeInfoIfDecided();
// Whether computeInfo() will most likely find a CUDA device, known at once (no CUDA call): the
// backend is built in, neither --cpu nor STRATA_CPU asks for the CPU, and NVIDIA's driver has
// its control device. For work done ahead on that guess (the window's GL surface).
bool cudaDeviceLikely();

bool cudaCompiled();                    // the CUDA backend is built in
int cudaDeviceCount();                  // usable CUDA devices (0 without CUDA)
std::size_t deviceFreeMemory(Device d); // bytes free on a CUDA device; SIZE_MAX for the host
int hostThreads();                      // threads the CPU backend uses

// While one lives, the CPU backend's work called from this thread runs on this thread alone,
// not spread over the pool: for a background thread (work done ahead, at a lowered priority)
// that must leave the other cores, and the pool, to the thread the user waits on.
class HostSerialScope {
public:
    HostSerialScope();
    ~HostSerialScope();
    HostSerialScope(const HostSerialScope&) = delete;
    HostSerialScope& operator=(const HostSerialScope&) = delete;

private:
    bool outer_;
};

} // namespace strata
