#pragma once
// FrameCache: frames computed before, by the frame they are (FrameKey), each with its colours
// when it was colour-mapped on the worker. Least recently used first out, bounded by bytes (a
// frame's and its colours'). Not thread-safe: its owner locks around it.
#include <cstddef>
#include <list>
#include <memory>
#include <optional>
#include <unordered_map>

#include "strata/core/data_array.h"
#include "strata/core/fallback.h"
#include "strata/core/view.h"

namespace strata {
struct ColouredFrame;  // render's: the cache only keeps it
struct TracedIsolines; // render's too
} // namespace strata

namespace strata::app {

struct CachedFrame {
    FrameKey key;
    DataArray frame;
    FallbackNote fallback;
    std::size_t bytes = 0;                          // the frame's, the colours' and the isolines'
    std::shared_ptr<const ColouredFrame> coloured;  // with the colours of the spec it was made for
    std::shared_ptr<const TracedIsolines> isolines; // at the levels of the spec it was made for
};

class FrameCache {
public:
    explicit FrameCache(std::size_t limitBytes = std::size_t(512) << 20) : limit_(limitBytes) {}

    // A copy of the entry for `key`, which becomes the most recently used; nullopt when absent.
    std::optional<CachedFrame> find(const FrameKey& key);
    // Keeps `entry` (replacing the one of its key) as the most recently used, then evicts down
    // to the limit. False, and nothing changes, when the entry alone is over the limit.
    bool store(CachedFrame entry);
    // A new limit; the least recently used entries leave until the cache is within it.
    void setLimit(std::size_t bytes);
    std::size_t limit() const { return limit_; }
    void clear();
    // Drops the frames held on the host that were computed there by choice, not as a fallback
    // from a device that failed (those would only fall back again); returns how many went.
    std::size_t dropHostFrames();
    // Drops the frames of `variable` (a HEALPix pyramid's zoom no longer drawn); how many went.
    std::size_t dropVariable(const std::string& variable);

    std::size_t size() const { return entries_.size(); }
    std::size_t bytes() const { return bytes_; }

private:
    template <class Pred> std::size_t dropIf(Pred drop);
    void evict();

    std::list<CachedFrame> entries_; // most recent first
    std::unordered_map<FrameKey, std::list<CachedFrame>::iterator> index_;
    std::size_t bytes_ = 0, limit_;
};

// The bytes of `a`'s elements.
std::size_t bytesOf(const DataArray& a);

} // namespace strata::app
