// CfEncoding::fromAttributes: masking and packing attributes read leniently; masking values
// that cannot be used are ignored with a warning, packing that cannot be honoured is a problem.
#include <algorithm>
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

// The numbers of attribute `name`: nullopt when it is absent, or (with `why`) when it is text
// or empty.
std::optional<std::vector<double>> numbersOf(const Attributes& attrs, const char* name, std::string& why) {
    const Attribute* a = attrs.find(name);
    if (!a) return std::nullopt;
    if (a->isText()) {
        why = std::string("attribute '") + name + "' is text (" + quoted(a->text()) + "), not a number";
        return std::nullopt;
    }
    std::vector<double> values = a->numbers();
    if (values.empty()) {
        why = std::string("attribute '") + name + "' has no values";
        return std::nullopt;
    }
    return values;
}

// The one number of attribute `name`: nullopt when it is absent, or (with `why`) when it is
// not one number.
std::optional<double> numberOf(const Attributes& attrs, const char* name, std::string& why) {
    auto values = numbersOf(attrs, name, why);
    if (!values) return std::nullopt;
    if (values->size() != 1) {
        why = std::string("attribute '") + name + "' has " + std::to_string(values->size()) +
              " values, expected one";
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

// A fill value converted to the stored type (as the stored values will compare), or nullopt
// when it cannot be represented there (NaN or a fraction in an integer type, a value out of
// the type's range).
std::optional<double> asStored(double v, DType packed) {
    std::optional<double> out;
    visitNumeric(packed, [&](auto tag) {
        using T = decltype(tag);
        if (representableAs<T>(v)) out = static_cast<double>(static_cast<T>(v));
    });
    return out;
}

// An attribute's value as ncdump writes it ("NaN", "1e+20").
std::string valueText(double v) { return std::isnan(v) ? "NaN" : formatNumber(v); }

void warn(CfEncoding& e, const char* attr, const std::string& text, const char* outcome = "ignored") {
    e.warnings.push_back({attr, text + "; " + outcome});
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

    // Fill values the stored type cannot hold are ignored, as xarray does, though it says
    // nothing: it drops NaN fill values, and compares the others (1e20 on shorts, even text)
    // with the data, which never equal them. Such a non-NaN value still makes xarray's decoded
    // type floating (`promotes`); so here.
    bool promotes = false;
    constexpr const char* kAsXarray = "ignored, as xarray does";
    for (const char* attr : {"_FillValue", "missing_value"}) {
        std::string why;
        const auto values = numbersOf(attrs, attr, why);
        if (!why.empty()) {
            warn(e, attr, why, kAsXarray);
            promotes = promotes || attrs.find(attr)->isText();
        }
        if (!values) continue;
        std::vector<double> unfit; // named once per attribute, however long it is
        for (double v : *values) {
            const auto stored = asStored(v, packed);
            if (!stored) {
                unfit.push_back(v);
                promotes = promotes || !std::isnan(v);
                continue;
            }
            bool seen = false;
            for (double f : e.fillValues)
                seen = seen || f == *stored || (std::isnan(f) && std::isnan(*stored));
            if (!seen) e.fillValues.push_back(*stored);
        }
        if (!unfit.empty())
            warn(e, attr,
                 std::string("attribute '") + attr + "' value " + valueText(unfit[0]) +
                     (unfit.size() > 1 ? " (and " + std::to_string(unfit.size() - 1) + " more)" : "") +
                     " cannot be represented in " + std::string(name(packed)),
                 kAsXarray);
    }

    // Valid ranges (which xarray does not apply at all): a bound that is text, empty or NaN
    // compares with nothing and is ignored; a range of the wrong shape is a problem.
    auto bounds = [&](const char* attr, std::size_t expected) -> std::optional<std::vector<double>> {
        std::string why;
        auto values = numbersOf(attrs, attr, why);
        if (!why.empty()) warn(e, attr, why);
        if (!values) return std::nullopt;
        if (values->size() != expected) {
            addProblem(e.problem, std::string("attribute '") + attr + "' has " +
                                      std::to_string(values->size()) + " values, expected " +
                                      (expected == 1 ? "one" : "two (min, max)"));
            return std::nullopt;
        }
        if (std::any_of(values->begin(), values->end(), [](double v) { return std::isnan(v); })) {
            warn(e, attr,
                 std::string("attribute '") + attr + "' value NaN cannot be compared with " +
                     std::string(name(packed)) + " values");
            return std::nullopt;
        }
        return values;
    };
    if (const auto range = bounds("valid_range", 2)) {
        if ((*range)[0] > (*range)[1])
            addProblem(e.problem, "attribute 'valid_range' is reversed (" + formatNumber((*range)[0]) +
                                      " > " + formatNumber((*range)[1]) + ")");
        else {
            e.validMin = (*range)[0];
            e.validMax = (*range)[1];
        }
    }
    if (const auto lo = bounds("valid_min", 1)) e.validMin = lo->front();
    if (const auto hi = bounds("valid_max", 1)) e.validMax = hi->front();

    // Packing: anything wrong here leaves no decoded value to give, so it is a problem.
    std::string why;
    const auto scale = numberOf(attrs, "scale_factor", why);
    if (!why.empty()) addProblem(e.problem, why);
    why.clear();
    const auto offset = numberOf(attrs, "add_offset", why);
    if (!why.empty()) addProblem(e.problem, why);
    if (scale) e.scale = *scale;
    if (offset) e.offset = *offset;
    e.scaled = attrs.contains("scale_factor") || attrs.contains("add_offset");
    if (scale && !std::isfinite(*scale))
        addProblem(e.problem,
                   "attribute 'scale_factor' is " + formatNumber(*scale) + ", not a finite number");
    if (offset && !std::isfinite(*offset))
        addProblem(e.problem, "attribute 'add_offset' is " + formatNumber(*offset) + ", not a finite number");

    const bool masked = !e.fillValues.empty() || e.validMin || e.validMax || promotes;
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
