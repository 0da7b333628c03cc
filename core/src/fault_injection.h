#pragma once
// Test hook: makes Buffer allocations (and, for a lost device, copies) fail on demand, the way a
// device out of memory or a device lost while the app runs would. Off unless a test turns it on.
#include <cstddef>
#include <cstdint>

#include "strata/core/device.h"

namespace strata::detail {

enum class InjectedFault {
    None,
    OutOfMemory, // allocations throw OutOfMemoryError, as when the pool is exhausted
    DeviceLost,  // allocations and copies touching the device throw CudaError
};

// Allocations on devices of kind `on`: the first `skip` succeed, the next `times` fail (-1: all
// of them, until clearAllocationFault()). A lost device stays lost until cleared.
void injectAllocationFault(InjectedFault fault, DeviceKind on, int skip = 0, int times = -1);
void clearAllocationFault();
// Called by Buffer and copyBytes: throws when an injected fault applies to this allocation
// (`bytes` > 0) or copy (`bytes` == 0).
void checkInjectedFault(Device device, std::size_t bytes, bool isCopy);

} // namespace strata::detail
