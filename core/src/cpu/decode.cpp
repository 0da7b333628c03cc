// decodeCfCpu: CF masking on the packed values (any fill value; below valid_min or above
// valid_max) → NaN, then decoded = packed · scale + offset in double, cast to the decoded type.
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "backend.h"
#include "cpu/thread_pool.h"
#include "strata/core/detail/dtype_visit.h"

namespace strata::detail {
namespace {

template <class P, class D> void decodeTyped(const P* in, D* out, std::int64_t n, const CfEncoding& enc) {
    // A fill value is compared as the packed type holds it (a float variable's fill given as
    // a double attribute still matches its float values).
    std::vector<double> fills;
    for (double f : enc.fillValues) fills.push_back(std::is_floating_point_v<P> ? double(P(f)) : f);
    const bool masked = !fills.empty() || enc.validMin || enc.validMax;
    const double vmin = enc.validMin.value_or(-std::numeric_limits<double>::infinity());
    const double vmax = enc.validMax.value_or(std::numeric_limits<double>::infinity());
    const double scale = enc.scale, offset = enc.offset;
    const bool scaled = enc.scaled;
    cpu::parallelFor(n, std::int64_t(1) << 16, [&](std::int64_t a, std::int64_t b) {
        if (!masked && !scaled) {
            for (std::int64_t i = a; i < b; ++i) out[i] = static_cast<D>(in[i]);
            return;
        }
        for (std::int64_t i = a; i < b; ++i) {
            const double v = static_cast<double>(in[i]);
            bool drop = v < vmin || v > vmax;
            for (double f : fills) drop = drop || v == f;
            if constexpr (std::is_floating_point_v<D>) {
                out[i] = drop ? std::numeric_limits<D>::quiet_NaN()
                              : static_cast<D>(scaled ? v * scale + offset : v);
            } else {
                out[i] = static_cast<D>(scaled ? v * scale + offset : v); // unmasked (decodeCf checks)
            }
        }
    });
}

} // namespace

void decodeCfCpu(const ArrayView& packed, const CfEncoding& enc, void* out) {
    const std::int64_t n = packed.size();
    if (n == 0) return;
    visitNumeric(enc.packed, [&](auto p) {
        using P = decltype(p);
        visitNumeric(enc.decoded, [&](auto d) {
            using D = decltype(d);
            decodeTyped(static_cast<const P*>(packed.data), static_cast<D*>(out), n, enc);
        });
    });
}

} // namespace strata::detail
