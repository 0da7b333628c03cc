// Where the frame service computes frames while the compute device is not known yet (a GPU's
// driver starting): on the host, at once; and what it drops once the device is known.
#include "frame_service.h"
#include "strata/core/runtime.h"

namespace strata::app {

std::optional<Device> FrameService::runtimeDevice() {
    if (const ComputeInfo* info = computeInfoIfDecided()) return info->device;
    if (cudaDeviceLikely()) return std::nullopt;
    return computeDevice();
}

void FrameService::setDeviceProbe(DeviceProbe probe) {
    std::lock_guard lock(mutex_);
    deviceProbe_ = probe ? std::move(probe) : DeviceProbe(runtimeDevice);
}

Device FrameService::frameDevice(bool& beforeDevice) {
    DeviceProbe probe;
    {
        std::lock_guard lock(mutex_);
        probe = deviceProbe_;
    }
    if (const std::optional<Device> known = probe()) return *known;
    std::lock_guard lock(mutex_);
    hostBeforeDevice_ = true;
    beforeDevice = true;
    return Device::host();
}

bool FrameService::deviceDecided() {
    DeviceProbe probe;
    {
        std::lock_guard lock(mutex_);
        if (!hostBeforeDevice_) return false;
        probe = deviceProbe_;
    }
    const std::optional<Device> known = probe();
    if (!known) return false; // still starting
    std::lock_guard lock(mutex_);
    hostBeforeDevice_ = false;
    if (known->isHost()) return false; // the host's frames are the device's: they stand
    cache_.dropHostFrames();
    return true;
}

} // namespace strata::app
