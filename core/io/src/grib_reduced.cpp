#include "grib_reduced.h"

#include <algorithm>
#include <cmath>

namespace strata::io::detail {

GribReducedGrid gribReducedGrid(const std::vector<long>& pl, long n, const std::vector<double>& lat,
                                const std::vector<double>& lon, std::string& problem) {
    GribReducedGrid g;
    std::int64_t total = 0;
    for (long p : pl) total += p > 0 ? p : 0;
    if (pl.empty() || total != std::int64_t(lat.size()) || lat.size() != lon.size()) {
        problem = "its pl gives " + std::to_string(total) + " points in " + std::to_string(pl.size()) +
                  " rows, ecCodes " + std::to_string(lat.size()) + " latitudes and " +
                  std::to_string(lon.size()) + " longitudes";
        return {};
    }
    std::vector<double> rowLat;
    std::int64_t at = 0;
    for (std::size_t j = 0; j < pl.size(); ++j) {
        const std::int64_t count = pl[j] > 0 ? pl[j] : 0;
        if (count == 0) continue; // a row without points (a sub-area's) has no cells
        const std::size_t first = std::size_t(at), last = std::size_t(at + count - 1);
        for (std::size_t k = first; k <= last; ++k)
            if (std::abs(lat[k] - lat[first]) > 1e-9) {
                problem = "row " + std::to_string(j + 1) + "'s points lie on more than one latitude";
                return {};
            }
        if (!rowLat.empty() && !(lat[first] < rowLat.back())) {
            problem = "its rows do not run from north to south (row " + std::to_string(j + 1) + ")";
            return {};
        }
        double width = 360.0;
        if (count > 1) {
            width = std::fmod(lon[last] - lon[first] + 720.0, 360.0);
            width = width / double(count - 1);
        }
        g.rowStart.push_back(at);
        g.west.push_back(lon[first]);
        g.step.push_back(width > 0 ? width : 360.0 / double(count));
        rowLat.push_back(lat[first]);
        at += count;
    }
    g.rowStart.push_back(at);
    const std::size_t rows = rowLat.size();
    // Half a spacing beyond the outer rows; the poles there when the grid has all 2N rows.
    const bool global = long(pl.size()) == 2 * n && rows == pl.size();
    const double outer = rows > 1 ? (rowLat[0] - rowLat[rows - 1]) / double(2 * (rows - 1)) : 90.0;
    g.north.resize(rows);
    g.south.resize(rows);
    for (std::size_t j = 0; j < rows; ++j) {
        g.north[j] =
            j == 0 ? (global ? 90.0 : std::min(90.0, rowLat[0] + outer)) : 0.5 * (rowLat[j - 1] + rowLat[j]);
        g.south[j] = j + 1 == rows ? (global ? -90.0 : std::max(-90.0, rowLat[j] - outer))
                                   : 0.5 * (rowLat[j] + rowLat[j + 1]);
    }
    return g;
}

std::vector<double> GribReducedGrid::nodeLongitudes() const {
    std::vector<double> out;
    out.reserve(std::size_t(nodes()));
    for (std::size_t j = 0; j < north.size(); ++j) {
        const std::int64_t count = rowStart[j + 1] - rowStart[j];
        for (int edge = 0; edge < 2; ++edge)
            for (std::int64_t i = 0; i <= count; ++i) out.push_back(west[j] + (double(i) - 0.5) * step[j]);
    }
    return out;
}

std::vector<double> GribReducedGrid::nodeLatitudes() const {
    std::vector<double> out;
    out.reserve(std::size_t(nodes()));
    for (std::size_t j = 0; j < north.size(); ++j) {
        const std::int64_t count = rowStart[j + 1] - rowStart[j];
        out.insert(out.end(), std::size_t(count + 1), north[j]);
        out.insert(out.end(), std::size_t(count + 1), south[j]);
    }
    return out;
}

std::vector<double> GribReducedGrid::faceNodes() const {
    std::vector<double> out;
    out.reserve(std::size_t(points()) * 4);
    for (std::size_t j = 0; j < north.size(); ++j) {
        const std::int64_t count = rowStart[j + 1] - rowStart[j];
        const std::int64_t top = 2 * (rowStart[j] + std::int64_t(j)), bottom = top + count + 1;
        for (std::int64_t i = 0; i < count; ++i)
            out.insert(out.end(),
                       {double(bottom + i), double(bottom + i + 1), double(top + i + 1), double(top + i)});
    }
    return out;
}

} // namespace strata::io::detail
