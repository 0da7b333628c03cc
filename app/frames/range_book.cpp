#include "range_book.h"

#include <algorithm>

#include "strata/core/units.h"

namespace strata::app {

std::optional<MinMax> RangeBook::variableRange(const VariableKey& key, const std::string& units) const {
    for (const Known& k : variables_)
        if (k.key == key) return rangeInUnits(k.range, k.units, units);
    return std::nullopt;
}

void RangeBook::setVariableRange(const VariableKey& key, MinMax range, std::string storedUnits) {
    variables_.remove_if([&](const Known& k) { return k.key == key; });
    variables_.push_front({key, range, std::move(storedUnits)});
}

bool RangeBook::takesFrameTable(const FrameSpec& spec) {
    return !spec.yDim.empty() && spec.reductions.empty();
}

bool RangeBook::matches(const FrameSpec& spec) const {
    return frames_ && frames_->variable == variableKeyOf(spec) && frames_->xDim == spec.xDim &&
           frames_->yDim == spec.yDim;
}

bool RangeBook::hasFrameTable(const FrameSpec& spec) const { return matches(spec); }

bool RangeBook::setFrameTable(const FrameSpec& spec, std::shared_ptr<const FrameRanges> table,
                              std::uint64_t generation, std::string storedUnits) {
    if (generation != generation_) return false;
    frames_ = FrameTable{variableKeyOf(spec), spec.xDim, spec.yDim, std::move(table), std::move(storedUnits)};
    return true;
}

std::optional<MinMax> RangeBook::frameRange(const FrameSpec& spec) const {
    if (!takesFrameTable(spec) || !matches(spec) || !frames_->table) return std::nullopt;
    const std::optional<MinMax> stored = frames_->table->at(spec.indices);
    if (!stored) return std::nullopt;
    return rangeInUnits(*stored, frames_->units, spec.units);
}

void RangeBook::clear() {
    variables_.clear();
    frames_.reset();
    ++generation_;
}

} // namespace strata::app
