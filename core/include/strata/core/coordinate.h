#pragma once
// Coordinates live on the host: index coordinates (1-D, named after their dim) and auxiliary
// ones (e.g. 2-D latitude/longitude named by a `coordinates` attribute). Time coordinates
// carry their decoded dates.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/core/attributes.h"
#include "strata/core/cftime.h"
#include "strata/core/dtype.h"
#include "strata/core/value_format.h"

namespace strata {

struct TimeAxis {
    TimeUnits units;
    Calendar calendar = Calendar::Standard;
    std::vector<DateTime> dates; // one per value
};

struct Coordinate {
    std::string name;
    std::vector<std::string> dims;
    std::vector<std::int64_t> shape;
    std::vector<double> values;   // decoded (masked → NaN, unpacked), C order
    DType dtype = DType::Float64; // the decoded type: values print in its shortest form
    Attributes attrs;
    std::optional<TimeAxis> time; // when units are "<unit> since <date>"
    std::string problem;          // set when the values could not be decoded (e.g. bad units): why
    // How its values read, decided from the whole axis when it joins a Coordinates (a slice
    // keeps its axis's format, so one time step reads as the axis does); see value_format.h.
    std::optional<ValueFormat> format;

    bool isIndex() const { return dims.size() == 1 && dims[0] == name; }
    // The label of value i in the axis's format: "2005-01-16", "0.93°N", "850".
    std::string label(std::int64_t i) const;
    // label(i) and the units for numbers other than angles: "850 hPa".
    std::string labelWithUnits(std::int64_t i) const;
    // The format in use: `format`, else one decided from these values.
    ValueFormat valueFormat() const { return format ? *format : valueFormatOf(*this); }
    // Value i as stored, for CSV: the number in its dtype's shortest form ("" for NaN), or the
    // ISO 8601 date-time for time coordinates.
    std::string text(std::int64_t i) const;
};

class Coordinates {
public:
    void set(Coordinate c); // replaces one of the same name; decides its format when unset
    const Coordinate* find(std::string_view name) const;
    bool contains(std::string_view name) const { return find(name) != nullptr; }
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }
    std::size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }

private:
    std::vector<Coordinate> items_;
};

} // namespace strata
