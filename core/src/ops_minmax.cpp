// minmax(), minmaxValues() and histogram(): colour ranges and value distributions.
#include <cmath>

#include "backend.h"
#include "ops_common.h"
#include "strata/core/ops.h"

namespace strata {

DataArray minmax(const DataArray& a, Stream stream) {
    const ArrayView v = detail::checkedView(a, "minmax", stream);
    Buffer out = detail::allocateOn(2 * sizeof(double), a.device(), stream);
    if (a.device().isHost()) {
        detail::minmaxCpu(v, static_cast<double*>(out.data()));
    } else {
#if STRATA_HAVE_CUDA
        detail::minmaxCuda(v, static_cast<double*>(out.data()), stream);
#else
        STRATA_FAIL(ValueError, "minmax: CUDA data, but the CUDA backend is not built");
#endif
    }
    // The range keeps the data's labels (units): it is in the data's units.
    Variable result({"range"}, {2}, DType::Float64, std::move(out), detail::labelAttrs(a.attrs()));
    return DataArray(a.name(), std::move(result));
}

DataArray minmax(const DataArray& a) { return minmax(a, detail::streamOf(a)); }

std::pair<double, double> minmaxValues(const DataArray& a) {
    const DataArray r = minmax(a);
    const std::vector<double> v = r.device().isHost() ? r.values<double>() : r.asHost().values<double>();
    return {v[0], v[1]};
}

DataArray histogram(const DataArray& a, int bins, double lo, double hi, Stream stream) {
    const ArrayView v = detail::checkedView(a, "histogram", stream);
    const std::string what = "histogram of " + detail::describe(a);
    STRATA_EXPECTS(bins >= 1, ValueError, what + ": needs at least one bin, got " + std::to_string(bins));
    STRATA_EXPECTS(std::isfinite(lo) && std::isfinite(hi) && lo <= hi, ValueError,
                   what + ": needs finite bounds lo <= hi, got [" + std::to_string(lo) + ", " +
                       std::to_string(hi) + "]");
    Buffer out =
        detail::allocateOn(static_cast<std::size_t>(bins) * sizeof(std::int64_t), a.device(), stream);
    if (a.device().isHost()) {
        detail::histogramCpu(v, bins, lo, hi, static_cast<std::int64_t*>(out.data()));
    } else {
#if STRATA_HAVE_CUDA
        detail::histogramCuda(v, bins, lo, hi, static_cast<std::int64_t*>(out.data()), stream);
#else
        STRATA_FAIL(ValueError, "histogram: CUDA data, but the CUDA backend is not built");
#endif
    }
    Variable result({"bin"}, {bins}, DType::Int64, std::move(out));
    return DataArray(a.name(), std::move(result));
}

} // namespace strata
