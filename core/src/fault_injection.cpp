#include "fault_injection.h"

#include <atomic>
#include <mutex>
#include <string>

#include "strata/core/error.h"

namespace strata::detail {
namespace {

std::string megabytesText(std::size_t bytes) {
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

struct FaultState {
    std::mutex mutex;
    InjectedFault fault = InjectedFault::None;
    DeviceKind on = DeviceKind::Cuda;
    int skip = 0;
    int times = -1;
};
FaultState& faults() {
    static FaultState s;
    return s;
}
std::atomic<bool> faultArmed{false}; // keeps the untested path to one relaxed load
} // namespace

void injectAllocationFault(InjectedFault fault, DeviceKind on, int skip, int times) {
    FaultState& f = faults();
    std::lock_guard<std::mutex> lock(f.mutex);
    f.fault = fault;
    f.on = on;
    f.skip = skip;
    f.times = times;
    faultArmed.store(fault != InjectedFault::None);
}

void clearAllocationFault() { injectAllocationFault(InjectedFault::None, DeviceKind::Cuda); }

void checkInjectedFault(Device device, std::size_t bytes, bool isCopy) {
    if (!faultArmed.load(std::memory_order_relaxed)) return;
    FaultState& f = faults();
    std::lock_guard<std::mutex> lock(f.mutex);
    if (f.fault == InjectedFault::None || device.kind != f.on) return;
    if (isCopy && f.fault != InjectedFault::DeviceLost) return;
    if (f.fault == InjectedFault::DeviceLost && f.skip == 0) // once lost, stays lost
        STRATA_FAIL(CudaError, "CUDA error on " + device.toString() +
                                   ": the device is no longer usable (device lost; injected by a test)");
    if (!isCopy && f.skip > 0) {
        --f.skip;
        return;
    }
    if (isCopy || f.times == 0) return;
    if (f.times > 0 && --f.times == 0) faultArmed.store(false);
    if (f.fault == InjectedFault::DeviceLost)
        STRATA_FAIL(CudaError, "CUDA error on " + device.toString() +
                                   ": the device is no longer usable (device lost; injected by a test)");
    STRATA_FAIL(
        OutOfMemoryError,
        std::string(device.isHost() ? "out of host memory" : "out of GPU memory on " + device.toString()) +
            ": could not allocate " + megabytesText(bytes) + " (injected by a test)");
}

} // namespace strata::detail
