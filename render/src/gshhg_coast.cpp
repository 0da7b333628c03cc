#include "gshhg_coast.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include "strata/io/gshhg.h"

namespace strata::detail {
namespace {

// Points of decoded bins a level keeps (16 bytes each): past it, bins off the view are dropped.
constexpr std::size_t kCachedPoints = 2'000'000;

LonLatLine toLine(io::GshhgPiece&& p) {
    LonLatLine l;
    const auto [lo, hi] = std::minmax_element(p.lon.begin(), p.lon.end());
    const auto [bo, to] = std::minmax_element(p.lat.begin(), p.lat.end());
    l.lonMin = *lo;
    l.lonMax = *hi;
    l.latMin = *bo;
    l.latMax = *to;
    l.lon = std::move(p.lon);
    l.lat = std::move(p.lat);
    return l;
}

class GshhgReader : public CoastReader {
public:
    explicit GshhgReader(std::string path) : path_(std::move(path)) {}

    std::shared_ptr<const std::vector<LonLatLine>> lines(const LonLatBox& box) const override {
        std::lock_guard lock(mutex_);
        const io::GshhgFile& f = file();
        const io::GshhgHeader& h = f.header();
        const std::vector<int> bins = binsMeeting(box, h.binDegrees(), h.nx, h.ny);
        if (last_ && bins == lastBins_) return last_;
        for (std::size_t i = 0; i < bins.size();) { // the missing bins, a row's run at a time
            if (cache_.count(bins[i])) {
                ++i;
                continue;
            }
            std::size_t j = i + 1;
            while (j < bins.size() && bins[j] == bins[j - 1] + 1 && bins[j] / h.nx == bins[i] / h.nx &&
                   !cache_.count(bins[j]))
                ++j;
            auto pieces = f.readBins(bins[i], static_cast<int>(j - i));
            for (std::size_t k = 0; k < pieces.size(); ++k) {
                std::vector<LonLatLine> lines;
                for (io::GshhgPiece& p : pieces[k]) {
                    cachedPoints_ += p.lon.size();
                    lines.push_back(toLine(std::move(p)));
                }
                cache_[bins[i + k]] = std::move(lines);
            }
            i = j;
        }
        auto out = std::make_shared<std::vector<LonLatLine>>();
        for (int b : bins) {
            const auto& lines = cache_.at(b);
            out->insert(out->end(), lines.begin(), lines.end());
        }
        if (cachedPoints_ > kCachedPoints) forgetAllBut(bins);
        last_ = std::move(out);
        lastBins_ = bins;
        return last_;
    }

    std::string origin() const override {
        std::lock_guard lock(mutex_);
        const std::string& version = file().header().version;
        return version.empty() ? "GSHHG" : "GSHHG " + version;
    }

private:
    // Opened on first use; an unreadable file is tried again (and named again) each time.
    const io::GshhgFile& file() const {
        if (!file_) file_ = std::make_unique<const io::GshhgFile>(path_);
        return *file_;
    }
    void forgetAllBut(const std::vector<int>& keep) const {
        for (auto it = cache_.begin(); it != cache_.end();) {
            if (std::binary_search(keep.begin(), keep.end(), it->first)) {
                ++it;
                continue;
            }
            for (const LonLatLine& l : it->second) cachedPoints_ -= l.lon.size();
            it = cache_.erase(it);
        }
    }

    std::string path_;
    mutable std::mutex mutex_; // guards all below
    mutable std::unique_ptr<const io::GshhgFile> file_;
    mutable std::map<int, std::vector<LonLatLine>> cache_; // decoded bins
    mutable std::size_t cachedPoints_ = 0;
    mutable std::vector<int> lastBins_; // the last answer, given again for the same bins
    mutable std::shared_ptr<const std::vector<LonLatLine>> last_;
};

} // namespace

std::shared_ptr<const CoastReader> makeGshhgReader(std::string path) {
    return std::make_shared<const GshhgReader>(std::move(path));
}

std::vector<int> binsMeeting(const LonLatBox& box, double binDegrees, int nx, int ny) {
    for (double v : {box.lonMin, box.lonMax, box.latMin, box.latMax})
        if (!std::isfinite(v)) return {};
    const double lonLo = std::min(box.lonMin, box.lonMax), lonHi = std::max(box.lonMin, box.lonMax);
    const double latLo = std::max(-90.0, std::min(box.latMin, box.latMax));
    const double latHi = std::min(90.0, std::max(box.latMin, box.latMax));
    if (!(latLo <= latHi) || binDegrees <= 0) return {};
    const int rowTop = std::clamp(static_cast<int>(std::floor((90 - latHi) / binDegrees)), 0, ny - 1);
    const int rowBottom =
        std::clamp(static_cast<int>(std::ceil((90 - latLo) / binDegrees)) - 1, rowTop, ny - 1);
    std::vector<int> cols;
    if (lonHi - lonLo >= 360) {
        for (int c = 0; c < nx; ++c) cols.push_back(c);
    } else {
        const double start = lonLo - 360 * std::floor(lonLo / 360); // in [0, 360)
        const long c0 = static_cast<long>(std::floor(start / binDegrees));
        const long c1 = std::clamp(static_cast<long>(std::ceil((start + lonHi - lonLo) / binDegrees)) - 1, c0,
                                   c0 + nx - 1);
        for (long c = c0; c <= c1; ++c) cols.push_back(static_cast<int>(c % nx));
        std::sort(cols.begin(), cols.end());
    }
    std::vector<int> out;
    for (int r = rowTop; r <= rowBottom; ++r)
        for (int c : cols) out.push_back(r * nx + c);
    return out;
}

} // namespace strata::detail
