// GMT's binned GSHHG shorelines: the header and bin index read at open, a run of bins' pieces
// decoded on demand (see gshhg.h for the layout's meaning).
#include "strata/io/gshhg.h"

#include <netcdf.h>

#include <algorithm>
#include <cstdint>

#include "nc_call.h"
#include "nc_file.h"
#include "strata/core/error.h"

namespace strata::io {
namespace {

using detail::check;
using detail::NetcdfLock;
using detail::netcdfMutex;

constexpr const char* kFirstSegment = "Id_of_first_segment_in_a_bin";
constexpr const char* kSegmentCount = "N_segments_in_a_bin";
constexpr const char* kSegmentInfo = "Embedded_npts_levels_exit_entry_for_a_segment";
constexpr const char* kFirstPoint = "Id_of_first_point_in_a_segment";
constexpr const char* kDx = "Relative_longitude_from_SW_corner_of_bin";
constexpr const char* kDy = "Relative_latitude_from_SW_corner_of_bin";

// A segment's packed word: points << 9 | level << 6 | entry << 3 | exit.
int levelOf(std::int32_t info) { return (info >> 6) & 7; }
long pointsOf(std::int32_t info) { return info >> 9; }

} // namespace

struct GshhgFile::Impl {
    std::shared_ptr<const detail::NcFile> file;
    GshhgHeader header;
    std::vector<std::int32_t> firstSegment;
    std::vector<std::int16_t> segmentCount;
    int info = -1, firstPoint = -1, dx = -1, dy = -1; // variable ids

    [[noreturn]] void damaged(const std::string& what) const {
        STRATA_FAIL(IoError, "the GSHHG file " + file->path() + " is damaged: " + what);
    }
    int var(const char* name) const {
        int id = -1;
        if (nc_inq_varid(file->id(), name, &id) != NC_NOERR)
            STRATA_FAIL(IoError, "the file " + file->path() + " is not a GSHHG binned shoreline file (no " +
                                     name + ")");
        return id;
    }
    long length(int id) const {
        int dim = -1, ndims = 0;
        check(nc_inq_varndims(file->id(), id, &ndims),
              "cannot read the shape of a variable of " + file->path());
        if (ndims != 1) damaged("a 1-D array has " + std::to_string(ndims) + " dims");
        check(nc_inq_vardimid(file->id(), id, &dim),
              "cannot read the shape of a variable of " + file->path());
        std::size_t n = 0;
        check(nc_inq_dimlen(file->id(), dim, &n), "cannot read a dimension of " + file->path());
        return static_cast<long>(n);
    }
    long scalar(const char* name) const {
        int value = 0;
        check(nc_get_var_int(file->id(), var(name), &value),
              std::string("cannot read ") + name + " from " + file->path());
        return value;
    }
    std::string text(const char* name) const {
        std::size_t n = 0;
        if (nc_inq_attlen(file->id(), NC_GLOBAL, name, &n) != NC_NOERR) return {};
        std::string s(n, '\0');
        check(nc_get_att_text(file->id(), NC_GLOBAL, name, s.data()),
              std::string("cannot read the attribute ") + name + " of " + file->path());
        while (!s.empty() && s.back() == '\0') s.pop_back();
        return s;
    }
    void read(int id, long start, long count, std::int32_t* out, const char* name) const {
        const std::size_t s = std::size_t(start), c = std::size_t(count);
        check(nc_get_vara_int(file->id(), id, &s, &c, out),
              std::string("cannot read ") + name + " from " + file->path());
    }
    void read(int id, long start, long count, std::int16_t* out, const char* name) const {
        const std::size_t s = std::size_t(start), c = std::size_t(count);
        check(nc_get_vara_short(file->id(), id, &s, &c, out),
              std::string("cannot read ") + name + " from " + file->path());
    }
};

GshhgFile::GshhgFile(const std::string& path) : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.file = detail::NcFile::open(path);
    NetcdfLock lock(netcdfMutex());
    GshhgHeader& h = m.header;
    h.binMinutes = int(m.scalar("Bin_size_in_minutes"));
    h.nx = int(m.scalar("N_bins_in_360_longitude_range"));
    h.ny = int(m.scalar("N_bins_in_180_degree_latitude_range"));
    h.segments = m.scalar("N_segments_in_file");
    h.points = m.scalar("N_points_in_file");
    h.title = m.text("title");
    h.source = m.text("source");
    h.version = m.text("version");
    if (h.binMinutes <= 0 || long(h.nx) * h.binMinutes != 360 * 60 || long(h.ny) * h.binMinutes != 180 * 60)
        m.damaged("bins of " + std::to_string(h.binMinutes) + "' do not tile the globe in " +
                  std::to_string(h.nx) + " × " + std::to_string(h.ny));
    if (m.scalar("N_bins_in_file") != h.bins()) m.damaged("N_bins_in_file is not nx × ny");
    const int first = m.var(kFirstSegment), count = m.var(kSegmentCount);
    m.info = m.var(kSegmentInfo);
    m.firstPoint = m.var(kFirstPoint);
    m.dx = m.var(kDx);
    m.dy = m.var(kDy);
    if (m.length(first) != h.bins() || m.length(count) != h.bins())
        m.damaged("the bin arrays are not nx × ny long");
    if (m.length(m.info) != h.segments || m.length(m.firstPoint) != h.segments)
        m.damaged("the segment arrays are not N_segments_in_file long");
    if (m.length(m.dx) != h.points || m.length(m.dy) != h.points)
        m.damaged("the point arrays are not N_points_in_file long");
    m.firstSegment.resize(std::size_t(h.bins()));
    m.segmentCount.resize(std::size_t(h.bins()));
    m.read(first, 0, h.bins(), m.firstSegment.data(), kFirstSegment);
    m.read(count, 0, h.bins(), m.segmentCount.data(), kSegmentCount);
    for (int b = 0; b < h.bins(); ++b) {
        const long s0 = m.firstSegment[std::size_t(b)], n = m.segmentCount[std::size_t(b)];
        if (s0 < 0 || n < 0 || s0 + n > h.segments)
            m.damaged("bin " + std::to_string(b) + "'s segments " + std::to_string(s0) + " + " +
                      std::to_string(n) + " pass the file's " + std::to_string(h.segments));
    }
}

GshhgFile::~GshhgFile() = default; // NcFile closes under the lock

const std::string& GshhgFile::path() const { return impl_->file->path(); }
const GshhgHeader& GshhgFile::header() const { return impl_->header; }
int GshhgFile::firstSegment(int bin) const { return impl_->firstSegment.at(std::size_t(bin)); }
int GshhgFile::segmentCount(int bin) const { return impl_->segmentCount.at(std::size_t(bin)); }

std::vector<std::vector<GshhgPiece>> GshhgFile::readBins(int first, int count) const {
    const Impl& m = *impl_;
    const GshhgHeader& h = m.header;
    STRATA_EXPECTS(first >= 0 && count >= 0 && first + count <= h.bins(), ValueError,
                   "bins " + std::to_string(first) + " + " + std::to_string(count) + " are off " +
                       m.file->path() + " (" + std::to_string(h.bins()) + " bins)");
    std::vector<std::vector<GshhgPiece>> out(static_cast<std::size_t>(count));
    if (count == 0) return out;
    // The run's segments, then their points: both contiguous in the file.
    const long s0 = m.firstSegment[std::size_t(first)];
    long s1 = s0;
    for (int b = first; b < first + count; ++b) {
        if (m.firstSegment[std::size_t(b)] != s1)
            m.damaged("bin " + std::to_string(b) + "'s segments do not follow the bin before");
        s1 += m.segmentCount[std::size_t(b)];
    }
    if (s1 == s0) return out;
    std::vector<std::int32_t> info(std::size_t(s1 - s0)), start(std::size_t(s1 - s0));
    std::vector<std::int16_t> dx, dy;
    long p0 = 0;
    {
        NetcdfLock lock(netcdfMutex());
        m.read(m.info, s0, s1 - s0, info.data(), kSegmentInfo);
        m.read(m.firstPoint, s0, s1 - s0, start.data(), kFirstPoint);
        p0 = start.front();
        long p1 = p0;
        for (std::size_t s = 0; s < info.size(); ++s) {
            const long n = pointsOf(info[s]);
            if (n < 0 || start[s] < p0 || start[s] + n > h.points)
                m.damaged("segment " + std::to_string(s0 + long(s)) + "'s points " +
                          std::to_string(start[s]) + " + " + std::to_string(n) +
                          " are off the point arrays (" + std::to_string(h.points) + ")");
            p1 = std::max(p1, start[s] + n);
        }
        dx.resize(std::size_t(p1 - p0));
        dy.resize(std::size_t(p1 - p0));
        if (p1 > p0) {
            m.read(m.dx, p0, p1 - p0, dx.data(), kDx);
            m.read(m.dy, p0, p1 - p0, dy.data(), kDy);
        }
    }
    const double bs = h.binDegrees(), scale = bs / 65535.0;
    std::size_t s = 0;
    for (int b = first; b < first + count; ++b) {
        const int row = b / h.nx, col = b % h.nx;
        const double west = col * bs >= 180 ? col * bs - 360 : col * bs, south = 90 - (row + 1) * bs;
        auto& pieces = out[std::size_t(b - first)];
        for (int k = 0; k < m.segmentCount[std::size_t(b)]; ++k, ++s) {
            const int level = levelOf(info[s]);
            if (level < 1 || level > 4) continue; // 6: the Antarctic grounding line, an alternative
            GshhgPiece piece;
            piece.level = level;
            const long n = pointsOf(info[s]), at = start[s] - p0;
            std::uint16_t lastU = 0, lastV = 0;
            for (long i = 0; i < n; ++i) {
                // Stored as signed shorts, meant as 0 … 65535.
                const auto u = static_cast<std::uint16_t>(dx[std::size_t(at + i)]);
                const auto v = static_cast<std::uint16_t>(dy[std::size_t(at + i)]);
                if (i > 0 && u == lastU && v == lastV) continue;
                piece.lon.push_back(west + u * scale);
                piece.lat.push_back(south + v * scale);
                lastU = u;
                lastV = v;
            }
            if (piece.lon.size() >= 2) pieces.push_back(std::move(piece));
        }
    }
    return out;
}

} // namespace strata::io
