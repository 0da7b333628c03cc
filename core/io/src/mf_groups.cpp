// Members of a file set checked against each other, and parted into the groups that agree.
#include "mf_groups.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "nc_call.h"
#include "strata/core/cftime.h"
#include "strata/core/error.h"
#include "strata/core/format.h"

namespace strata::io::detail {
namespace {

std::string dimsText(const std::vector<std::string>& dims) {
    std::string s = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i];
    return s + ")";
}

bool close(double a, double b) {
    if (a == b || (std::isnan(a) && std::isnan(b))) return true;
    return std::fabs(a - b) <= 1e-6 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

std::string pairOf(const MemberSummary& a, const MemberSummary& b) {
    return fileName(a.path) + " and " + fileName(b.path);
}

// A group being formed: its members, the record dim and axis its first member gives, and the
// span each member covers on that axis (kept apart, so a new member's neighbours tell whether
// it overlaps one).
struct Group {
    std::vector<const MemberSummary*> members;
    std::string rec;
    const MemberCoordinate* axis = nullptr; // the first member's record coordinate; null: none
    std::optional<TimeUnits> units;         // the axis' time units, when it is time
    Calendar calendar = Calendar::Standard;
    std::map<double, std::pair<double, const MemberSummary*>> spans; // first value → (last, member)

    std::string valueText(double v) const {
        if (units) {
            try {
                return decodeTime(v, *units, calendar).iso(true);
            } catch (const Error&) {
                // a date out of the calendar's range: the number
            }
        }
        return formatNumber(v);
    }
};

Calendar calendarOf(const MemberCoordinate& c) {
    return parseCalendar(c.calendar.empty() ? "standard" : c.calendar);
}

// `m`'s record values on the group's axis (empty: none), or why they cannot be put there.
std::string onAxis(const Group& g, const MemberSummary& m, std::vector<double>& values) {
    values.clear();
    if (!g.axis) return {};
    const MemberSummary& f = *g.members.front();
    const std::string pair = pairOf(f, m);
    const MemberCoordinate* c = m.findCoord(g.rec);
    if (!c) return "cannot combine " + pair + ": the second has no coordinate variable '" + g.rec + "'";
    if (!g.units) {
        if (c->units != g.axis->units)
            return "cannot combine " + pair + ": '" + g.rec + "' is in '" + g.axis->units +
                   "' in the first and '" + c->units + "' in the second";
        values = c->values;
    } else {
        if (!isTimeUnits(c->units))
            return "cannot combine " + pair + ": '" + g.rec + "' has time units '" + g.axis->units +
                   "' in the first and '" + c->units + "' in the second";
        try {
            const Calendar mine = calendarOf(*c);
            if (mine != g.calendar)
                return "cannot combine " + pair + ": they use different calendars ('" +
                       std::string(name(g.calendar)) + "' and '" + std::string(name(mine)) +
                       "'); dates of different calendars cannot share one time axis";
            const TimeUnits u = parseTimeUnits(c->units);
            for (double v : c->values) {
                if (!std::isfinite(v)) return fileName(m.path) + ": a value of '" + g.rec + "' is missing";
                values.push_back(
                    c->units == g.axis->units ? v : encodeTime(decodeTime(v, u, mine), *g.units, mine));
            }
        } catch (const Error& e) {
            return "cannot combine " + pair + ": " + e.what();
        }
    }
    return {};
}

// Why `m` cannot join `g` (its values on the axis left in `values`); empty when it can.
std::string joinProblem(const Group& g, const MemberSummary& m, std::vector<double>& values) {
    const MemberSummary& f = *g.members.front();
    const std::string pair = pairOf(f, m);
    if (g.rec.empty())
        return "cannot combine " + pair + ": " + fileName(f.path) +
               " has no unlimited dim and no CF time coordinate to combine them along";
    if (!m.findDim(g.rec))
        return "cannot combine " + pair + ": the second has no dim '" + g.rec + "' to combine along";
    if (std::string why = gridMismatch(f, m, g.rec); !why.empty()) return why;
    if (std::string why = onAxis(g, m, values); !why.empty()) return why;
    if (values.empty()) return {};
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    // The spans kept do not overlap: only the ones either side of `lo` may overlap this one.
    auto after = g.spans.lower_bound(*lo);
    std::optional<std::pair<double, std::pair<double, const MemberSummary*>>> hit;
    if (after != g.spans.end() && after->first <= *hi) hit = *after;
    if (!hit && after != g.spans.begin() && std::prev(after)->second.first >= *lo) hit = *std::prev(after);
    if (!hit) return {};
    const MemberSummary& other = *hit->second.second;
    return "cannot combine " + pairOf(other, m) + ": they overlap along '" + g.rec + "' (the first spans " +
           g.valueText(hit->first) + " to " + g.valueText(hit->second.first) + ", the second " +
           g.valueText(*lo) + " to " + g.valueText(*hi) + ")";
}

// The names of `m`'s variables along `rec` (but the record coordinate): what it holds of a set.
std::vector<std::string> recordVariables(const MemberSummary& m, const std::string& rec) {
    std::vector<std::string> out;
    for (const auto& v : m.variables)
        if (v.name != rec && std::find(v.dims.begin(), v.dims.end(), rec) != v.dims.end())
            out.push_back(v.name);
    std::sort(out.begin(), out.end());
    return out;
}

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

void addSpan(Group& g, const MemberSummary& m, const std::vector<double>& values) {
    if (values.empty()) return;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    g.spans[*lo] = {*hi, &m};
}

void add(Group& g, const MemberSummary& m, const std::vector<double>& values) {
    g.members.push_back(&m);
    addSpan(g, m, values);
}

// A group begun by `m`, holding it: its record dim and axis are m's.
Group begin(const MemberSummary& m) {
    Group g;
    g.members = {&m};
    g.rec = recordDimOf(m);
    if (!g.rec.empty()) g.axis = m.findCoord(g.rec);
    if (g.axis && isTimeUnits(g.axis->units)) {
        try {
            g.units = parseTimeUnits(g.axis->units);
            g.calendar = calendarOf(*g.axis);
        } catch (const Error&) {
            g.units.reset(); // compared as plain numbers in units written alike
        }
    }
    std::vector<double> values;
    onAxis(g, m, values); // its own values on its own axis
    addSpan(g, m, values);
    return g;
}

} // namespace

std::string recordDimOf(const MemberSummary& m) {
    for (const Dimension& d : m.dims)
        if (d.unlimited) return d.name;
    for (const auto& c : m.coords)
        if (isTimeUnits(c.units)) return c.name;
    return {};
}

std::string gridMismatch(const MemberSummary& f, const MemberSummary& m, const std::string& rec) {
    const std::string pair = pairOf(f, m);
    for (const Dimension& d : f.dims) {
        if (d.name == rec) continue;
        const Dimension* o = m.findDim(d.name);
        if (o && o->length != d.length)
            return "cannot combine " + pair + ": dim '" + d.name + "' has " + std::to_string(d.length) +
                   " values in " + fileName(f.path) + " and " + std::to_string(o->length) + " in " +
                   fileName(m.path);
    }
    for (const auto& c : f.coords) {
        if (c.name == rec) continue;
        const auto* o = m.findCoord(c.name);
        if (!o || o->values.size() != c.values.size()) continue;
        for (std::size_t i = 0; i < c.values.size(); ++i)
            if (!close(c.values[i], o->values[i]))
                return "cannot combine " + pair + ": coordinate '" + c.name + "' differs at index " +
                       std::to_string(i) + " (" + formatNumber(c.values[i]) + " in " + fileName(f.path) +
                       ", " + formatNumber(o->values[i]) + " in " + fileName(m.path) + ")";
    }
    for (const auto& v : f.variables) {
        const auto* o = m.findVariable(v.name);
        if (!o) continue;
        if (o->dims != v.dims)
            return "cannot combine " + pair + ": variable '" + v.name + "' has dims " + dimsText(v.dims) +
                   " in " + fileName(f.path) + " and " + dimsText(o->dims) + " in " + fileName(m.path);
        if (o->stored != v.stored)
            return "cannot combine " + pair + ": variable '" + v.name + "' is stored as " +
                   std::string(name(v.stored)) + " in " + fileName(f.path) + " and as " +
                   std::string(name(o->stored)) + " in " + fileName(m.path);
        if (o->encoding != v.encoding)
            return "cannot combine " + pair + ": variable '" + v.name +
                   "' is encoded differently (_FillValue, missing_value, valid range, scale_factor or "
                   "add_offset differ)";
    }
    return {};
}

FileGrouping groupMembers(const std::vector<const MemberSummary*>& members) {
    std::vector<Group> groups;
    std::vector<double> values;
    for (const MemberSummary* member : members) {
        const MemberSummary& m = *member;
        // The first group it agrees with; before that, one whose files hold the same variables
        // (a member of "tas" files joins them rather than "pr" files at other times).
        Group* joined = nullptr;
        std::vector<double> joinedValues;
        for (Group& g : groups) {
            if (!joinProblem(g, m, values).empty()) continue;
            const bool same = recordVariables(*g.members.front(), g.rec) == recordVariables(m, g.rec);
            if (!joined || same) {
                joined = &g;
                joinedValues = values;
            }
            if (same) break;
        }
        if (joined) {
            add(*joined, m, joinedValues);
        } else {
            groups.push_back(begin(m));
        }
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const Group& a, const Group& b) { return a.members.size() > b.members.size(); });
    FileGrouping out;
    for (const Group& g : groups) {
        FileGroup fg;
        fg.along = g.rec;
        for (const MemberSummary* m : g.members) fg.files.push_back(m->path);
        out.groups.push_back(std::move(fg));
    }
    for (std::size_t i = 1; i < groups.size(); ++i)
        for (const MemberSummary* m : groups[i].members) {
            std::string why = joinProblem(groups.front(), *m, values);
            if (why.empty()) // it would join, but joined files of its own variables
                why = fileName(m->path) + ": holds " + listed(recordVariables(*m, groups[i].rec)) + ", not " +
                      listed(recordVariables(*groups.front().members.front(), groups.front().rec)) +
                      ": grouped with " + fileName(groups[i].members.front()->path);
            out.conflicts.push_back(std::move(why));
        }
    return out;
}

} // namespace strata::io::detail
