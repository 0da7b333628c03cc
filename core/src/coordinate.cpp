#include "strata/core/coordinate.h"

#include <cmath>

#include "strata/core/format.h"

namespace strata {

std::string Coordinate::label(std::int64_t i) const {
    if (i < 0 || i >= static_cast<std::int64_t>(values.size())) return {};
    const ValueFormat f = valueFormat();
    if (time && i < static_cast<std::int64_t>(time->dates.size())) return f.date(time->dates[i]);
    return f.number(values[i]);
}

std::string Coordinate::labelWithUnits(std::int64_t i) const {
    if (i < 0 || i >= static_cast<std::int64_t>(values.size())) return {};
    const ValueFormat f = valueFormat();
    if (time && i < static_cast<std::int64_t>(time->dates.size())) return f.date(time->dates[i]);
    return f.numberWithUnits(values[i]);
}

std::string Coordinate::text(std::int64_t i) const {
    if (i < 0 || i >= static_cast<std::int64_t>(values.size()) || std::isnan(values[i])) return {};
    if (time && i < static_cast<std::int64_t>(time->dates.size())) return time->dates[i].iso(false);
    return dtype == DType::Float32 ? formatNumber(static_cast<float>(values[i])) : formatNumber(values[i]);
}

void Coordinates::set(Coordinate c) {
    if (!c.format) c.format = valueFormatOf(c);
    for (auto& item : items_)
        if (item.name == c.name) {
            item = std::move(c);
            return;
        }
    items_.push_back(std::move(c));
}

const Coordinate* Coordinates::find(std::string_view name) const {
    for (const auto& item : items_)
        if (item.name == name) return &item;
    return nullptr;
}

} // namespace strata
