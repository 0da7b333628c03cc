// CfEncoding::fromAttributes: masking and packing attributes read leniently, problems named.
#include <cmath>
#include <limits>
#include <string>

#include "strata/core/cf.h"
#include "strata/core/format.h"

namespace strata {
namespace {

void addProblem(std::string& problems, const std::string& p) {
    if (!problems.empty()) problems += "; ";
    problems += p;
}

std::string quoted(const std::string& text) {
    constexpr std::size_t kMax = 40;
    return "\"" + (text.size() > kMax ? text.substr(0, kMax) + "..." : text) + "\"";
}

// The numbers of attribute `name`, or nullopt (with a problem) when it is text or empty.
std::optional<std::vector<double>> numbersOf(const Attributes& attrs, const char* name,
                                             std::string& problems) {
    const Attribute* a = attrs.find(name);
    if (!a) return std::nullopt;
    if (a->isText()) {
        addProblem(problems,
                   std::string("attribute '") + name + "' is text (" + quoted(a->text()) + "), not a number");
        return std::nullopt;
    }
    std::vector<double> values = a->numbers();
    if (values.empty()) {
        addProblem(problems, std::string("attribute '") + name + "' has no values");
        return std::nullopt;
    }
    return values;
}

// The one number of attribute `name`, or nullopt (with a problem when it is not one number).
std::optional<double> numberOf(const Attributes& attrs, const char* name, std::string& problems) {
    auto values = numbersOf(attrs, name, problems);
    if (!values) return std::nullopt;
    if (values->size() != 1) {
        addProblem(problems, std::string("attribute '") + name + "' has " + std::to_string(values->size()) +
                                 " values, expected one");
        return std::nullopt;
    }
    return values->front();
}

template <class T> bool representableAs(double v) {
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(v)) return true;
        return std::fabs(v) <= static_cast<double>(std::numeric_limits<T>::max());
    } else {
        if (!std::isfinite(v) || v != std::floor(v)) return false;
        // Compare against the bounds as doubles; the upper one of 64-bit types rounds up to 2^63/2^64.
        const auto lo = static_cast<double>(std::numeric_limits<T>::lowest());
        const auto hi = static_cast<double>(std::numeric_limits<T>::max());
        return v >= lo && (sizeof(T) < 8 ? v <= hi : v < hi);
    }
}

// A masking value converted to the stored type (as the stored values will compare), or
// nullopt with a problem when it cannot be represented there.
std::optional<double> asStored(double v, DType packed, const char* attr, std::string& problems) {
    std::optional<double> out;
    visitNumeric(packed, [&](auto tag) {
        using T = decltype(tag);
        if (representableAs<T>(v)) out = static_cast<double>(static_cast<T>(v));
    });
    if (!out)
        addProblem(problems, std::string("attribute '") + attr + "' value " + formatNumber(v) +
                                 " cannot be represented in the variable's type " +
                                 std::string(name(packed)));
    return out;
}

DType floatingTypeOf(const Attribute* a, DType packed) {
    if (a && a->type == DType::Float64) return DType::Float64;
    if (a && a->type == DType::Float32) return DType::Float32;
    // An integer (or absent) scale: float32 suffices for small packed integers.
    return sizeOf(packed) <= 2 && packed != DType::Float64 ? DType::Float32 : DType::Float64;
}

} // namespace

CfEncoding CfEncoding::fromAttributes(const Attributes& attrs, DType packed) {
    CfEncoding e;
    e.packed = packed;
    e.decoded = packed;
    if (!isNumeric(packed)) return e; // char and string data are not decoded

    for (const char* attr : {"_FillValue", "missing_value"}) {
        const auto values = numbersOf(attrs, attr, e.problem);
        if (!values) continue;
        for (double v : *values) {
            const auto stored = asStored(v, packed, attr, e.problem);
            if (!stored) continue;
            bool seen = false;
            for (double f : e.fillValues)
                seen = seen || f == *stored || (std::isnan(f) && std::isnan(*stored));
            if (!seen) e.fillValues.push_back(*stored);
        }
    }

    if (const auto range = numbersOf(attrs, "valid_range", e.problem)) {
        if (range->size() != 2)
            addProblem(e.problem, "attribute 'valid_range' has " + std::to_string(range->size()) +
                                      " values, expected two (min, max)");
        else if ((*range)[0] > (*range)[1])
            addProblem(e.problem, "attribute 'valid_range' is reversed (" + formatNumber((*range)[0]) +
                                      " > " + formatNumber((*range)[1]) + ")");
        else {
            e.validMin = (*range)[0];
            e.validMax = (*range)[1];
        }
    }
    if (const auto lo = numberOf(attrs, "valid_min", e.problem)) e.validMin = *lo;
    if (const auto hi = numberOf(attrs, "valid_max", e.problem)) e.validMax = *hi;

    const auto scale = numberOf(attrs, "scale_factor", e.problem);
    const auto offset = numberOf(attrs, "add_offset", e.problem);
    if (scale) e.scale = *scale;
    if (offset) e.offset = *offset;
    e.scaled = attrs.contains("scale_factor") || attrs.contains("add_offset");
    if (scale && !std::isfinite(*scale))
        addProblem(e.problem,
                   "attribute 'scale_factor' is " + formatNumber(*scale) + ", not a finite number");
    if (offset && !std::isfinite(*offset))
        addProblem(e.problem, "attribute 'add_offset' is " + formatNumber(*offset) + ", not a finite number");

    const bool masked = !e.fillValues.empty() || e.validMin || e.validMax;
    if (e.scaled) {
        const DType s = floatingTypeOf(attrs.find(scale ? "scale_factor" : "add_offset"), packed);
        const DType o = offset && scale ? floatingTypeOf(attrs.find("add_offset"), packed) : s;
        e.decoded = (s == DType::Float64 || o == DType::Float64 || packed == DType::Float64) ? DType::Float64
                                                                                             : DType::Float32;
    } else if (masked && !isFloating(packed)) {
        e.decoded = sizeOf(packed) <= 2 ? DType::Float32 : DType::Float64;
    }
    return e;
}

} // namespace strata
