#pragma once
// Falling back to the CPU when a GPU fails: out of memory on an upload or in an operation, no
// device, or a device lost while the app runs. The failure becomes a reason the app shows in its
// status bar, and that variable is loaded and computed on the host (the CPU backend) instead.
#include <functional>
#include <string>

#include "strata/core/data_array.h"

namespace strata {

// What happened to one request.
struct FallbackNote {
    bool fellBack = false;
    // "file.nc: variable 'sst': out of GPU memory on cuda:0: could not allocate 4096 MiB (12 MiB
    // free); computed on the CPU instead". Empty when nothing fell back.
    std::string reason;
};

// Devices found unusable while the app runs (a device lost, any CUDA failure other than running
// out of memory): later requests for them go to the host without trying. Process-wide.
bool deviceUsable(Device device);
std::string whyUnusable(Device device); // empty while usable
void markUnusable(Device device, const std::string& why);
void resetUnusable(); // forget every mark (tests; a "retry the GPU" action)

// Loads `a` onto `device`. When that device is absent, marked unusable, out of memory, or fails
// during the upload, loads `a` onto the host instead and says why in `note`. Failures that are
// not the device's (a damaged file, attributes that cannot be decoded, the host out of memory)
// are thrown as they are, their messages naming the variable.
DataArray loadWithFallback(const DataArray& a, Device device, Stream stream, FallbackNote& note);

// Runs `op` on `resident` (`source` loaded on a device, or `source` itself). When the device
// fails during `op` (out of memory for its outputs, a CUDA error, a lost device), loads `source`
// (lazy, or on the host) onto the host and runs `op` there. `op` must run on its argument's
// device (every operation in ops.h does).
DataArray computeWithFallback(const DataArray& source, const DataArray& resident,
                              const std::function<DataArray(const DataArray&)>& op, FallbackNote& note);

// Runs `op` on `device`; when that device is absent, marked unusable, out of memory or fails
// during `op`, runs op(host) instead and says why in `note` (naming `source`). For work that
// loads as it goes (a streamed reduction) rather than from one resident array.
DataArray runWithFallback(Device device, const DataArray& source, const std::function<DataArray(Device)>& op,
                          FallbackNote& note);

} // namespace strata
