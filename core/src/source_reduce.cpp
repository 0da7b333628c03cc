#include "source_reduce.h"

#include <algorithm>
#include <memory>

#include "ops_common.h"
#include "strata/core/area.h"
#include "strata/core/data_source.h"
#include "strata/core/error.h"
#include "strata/core/ops.h"
#include "strata/core/weighted_reduce_source.h"

namespace strata {

WeightedReduceSource::~WeightedReduceSource() = default; // its key function: one typeinfo

namespace detail {
namespace {

bool reducibleAtSource(ReduceOp op) {
    return op == ReduceOp::Sum || op == ReduceOp::Mean || op == ReduceOp::Min || op == ReduceOp::Max ||
           op == ReduceOp::Std;
}

// spec.reductions as the steps of a WeightedReduceSource: each op over its dim, and the means of
// the area-weighted mean as one step where the first of them is (as applyReductions does), with
// the weights Strata would use (areaWeights: cell areas or cos(latitude)) over the slab's box.
std::vector<WeightedReduceSource::Step> stepsOf(const DataArray& slab, const FrameSpec& spec,
                                                const std::vector<std::string>& areaDims) {
    const Variable& v = slab.variable();
    auto sourceAxisOf = [&](const std::string& dim) { return v.sourceAxis()[std::size_t(v.axis(dim))]; };
    std::vector<WeightedReduceSource::Step> steps;
    bool weighted = false;
    for (const auto& [dim, op] : spec.reductions) {
        if (op != ReduceOp::Mean || areaDims.empty()) {
            steps.push_back({{sourceAxisOf(dim)}, op, nullptr, {}});
            continue;
        }
        if (weighted) continue; // in the first mean's step
        weighted = true;
        const DataArray w = areaWeights(slab, areaDims, Device::host(), Stream::host()).weights;
        WeightedReduceSource::Step step{{}, ReduceOp::Mean, nullptr, {}};
        for (const std::string& d : areaDims) step.axes.push_back(sourceAxisOf(d));
        std::sort(step.axes.begin(), step.axes.end());
        std::vector<std::string> order = w.dims(); // the weights in source order
        std::sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
            return sourceAxisOf(a) < sourceAxisOf(b);
        });
        step.weightShape.assign(v.sourceCount().size(), 1);
        for (const std::string& d : order) step.weightShape[std::size_t(sourceAxisOf(d))] = w.sizeOf(d);
        step.weights = std::make_shared<const std::vector<double>>(w.transpose(order).values<double>());
        steps.push_back(std::move(step));
    }
    return steps;
}

} // namespace

std::optional<DataArray> reduceAtSource(const DataArray& slab, const FrameSpec& spec, Device device,
                                        Stream stream) {
    const Variable& v = slab.variable();
    if (spec.reductions.empty() || v.isLoaded() || !v.source() || !isFloating(v.dtype()) ||
        !v.encoding().isIdentity())
        return std::nullopt;
    const std::vector<int>& axes = v.sourceAxis();
    if (!std::is_sorted(axes.begin(), axes.end())) return std::nullopt; // a transposed view
    std::vector<std::string> reduced;
    for (const auto& [dim, op] : spec.reductions) {
        if (!reducibleAtSource(op)) return std::nullopt;
        reduced.push_back(dim);
    }
    const std::vector<std::string> areaDims = spec.areaMeanDims();
    std::optional<Buffer> out;
    if (areaDims.empty()) {
        std::vector<DataSource::Reduction> reductions;
        for (const auto& [dim, op] : spec.reductions)
            reductions.push_back({axes[static_cast<std::size_t>(v.axis(dim))], op});
        out = v.source()->reduceBox(v.sourceStart(), v.sourceCount(), v.sourceStep(), reductions, device,
                                    stream);
    } else {
        const auto* weighing = dynamic_cast<const WeightedReduceSource*>(v.source().get());
        if (!weighing) return std::nullopt;
        const std::vector<WeightedReduceSource::Step> steps = stepsOf(slab, spec, areaDims);
        out =
            weighing->reduceBoxSteps(v.sourceStart(), v.sourceCount(), v.sourceStep(), steps, device, stream);
    }
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
    const std::string name = areaDims.empty() ? slab.name() : slab.name() + " (area-weighted mean)";
    return DataArray(name, std::move(result), keptCoords(slab, keptDims));
}

} // namespace detail
} // namespace strata
