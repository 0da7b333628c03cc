// reduceStreamed: a reduction read slab by slab and merged (see streaming.h).
#include <cmath>
#include <cstring>
#include <future>
#include <optional>

#include "backend.h"
#include "ops_common.h"
#include "strata/core/cancel.h"
#include "strata/core/error.h"
#include "strata/core/fallback.h"
#include "strata/core/streaming.h"

namespace strata {
namespace {

constexpr const char* kStackDim = "__strata_slab";

void tell(const StreamProgress& progress, std::int64_t done, std::int64_t rows) {
    if (progress) progress(rows > 0 ? double(std::min(done, rows)) / double(rows) : 1.0);
}

void merge(const detail::MergeProblem& p, Device device, Stream stream) {
    if (device.isHost()) {
        detail::mergeCpu(p);
    } else {
#if STRATA_HAVE_CUDA
        detail::mergeCuda(p, stream);
#else
        (void)stream;
        STRATA_FAIL(ValueError, "reduceStreamed: CUDA data, but the CUDA backend is not built");
#endif
    }
}

const void* dataOf(const DataArray& a) {
    const Variable& v = a.variable();
    return static_cast<const char*>(v.buffer()->data()) + v.offset() * std::int64_t(sizeOf(v.dtype()));
}

// x and y (same shape and dtype, contiguous) stacked along a new first dim.
DataArray stack(const DataArray& x, const DataArray& y, Stream stream) {
    const std::size_t bytes = x.variable().nbytes();
    Buffer out(2 * bytes, x.device(), stream);
    copyBytes(out.data(), x.device(), dataOf(x), x.device(), bytes, stream);
    copyBytes(static_cast<char*>(out.data()) + bytes, x.device(), dataOf(y), y.device(), bytes, stream);
    std::vector<std::string> dims{kStackDim};
    dims.insert(dims.end(), x.dims().begin(), x.dims().end());
    Shape shape{2};
    shape.insert(shape.end(), x.shape().begin(), x.shape().end());
    return DataArray("", Variable(dims, shape, x.dtype(), std::move(out)));
}

// Which of two extremes wins (0: the first, 1: the second, -1: neither is a number), and the
// winner itself.
DataArray pairwise(const DataArray& acc, const DataArray& part, ReduceOp op, Stream stream) {
    return reduce(stack(acc, part, stream), {kStackDim}, op, stream);
}

Buffer zeros(std::size_t bytes, Device device, Stream stream) {
    Buffer b(bytes, device, stream);
    if (bytes == 0) return b;
    if (device.isHost()) {
        std::memset(b.data(), 0, bytes);
    } else {
        // Zeros uploaded once per reduction: a few counted bytes, no extra API surface.
        Buffer z(bytes, Device::host(), Stream::host());
        std::memset(z.data(), 0, bytes);
        copyBytes(b.data(), device, z.data(), Device::host(), bytes, stream);
        stream.synchronize();
    }
    return b;
}

// `data`'s values (contiguous, like's shape and dtype) under like's name, dims and attrs.
DataArray rewrap(const DataArray& like, const DataArray& data, Coordinates coords) {
    const Variable& d = data.variable();
    Variable v(like.dims(), like.shape(), like.dtype(), d.buffer(), d.strides(), d.offset(), like.attrs());
    return DataArray(like.name(), std::move(v), std::move(coords));
}

DataArray withData(const DataArray& like, Shape shape, DType dtype, Buffer data, Coordinates coords) {
    Variable v(like.dims(), std::move(shape), dtype, std::move(data), like.attrs());
    return DataArray(like.name(), std::move(v), std::move(coords));
}

// `a` (lazy) in slabs of whole rows of its first dim, at most `slabBytes` decoded bytes each
// (one row at least). Reads wait on the network under `cancel`, on any thread.
struct Slabs {
    Slabs(const DataArray& a, Device device, Stream stream, std::size_t slabBytes, const CancelToken& cancel)
        : a(a), device(device), stream(stream), first(a.dims()[0]), rows(a.shape()[0]), cancel(cancel) {
        const std::size_t rowBytes =
            std::size_t(a.size() / std::max<std::int64_t>(rows, 1)) * sizeOf(a.dtype());
        step = std::max<std::int64_t>(1, std::int64_t(slabBytes / std::max<std::size_t>(rowBytes, 1)));
    }
    // Rows [r, r + step) of `a`, lazy.
    DataArray part(std::int64_t r) const {
        return a.isel({Indexer{first, Slice{r, std::min(rows, r + step), 1}}});
    }
    // The same, loaded onto the device (on a thread of std::async while the last one is used).
    DataArray read(std::int64_t r) const { return part(r).load(device, stream); }
    std::future<DataArray> readAsync(std::int64_t r) const {
        return std::async(std::launch::async, [this, r] {
            const CancelScope scope(cancel);
            return read(r);
        });
    }

    const DataArray& a;
    Device device;
    Stream stream;
    std::string first;
    std::int64_t rows, step = 1;
    CancelToken cancel;
};

} // namespace

DataArray reduceStreamed(const DataArray& a, const std::string& dim, ReduceOp op, Device device,
                         Stream stream, std::size_t slabBytes, const CancelToken& cancel,
                         const StreamProgress& progress) {
    const CancelScope scope(cancel);
    a.axis(dim); // names the dim and the dims there are when it is not one of them
    if (a.isLoaded() || a.size() == 0) return reduce(a.load(device, stream), {dim}, op, stream);
    const std::string& first = a.dims()[0];
    if (dim != first) // each slab's result is a run of the result's first dim
        return mapStreamed(
            a, [&](const DataArray& slab) { return reduce(slab, {dim}, op, stream); }, device, stream,
            slabBytes, cancel, progress);
    const Slabs slabs(a, device, stream, slabBytes, cancel);
    const std::int64_t rows = slabs.rows, step = slabs.step;

    std::vector<std::string> kept;
    for (const auto& d : a.dims())
        if (d != dim) kept.push_back(d);
    const Coordinates coords = detail::keptCoords(a, kept);

    std::future<DataArray> next = slabs.readAsync(0);
    std::optional<DataArray> like;         // the first slab's result: dims, dtype, attrs of the result
    Buffer acc[3];                         // along `dim`: the accumulators
    std::optional<DataArray> extreme, arg; // along `dim`, for min/max/argmin/argmax
    for (std::int64_t r = 0; r < rows; r += step) {
        DataArray slab = next.get();
        cancel.throwIfCancelled("the reduction over '" + dim + "'");
        if (r + step < rows) next = slabs.readAsync(r + step); // read while this reduces
        const std::int64_t n = slab.size() / slab.shape()[0];
        detail::MergeProblem p;
        p.n = n;
        switch (op) {
        case ReduceOp::Sum:
        case ReduceOp::Count: {
            const DataArray part = detail::reduceAs(
                slab, {dim}, op, op == ReduceOp::Count ? DType::Int64 : DType::Float64, stream);
            if (!like) {
                like = reduce(slab.isel({Indexer{dim, Slice{0, 0, 1}}}), {dim}, op,
                              stream); // the result's metadata
                acc[0] = zeros(std::size_t(n) * sizeof(double), device, stream);
            }
            p.step = detail::MergeStep::Sum;
            p.acc[0] = static_cast<double*>(acc[0].data());
            p.part[0] = dataOf(part);
            p.partType[0] = part.dtype();
            merge(p, device, stream);
            stream.synchronize();
            break;
        }
        case ReduceOp::Mean: { // counts and sums (in double) added; divided at the end
            const DataArray count = reduce(slab, {dim}, ReduceOp::Count, stream);
            const DataArray sum = detail::reduceAs(slab, {dim}, ReduceOp::Sum, DType::Float64, stream);
            if (!like) {
                like = reduce(slab.isel({Indexer{dim, Slice{0, 0, 1}}}), {dim}, op,
                              stream); // the result's metadata
                for (int i = 0; i < 2; ++i) acc[i] = zeros(std::size_t(n) * sizeof(double), device, stream);
            }
            p.step = detail::MergeStep::Sum;
            const DataArray* parts[2] = {&count, &sum};
            for (int i = 0; i < 2; ++i) {
                p.acc[0] = static_cast<double*>(acc[i].data());
                p.part[0] = dataOf(*parts[i]);
                p.partType[0] = parts[i]->dtype();
                merge(p, device, stream);
            }
            stream.synchronize();
            break;
        }
        case ReduceOp::Var:
        case ReduceOp::Std: {
            const DataArray count = reduce(slab, {dim}, ReduceOp::Count, stream);
            const DataArray mean = detail::reduceAs(slab, {dim}, ReduceOp::Mean, DType::Float64, stream);
            const DataArray var = detail::reduceAs(slab, {dim}, ReduceOp::Var, DType::Float64, stream);
            if (!like) {
                like = reduce(slab.isel({Indexer{dim, Slice{0, 0, 1}}}), {dim}, op,
                              stream); // the result's metadata
                for (auto& b : acc) b = zeros(std::size_t(n) * sizeof(double), device, stream);
            }
            p.step = detail::MergeStep::Moments;
            for (int i = 0; i < 3; ++i) p.acc[i] = static_cast<double*>(acc[i].data());
            const DataArray* parts[3] = {&count, &mean, &var};
            for (int i = 0; i < 3; ++i) {
                p.part[i] = dataOf(*parts[i]);
                p.partType[i] = parts[i]->dtype();
            }
            merge(p, device, stream);
            stream.synchronize();
            break;
        }
        case ReduceOp::Min:
        case ReduceOp::Max: {
            const DataArray part = reduce(slab, {dim}, op, stream);
            if (!like) like = part;
            extreme = extreme ? pairwise(*extreme, part, op, stream) : part;
            stream.synchronize();
            break;
        }
        case ReduceOp::ArgMin:
        case ReduceOp::ArgMax: {
            const ReduceOp valueOp = op == ReduceOp::ArgMin ? ReduceOp::Min : ReduceOp::Max;
            const DataArray value = reduce(slab, {dim}, valueOp, stream);
            const DataArray index = reduce(slab, {dim}, op, stream);
            if (!like) {
                like = index;
                extreme = value;
                arg = contiguous(index, stream); // owned: updated in place below
            } else {
                const DataArray which = pairwise(*extreme, value, op, stream);
                p.step = detail::MergeStep::Arg;
                p.argAcc = static_cast<std::int64_t*>(const_cast<void*>(dataOf(*arg)));
                p.part[0] = dataOf(which);
                p.part[1] = dataOf(index);
                p.offset = r;
                merge(p, device, stream);
                extreme = pairwise(*extreme, value, valueOp, stream);
            }
            stream.synchronize();
            break;
        }
        }
        tell(progress, r + step, rows);
    }
    if (op == ReduceOp::Min || op == ReduceOp::Max) return rewrap(*like, *extreme, coords);
    if (op == ReduceOp::ArgMin || op == ReduceOp::ArgMax) return rewrap(*like, *arg, coords);
    detail::MergeProblem p;
    p.step = detail::MergeStep::Finish;
    p.op = op;
    p.n = like->size();
    for (int i = 0; i < 3; ++i) p.acc[i] = static_cast<double*>(acc[i].data());
    Buffer result(like->variable().nbytes(), device, stream);
    p.out = result.data();
    p.outType = like->dtype();
    merge(p, device, stream);
    return withData(*like, like->shape(), like->dtype(), std::move(result), coords);
}

DataArray mapStreamed(const DataArray& a, const std::function<DataArray(const DataArray& slab)>& f,
                      Device device, Stream stream, std::size_t slabBytes, const CancelToken& cancel,
                      const StreamProgress& progress) {
    if (a.isLoaded() || a.size() == 0 || a.ndim() == 0) return f(a.load(device, stream));
    const CancelScope scope(cancel);
    const Slabs slabs(a, device, stream, slabBytes, cancel);
    const std::string& first = slabs.first;
    const std::int64_t rows = slabs.rows, step = slabs.step;
    std::future<DataArray> next = slabs.readAsync(0);
    std::optional<DataArray> like;
    Buffer out;
    std::int64_t outRowBytes = 0;
    for (std::int64_t r = 0; r < rows; r += step) {
        const DataArray slab = next.get();
        cancel.throwIfCancelled("streaming '" + a.name() + "'");
        if (r + step < rows) next = slabs.readAsync(r + step); // read while this one computes
        DataArray part = f(slab);
        STRATA_EXPECTS(
            part.ndim() > 0 && part.dims()[0] == first && part.shape()[0] == slab.shape()[0], ValueError,
            "mapStreamed: the result of each slab of '" + a.name() + "' must keep '" + first + "' first");
        if (!part.variable().isContiguous()) part = contiguous(part, stream);
        if (!like) {
            like = part;
            outRowBytes = std::int64_t(part.variable().nbytes()) / slab.shape()[0];
            out = Buffer(std::size_t(outRowBytes * rows), device, stream);
        }
        STRATA_EXPECTS(std::int64_t(part.variable().nbytes()) == outRowBytes * slab.shape()[0], ValueError,
                       "mapStreamed: the slabs of '" + a.name() + "' gave results of different shapes");
        copyBytes(static_cast<char*>(out.data()) + r * outRowBytes, device, dataOf(part), device,
                  part.variable().nbytes(), stream);
        stream.synchronize(); // `part` and `slab` are released next
        tell(progress, r + step, rows);
    }
    Shape shape = like->shape();
    shape[0] = rows;
    return withData(*like, std::move(shape), like->dtype(), std::move(out),
                    detail::keptCoords(a, like->dims()));
}

std::pair<double, double> minmaxStreamed(const DataArray& a, Device device, std::size_t slabBytes,
                                         const CancelToken& cancel, const StreamProgress& progress) {
    if (a.isLoaded() || a.ndim() == 0) {
        FallbackNote note;
        return minmaxValues(
            loadWithFallback(a, device, device.isHost() ? Stream::host() : defaultStream(device), note));
    }
    const Stream s = device.isHost() ? Stream::host() : defaultStream(device);
    const CancelScope scope(cancel);
    const Slabs slabs(a, device, s, slabBytes, cancel);
    double lo = NAN, hi = NAN;
    for (std::int64_t r = 0; r < slabs.rows; r += slabs.step) {
        cancel.throwIfCancelled("the range of '" + a.name() + "'");
        FallbackNote note;
        const auto [x, y] = minmaxValues(loadWithFallback(slabs.part(r), device, s, note));
        if (std::isfinite(x)) lo = std::isnan(lo) ? x : std::min(lo, x);
        if (std::isfinite(y)) hi = std::isnan(hi) ? y : std::max(hi, y);
        tell(progress, r + slabs.step, slabs.rows);
    }
    return {lo, hi};
}

} // namespace strata
