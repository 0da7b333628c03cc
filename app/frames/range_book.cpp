#include "range_book.h"

namespace strata::app {

std::optional<MinMax> RangeBook::variableRange(const VariableKey& key) const {
    for (const auto& [k, r] : variables_)
        if (k == key) return r;
    return std::nullopt;
}

void RangeBook::setVariableRange(const VariableKey& key, MinMax range) {
    variables_.remove_if([&](const auto& entry) { return entry.first == key; });
    variables_.emplace_front(key, range);
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
                              std::uint64_t generation) {
    if (generation != generation_) return false;
    frames_ = FrameTable{variableKeyOf(spec), spec.xDim, spec.yDim, std::move(table)};
    return true;
}

std::optional<MinMax> RangeBook::frameRange(const FrameSpec& spec) const {
    if (!takesFrameTable(spec) || !matches(spec) || !frames_->table) return std::nullopt;
    return frames_->table->at(spec.indices);
}

void RangeBook::clear() {
    variables_.clear();
    frames_.reset();
    ++generation_;
}

} // namespace strata::app
