// openMultiDataset: members' summaries (read in child processes) checked against each other,
// ordered along the record dim, and the first member's Dataset widened to the whole set.
#include "strata/io/multifile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <thread>

#include "mf_groups.h"
#include "mf_source.h"
#include "mf_summary.h"
#include "nc_call.h"
#include "strata/core/error.h"
#include "strata/core/format.h"

namespace strata::io {
namespace {

using detail::fileName;
using detail::MemberSummary;

struct Member {
    const MemberSummary* summary;
    std::int64_t records = 0;
    std::vector<double> values; // the record coordinate on the set's axis (empty: none)
    std::vector<DateTime> dates;
    double key = NAN; // the first value, for ordering
};

// The record dim: the reference's unlimited dim, else the dim of its CF time coordinate.
std::string recordDim(const MemberSummary& m) {
    std::string rec = detail::recordDimOf(m);
    STRATA_EXPECTS(!rec.empty(), ValueError,
                   "cannot combine the files: " + fileName(m.path) +
                       " has no unlimited dim and no CF time coordinate to combine them along");
    return rec;
}

// Files that do not form one dataset: every conflict named, and the groups that do kept.
[[noreturn]] void failGrouping(FileGrouping grouping, std::size_t files, const char* file, int line) {
    const std::size_t n = grouping.conflicts.size();
    std::string message = "the " + std::to_string(files) + " files do not form one dataset (" +
                          std::to_string(n) + (n == 1 ? " conflict):" : " conflicts):");
    for (const std::string& c : grouping.conflicts) message += "\n    " + c;
    message += "\nthese groups of them each do:";
    for (const FileGroup& g : grouping.groups)
        message += "\n    " + fileSetLabel(g.files) + (g.along.empty() ? "" : " along '" + g.along + "'");
    throw FileSetError(message, std::move(grouping), ::strata::detail::place(file, line));
}

// Decodes every member's record coordinate onto the axis of `units` (the first member's).
void placeOnAxis(std::vector<Member>& members, const std::string& rec) {
    const auto* c0 = members[0].summary->findCoord(rec);
    if (!c0) return;
    const bool time = isTimeUnits(c0->units);
    TimeUnits ref;
    Calendar cal = Calendar::Standard;
    if (time) {
        ref = parseTimeUnits(c0->units);
        cal = parseCalendar(c0->calendar.empty() ? "standard" : c0->calendar);
    }
    for (Member& m : members) {
        const auto* c = m.summary->findCoord(rec);
        STRATA_EXPECTS(c, ValueError,
                       "cannot combine " + fileName(members[0].summary->path) + " and " +
                           fileName(m.summary->path) + ": the second has no coordinate variable '" + rec +
                           "'");
        const std::string pair = fileName(members[0].summary->path) + " and " + fileName(m.summary->path);
        if (!time) {
            STRATA_EXPECTS(c->units == c0->units, ValueError,
                           "cannot combine " + pair + ": '" + rec + "' is in '" + c0->units +
                               "' in the first and '" + c->units + "' in the second");
            m.values = c->values;
        } else {
            STRATA_EXPECTS(isTimeUnits(c->units), ValueError,
                           "cannot combine " + pair + ": '" + rec + "' has time units '" + c0->units +
                               "' in the first and '" + c->units + "' in the second");
            const Calendar mine = parseCalendar(c->calendar.empty() ? "standard" : c->calendar);
            STRATA_EXPECTS(mine == cal, ValueError,
                           "cannot combine " + pair + ": they use different calendars ('" +
                               std::string(name(cal)) + "' and '" + std::string(name(mine)) +
                               "'); dates of different calendars cannot share one time axis");
            const TimeUnits u = parseTimeUnits(c->units);
            for (double v : c->values) {
                STRATA_EXPECTS(std::isfinite(v), ValueError,
                               fileName(m.summary->path) + ": a value of '" + rec + "' is missing");
                const DateTime d = decodeTime(v, u, cal);
                m.dates.push_back(d);
                m.values.push_back(c->units == c0->units ? v : encodeTime(d, ref, cal));
            }
        }
        if (!m.values.empty()) m.key = m.values.front();
    }
}

std::string valueText(const Member& m, std::size_t i) {
    return i < m.dates.size() ? m.dates[i].iso(true) : formatNumber(m.values[i]);
}

} // namespace

Dataset openMultiDataset(const std::vector<std::string>& paths, OpenNotes& notes,
                         const MultiOpenOptions& options) {
    using detail::MemberPiece;
    STRATA_EXPECTS(!paths.empty(), ValueError, "no files to open");
    const int workers =
        options.workers > 0 ? options.workers : int(std::max(2u, std::thread::hardware_concurrency()));
    const std::vector<MemberSummary> summaries =
        detail::readMemberSummaries(paths, workers, options.timeoutMs);

    std::vector<Member> members;
    for (const MemberSummary& s : summaries) {
        if (s.error.empty())
            members.push_back(Member{&s, 0, {}, {}, NAN});
        else
            notes.lines.push_back(fileName(s.path) + ": left out of the file set: " + s.error);
    }
    if (members.empty())
        STRATA_FAIL(NetcdfError, summaries.size() == 1
                                     ? summaries[0].error
                                     : "none of the " + std::to_string(summaries.size()) +
                                           " files could be opened; the first: " + summaries[0].error);
    {
        std::vector<const MemberSummary*> readable;
        for (const Member& m : members) readable.push_back(m.summary);
        FileGrouping grouping = detail::groupMembers(readable);
        if (grouping.groups.size() > 1) failGrouping(std::move(grouping), members.size(), __FILE__, __LINE__);
    }
    const std::string rec = recordDim(*members[0].summary);
    for (Member& m : members) {
        const Dimension* d = m.summary->findDim(rec);
        STRATA_EXPECTS(d, ValueError,
                       "cannot combine " + fileName(members[0].summary->path) + " and " +
                           fileName(m.summary->path) + ": the second has no dim '" + rec +
                           "' to combine along");
        m.records = d->length;
    }
    std::erase_if(members, [&](const Member& m) {
        if (m.records > 0) return false;
        notes.lines.push_back(fileName(m.summary->path) + ": left out of the file set: no records along '" +
                              rec + "'");
        return true;
    });
    STRATA_EXPECTS(!members.empty(), ValueError,
                   "cannot combine the files: none has records along '" + rec + "'");

    placeOnAxis(members, rec);
    const bool keyed =
        std::all_of(members.begin(), members.end(), [](const Member& m) { return std::isfinite(m.key); });
    if (keyed)
        std::stable_sort(members.begin(), members.end(),
                         [](const Member& a, const Member& b) { return a.key < b.key; });
    else
        notes.lines.push_back("file set: '" + rec +
                              "' has no coordinate values in every file; files are taken in the "
                              "order given");
    // The set's axis is in the units of its first member.
    const auto* c0 = members[0].summary->findCoord(rec);
    if (c0 && isTimeUnits(c0->units) && !members[0].dates.empty()) {
        const TimeUnits u = parseTimeUnits(c0->units);
        const Calendar cal = parseCalendar(c0->calendar.empty() ? "standard" : c0->calendar);
        for (Member& m : members) {
            const auto* c = m.summary->findCoord(rec);
            for (std::size_t i = 0; i < m.dates.size(); ++i)
                m.values[i] = c->units == c0->units ? c->values[i] : encodeTime(m.dates[i], u, cal);
        }
    }
    for (std::size_t i = 0; keyed && i + 1 < members.size(); ++i) {
        const Member &a = members[i], &b = members[i + 1];
        STRATA_EXPECTS(a.values.back() < b.values.front(), ValueError,
                       "cannot combine " + fileName(a.summary->path) + " and " + fileName(b.summary->path) +
                           ": they overlap along '" + rec + "' (the first ends at " +
                           valueText(a, a.values.size() - 1) + ", the second starts at " + valueText(b, 0) +
                           ")");
    }
    for (std::size_t i = 1; i < members.size(); ++i) {
        const std::string why = detail::gridMismatch(*members[0].summary, *members[i].summary, rec);
        STRATA_EXPECTS(why.empty(), ValueError, why);
    }

    std::vector<std::string> ordered;
    for (const Member& m : members) ordered.push_back(m.summary->path);
    const std::string setName = fileSetLabel(ordered);
    Dataset ds = openDataset(members[0].summary->path, notes); // it opened in its child already
    ds.files = ordered;
    std::int64_t total = 0;
    for (const Member& m : members) total += m.records;
    for (Dimension& d : ds.dims)
        if (d.name == rec) d.length = total;
    auto files = std::make_shared<detail::MemberFiles>(options.openFiles);

    // The record coordinate, whole; and the part of it that `holders` span.
    std::optional<Coordinate> recCoord;
    if (const Coordinate* c = ds.coords.find(rec)) recCoord = *c;
    auto coordOf = [&](const std::vector<const Member*>& holders,
                       const std::string& dim) -> std::optional<Coordinate> {
        if (!recCoord || !keyed) return std::nullopt;
        Coordinate c = *recCoord;
        c.name = dim;
        c.dims = {dim};
        c.values.clear();
        c.format.reset();
        c.problem.clear();
        if (c.time) c.time->dates.clear();
        if (c.time && !members[0].dates.empty()) c.time->units = parseTimeUnits(c0->units);
        for (const Member* h : holders) {
            c.values.insert(c.values.end(), h->values.begin(), h->values.end());
            if (c.time) c.time->dates.insert(c.time->dates.end(), h->dates.begin(), h->dates.end());
        }
        c.shape = {std::int64_t(c.values.size())};
        return c;
    };
    auto widen = [&](const std::string& name, const Variable& proto,
                     const std::vector<const Member*>& holders, const std::string& dim) {
        std::vector<std::string> dims = proto.dims();
        const int r = int(std::find(dims.begin(), dims.end(), rec) - dims.begin());
        std::vector<MemberPiece> pieces;
        std::int64_t at = 0;
        for (const Member* h : holders) {
            const auto* mv = h->summary->findVariable(name);
            STRATA_EXPECTS(mv->shape[std::size_t(r)] == h->records, ValueError,
                           fileName(h->summary->path) + ": variable '" + name + "' has " +
                               std::to_string(mv->shape[std::size_t(r)]) + " records of its " +
                               std::to_string(h->records) + " along '" + rec + "'; it cannot join the set");
            pieces.push_back(
                {h->summary->path, at, h->records,
                 mv->layout ? std::make_shared<const detail::DirectLayout>(*mv->layout) : nullptr});
            at += h->records;
        }
        Shape shape = proto.shape();
        shape[std::size_t(r)] = at;
        dims[std::size_t(r)] = dim;
        auto source = std::make_shared<detail::MultiFileSource>(files, std::move(pieces), name, setName,
                                                                shape, r, proto.encoding().packed);
        return Variable::lazy(dims, shape, proto.encoding(), std::move(source), proto.attrs());
    };
    auto holdersOf = [&](const std::string& name) {
        std::vector<const Member*> out;
        for (const Member& m : members)
            if (m.summary->findVariable(name)) out.push_back(&m);
        return out;
    };
    std::vector<std::pair<std::string, Variable>> partial; // variables along their own record dim
    auto addPartial = [&](const std::string& name, const Variable& proto,
                          const std::vector<const Member*>& holders) {
        const std::string dim = rec + "_" + name;
        std::string list;
        for (std::size_t i = 0; i < holders.size() && i < 4; ++i)
            list += (i ? ", " : "") + fileName(holders[i]->summary->path);
        if (holders.size() > 4) list += ", ...";
        notes.lines.push_back("file set: variable '" + name + "' is in " + std::to_string(holders.size()) +
                              " of " + std::to_string(members.size()) + " files (" + list +
                              "); it is read from those alone, along its own dim '" + dim + "'");
        Variable v = widen(name, proto, holders, dim);
        ds.dims.push_back({dim, v.shape()[std::size_t(v.axis(dim))], false});
        if (auto c = coordOf(holders, dim)) ds.coords.set(std::move(*c));
        partial.emplace_back(name, std::move(v));
    };

    std::vector<std::pair<std::string, Variable>> kept;
    for (auto& [name, v] : ds.variables) {
        const auto& dims = v.dims();
        if (std::find(dims.begin(), dims.end(), rec) == dims.end()) {
            kept.emplace_back(name, v);
            continue;
        }
        if (v.encoding().packed == DType::String) {
            notes.lines.push_back("file set: string variable '" + name + "' is not combined");
            continue;
        }
        if (name == rec && recCoord && keyed) { // the set's axis, decoded onto the first member's units
            Attributes attrs = v.attrs();
            for (const char* a : {"_FillValue", "missing_value", "valid_min", "valid_max", "valid_range",
                                  "scale_factor", "add_offset"})
                attrs.erase(a);
            std::vector<double> values;
            for (const Member& m : members) values.insert(values.end(), m.values.begin(), m.values.end());
            auto source = std::make_shared<detail::HostValuesSource>(std::move(values),
                                                                     setName + ": variable '" + name + "'");
            kept.emplace_back(name, Variable::lazy({rec}, {total},
                                                   CfEncoding::fromAttributes(attrs, DType::Float64),
                                                   std::move(source), attrs));
            continue;
        }
        const auto holders = holdersOf(name);
        if (holders.size() == members.size())
            kept.emplace_back(name, widen(name, v, holders, rec));
        else
            addPartial(name, v, holders);
    }
    // Variables the first member lacks, from the first member that has them.
    std::map<std::string, bool> known;
    for (const auto& [name, v] : ds.variables) known[name] = true;
    for (std::size_t i = 1; i < members.size(); ++i) {
        std::optional<Dataset> other; // opened here once, when it has a variable the first lacks
        for (const auto& mv : members[i].summary->variables) {
            if (known[mv.name]) continue;
            known[mv.name] = true;
            OpenNotes ignored;
            if (!other) other = openDataset(members[i].summary->path, ignored);
            const Variable* proto = other->findVariable(mv.name);
            if (!proto || proto->encoding().packed == DType::String) continue;
            const auto& dims = proto->dims();
            if (std::find(dims.begin(), dims.end(), rec) == dims.end())
                kept.emplace_back(mv.name, *proto);
            else
                addPartial(mv.name, *proto, holdersOf(mv.name));
        }
    }
    for (auto& p : partial) kept.push_back(std::move(p));
    ds.variables = std::move(kept);

    // Coordinates: the record one whole; others along the record dim (auxiliary) are dropped.
    Coordinates coords;
    for (const Coordinate& c : ds.coords) {
        if (c.name == rec) {
            if (auto whole = coordOf(
                    [&] {
                        std::vector<const Member*> all;
                        for (const Member& m : members) all.push_back(&m);
                        return all;
                    }(),
                    rec))
                coords.set(std::move(*whole));
            continue;
        }
        if (std::find(c.dims.begin(), c.dims.end(), rec) != c.dims.end()) continue;
        coords.set(c);
    }
    ds.coords = std::move(coords);
    notes.lines.push_back("file set: " + std::to_string(members.size()) + " files combined along '" + rec +
                          "' (" + std::to_string(total) + " records, " + fileName(ordered.front()) + " to " +
                          fileName(ordered.back()) + ")");
    return ds;
}

} // namespace strata::io
