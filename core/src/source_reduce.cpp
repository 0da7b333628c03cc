#include "source_reduce.h"

#include <algorithm>

#include "ops_common.h"
#include "strata/core/data_source.h"
#include "strata/core/error.h"
#include "strata/core/ops.h"

namespace strata::detail {
namespace {

bool reducibleAtSource(ReduceOp op) {
    return op == ReduceOp::Sum || op == ReduceOp::Mean || op == ReduceOp::Min || op == ReduceOp::Max ||
           op == ReduceOp::Std;
}

} // namespace

std::optional<DataArray> reduceAtSource(const DataArray& slab, const FrameSpec& spec, Device device,
                                        Stream stream) {
    const Variable& v = slab.variable();
    if (spec.reductions.empty() || v.isLoaded() || !v.source() || !isFloating(v.dtype()) ||
        !v.encoding().isIdentity() || !spec.areaMeanDims().empty())
        return std::nullopt;
    const std::vector<int>& axes = v.sourceAxis();
    if (!std::is_sorted(axes.begin(), axes.end())) return std::nullopt; // a transposed view
    std::vector<DataSource::Reduction> reductions;
    std::vector<std::string> reduced;
    for (const auto& [dim, op] : spec.reductions) {
        if (!reducibleAtSource(op)) return std::nullopt;
        reductions.push_back({axes[static_cast<std::size_t>(v.axis(dim))], op});
        reduced.push_back(dim);
    }
    std::optional<Buffer> out =
        v.source()->reduceBox(v.sourceStart(), v.sourceCount(), v.sourceStep(), reductions, device, stream);
    if (!out) return std::nullopt;
    std::vector<std::string> keptDims;
    Shape keptShape;
    std::int64_t n = 1;
    for (int i = 0; i < v.ndim(); ++i) {
        const std::string& d = v.dims()[static_cast<std::size_t>(i)];
        if (std::find(reduced.begin(), reduced.end(), d) != reduced.end()) continue;
        keptDims.push_back(d);
        keptShape.push_back(v.shape()[static_cast<std::size_t>(i)]);
        n *= keptShape.back();
    }
    STRATA_EXPECTS(out->size() == static_cast<std::size_t>(n) * sizeOf(v.dtype()), IoError,
                   v.source()->describe() + ": the reduction computed has " + std::to_string(out->size()) +
                       " bytes, not " + std::to_string(static_cast<std::size_t>(n) * sizeOf(v.dtype())));
    Variable result(keptDims, keptShape, v.dtype(), std::move(*out), labelAttrs(v.attrs()));
    return DataArray(slab.name(), std::move(result), keptCoords(slab, keptDims));
}

} // namespace strata::detail
