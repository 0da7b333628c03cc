#include "frame_cache.h"

namespace strata::app {

std::size_t bytesOf(const DataArray& a) { return static_cast<std::size_t>(a.size()) * sizeOf(a.dtype()); }

std::optional<CachedFrame> FrameCache::find(const FrameKey& key) {
    const auto found = index_.find(key);
    if (found == index_.end()) return std::nullopt;
    entries_.splice(entries_.begin(), entries_, found->second); // the most recent first
    return entries_.front();
}

bool FrameCache::store(CachedFrame entry) {
    if (entry.bytes > limit_) return false;
    if (const auto had = index_.find(entry.key); had != index_.end()) {
        bytes_ -= had->second->bytes;
        entries_.erase(had->second);
        index_.erase(had);
    }
    bytes_ += entry.bytes;
    entries_.push_front(std::move(entry));
    index_.emplace(entries_.front().key, entries_.begin());
    evict();
    return true;
}

void FrameCache::setLimit(std::size_t bytes) {
    limit_ = bytes;
    evict();
}

void FrameCache::clear() {
    entries_.clear();
    index_.clear();
    bytes_ = 0;
}

template <class Pred> std::size_t FrameCache::dropIf(Pred drop) {
    std::size_t dropped = 0;
    for (auto it = entries_.begin(); it != entries_.end();) {
        if (drop(*it)) {
            bytes_ -= it->bytes;
            index_.erase(it->key);
            it = entries_.erase(it);
            ++dropped;
        } else {
            ++it;
        }
    }
    return dropped;
}

std::size_t FrameCache::dropHostFrames() {
    return dropIf([](const CachedFrame& e) { return e.frame.device().isHost() && !e.fallback.fellBack; });
}

std::size_t FrameCache::dropVariable(const std::string& variable) {
    return dropIf([&](const CachedFrame& e) { return e.key.variable == variable; });
}

void FrameCache::evict() {
    while (bytes_ > limit_ && !entries_.empty()) {
        bytes_ -= entries_.back().bytes;
        index_.erase(entries_.back().key);
        entries_.pop_back();
    }
}

} // namespace strata::app
