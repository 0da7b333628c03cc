#include "grib_set.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "nc_call.h"
#include "strata/core/error.h"
#include "strata/io/multifile.h"

namespace strata::io::detail {
namespace {

// A parameter of a level type and step type: what must lie on the same grid in every file.
using ParamKey = std::tuple<std::string, std::string, long>;
// A field: where a message sits in its hypercube.
using FieldKey = std::tuple<std::string, std::string, std::string, long, long, double, long, long, double>;

// What a file brings to a set: each parameter's grids (and a message on each), its fields.
struct FileKeys {
    std::map<ParamKey, std::map<std::string, const GribMessage*>> grids;
    std::map<FieldKey, const GribMessage*> fields;
};

FileKeys keysOf(const std::vector<GribMessage>& messages, std::size_t from, std::size_t to) {
    FileKeys k;
    for (std::size_t i = from; i < to; ++i) {
        const GribMessage& m = messages[i];
        k.grids[{m.typeOfLevel, m.stepType, m.paramId}].emplace(m.gridSignature, &m);
        k.fields.emplace(FieldKey{m.typeOfLevel, m.stepType, m.gridSignature, m.paramId,
                                  m.member.value_or(-1), m.level, m.dataDate, m.dataTime, m.stepHours},
                         &m);
    }
    return k;
}

std::string number(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

// The first word two grid signatures differ in ("Nx=12" and "Nx=16").
std::pair<std::string, std::string> firstDifference(const std::string& a, const std::string& b) {
    std::istringstream ia(a), ib(b);
    std::string wa, wb;
    while (true) {
        const bool more = bool(ia >> wa) & bool(ib >> wb);
        if (!more) return {a, b};
        if (wa != wb) return {wa, wb};
    }
}

// Why the files whose keys are `a` and `b` (named `fa`, `fb`) cannot be one dataset; empty when
// they can.
std::string conflict(const FileKeys& a, const std::string& fa, const FileKeys& b, const std::string& fb) {
    for (const auto& [param, gridsA] : a.grids) {
        const auto it = b.grids.find(param);
        if (it == b.grids.end()) continue;
        const auto& gridsB = it->second;
        // The first grid one file has and the other lacks, told against the other's first.
        const GribMessage *inA = nullptr, *inB = nullptr;
        std::string sigA, sigB;
        for (const auto& [sig, m] : gridsB)
            if (!gridsA.contains(sig)) {
                std::tie(sigA, inA) = *gridsA.begin();
                std::tie(sigB, inB) = std::tie(sig, m);
                break;
            }
        if (!inA)
            for (const auto& [sig, m] : gridsA)
                if (!gridsB.contains(sig)) {
                    std::tie(sigA, inA) = std::tie(sig, m);
                    std::tie(sigB, inB) = *gridsB.begin();
                    break;
                }
        if (!inA) continue;
        const auto [da, db] = firstDifference(sigA, sigB);
        const std::string name =
            inA->shortName.empty() ? "paramId " + std::to_string(inA->paramId) : inA->shortName;
        return fb + " (message " + std::to_string(inB->span.number) + ") has '" + name + "' on " +
               inA->typeOfLevel + " (" + inA->stepType + ") on another grid than " + fa + " (message " +
               std::to_string(inA->span.number) + "): " + db + ", not " + da;
    }
    for (const auto& [key, m] : b.fields)
        if (const auto it = a.fields.find(key); it != a.fields.end()) {
            char when[32];
            std::snprintf(when, sizeof when, "%08ld %04ld", m->dataDate, m->dataTime);
            return fb + " (message " + std::to_string(m->span.number) + ") holds a field " + fa +
                   " (message " + std::to_string(it->second->span.number) + ") holds too: paramId " +
                   std::to_string(m->paramId) + " on " + m->typeOfLevel + " " + number(m->level) + " at " +
                   when + ", step " + number(m->stepHours) + " h";
        }
    return {};
}

[[noreturn]] void refuse(FileGrouping grouping, std::size_t files) {
    const std::size_t n = grouping.conflicts.size();
    std::string message = "the " + std::to_string(files) + " GRIB files do not form one dataset (" +
                          std::to_string(n) + (n == 1 ? " conflict):" : " conflicts):");
    for (const std::string& c : grouping.conflicts) message += "\n    " + c;
    message += "\nthese groups of them each do:";
    for (const FileGroup& g : grouping.groups) message += "\n    " + fileSetLabel(g.files);
    throw FileSetError(message, std::move(grouping));
}

} // namespace

GribSet indexGribFiles(const std::vector<std::string>& paths, OpenNotes& notes) {
    GribSet set;
    set.files = std::make_shared<GribFiles>();
    std::vector<std::size_t> starts; // each file's first message in the pool
    std::string firstError;
    for (const std::string& path : paths) {
        auto file = RawFile::open(path, path);
        GribIndex index = indexGribFile(*file, path);
        for (const std::string& p : index.problems) notes.lines.push_back(path + ": " + p);
        if (index.messages.empty()) {
            std::string why = index.found == 0
                                  ? "no GRIB message in it (not a GRIB file?)"
                                  : "none of its " + std::to_string(index.found) + " messages can be read";
            if (!index.problems.empty()) why += ": " + index.problems.front();
            why = "cannot open '" + path + "': " + why;
            if (firstError.empty()) firstError = why;
            if (paths.size() > 1) notes.lines.push_back(why + "; left out of the set");
            continue;
        }
        const auto f = std::uint32_t(set.files->files.size());
        set.files->files.push_back(std::move(file));
        set.files->paths.push_back(path);
        starts.push_back(set.index.messages.size());
        for (GribMessage& m : index.messages) {
            m.span.file = f;
            set.index.messages.push_back(std::move(m));
        }
        set.index.found += index.found;
    }
    STRATA_EXPECTS(!set.files->files.empty(), NetcdfError, firstError);
    const std::size_t n = set.files->files.size();
    if (n == 1) return set;
    starts.push_back(set.index.messages.size());
    std::vector<FileKeys> keys;
    for (std::size_t f = 0; f < n; ++f) keys.push_back(keysOf(set.index.messages, starts[f], starts[f + 1]));
    // Each file joins the first group all of whose files it agrees with.
    const std::vector<std::string>& names = set.files->paths;
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t f = 0; f < n; ++f) {
        bool joined = false;
        for (auto& g : groups) {
            bool fits = true;
            for (std::size_t o : g) fits = fits && conflict(keys[o], names[o], keys[f], names[f]).empty();
            if (fits) {
                g.push_back(f);
                joined = true;
                break;
            }
        }
        if (!joined) groups.push_back({f});
    }
    if (groups.size() == 1) return set;
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return a.size() > b.size(); });
    FileGrouping grouping;
    for (const auto& g : groups) {
        FileGroup out;
        for (std::size_t f : g) out.files.push_back(names[f]);
        grouping.groups.push_back(std::move(out));
    }
    for (std::size_t k = 1; k < groups.size(); ++k)
        for (std::size_t f : groups[k])
            for (std::size_t o : groups[0])
                if (std::string why = conflict(keys[o], fileName(names[o]), keys[f], fileName(names[f]));
                    !why.empty()) {
                    grouping.conflicts.push_back(std::move(why));
                    break;
                }
    refuse(std::move(grouping), n);
}

} // namespace strata::io::detail
