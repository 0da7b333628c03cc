#include "grib_cube.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace strata::io::detail {
namespace {

// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil-day count).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + std::int64_t(doe) - 719468;
}

// A hypercube's places (number x time x step x level) at most: a variable holds a message index
// for each.
constexpr std::int64_t kMaxCells = std::int64_t(1) << 24;

bool decreasing(const std::string& typeOfLevel) {
    return typeOfLevel == "isobaricInhPa" || typeOfLevel == "isobaricInPa";
}

std::size_t position(const std::vector<double>& values, double v) {
    return std::size_t(std::find(values.begin(), values.end(), v) - values.begin());
}

// The axes of `list`'s messages: each the sorted union of their values (number only where
// some message has one; levels decreasing for pressure, as cfgrib stores them).
std::vector<GribAxis> axesOf(const std::vector<GribMessage>& messages, const std::vector<std::size_t>& list,
                             const std::string& typeOfLevel) {
    std::set<double> number, time, step, level;
    bool members = false;
    for (std::size_t i : list) members = members || messages[i].member.has_value();
    for (std::size_t i : list) {
        const GribMessage& m = messages[i];
        if (members) number.insert(double(m.member.value_or(0))); // as makeCube places it
        time.insert(gribSeconds(m.dataDate, m.dataTime));
        step.insert(m.stepHours);
        level.insert(m.level);
    }
    std::vector<GribAxis> axes;
    if (members) axes.push_back({"number", {number.begin(), number.end()}});
    axes.push_back({"time", {time.begin(), time.end()}});
    axes.push_back({"step", {step.begin(), step.end()}});
    GribAxis lev{typeOfLevel.empty() ? std::string("level") : typeOfLevel, {level.begin(), level.end()}};
    if (decreasing(typeOfLevel)) std::reverse(lev.values.begin(), lev.values.end());
    axes.push_back(std::move(lev));
    return axes;
}

bool sameAxes(const std::vector<GribAxis>& a, const std::vector<GribAxis>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (a[k].name != b[k].name || a[k].values != b[k].values) return false;
    return true;
}

// The cube of `list`'s messages (one level type, step type and grid; its parameters on the same
// axes): a variable per parameter, a message per cell.
GribCube makeCube(const std::vector<GribMessage>& messages, const std::vector<std::size_t>& list,
                  std::vector<GribAxis> axes) {
    GribCube cube;
    cube.typeOfLevel = messages[list.front()].typeOfLevel;
    cube.stepType = messages[list.front()].stepType;
    cube.first = list.front();
    cube.messages = list;
    cube.axes = std::move(axes);
    std::int64_t cells = 1;
    for (const GribAxis& a : cube.axes) cells *= std::int64_t(a.values.size());
    // The variables, by parameter in order of first message.
    std::map<long, std::size_t> byParam;
    std::set<std::string> names;
    for (std::size_t i : list) {
        const GribMessage& m = messages[i];
        auto [it, added] = byParam.emplace(m.paramId, cube.variables.size());
        if (added) {
            GribCubeVariable v;
            v.paramId = m.paramId;
            v.first = i;
            // cfgrib's name: cfVarName, else shortName, else paramId_<id> (where ecCodes knows
            // neither: "unknown" or "undef").
            const auto known = [](const std::string& n) {
                return !n.empty() && n != "unknown" && n != "undef";
            };
            v.name = known(m.cfVarName)   ? m.cfVarName
                     : known(m.shortName) ? m.shortName
                                          : "paramId_" + std::to_string(m.paramId);
            if (!names.insert(v.name).second) v.name += "_" + std::to_string(m.paramId);
            names.insert(v.name);
            v.fields.assign(std::size_t(cells), -1);
            cube.variables.push_back(std::move(v));
        }
        GribCubeVariable& v = cube.variables[it->second];
        std::int64_t cell = 0;
        for (const GribAxis& a : cube.axes) {
            const double value = a.name == "number" ? double(m.member.value_or(0))
                                 : a.name == "time" ? gribSeconds(m.dataDate, m.dataTime)
                                 : a.name == "step" ? m.stepHours
                                                    : m.level;
            const std::size_t at = position(a.values, value);
            if (at == a.values.size()) { // cannot be: the axes hold every message's values
                cell = -1;
                break;
            }
            cell = cell * std::int64_t(a.values.size()) + std::int64_t(at);
        }
        if (cell < 0) continue;
        if (v.fields[std::size_t(cell)] >= 0)
            v.repeated.push_back(m.span);
        else
            v.fields[std::size_t(cell)] = std::int64_t(i);
    }
    for (GribCubeVariable& var : cube.variables)
        var.missing = std::count(var.fields.begin(), var.fields.end(), std::int64_t(-1));
    return cube;
}

} // namespace

double gribSeconds(long dataDate, long dataTime) {
    const std::int64_t days =
        daysFromCivil(dataDate / 10000, unsigned(dataDate / 100 % 100), unsigned(dataDate % 100));
    return double(days * 86400 + (dataTime / 100) * 3600 + (dataTime % 100) * 60);
}

std::vector<GribCube> buildGribCubes(const std::vector<GribMessage>& messages,
                                     std::vector<std::string>& problems) {
    // Messages by (typeOfLevel, stepType, grid), in that order; grids numbered by first use.
    std::map<std::string, int> gridNumber;
    std::map<std::tuple<std::string, std::string, int>, std::vector<std::size_t>> members;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        const GribMessage& m = messages[i];
        const int grid = gridNumber.emplace(m.gridSignature, int(gridNumber.size())).first->second;
        members[{m.typeOfLevel, m.stepType, grid}].push_back(i);
    }
    std::vector<GribCube> cubes;
    std::map<std::string, int> namesUsed;
    for (const auto& [key, list] : members) {
        // Its parameters, each on its own axes; those on the same axes share a cube (as
        // cfgrib's open_datasets merges datasets whose coordinates agree exactly).
        std::vector<long> params;
        std::map<long, std::vector<std::size_t>> byParam;
        for (std::size_t i : list) {
            auto& l = byParam[messages[i].paramId];
            if (l.empty()) params.push_back(messages[i].paramId);
            l.push_back(i);
        }
        struct Part {
            std::vector<GribAxis> axes;
            std::vector<std::size_t> list;
        };
        std::vector<Part> parts;
        for (long p : params) {
            std::vector<GribAxis> axes = axesOf(messages, byParam[p], std::get<0>(key));
            auto same = std::find_if(parts.begin(), parts.end(),
                                     [&](const Part& q) { return sameAxes(q.axes, axes); });
            if (same == parts.end()) same = parts.insert(parts.end(), Part{std::move(axes), {}});
            same->list.insert(same->list.end(), byParam[p].begin(), byParam[p].end());
        }
        const std::string& level = std::get<0>(key);
        const std::string base = (level.empty() ? std::string("unknown") : level) + "_" +
                                 (std::get<1>(key).empty() ? std::string("unknown") : std::get<1>(key));
        // Parts told apart by a single level of each (2 m and 10 m) are named by it.
        bool byLevel = parts.size() > 1;
        std::set<double> levels;
        for (const Part& q : parts)
            byLevel =
                byLevel && q.axes.back().values.size() == 1 && levels.insert(q.axes.back().values[0]).second;
        for (std::size_t k = 0; k < parts.size(); ++k) {
            std::sort(parts[k].list.begin(), parts[k].list.end());
            double cells = 1; // as a double: a hostile file's axes could overflow an integer
            for (const GribAxis& a : parts[k].axes) cells *= double(a.values.size());
            if (cells > double(kMaxCells)) {
                problems.push_back("the " + std::to_string(parts[k].list.size()) + " messages of " + base +
                                   " lie on " + std::to_string(cells) + " places of their axes (more than " +
                                   std::to_string(kMaxCells) + "); skipped");
                continue;
            }
            GribCube cube = makeCube(messages, parts[k].list, std::move(parts[k].axes));
            std::string name = base;
            if (byLevel) {
                std::ostringstream v;
                v << cube.axes.back().values[0];
                name = (level.empty() ? std::string("unknown") : level) + "_" + v.str() + "_" +
                       (std::get<1>(key).empty() ? std::string("unknown") : std::get<1>(key));
            }
            if (const int n = ++namesUsed[name]; n > 1) name += "_" + std::to_string(n);
            cube.name = std::move(name);
            cubes.push_back(std::move(cube));
        }
    }
    return cubes;
}

} // namespace strata::io::detail
