#pragma once
// netCDF attributes: an ordered list of named values (text or numbers of a netCDF type).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "strata/core/dtype.h"

namespace strata {

struct Attribute {
    std::string name;
    DType type = DType::Char; // Char/String for text; a numeric type otherwise
    // Text, or the values: integers of up to 64 bits kept exactly, floats as doubles.
    std::variant<std::string, std::vector<std::int64_t>, std::vector<std::uint64_t>, std::vector<double>>
        value;

    bool isText() const { return std::holds_alternative<std::string>(value); }
    std::size_t length() const;          // characters for text, values otherwise
    std::string text() const;            // the text, or the values printed "1, 2, 3"
    std::vector<double> numbers() const; // values as doubles (empty for text)
};

class Attributes {
public:
    void set(Attribute a); // replaces an attribute of the same name
    const Attribute* find(std::string_view name) const;
    bool contains(std::string_view name) const { return find(name) != nullptr; }
    // Text of a text attribute; nullopt if absent or not text.
    std::optional<std::string> text(std::string_view name) const;
    // The single number of a numeric attribute of length 1; nullopt if absent, text or longer.
    std::optional<double> number(std::string_view name) const;
    bool erase(std::string_view name);

    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }
    std::size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }

private:
    std::vector<Attribute> items_;
};

} // namespace strata
