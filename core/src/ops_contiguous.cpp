// contiguous(): a C-order copy of any view, on the view's device.
#include "backend.h"
#include "ops_common.h"
#include "strata/core/ops.h"

namespace strata {

DataArray contiguous(const DataArray& a, Stream stream) {
    const ArrayView v = detail::checkedView(a, "contiguous", stream);
    Buffer out = detail::allocateOn(a.variable().nbytes(), a.device(), stream);
    if (a.size() > 0) {
        if (a.device().isHost()) {
            detail::contiguousCpu(v, out.data());
        } else {
#if STRATA_HAVE_CUDA
            detail::contiguousCuda(v, out.data(), stream);
#else
            STRATA_FAIL(ValueError, "contiguous: CUDA data, but the CUDA backend is not built");
#endif
        }
    }
    Variable result(a.dims(), a.shape(), a.dtype(), std::move(out), a.attrs());
    return DataArray(a.name(), std::move(result), a.coords());
}

DataArray contiguous(const DataArray& a) { return contiguous(a, detail::streamOf(a)); }

} // namespace strata
