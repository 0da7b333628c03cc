#include "strata/core/attributes.h"

#include "strata/core/format.h"

namespace strata {

std::size_t Attribute::length() const {
    return std::visit([](const auto& v) { return v.size(); }, value);
}

std::string Attribute::text() const {
    if (const auto* s = std::get_if<std::string>(&value)) return *s;
    std::string out;
    std::visit(
        [&](const auto& values) {
            using V = std::decay_t<decltype(values)>;
            if constexpr (!std::is_same_v<V, std::string>) {
                for (std::size_t i = 0; i < values.size(); ++i) {
                    if (i) out += ", ";
                    if (type == DType::Float32)
                        out += formatNumber(static_cast<float>(values[i]));
                    else
                        out += formatNumber(values[i]);
                }
            }
        },
        value);
    return out;
}

std::vector<double> Attribute::numbers() const {
    std::vector<double> out;
    std::visit(
        [&](const auto& values) {
            using V = std::decay_t<decltype(values)>;
            if constexpr (!std::is_same_v<V, std::string>)
                for (auto x : values) out.push_back(static_cast<double>(x));
        },
        value);
    return out;
}

void Attributes::set(Attribute a) {
    for (auto& item : items_)
        if (item.name == a.name) {
            item = std::move(a);
            return;
        }
    items_.push_back(std::move(a));
}

const Attribute* Attributes::find(std::string_view name) const {
    for (const auto& item : items_)
        if (item.name == name) return &item;
    return nullptr;
}

std::optional<std::string> Attributes::text(std::string_view name) const {
    const Attribute* a = find(name);
    if (!a || !a->isText()) return std::nullopt;
    return a->text();
}

std::optional<double> Attributes::number(std::string_view name) const {
    const Attribute* a = find(name);
    if (!a || a->isText() || a->length() != 1) return std::nullopt;
    return a->numbers().front();
}

bool Attributes::erase(std::string_view name) {
    for (auto it = items_.begin(); it != items_.end(); ++it)
        if (it->name == name) {
            items_.erase(it);
            return true;
        }
    return false;
}

} // namespace strata
