// Display units through udunits2: the unit database read once, every call under one lock
// (udunits2 is not thread-safe), and conversions reduced to a scale and an offset.
#include "strata/core/units.h"

#include <udunits2.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>

#include "decode.h"
#include "strata/core/error.h"
#include "strata/core/format.h"

namespace strata {
namespace {

struct UnitFree {
    void operator()(ut_unit* u) const { ut_free(u); }
};
struct ConverterFree {
    void operator()(cv_converter* c) const { cv_free(c); }
};
using Unit = std::unique_ptr<ut_unit, UnitFree>;
using Converter = std::unique_ptr<cv_converter, ConverterFree>;

std::mutex& lock() {
    static std::mutex m;
    return m;
}

// The unit database, read on first use (the caller holds the lock). Throws Error when udunits2
// cannot read it.
ut_system* unitSystem() {
    static ut_system* system = [] {
        ut_set_error_message_handler(ut_ignore); // its messages go to stderr; ours name the units
        return ut_read_xml(nullptr);
    }();
    STRATA_EXPECTS(system, Error,
                   "udunits2 cannot read its unit database (Debian's libudunits2-data installs it; "
                   "UDUNITS2_XML_PATH names another)");
    return system;
}

} // namespace

void loadUnitDatabase() {
    const std::lock_guard guard(lock());
    try {
        unitSystem();
    } catch (const Error&) {
        // said again, with the units, by the conversion that needs it
    }
}

namespace {

// Null when udunits2 cannot parse `text`.
Unit parse(const std::string& text) {
    std::string s = text;
    ut_trim(s.data(), UT_UTF8); // "°C" and "µmol mol-1" as well as ASCII
    s.resize(std::char_traits<char>::length(s.c_str()));
    if (s.empty()) return nullptr;
    return Unit(ut_parse(unitSystem(), s.c_str(), UT_UTF8));
}

// The density of liquid water, through which a mass flux (kg m-2 s-1) is a depth rate (mm/day).
constexpr const char* kWater = "1000 kg m-3";
constexpr const char* kWaterWords = "as liquid water, 1000 kg m-3";

// The conversion's scale and offset, when `from` converts to `to` linearly; the caller holds
// the lock.
std::optional<UnitConversion> linear(const ut_unit* from, const ut_unit* to) {
    if (!ut_are_convertible(from, to)) return std::nullopt;
    const Converter cv(ut_get_converter(const_cast<ut_unit*>(from), const_cast<ut_unit*>(to)));
    if (!cv) return std::nullopt;
    UnitConversion c;
    c.offset = cv_convert_double(cv.get(), 0);
    c.scale = cv_convert_double(cv.get(), 1) - c.offset;
    // A logarithmic unit converts, but not as scale · x + offset: refused.
    for (double x : {-1000.0, 7.25, 1e6}) {
        const double want = cv_convert_double(cv.get(), x), got = c.apply(x);
        if (!(std::abs(want - got) <= 1e-9 * std::max(1.0, std::abs(want)))) return std::nullopt;
    }
    if (!(std::isfinite(c.scale) && std::isfinite(c.offset)) || c.scale == 0) return std::nullopt;
    return c;
}

// The conversion, or nullopt with `why` set; the caller holds the lock.
std::optional<UnitConversion> find(const std::string& from, const std::string& to, std::string& why) {
    const Unit a = parse(from), b = parse(to);
    if (!a || !b) {
        why = "udunits2 does not know the units '" + (a ? to : from) + "'";
        return std::nullopt;
    }
    if (auto c = linear(a.get(), b.get())) return c;
    // A mass flux and a depth rate (or a mass per area and a depth), through water's density.
    const Unit water = parse(kWater);
    const Unit depth(ut_divide(a.get(), water.get())), mass(ut_multiply(a.get(), water.get()));
    for (const ut_unit* via : {depth.get(), mass.get()})
        if (via)
            if (auto c = linear(via, b.get())) {
                c->assumption = kWaterWords;
                return c;
            }
    why = "'" + from + "' cannot be shown in '" + to + "': they measure different things";
    return std::nullopt;
}

} // namespace

UnitConversion unitConversion(const std::string& from, const std::string& to) {
    UnitConversion c;
    if (from != to) {
        std::lock_guard guard(lock());
        std::string why;
        std::optional<UnitConversion> found = find(from, to, why);
        STRATA_EXPECTS(found, ValueError, why);
        c = *found;
    }
    c.from = from;
    c.to = to;
    return c;
}

bool convertible(const std::string& from, const std::string& to) {
    if (from == to) return true;
    std::lock_guard guard(lock());
    std::string why;
    return find(from, to, why).has_value();
}

std::vector<std::string> commonUnits(const std::string& units) {
    // What scientists show each quantity in, by the unit that defines it. A quantity is offered
    // when `units` converts to that unit as it is (no water density): a wind in m s-1 gets km/h
    // and knots, not mm/day; a precipitation flux gets mm/day. A depth rate written with mm or
    // day (mm/day, mm/h) is a precipitation too.
    struct Quantity {
        const char* unit;
        std::vector<std::string> shown;
        const char* says = ""; // a ratio is offered only to units that say what it is of
    };
    static const std::vector<Quantity> quantities = {
        {"K", {"K", "degC", "degF"}},
        {"Pa", {"Pa", "hPa", "kPa"}},
        {"kg m-2 s-1", {"kg m-2 s-1", "mm/day", "mm/h"}},
        {"m s-1", {"m s-1", "km/h", "knots"}},
        {"kg m-2", {"kg m-2", "mm"}},
        {"m", {"m", "km", "cm", "mm"}},
        {"kg kg-1", {"kg kg-1", "g kg-1"}, "kg"},
        {"mol mol-1", {"mol mol-1", "ppm", "ppb"}, "mol"},
        {"s", {"s", "min", "h", "day"}},
    };
    std::vector<std::string> out;
    std::lock_guard guard(lock());
    const Unit u = parse(units);
    if (!u) return {};
    out.push_back(units);
    const bool depthRate = units.find("mm") != std::string::npos || units.find("day") != std::string::npos;
    for (const Quantity& q : quantities) {
        const Unit defining = parse(q.unit);
        bool offered = defining && ut_are_convertible(u.get(), defining.get());
        if (std::string(q.unit) == "kg m-2 s-1" && depthRate) {
            const Unit speed = parse("m s-1");
            offered = offered || (speed && ut_are_convertible(u.get(), speed.get()));
        }
        if (std::string(q.unit) == "m s-1" && depthRate) offered = false;
        if (!offered || units.find(q.says) == std::string::npos) continue;
        for (const std::string& c : q.shown) {
            const Unit v = parse(c);
            if (!v || ut_compare(u.get(), v.get()) == 0) continue; // the units themselves
            if (std::find(out.begin(), out.end(), c) != out.end()) continue;
            std::string why;
            if (find(units, c, why)) out.push_back(c);
        }
    }
    return out;
}

std::optional<MinMax> rangeInUnits(MinMax stored, const std::string& storedUnits, const std::string& units) {
    if (units.empty() || units == storedUnits) return stored;
    try {
        const UnitConversion c = unitConversion(storedUnits, units);
        const double a = c.apply(stored.first), b = c.apply(stored.second);
        return MinMax{std::min(a, b), std::max(a, b)};
    } catch (const ValueError&) {
        return std::nullopt;
    }
}

DataArray convertUnits(const DataArray& a, const UnitConversion& c, Stream stream) {
    if (c.identity() && c.from == c.to) return a;
    STRATA_EXPECTS(isNumeric(a.dtype()), ValueError,
                   "'" + a.name() + "' is " + std::string(name(a.dtype())) + ": it has no values to convert");
    const DataArray in = contiguous(a, stream);
    CfEncoding enc;
    enc.packed = a.dtype();
    // Integers (an elevation in m as int16) become floats, as CF unpacking widens them.
    enc.decoded = isFloating(a.dtype())    ? a.dtype()
                  : sizeOf(a.dtype()) <= 2 ? DType::Float32
                                           : DType::Float64;
    enc.scaled = true;
    enc.scale = c.scale;
    enc.offset = c.offset;
    ArrayView view = in.variable().view();
    view.ndim = 1;
    view.shape[0] = in.size();
    view.strides[0] = 1;
    Buffer out = detail::decodeCf(view, enc, a.device(), a.device().isHost() ? Stream::host() : stream);
    Attributes attrs = a.attrs();
    attrs.set(Attribute{"units", DType::Char, c.to});
    return DataArray(a.name(), Variable(a.dims(), a.shape(), enc.decoded, std::move(out), std::move(attrs)),
                     a.coords());
}

UnitConversion conversionAfter(const UnitConversion& c, const std::vector<ReduceOp>& ops,
                               const std::string& variable) {
    UnitConversion out = c;
    for (ReduceOp op : ops) {
        // A count, a variance or an index has no units left: shown as it is from here on.
        if (op == ReduceOp::Count || op == ReduceOp::Var || op == ReduceOp::ArgMin ||
            op == ReduceOp::ArgMax) {
            UnitConversion none;
            none.from = none.to = c.from;
            return none;
        }
        if (op == ReduceOp::Std) out.offset = 0;
        STRATA_EXPECTS(!(op == ReduceOp::Sum && out.offset != 0), ValueError,
                       "a sum of '" + variable + "' cannot be shown in " + c.to + ": converting from " +
                           c.from + " adds an offset (" + formatNumber(c.offset) +
                           "), which a sum has no meaning with");
    }
    return out;
}

} // namespace strata
