// groupMembers (mf_groups.h) on members' summaries made here by hand: files that do not form
// one dataset parted into the groups that do, and every conflict with the largest group named.
#include <QtTest>

#include "mf_groups.h"

using namespace strata;
using strata::io::detail::MemberCoordinate;
using strata::io::detail::MemberSummary;
using strata::io::detail::MemberVariable;

namespace {

// A member on a 4 × 5 lat/lon grid with `variable`(time, lat, lon) and `times` in `units`; no
// time dim at all when `times` is empty and `withTime` false.
MemberSummary member(const std::string& path, const std::string& variable, std::vector<double> times,
                     const std::string& units = "days since 2000-01-01", const std::string& calendar = "",
                     int ny = 4, bool withTime = true) {
    MemberSummary m;
    m.path = "/data/" + path;
    m.format = "netCDF-4";
    if (withTime) m.dims.push_back({"time", std::int64_t(times.size()), true});
    m.dims.push_back({"lat", ny, false});
    m.dims.push_back({"lon", 5, false});
    std::vector<double> lat, lon;
    for (int i = 0; i < ny; ++i) lat.push_back(-60 + 40 * i);
    for (int i = 0; i < 5; ++i) lon.push_back(72 * i);
    m.coords.push_back({"lat", lat, "degrees_north", ""});
    m.coords.push_back({"lon", lon, "degrees_east", ""});
    if (withTime) {
        m.coords.push_back({"time", times, units, calendar});
        m.variables.push_back({"time", {"time"}, {std::int64_t(times.size())}, DType::Float64, "", {}});
        m.variables.push_back(
            {variable, {"time", "lat", "lon"}, {std::int64_t(times.size()), ny, 5}, DType::Float32, "", {}});
    } else {
        m.variables.push_back({variable, {"lat", "lon"}, {ny, 5}, DType::Float32, "", {}});
    }
    m.variables.push_back({"lat", {"lat"}, {ny}, DType::Float64, "", {}});
    m.variables.push_back({"lon", {"lon"}, {5}, DType::Float64, "", {}});
    return m;
}

std::vector<const MemberSummary*> pointers(const std::vector<MemberSummary>& members) {
    std::vector<const MemberSummary*> out;
    for (const auto& m : members) out.push_back(&m);
    return out;
}

std::vector<std::string> names(const io::FileGroup& g) {
    std::vector<std::string> out;
    for (const auto& f : g.files) out.push_back(f.substr(f.rfind('/') + 1));
    return out;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class TestFileGroups : public QObject {
    Q_OBJECT
private slots:
    void membersThatAgreeAreOneGroup() {
        const std::vector<MemberSummary> m = {member("tas_2001.nc", "tas", {365, 395}),
                                              member("tas_2000.nc", "tas", {0, 30}),
                                              member("tas_2002.nc", "tas", {730})};
        const io::FileGrouping g = io::detail::groupMembers(pointers(m));
        QCOMPARE(g.groups.size(), std::size_t(1));
        QCOMPARE(g.groups[0].along, std::string("time"));
        QCOMPARE(names(g.groups[0]), (std::vector<std::string>{"tas_2001.nc", "tas_2000.nc", "tas_2002.nc"}));
        QVERIFY(g.conflicts.empty());
    }

    // A directory of three variables over the same years: a group each, the largest first, and
    // a conflict for each member outside it, whatever its reason.
    void unrelatedFilesArePartedIntoGroups() {
        const std::vector<MemberSummary> m = {
            member("orog.nc", "orog", {}, "", "", 4, false),
            member("pr_2000.nc", "pr", {0, 30}),
            member("pr_2001.nc", "pr", {365, 395}),
            member("tas_2000.nc", "tas", {0, 30}),
            member("tas_2001.nc", "tas", {365, 395}),
            member("tas_2002.nc", "tas", {730, 760}),
            member("tas_coarse.nc", "tas", {1095}, "days since 2000-01-01", "", 3)};
        const io::FileGrouping g = io::detail::groupMembers(pointers(m));
        QCOMPARE(g.groups.size(), std::size_t(4));
        QCOMPARE(names(g.groups[0]), (std::vector<std::string>{"tas_2000.nc", "tas_2001.nc", "tas_2002.nc"}));
        QCOMPARE(names(g.groups[1]), (std::vector<std::string>{"pr_2000.nc", "pr_2001.nc"}));
        // Groups of one in the order they began.
        QCOMPARE(names(g.groups[2]), (std::vector<std::string>{"orog.nc"}));
        QCOMPARE(names(g.groups[3]), (std::vector<std::string>{"tas_coarse.nc"}));
        QCOMPARE(g.groups[0].along, std::string("time"));
        QCOMPARE(g.groups[2].along, std::string()); // no record dim: opened alone
        QCOMPARE(g.conflicts.size(), std::size_t(4));
        QVERIFY2(contains(g.conflicts[0], "tas_2000.nc and pr_2000.nc: they overlap along 'time'") &&
                     contains(g.conflicts[0], "2000-01-01 to 2000-01-31"),
                 g.conflicts[0].c_str());
        QVERIFY2(contains(g.conflicts[1], "tas_2001.nc and pr_2001.nc: they overlap along 'time'"),
                 g.conflicts[1].c_str());
        QVERIFY2(contains(g.conflicts[2], "tas_2000.nc and orog.nc: the second has no dim 'time'"),
                 g.conflicts[2].c_str());
        QVERIFY2(contains(g.conflicts[3], "dim 'lat' has 4 values in tas_2000.nc and 3 in tas_coarse.nc"),
                 g.conflicts[3].c_str());
    }

    // Time in other units is compared as dates: February in hours after January in days is no
    // overlap; January again in hours is.
    void recordsAreComparedAsDates() {
        const std::vector<MemberSummary> apart = {member("a.nc", "tas", {0, 30}),
                                                  member("b.nc", "tas", {24 * 14}, "hours since 2000-02-01")};
        QCOMPARE(io::detail::groupMembers(pointers(apart)).groups.size(), std::size_t(1));
        const std::vector<MemberSummary> overlapping = {
            member("a.nc", "tas", {0, 30}), member("b.nc", "tas", {24 * 14}, "hours since 2000-01-01")};
        const io::FileGrouping g = io::detail::groupMembers(pointers(overlapping));
        QCOMPARE(g.groups.size(), std::size_t(2));
        QVERIFY2(contains(g.conflicts.at(0), "overlap along 'time'"), g.conflicts.at(0).c_str());
    }

    void otherCalendarsAndUnitsAreConflicts() {
        const std::vector<MemberSummary> m = {
            member("a.nc", "tas", {0}, "days since 2000-01-01", "360_day"),
            member("b.nc", "tas", {40}, "days since 2000-01-01", "standard"),
            member("c.nc", "tas", {50}, "metres", "")};
        const io::FileGrouping g = io::detail::groupMembers(pointers(m));
        QCOMPARE(g.groups.size(), std::size_t(3));
        QVERIFY2(contains(g.conflicts.at(0), "different calendars ('360_day' and 'standard')"),
                 g.conflicts.at(0).c_str());
        QVERIFY2(
            contains(g.conflicts.at(1), "has time units 'days since 2000-01-01' in the first and 'metres'"),
            g.conflicts.at(1).c_str());
    }

    // As openMultiDataset combines them: a variable in some members only, on the same grid at
    // other times, is no conflict; nor is a member without records.
    void aVariableInSomeMembersAndAnEmptyMemberJoin() {
        const std::vector<MemberSummary> m = {member("a.nc", "tas", {0, 30}), member("b.nc", "pr", {60}),
                                              member("c.nc", "tas", {})};
        const io::FileGrouping g = io::detail::groupMembers(pointers(m));
        QCOMPARE(g.groups.size(), std::size_t(1));
        QCOMPARE(g.groups[0].files.size(), std::size_t(3));
        QVERIFY(g.conflicts.empty());
    }

    void aVariableOfOtherDimsIsAConflict() {
        std::vector<MemberSummary> m = {member("a.nc", "tas", {0}), member("b.nc", "tas", {40})};
        m[1].variables[1].dims = {"time", "lon", "lat"};
        const io::FileGrouping g = io::detail::groupMembers(pointers(m));
        QCOMPARE(g.groups.size(), std::size_t(2));
        QVERIFY2(contains(g.conflicts.at(0),
                          "variable 'tas' has dims (time, lat, lon) in a.nc and (time, lon, "
                          "lat) in b.nc"),
                 g.conflicts.at(0).c_str());
    }
};

QTEST_APPLESS_MAIN(TestFileGroups)
#include "tst_filegroups.moc"
