// minmaxCpu: the smallest and largest finite values, per chunk in parallel.
#include <algorithm>
#include <limits>
#include <vector>

#include "backend.h"
#include "cpu/flat.h"
#include "cpu/kernels.h"
#include "cpu/thread_pool.h"
#include "strata/core/detail/dtype_visit.h"

namespace strata::detail {
namespace {

// 1 when x is finite (always for integers).
template <class T> STRATA_INLINE std::int32_t finiteBit(T x) {
    if constexpr (std::is_same_v<T, float>)
        return (std::bit_cast<std::uint32_t>(x) & 0x7fffffffu) < 0x7f800000u;
    else if constexpr (std::is_same_v<T, double>)
        return (std::bit_cast<std::uint64_t>(x) & 0x7fffffffffffffffull) < 0x7ff0000000000000ull;
    else
        return 1;
}

// x where ok, else `other` — on the bits, so the loop vectorises.
template <class T> STRATA_INLINE T pick(T x, T other, std::int32_t ok) {
    if constexpr (std::is_same_v<T, float>) {
        const std::uint32_t m = 0u - static_cast<std::uint32_t>(ok);
        return std::bit_cast<float>((std::bit_cast<std::uint32_t>(x) & m) |
                                    (std::bit_cast<std::uint32_t>(other) & ~m));
    } else if constexpr (std::is_same_v<T, double>) {
        const std::uint64_t m = 0ull - static_cast<std::uint64_t>(ok);
        return std::bit_cast<double>((std::bit_cast<std::uint64_t>(x) & m) |
                                     (std::bit_cast<std::uint64_t>(other) & ~m));
    } else {
        return x;
    }
}

template <class T>
void rowMinMax(const T* __restrict p, std::int64_t len, std::int64_t stride, T& lo, T& hi) {
    constexpr T up = cpu::extremeStart<T, false>(), down = cpu::extremeStart<T, true>();
    if (stride == 1) {
        constexpr int L = 16;
        T a[L], b[L];
        for (int l = 0; l < L; ++l) {
            a[l] = lo;
            b[l] = hi;
        }
        std::int64_t i = 0;
        for (; i + L <= len; i += L) {
            const T* __restrict x = p + i;
            for (int l = 0; l < L; ++l) {
                const std::int32_t ok = finiteBit(x[l]);
                const T vlo = pick(x[l], up, ok), vhi = pick(x[l], down, ok);
                a[l] = vlo < a[l] ? vlo : a[l];
                b[l] = vhi > b[l] ? vhi : b[l];
            }
        }
        for (int l = 0; l < L; ++l) {
            lo = a[l] < lo ? a[l] : lo;
            hi = b[l] > hi ? b[l] : hi;
        }
        p += i;
        len -= i;
    }
    for (std::int64_t i = 0; i < len; ++i) {
        const T x = p[i * stride];
        if (!finiteBit(x)) continue;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
}

template <class T> void minmaxTyped(const ArrayView& in, double* out2) {
    constexpr T up = cpu::extremeStart<T, false>(), down = cpu::extremeStart<T, true>();
    const cpu::Flat f = cpu::flatten(in);
    const T* src = static_cast<const T*>(in.data);
    const std::int64_t chunks = cpu::chunksFor(f.total, std::int64_t(1) << 17);
    const std::int64_t step = (f.total + chunks - 1) / chunks;
    std::vector<T> los(static_cast<std::size_t>(chunks), up), his(static_cast<std::size_t>(chunks), down);
    std::vector<char> any(static_cast<std::size_t>(chunks), 0);
    cpu::forEachChunk(chunks, [&](std::int64_t c) {
        T lo = up, hi = down;
        const std::int64_t a = c * step, b = std::min(f.total, a + step);
        cpu::forFlatSegments(f, a, b, [&](std::int64_t off, std::int64_t, std::int64_t len) {
            rowMinMax(src + off, len, f.rowStride, lo, hi);
        });
        los[static_cast<std::size_t>(c)] = lo;
        his[static_cast<std::size_t>(c)] = hi;
        any[static_cast<std::size_t>(c)] = a < b;
    });
    // Integers: every value counts; floats: lo > hi means no finite value was seen.
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    bool seen = false;
    for (std::int64_t c = 0; c < chunks; ++c) {
        if (!any[static_cast<std::size_t>(c)]) continue;
        const T l = los[static_cast<std::size_t>(c)], h = his[static_cast<std::size_t>(c)];
        if (std::is_floating_point_v<T> && !(l <= h)) continue;
        seen = true;
        lo = std::min(lo, static_cast<double>(l));
        hi = std::max(hi, static_cast<double>(h));
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    out2[0] = seen ? lo : nan;
    out2[1] = seen ? hi : nan;
}

} // namespace

void minmaxCpu(const ArrayView& in, double* out2) {
    if (in.size() == 0) {
        out2[0] = out2[1] = std::numeric_limits<double>::quiet_NaN();
        return;
    }
    visitNumeric(in.dtype, [&](auto tag) { minmaxTyped<decltype(tag)>(in, out2); });
}

} // namespace strata::detail
