// loadWhole: a whole variable onto a device slab by slab, with progress and cancel (the
// residency's load).
#include <algorithm>

#include "load_tuning.h"
#include "strata/core/cancel.h"
#include "strata/core/error.h"
#include "strata/core/load_plan.h"
#include "strata/core/residency.h"

namespace strata {

std::size_t loadSlabBytes(const DataArray& var, std::size_t slabBytes) {
    const auto& source = var.variable().source();
    if (var.isLoaded() || !source || detail::uploadBatchForced()) return slabBytes;
    // Four rounds of every thread's share: the threads stay busy while progress still moves.
    return std::max(slabBytes, 4 * source->parallelReadBytes());
}

DataArray loadWhole(const DataArray& var, Device device, Stream stream,
                    const std::function<void(double)>& progress, const CancelToken& cancel,
                    std::size_t slabBytes) {
    if (var.isLoaded() || var.ndim() == 0 || var.size() == 0) {
        // On the device's own stream, as below: the result outlives `stream` (a loader's, gone
        // when it ends), and a buffer is freed on its stream.
        const Stream home = defaultStream(device);
        DataArray a = var.load(device, home);
        home.synchronize();
        if (progress) progress(1);
        return a;
    }
    const Variable& v = var.variable();
    slabBytes = loadSlabBytes(var, slabBytes);
    for (std::size_t i = 0; i < v.sourceAxis().size(); ++i)
        STRATA_EXPECTS(v.sourceAxis()[i] == int(i), ValueError,
                       "loadWhole: '" + var.name() + "' must have its dims in the file's order");
    const std::size_t elem = sizeOf(var.dtype());
    const std::int64_t rows = var.shape()[0];
    const std::size_t rowBytes = std::size_t(var.size() / rows) * elem;
    // Slabs of whole chunks for a chunked source (Zarr): each chunk is fetched and decoded once.
    const std::vector<std::int64_t> chunk = v.source()->chunkShape();
    const std::vector<SlabRows> plan = planSlabs(rows, rowBytes, slabBytes, v.sourceStart()[0],
                                                 v.sourceStep()[0], chunk.empty() ? 0 : chunk[0]);

    // The result lives on the device's own stream (it outlives `stream`); the slabs, on `stream`.
    const Stream home = defaultStream(device);
    Buffer out(v.nbytes(), device, home);
    home.synchronize(); // allocated before `stream` writes into it
    const std::string& dim = var.dims()[0];
    const bool direct = device.isHost() && v.encoding().isIdentity() && v.encoding().problem.empty() &&
                        isNumeric(v.encoding().packed);
    // A read stuck on the network (Zarr over HTTP) stops when `cancel` is cancelled, not only the
    // loop between slabs.
    const CancelScope scope(cancel);
    const std::string what = "loading '" + var.name() + "'";
    for (const SlabRows& slab : plan) {
        cancel.throwIfCancelled(what);
        const std::int64_t r = slab.first, n = slab.count;
        char* dst = static_cast<char*>(out.data()) + std::size_t(r) * rowBytes;
        const DataArray part = var.isel({Indexer{dim, Slice{r, r + n, 1}}});
        if (direct) { // the stored values are the values: read them where they go
            const Variable& p = part.variable();
            p.source()->read(p.sourceStart(), p.sourceCount(), p.sourceStep(), dst);
        } else {
            const Variable s = part.load(device, stream).variable();
            copyBytes(dst, device,
                      static_cast<const char*>(s.buffer()->data()) + std::size_t(s.offset()) * elem, device,
                      std::size_t(n) * rowBytes, stream);
            stream.synchronize(); // the slab's memory is released next, and progress must be true
        }
        if (progress) progress(double(r + n) / double(rows));
    }
    cancel.throwIfCancelled(what); // a cancel seen by the last slab's read, or by progress
    Variable loaded(var.dims(), var.shape(), var.dtype(), std::move(out), var.attrs());
    return DataArray(var.name(), std::move(loaded), var.coords());
}

} // namespace strata
