// indexGribFile: every message's keys through ecCodes, read in parallel on the reader's threads.
#include "grib_index.h"

#include <eccodes.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

#include "grib_handle.h"
#include "io_pool.h"
#include "strata/core/cancel.h"
#include "strata/core/error.h"

namespace strata::io::detail {
namespace {

// Each reader thread's buffer for the messages it indexes, one after another.
thread_local std::vector<unsigned char> scratch;

// The keys cfgrib keeps as GRIB_* attributes of a variable: its data keys, then its extra keys.
const char* const kDataKeys[] = {"paramId",   "dataType", "numberOfPoints", "typeOfLevel",
                                 "stepUnits", "stepType", "gridType"};
const char* const kExtraKeys[] = {"shortName", "units",       "name", "cfName",
                                  "cfVarName", "totalNumber", "NV",   "gridDefinitionDescription"};
const char* const kGlobalKeys[] = {"edition", "centre", "centreDescription", "subCentre"};

// Each grid type's geometry keys (the ones cfgrib keeps, where it keeps some).
const std::map<std::string, std::vector<const char*>>& gridKeys() {
    static const std::map<std::string, std::vector<const char*>> keys = {
        {"regular_ll",
         {"Nx", "iDirectionIncrementInDegrees", "iScansNegatively", "longitudeOfFirstGridPointInDegrees",
          "longitudeOfLastGridPointInDegrees", "Ny", "jDirectionIncrementInDegrees", "jPointsAreConsecutive",
          "jScansPositively", "latitudeOfFirstGridPointInDegrees", "latitudeOfLastGridPointInDegrees"}},
        {"rotated_ll",
         {"Nx", "Ny", "angleOfRotationInDegrees", "iDirectionIncrementInDegrees", "iScansNegatively",
          "jDirectionIncrementInDegrees", "jPointsAreConsecutive", "jScansPositively",
          "latitudeOfFirstGridPointInDegrees", "latitudeOfLastGridPointInDegrees",
          "latitudeOfSouthernPoleInDegrees", "longitudeOfFirstGridPointInDegrees",
          "longitudeOfLastGridPointInDegrees", "longitudeOfSouthernPoleInDegrees"}},
        {"regular_gg",
         {"N", "Ni", "Nj", "iDirectionIncrementInDegrees", "iScansNegatively", "jScansPositively",
          "jPointsAreConsecutive", "longitudeOfFirstGridPointInDegrees", "longitudeOfLastGridPointInDegrees",
          "latitudeOfFirstGridPointInDegrees", "latitudeOfLastGridPointInDegrees"}},
        {"rotated_gg",
         {"Nx", "Ny", "angleOfRotationInDegrees", "iDirectionIncrementInDegrees", "iScansNegatively",
          "jPointsAreConsecutive", "jScansPositively", "latitudeOfFirstGridPointInDegrees",
          "latitudeOfLastGridPointInDegrees", "latitudeOfSouthernPoleInDegrees",
          "longitudeOfFirstGridPointInDegrees", "longitudeOfLastGridPointInDegrees",
          "longitudeOfSouthernPoleInDegrees", "N"}},
        {"lambert",
         {"LaDInDegrees", "LoVInDegrees", "iScansNegatively", "jPointsAreConsecutive", "jScansPositively",
          "latitudeOfFirstGridPointInDegrees", "latitudeOfSouthernPoleInDegrees",
          "longitudeOfFirstGridPointInDegrees", "longitudeOfSouthernPoleInDegrees", "DyInMetres",
          "DxInMetres", "Latin2InDegrees", "Latin1InDegrees", "Ny", "Nx"}},
        {"reduced_gg", {"N", "pl"}},
    };
    return keys;
}
// Keys that tell reduced Gaussian grids apart, besides cfgrib's (N and pl).
const char* const kReducedGridKeys[] = {"Nj",
                                        "isOctahedral",
                                        "latitudeOfFirstGridPointInDegrees",
                                        "latitudeOfLastGridPointInDegrees",
                                        "longitudeOfFirstGridPointInDegrees",
                                        "longitudeOfLastGridPointInDegrees"};
// Keys that tell grids apart where cfgrib keeps none as attributes.
const char* const kOtherGridKeys[] = {"Nx",
                                      "Ny",
                                      "latitudeOfFirstGridPointInDegrees",
                                      "longitudeOfFirstGridPointInDegrees",
                                      "DxInMetres",
                                      "DyInMetres",
                                      "LaDInDegrees",
                                      "orientationOfTheGridInDegrees",
                                      "iScansNegatively",
                                      "jScansPositively",
                                      "jPointsAreConsecutive"};

// Seconds in a GRIB step unit (code table 4.4), 0 where it is not a fixed length.
long stepUnitSeconds(long unit) {
    switch (unit) {
    case 0:
        return 60;
    case 1:
        return 3600;
    case 2:
        return 86400;
    case 10:
        return 10800;
    case 11:
        return 21600;
    case 12:
        return 43200;
    case 13:
        return 1;
    case 14:
        return 900;
    case 15:
        return 1800;
    default:
        return 0;
    }
}

std::optional<GribKey> readKey(codes_handle* h, const char* key) {
    if (!codes_is_defined(h, key)) return std::nullopt;
    int type = 0;
    if (codes_get_native_type(h, key, &type) != 0) return std::nullopt;
    GribKey k;
    k.name = key;
    if (size_t n = 0; type == CODES_TYPE_LONG && codes_get_size(h, key, &n) == 0 && n > 1) { // pl
        std::vector<long> v(n);
        if (codes_get_long_array(h, key, v.data(), &n) != 0) return std::nullopt;
        k.array.assign(v.begin(), v.begin() + std::ptrdiff_t(n));
        k.integer = true;
    } else if (type == CODES_TYPE_LONG) {
        long v = 0;
        if (codes_get_long(h, key, &v) != 0) return std::nullopt;
        k.number = double(v);
        k.integer = true;
    } else if (type == CODES_TYPE_DOUBLE) {
        if (codes_get_double(h, key, &k.number) != 0) return std::nullopt;
    } else {
        auto text = handleText(h, key);
        if (!text) return std::nullopt;
        k.text = std::move(*text);
    }
    return k;
}

std::string keyText(const GribKey& k) {
    if (k.text) return *k.text;
    std::ostringstream out;
    out.precision(17);
    if (k.array.empty()) out << k.number;
    for (std::size_t i = 0; i < k.array.size(); ++i) out << (i ? "," : "") << k.array[i];
    return out.str();
}

// The keys a message shares with others whose sections differ only in date, step and member
// (grib_index.h's masked header): its grid, packing, level type, step type and parameter, or the
// reason it is left out. ecCodes' concepts (paramId, shortName, name...) cost a good part of a
// millisecond each: only paramId is read here.
std::string readShared(codes_handle* h, GribMessage& m) {
    const auto text = [&](const char* key) { return handleText(h, key).value_or(""); };
    const auto integer = [&](const char* key, long& v) { return codes_get_long(h, key, &v) == 0; };
    m.gridType = text("gridType");
    const bool reduced = gribGridIsReduced(m.gridType);
    if (!gribGridIsRegular(m.gridType) && !gribGridIsProjected(m.gridType) && !reduced)
        return "its grid type '" + (m.gridType.empty() ? std::string("?") : m.gridType) +
               "' is not read (regular_ll, regular_gg, reduced_gg, rotated_ll, rotated_gg, lambert, "
               "polar_stereographic, lambert_azimuthal_equal_area and albers are)";
    m.packingType = text("packingType");
    if (m.packingType.empty() || m.packingType == "unknown")
        return "its packing (data representation) is not known to ecCodes" + ecCodesSays();
    m.typeOfLevel = text("typeOfLevel");
    m.stepType = text("stepType");
    integer("paramId", m.paramId);
    integer("numberOfPoints", m.numberOfPoints);
    if (reduced) { // its points in one run, row after row of pl's lengths
        m.ni = m.numberOfPoints;
        m.nj = 1;
    } else {
        if (!integer("Ni", m.ni) && !integer("Nx", m.ni)) m.ni = 0;
        if (!integer("Nj", m.nj) && !integer("Ny", m.nj)) m.nj = 0;
    }
    if (m.ni <= 0 || m.nj <= 0 || m.ni * m.nj != m.numberOfPoints)
        return "its grid is " + std::to_string(m.ni) + " x " + std::to_string(m.nj) + " points but it has " +
               std::to_string(m.numberOfPoints) + " values";
    long alt = 0;
    m.alternativeRows = integer("alternativeRowScanning", alt) && alt != 0;
    size_t values = 0;
    if (codes_get_size(h, "values", &values) != 0 || long(values) != m.numberOfPoints)
        return "its data section holds " + std::to_string(values) + " values for a grid of " +
               std::to_string(m.numberOfPoints) + " points";

    m.gridSignature = m.gridType + " points=" + std::to_string(m.ni) + "x" + std::to_string(m.nj);
    const auto grid = gridKeys().find(m.gridType);
    std::vector<const char*> sig =
        grid != gridKeys().end()
            ? grid->second
            : std::vector<const char*>(std::begin(kOtherGridKeys), std::end(kOtherGridKeys));
    if (reduced) sig.insert(sig.end(), std::begin(kReducedGridKeys), std::end(kReducedGridKeys));
    for (const char* key : sig)
        if (auto k = readKey(h, key)) m.gridSignature += " " + k->name + "=" + keyText(*k);
    return {};
}

// The keys of each message alone: member, level, date, time and step.
std::string readOwn(codes_handle* h, GribMessage& m) {
    const auto integer = [&](const char* key, long& v) { return codes_get_long(h, key, &v) == 0; };
    if (long number = 0; codes_is_defined(h, "number") && integer("number", number)) m.member = number;
    codes_get_double(h, "level", &m.level);
    if (!std::isfinite(m.level)) return "its level is not a number";
    if (!integer("dataDate", m.dataDate) || !integer("dataTime", m.dataTime))
        return "it has no dataDate or dataTime";
    long unit = 1, endStep = 0;
    integer("stepUnits", unit);
    if (!integer("endStep", endStep)) return "it has no endStep";
    const long seconds = stepUnitSeconds(unit);
    if (seconds == 0) return "its step unit " + std::to_string(unit) + " has no fixed length";
    m.stepHours = double(endStep) * double(seconds) / 3600.0;
    return {};
}

std::string readMessage(codes_handle* h, GribMessage& m) {
    std::string problem = readShared(h, m);
    return problem.empty() ? readOwn(h, m) : problem;
}

// A GRIB 2 message's sections 1 to 5 (GribHandle::readHeaders) with the octets that
// only date, step and member tell zeroed: section 1's reference time, section 4's forecast
// time, ensemble member and end of the overall period (product templates 4.0 to 4.15, whose
// first 34 octets agree). Messages with equal masked headers share readShared's keys.
void maskHeader(std::vector<unsigned char>& h) {
    std::size_t at = 0;
    const auto zero = [&](std::size_t from, std::size_t to, std::size_t length) { // 1-based octets
        for (std::size_t o = from; o <= to && o <= length; ++o) h[at + o - 1] = 0;
    };
    while (at + 5 <= h.size()) {
        const std::size_t length = (std::size_t(h[at]) << 24) | (std::size_t(h[at + 1]) << 16) |
                                   (std::size_t(h[at + 2]) << 8) | h[at + 3];
        if (length < 5 || at + length > h.size()) break;
        const int section = h[at + 4];
        if (section == 1) zero(13, 19, length);
        if (section == 4 && length >= 34) {
            const int templ = (h[at + 7] << 8) | h[at + 8];
            if (templ <= 15) zero(19, 22, length);
            if (templ == 1 || templ == 11) zero(36, 36, length);
            if (templ == 8) zero(35, 41, length);
            if (templ == 11) zero(38, 44, length);
        }
        at += length;
    }
}

// The keys of a variable's first message that its attributes and name come from.
void readNames(codes_handle* h, GribMessage& m) {
    const auto text = [&](const char* key) { return handleText(h, key).value_or(""); };
    m.shortName = text("shortName");
    m.cfVarName = text("cfVarName");
    m.name = text("name");
    m.units = text("units");
    m.cfName = text("cfName");
    for (const char* key : kGlobalKeys)
        if (auto k = readKey(h, key)) m.globals.push_back(std::move(*k));
    for (const char* key : kDataKeys)
        if (auto k = readKey(h, key); k && !(k->text && (*k->text == "undef" || *k->text == "unknown")))
            m.attrs.push_back(std::move(*k));
    std::vector<const char*> extra(std::begin(kExtraKeys), std::end(kExtraKeys));
    const auto grid = gridKeys().find(m.gridType);
    if (grid != gridKeys().end()) extra.insert(extra.end(), grid->second.begin(), grid->second.end());
    std::sort(extra.begin(), extra.end(), [](const char* a, const char* b) { return std::strcmp(a, b) < 0; });
    for (const char* key : extra)
        if (auto k = readKey(h, key)) m.attrs.push_back(std::move(*k));
    GribKey missing;
    missing.name = "missingValue";
    missing.number = kGribMissing;
    m.attrs.push_back(missing);
}

} // namespace

bool gribGridIsRegular(const std::string& g) { return g == "regular_ll" || g == "regular_gg"; }
bool gribGridIsReduced(const std::string& g) { return g == "reduced_gg"; }
bool gribGridIsProjected(const std::string& g) {
    return g == "rotated_ll" || g == "rotated_gg" || g == "lambert" || g == "polar_stereographic" ||
           g == "lambert_azimuthal_equal_area" || g == "albers";
}

GribIndex indexGribFile(const RawFile& file, const std::string& what, bool shareKeys) {
    GribScan scan = scanGribMessages(file, what);
    GribIndex index;
    index.found = scan.found;
    std::vector<std::pair<int, std::string>> numbered = std::move(scan.problems);
    const std::size_t n = scan.messages.size();
    std::vector<GribMessage> messages(n);
    std::vector<std::string> problems(n);
    // GRIB 2 messages are read to their data section only; each keeps its masked header, and
    // the keys it shares are read once per distinct header (below).
    std::vector<std::vector<unsigned char>> headers(n);
    ioParallel(n, [&](std::size_t i) {
        GribMessage& m = messages[i];
        m.span = scan.messages[i];
        if (const CancelToken* cancel = CancelScope::current()) cancel->throwIfCancelled("indexing " + what);
        try {
            if (shareKeys)
                if (auto h = GribHandle::readHeaders(file, m.span, what, scratch, headers[i])) {
                    maskHeader(headers[i]);
                    problems[i] = readOwn(h->get(), m);
                    return;
                }
            headers[i].clear();
            const GribHandle h = GribHandle::read(file, m.span, what, scratch);
            problems[i] = readMessage(h.get(), m);
        } catch (const CancelledError&) {
            throw;
        } catch (const Error& e) {
            headers[i].clear();
            problems[i] = e.what();
        }
    });
    std::map<std::string, std::vector<std::size_t>> sharing; // masked header → messages
    for (std::size_t i = 0; i < n; ++i)
        if (!headers[i].empty() && problems[i].empty())
            sharing[std::string(headers[i].begin(), headers[i].end())].push_back(i);
    std::vector<const std::vector<std::size_t>*> groups;
    for (const auto& [header, members] : sharing) groups.push_back(&members);
    ioParallel(groups.size(), [&](std::size_t g) {
        const std::vector<std::size_t>& members = *groups[g];
        GribMessage shared;
        std::string problem;
        try {
            std::vector<unsigned char> unused;
            auto h = GribHandle::readHeaders(file, messages[members.front()].span, what, scratch, unused);
            problem = h ? readShared(h->get(), shared) : "ecCodes cannot parse it" + ecCodesSays();
        } catch (const CancelledError&) {
            throw;
        } catch (const Error& e) {
            problem = e.what();
        }
        for (std::size_t i : members) {
            GribMessage& m = messages[i];
            problems[i] = problem;
            m.gridType = shared.gridType;
            m.packingType = shared.packingType;
            m.typeOfLevel = shared.typeOfLevel;
            m.stepType = shared.stepType;
            m.paramId = shared.paramId;
            m.numberOfPoints = shared.numberOfPoints;
            m.ni = shared.ni;
            m.nj = shared.nj;
            m.alternativeRows = shared.alternativeRows;
            m.gridSignature = shared.gridSignature;
        }
    });
    // The names and attributes of each variable's first message (per level type, step type,
    // grid and parameter: where grib_cube.h takes them from), read once each.
    std::set<std::tuple<std::string, std::string, std::string, long>> seen;
    std::vector<std::size_t> firsts;
    for (std::size_t i = 0; i < messages.size(); ++i)
        if (problems[i].empty() && seen.insert({messages[i].typeOfLevel, messages[i].stepType,
                                                messages[i].gridSignature, messages[i].paramId})
                                       .second)
            firsts.push_back(i);
    ioParallel(firsts.size(), [&](std::size_t k) {
        GribMessage& m = messages[firsts[k]];
        try {
            const GribHandle h = GribHandle::read(file, m.span, what, scratch);
            readNames(h.get(), m);
        } catch (const CancelledError&) {
            throw;
        } catch (const Error&) {
            // it was read a moment ago: a file changed under us reads without names
        }
    });
    for (std::size_t i = 0; i < messages.size(); ++i) {
        if (problems[i].empty()) {
            index.messages.push_back(std::move(messages[i]));
        } else {
            const GribSpan& s = scan.messages[i];
            // GribHandle's errors begin with the file and the message: said once, below.
            std::string why = problems[i];
            const std::string prefix = what + ": message " + std::to_string(s.number) + ": ";
            if (why.compare(0, prefix.size(), prefix) == 0) why.erase(0, prefix.size());
            numbered.emplace_back(s.number, "message " + std::to_string(s.number) + " (at byte " +
                                                std::to_string(s.offset) + "): " + why + "; skipped");
        }
    }
    std::stable_sort(numbered.begin(), numbered.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [number, line] : numbered) index.problems.push_back(std::move(line));
    return index;
}

} // namespace strata::io::detail
