// A GIF's one palette (MoviePalette in movie_writer.h): the colours themselves when there are
// 256 or fewer, else a median cut weighted by pixels. Compiled into the movie module, which
// uses it, and into the tests that check it.
#include <algorithm>
#include <array>
#include <cmath>

#include "movie_writer.h"

namespace strata::app {
namespace {

// A box of the median cut: colours [begin, end) of the list, with their pixels.
struct Box {
    std::size_t begin, end;
    std::uint64_t pixels;
};

} // namespace

MoviePalette MoviePalette::from(const std::unordered_map<QRgb, std::uint64_t>& histogram) {
    MoviePalette p;
    std::vector<std::pair<QRgb, std::uint64_t>> colours(histogram.begin(), histogram.end());
    std::sort(colours.begin(), colours.end()); // the same palette whatever the map's order
    if (colours.size() <= 256) {
        for (const auto& c : colours) p.colours_.push_back(c.first | 0xff000000u);
    } else {
        std::vector<Box> boxes{{0, colours.size(), 0}};
        for (const auto& c : colours) boxes[0].pixels += c.second;
        while (boxes.size() < 256) {
            // The box with the most pixels among those of more than one colour, cut at its
            // pixels' median along its widest channel.
            auto widest = boxes.end();
            for (auto b = boxes.begin(); b != boxes.end(); ++b)
                if (b->end - b->begin > 1 && (widest == boxes.end() || b->pixels > widest->pixels))
                    widest = b;
            if (widest == boxes.end()) break;
            const Box box = *widest;
            std::array<int, 3> lo{255, 255, 255}, hi{0, 0, 0};
            const auto channel = [](QRgb c, int k) {
                return k == 0 ? qRed(c) : k == 1 ? qGreen(c) : qBlue(c);
            };
            for (std::size_t i = box.begin; i < box.end; ++i)
                for (int k = 0; k < 3; ++k) {
                    lo[std::size_t(k)] = std::min(lo[std::size_t(k)], channel(colours[i].first, k));
                    hi[std::size_t(k)] = std::max(hi[std::size_t(k)], channel(colours[i].first, k));
                }
            int k = 0;
            for (int j = 1; j < 3; ++j)
                if (hi[std::size_t(j)] - lo[std::size_t(j)] > hi[std::size_t(k)] - lo[std::size_t(k)]) k = j;
            std::sort(colours.begin() + std::ptrdiff_t(box.begin), colours.begin() + std::ptrdiff_t(box.end),
                      [&](const auto& a, const auto& b) {
                          return channel(a.first, k) != channel(b.first, k)
                                     ? channel(a.first, k) < channel(b.first, k)
                                     : a.first < b.first;
                      });
            std::uint64_t seen = 0;
            std::size_t cut = box.begin + 1;
            for (std::size_t i = box.begin; i + 1 < box.end; ++i) {
                seen += colours[i].second;
                cut = i + 1;
                if (2 * seen >= box.pixels) break;
            }
            std::uint64_t first = 0;
            for (std::size_t i = box.begin; i < cut; ++i) first += colours[i].second;
            *widest = {box.begin, cut, first};
            boxes.push_back({cut, box.end, box.pixels - first});
        }
        for (const Box& b : boxes) { // each box's colour: its pixels' mean
            double sum[3] = {0, 0, 0};
            for (std::size_t i = b.begin; i < b.end; ++i) {
                const double w = double(colours[i].second);
                sum[0] += w * qRed(colours[i].first);
                sum[1] += w * qGreen(colours[i].first);
                sum[2] += w * qBlue(colours[i].first);
            }
            const double n = std::max<double>(1, double(b.pixels));
            p.colours_.push_back(qRgb(int(std::lround(sum[0] / n)), int(std::lround(sum[1] / n)),
                                      int(std::lround(sum[2] / n))));
        }
    }
    for (std::size_t i = 0; i < p.colours_.size(); ++i)
        p.exact_.emplace(p.colours_[i] | 0xff000000u, std::uint8_t(i));
    p.nearest_.resize(std::size_t(1) << 18);
    for (std::size_t bin = 0; bin < p.nearest_.size(); ++bin) {
        const int r = int((bin >> 12) & 63) * 4 + 2, g = int((bin >> 6) & 63) * 4 + 2,
                  b = int(bin & 63) * 4 + 2;
        int best = 0;
        long bestD = -1;
        for (std::size_t i = 0; i < p.colours_.size(); ++i) {
            const long dr = qRed(p.colours_[i]) - r, dg = qGreen(p.colours_[i]) - g,
                       db = qBlue(p.colours_[i]) - b;
            const long d = dr * dr + dg * dg + db * db;
            if (bestD < 0 || d < bestD) {
                bestD = d;
                best = int(i);
            }
        }
        p.nearest_[bin] = std::uint8_t(best);
    }
    return p;
}

std::uint8_t MoviePalette::indexOf(QRgb c) const {
    if (const auto it = exact_.find(c | 0xff000000u); it != exact_.end()) return it->second;
    return nearest_[(std::size_t(qRed(c) >> 2) << 12) | (std::size_t(qGreen(c) >> 2) << 6) |
                    std::size_t(qBlue(c) >> 2)];
}

} // namespace strata::app
