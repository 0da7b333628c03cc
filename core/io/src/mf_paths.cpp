// expandPaths and fileSetLabel: the files a command line or a drop names, and a set's name.
#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "nc_call.h"
#include "strata/core/cancel.h"
#include "strata/core/error.h"
#include "strata/core/healpix_pyramid.h"
#include "strata/io/grib.h"
#include "strata/io/multifile.h"
#include "strata/io/zarr.h"

namespace strata::io {
namespace {

bool hasGlob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

bool isNcName(const std::filesystem::path& p) {
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext == ".nc" || ext == ".nc4" || ext == ".cdf" || ext == ".netcdf";
}

} // namespace

namespace {

// Zarr stores that are the zooms of one HEALPix pyramid (each on a HEALPix grid, of different
// nsides) as one Dataset (healpix_pyramid.h); nullopt for anything else (a record set).
std::optional<Dataset> openPyramid(const std::vector<std::string>& files, OpenNotes& notes) {
    if (files.size() < 2 ||
        !std::all_of(files.begin(), files.end(), [](const auto& f) { return looksLikeZarr(f); }))
        return std::nullopt;
    std::vector<Dataset> levels;
    std::set<std::int64_t> nsides;
    for (const std::string& f : files) {
        OpenNotes own;
        Dataset ds = openDatasetIsolated(f, own);
        const std::optional<std::int64_t> nside = healpix::nsideOf(ds);
        if (!nside) return std::nullopt; // not HEALPix: combined along records, or refused there
        nsides.insert(*nside);
        levels.push_back(std::move(ds));
        notes.lines.insert(notes.lines.end(), own.lines.begin(), own.lines.end());
        notes.warnings.insert(notes.warnings.end(), own.warnings.begin(), own.warnings.end());
    }
    if (nsides.size() == 1) return std::nullopt; // one zoom: stores along records
    Dataset ds = healpix::combinePyramid(std::move(levels), {});
    notes.lines.push_back(fileSetLabel(files) + ": " + healpix::pyramidOf(ds)->describe());
    return ds;
}

// Every path `args` name, repeats included, in order (directories and globs expanded).
std::vector<std::string> namedPaths(const std::vector<std::string>& args);

} // namespace

std::vector<std::string> expandPaths(const std::vector<std::string>& args) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const std::string& p : namedPaths(args))
        if (seen.insert(p).second) out.push_back(p);
    return out;
}

std::vector<std::string> repeatedPaths(const std::vector<std::string>& args) {
    std::vector<std::string> out;
    std::set<std::string> seen, told;
    for (const std::string& p : namedPaths(args))
        if (!seen.insert(p).second && told.insert(p).second) out.push_back(p);
    return out;
}

namespace {

std::vector<std::string> namedPaths(const std::vector<std::string>& args) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    auto add = [&](const std::string& p) { out.push_back(p); };
    for (const std::string& arg : args) {
        std::error_code ec;
        if (looksLikeZarr(arg)) {
            add(arg); // a Zarr store is a directory too: one dataset, not a folder of files
        } else if (fs::is_directory(arg, ec)) {
            std::vector<std::string> found;
            for (const auto& e : fs::directory_iterator(arg, ec))
                if (!e.is_directory(ec) && isNcName(e.path())) found.push_back(e.path().string());
            STRATA_EXPECTS(!found.empty(), ValueError,
                           "'" + arg + "' is a directory without netCDF files (*.nc, *.nc4, *.cdf)");
            std::sort(found.begin(), found.end());
            for (const auto& f : found) add(f);
        } else if (!fs::exists(arg, ec) && hasGlob(arg) && arg.find("://") == std::string::npos) {
            glob_t g{};
            const int rc = ::glob(arg.c_str(), GLOB_NOSORT, nullptr, &g);
            std::vector<std::string> found;
            for (std::size_t i = 0; rc == 0 && i < g.gl_pathc; ++i)
                if (!fs::is_directory(g.gl_pathv[i], ec) || looksLikeZarr(g.gl_pathv[i]))
                    found.push_back(g.gl_pathv[i]); // files, and Zarr stores (a pyramid's zooms)
            ::globfree(&g);
            STRATA_EXPECTS(!found.empty(), ValueError, "no file matches '" + arg + "'");
            std::sort(found.begin(), found.end());
            for (const auto& f : found) add(f);
        } else {
            add(arg); // a missing file is named when it is opened
        }
    }
    return out;
}

} // namespace

std::string fileSetLabel(const std::vector<std::string>& files) {
    if (files.size() < 2) return fileSetPattern(files);
    return fileSetPattern(files) + " (" + std::to_string(files.size()) + " files)";
}

std::string fileSetPattern(const std::vector<std::string>& files) {
    if (files.empty()) return {};
    std::vector<std::string> names;
    for (const auto& f : files) names.push_back(detail::fileName(f));
    if (names.size() == 1) return names[0];
    std::size_t pre = names[0].size(), suf = names[0].size();
    for (const auto& n : names) {
        std::size_t i = 0;
        while (i < pre && i < n.size() && n[i] == names[0][i]) ++i;
        pre = i;
        std::size_t j = 0;
        while (j < suf && j < n.size() && n[n.size() - 1 - j] == names[0][names[0].size() - 1 - j]) ++j;
        suf = j;
    }
    const std::size_t shortest = std::min_element(names.begin(), names.end(), [](auto& a, auto& b) {
                                     return a.size() < b.size();
                                 })->size();
    if (pre + suf > shortest) suf = shortest - pre;
    const std::string& n0 = names[0];
    return n0.substr(0, pre) + "*" + n0.substr(n0.size() - suf);
}

Dataset openPaths(const std::vector<std::string>& args, OpenNotes& notes, const MultiOpenOptions& options) {
    const CancelScope scope(options.cancel); // a read waiting on the network aborts at once
    const std::vector<std::string> files = expandPaths(args);
    STRATA_EXPECTS(!files.empty(), ValueError, "no file to open");
    for (const std::string& p : repeatedPaths(args))
        notes.warnings.push_back(p + " is named more than once: read once");
    const std::string what = "opening " + fileSetLabel(files);
    options.cancel.throwIfCancelled(what);
    // GRIB files pool their messages (grib.h); other files combine along their record dim.
    const bool grib = files.size() > 1 &&
                      std::all_of(files.begin(), files.end(), [](const auto& f) { return looksLikeGrib(f); });
    if (grib) checkGribFilesInChildProcess(files); // ecCodes meets them first in a child, as one file
    std::optional<Dataset> pyramid = grib ? std::nullopt : openPyramid(files, notes);
    Dataset ds = pyramid             ? std::move(*pyramid)
                 : files.size() == 1 ? openDatasetIsolated(files[0], notes)
                 : grib              ? openGribFiles(files, notes)
                                     : openMultiDataset(files, notes, options);
    // A member whose read was aborted is left out with a note: the open is cancelled all the same.
    options.cancel.throwIfCancelled(what);
    return ds;
}

std::string fileSetSummary(const std::vector<std::string>& files) {
    std::string out = "File set: " + fileSetLabel(files) + ", in record order\n";
    constexpr std::size_t kEnds = 5;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (files.size() > 2 * kEnds + 1 && i == kEnds) {
            out += "    ... (" + std::to_string(files.size() - 2 * kEnds) + " more)\n";
            i = files.size() - kEnds - 1;
            continue;
        }
        out += "    " + files[i] + "\n";
    }
    return out;
}

} // namespace strata::io
