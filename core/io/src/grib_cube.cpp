#include "grib_cube.h"

#include <algorithm>
#include <map>
#include <set>
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

bool decreasing(const std::string& typeOfLevel) {
    return typeOfLevel == "isobaricInhPa" || typeOfLevel == "isobaricInPa";
}

std::size_t position(const std::vector<double>& values, double v) {
    return std::size_t(std::find(values.begin(), values.end(), v) - values.begin());
}

} // namespace

double gribSeconds(long dataDate, long dataTime) {
    const std::int64_t days =
        daysFromCivil(dataDate / 10000, unsigned(dataDate / 100 % 100), unsigned(dataDate % 100));
    return double(days * 86400 + (dataTime / 100) * 3600 + (dataTime % 100) * 60);
}

std::vector<GribCube> buildGribCubes(const std::vector<GribMessage>& messages) {
    // One cube per (typeOfLevel, stepType, grid), in that order; grids numbered by first use.
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
        GribCube cube;
        cube.typeOfLevel = std::get<0>(key);
        cube.stepType = std::get<1>(key);
        cube.first = list.front();
        cube.messages = list;
        cube.name = (cube.typeOfLevel.empty() ? std::string("unknown") : cube.typeOfLevel) + "_" +
                    (cube.stepType.empty() ? std::string("unknown") : cube.stepType);
        if (const int n = ++namesUsed[cube.name]; n > 1) cube.name += "_" + std::to_string(n);

        // The axes: each the sorted union of the cube's values.
        std::set<double> number, time, step, level;
        bool members_ = false;
        for (std::size_t i : list) {
            const GribMessage& m = messages[i];
            if (m.member) {
                members_ = true;
                number.insert(double(*m.member));
            }
            time.insert(gribSeconds(m.dataDate, m.dataTime));
            step.insert(m.stepHours);
            level.insert(m.level);
        }
        if (members_) cube.axes.push_back({"number", {number.begin(), number.end()}});
        cube.axes.push_back({"time", {time.begin(), time.end()}});
        cube.axes.push_back({"step", {step.begin(), step.end()}});
        GribAxis lev{cube.typeOfLevel.empty() ? std::string("level") : cube.typeOfLevel,
                     {level.begin(), level.end()}};
        if (decreasing(cube.typeOfLevel)) std::reverse(lev.values.begin(), lev.values.end());
        cube.axes.push_back(std::move(lev));
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
                v.name = m.cfVarName != "unknown" && !m.cfVarName.empty() ? m.cfVarName
                         : m.shortName != "unknown" && !m.shortName.empty()
                             ? m.shortName
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
                cell = cell * std::int64_t(a.values.size()) + std::int64_t(position(a.values, value));
            }
            if (v.fields[std::size_t(cell)] >= 0)
                v.repeated.push_back(m.span.number);
            else
                v.fields[std::size_t(cell)] = std::int64_t(i);
        }
        for (GribCubeVariable& v : cube.variables)
            v.missing = std::count(v.fields.begin(), v.fields.end(), std::int64_t(-1));
        cubes.push_back(std::move(cube));
    }
    return cubes;
}

} // namespace strata::io::detail
