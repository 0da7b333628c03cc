// placeChunksCpu: each box (where a chunk meets the region) is copied row by row, a row being
// its extent along the last dim: one memcpy when the bytes need no rearranging, otherwise an
// element loop that gathers each element's bytes from the shuffled planes and/or reverses
// them. Boxes, or slices of their rows when boxes are few, are spread over the pool.
#include <algorithm>
#include <cstring>

#include "backend.h"
#include "cpu/thread_pool.h"

namespace strata::detail {
namespace {

using Byte = unsigned char;

template <class T> T reversed(T v) {
    T r = 0;
    for (std::size_t k = 0; k < sizeof(T); ++k) {
        r = static_cast<T>((r << 8) | (v & 0xff));
        v = static_cast<T>(v >> 8);
    }
    return r;
}

// One row of `n` elements from the chunk at `chunk` (element `s` onwards) to `out`.
template <class T, bool Shuffled, bool Swap>
void copyRow(const Byte* chunk, std::int64_t chunkSize, std::int64_t s, Byte* out, std::int64_t n) {
    constexpr std::size_t E = sizeof(T);
    if constexpr (!Shuffled && !Swap) {
        std::memcpy(out, chunk + s * E, static_cast<std::size_t>(n) * E);
    } else if constexpr (!Shuffled) {
        for (std::int64_t i = 0; i < n; ++i) {
            T v;
            std::memcpy(&v, chunk + (s + i) * E, E);
            v = reversed(v);
            std::memcpy(out + i * E, &v, E);
        }
    } else {
        // Byte k of element i is at plane k, i.e. chunk[k * chunkSize + i].
        for (std::int64_t i = 0; i < n; ++i) {
            Byte b[E];
            for (std::size_t k = 0; k < E; ++k) b[Swap ? E - 1 - k : k] = chunk[k * chunkSize + s + i];
            std::memcpy(out + i * E, b, E);
        }
    }
}

template <class T> void fillRow(const T& value, Byte* out, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) std::memcpy(out + i * sizeof(T), &value, sizeof(T));
}

// Rows [rowBegin, rowEnd) of a box; a row runs along the last dim.
template <class T, bool Shuffled, bool Swap>
void placeRows(const PlaceProblem& p, const ChunkBox& box, std::int64_t rowBegin, std::int64_t rowEnd) {
    const int last = p.ndim - 1;
    const std::int64_t n = box.count[last];
    std::int64_t index[kMaxDims] = {};
    std::int64_t s = box.srcFirst, d = box.dstFirst;
    for (std::int64_t rest = rowBegin, k = last - 1; k >= 0; --k) {
        index[k] = rest % box.count[k];
        rest /= box.count[k];
        s += index[k] * p.srcStrides[k];
        d += index[k] * p.dstStrides[k];
    }
    const bool stored = box.offset != ChunkRef::kNotStored;
    const Byte* chunk = stored ? static_cast<const Byte*>(p.batch) + box.offset : nullptr;
    Byte* out = static_cast<Byte*>(p.dst);
    T fill{};
    if (!stored) std::memcpy(&fill, p.fill, sizeof(T));
    for (std::int64_t row = rowBegin; row < rowEnd; ++row) {
        if (stored)
            copyRow<T, Shuffled, Swap>(chunk, p.chunkSize, s, out + d * sizeof(T), n);
        else
            fillRow(fill, out + d * sizeof(T), n);
        for (int k = last - 1; k >= 0; --k) { // the next row: carry through the index
            s += p.srcStrides[k];
            d += p.dstStrides[k];
            if (++index[k] < box.count[k]) break;
            s -= box.count[k] * p.srcStrides[k];
            d -= box.count[k] * p.dstStrides[k];
            index[k] = 0;
        }
    }
}

template <class T, bool Shuffled, bool Swap> void placeTyped(const PlaceProblem& p) {
    const std::int64_t boxes = static_cast<std::int64_t>(p.boxes.size());
    std::int64_t elements = 0;
    for (const ChunkBox& b : p.boxes) {
        std::int64_t size = 1;
        for (int k = 0; k < p.ndim; ++k) size *= b.count[k];
        elements += size;
    }
    // With fewer boxes than the pool has threads (a few large chunks), each box is cut into
    // slices of its rows, so that all threads take part.
    const std::int64_t wanted = std::int64_t(cpu::poolThreads()) * 4;
    const std::int64_t slices = boxes >= wanted ? 1 : (wanted + boxes - 1) / boxes;
    const std::int64_t units = boxes * slices;
    const std::int64_t perUnit = std::max<std::int64_t>(1, elements / units);
    const std::int64_t grain = std::max<std::int64_t>(1, (std::int64_t(1) << 16) / perUnit);
    const auto place = [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t u = begin; u < end; ++u) {
            const ChunkBox& box = p.boxes[static_cast<std::size_t>(u / slices)];
            const std::int64_t slice = u % slices;
            std::int64_t rows = 1;
            for (int k = 0; k + 1 < p.ndim; ++k) rows *= box.count[k];
            placeRows<T, Shuffled, Swap>(p, box, rows * slice / slices, rows * (slice + 1) / slices);
        }
    };
    if (p.serial)
        place(0, units);
    else
        cpu::parallelFor(units, grain, place);
}

template <class T> void placeAs(const PlaceProblem& p) {
    if (p.shuffled) {
        p.swap ? placeTyped<T, true, true>(p) : placeTyped<T, true, false>(p);
    } else {
        p.swap ? placeTyped<T, false, true>(p) : placeTyped<T, false, false>(p);
    }
}

} // namespace

void placeChunksCpu(const PlaceProblem& p) {
    switch (p.elemSize) {
    case 1:
        placeAs<std::uint8_t>(p);
        break;
    case 2:
        placeAs<std::uint16_t>(p);
        break;
    case 4:
        placeAs<std::uint32_t>(p);
        break;
    default:
        placeAs<std::uint64_t>(p);
        break;
    }
}

} // namespace strata::detail
