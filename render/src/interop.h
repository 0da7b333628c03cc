#pragma once
// The seam between FrameTexture and CUDA-GL interop. Built from src/cuda/interop_cuda.cpp with
// CUDA, else from src/interop_none.cpp; no CUDA header is seen outside src/cuda.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "strata/core/device.h"
#include "strata/core/stream.h"

namespace strata::detail {

// A GL buffer registered with CUDA for this object's lifetime. Create and destroy it while the
// GL context that owns the buffer is current.
class RegisteredPbo {
public:
    virtual ~RegisteredPbo() = default;
    // Maps the buffer on `stream` for the scope of `fn(devicePointer, bytes)` and unmaps it,
    // ordered on `stream`: GL commands issued afterwards see what `fn` queued.
    virtual void write(Stream stream, const std::function<void(void*, std::size_t)>& fn) = 0;
};

// Registers GL buffer `glBuffer` (`bytes` long, storage allocated) for frames on `device`.
// Returns nullptr and sets *whyNot when that cannot work: CUDA not compiled in, no device,
// the current GL context not on `device` (`glRenderer` names it), or registration refused.
std::unique_ptr<RegisteredPbo> registerPbo(unsigned glBuffer, std::size_t bytes, Device device,
                                           const std::string& glRenderer, std::string* whyNot);

} // namespace strata::detail
