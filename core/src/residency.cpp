// Residency: the budget, the reservations, least-recently-used eviction and the background loads.
#include "strata/core/residency.h"

#include <unistd.h>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "strata/core/data_source.h"
#include "strata/core/error.h"
#include "strata/core/memory_budget.h"
#include "strata/core/runtime.h"
#include "strata/core/settings.h"

namespace strata {
namespace {

constexpr double kDefaultShare = 0.6; // of free device memory, or of available host memory
constexpr int kLoaderNice = 10;       // the loading threads' nice value (Linux)

std::string gigabytes(std::size_t bytes) {
    char text[32];
    const double g = double(bytes) / 1e9;
    if (g >= 1)
        std::snprintf(text, sizeof text, "%.1f GB", g);
    else
        std::snprintf(text, sizeof text, "%.0f MB", std::ceil(double(bytes) / 1e6));
    return text;
}

// Why `var` is never loaded whole (its source computes each box elsewhere); empty: it may be.
std::string sourceRefusal(const DataArray& var) {
    const Variable& v = var.variable();
    if (v.isLoaded() || !v.source()) return {};
    return v.source()->wholeLoadRefusal();
}

} // namespace

std::string ResidencyStatus::describe() const {
    switch (state) {
    case Residence::None:
        return "not loaded";
    case Residence::Loading:
        return "loading " + std::to_string(int(std::floor(progress * 100))) + " %";
    case Residence::Resident:
        return (device.isHost() ? std::string("on the host") : "on GPU " + std::to_string(device.ordinal)) +
               " (" + gigabytes(bytes) + ")";
    case Residence::Streamed:
        return "streamed (" + reason + ")";
    case Residence::Failed:
        return "not loaded: " + reason;
    }
    return {};
}

std::size_t hostAvailableMemory() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::size_t kib = 0;
    while (meminfo >> key >> kib) {
        if (key == "MemAvailable:") return kib * 1024;
        meminfo.ignore(256, '\n');
    }
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : 0;
}

std::optional<std::size_t> parseResidentBudget(std::string_view text, std::size_t available) {
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (!text.empty() && text.back() == '%') {
        text.remove_suffix(1);
        const std::string number(text);
        char* end = nullptr;
        const double share = std::strtod(number.c_str(), &end);
        if (number.empty() || end != number.c_str() + number.size() || !(share > 0) || share > 100)
            return std::nullopt;
        return std::size_t(double(available) * share / 100);
    }
    return parseByteSize(text);
}

std::size_t defaultResidentBudget(Device device) {
    const std::size_t available = device.isHost() ? hostAvailableMemory() : deviceFreeMemory(device);
    if (const auto bytes = settings::residentBudget(available)) return *bytes;
    return std::size_t(double(available) * kDefaultShare);
}

Residency::Residency(std::size_t budgetBytes) : budget_(budgetBytes) {}

Residency::~Residency() {
    clear();
    wait();
}

std::size_t Residency::budget() const {
    std::lock_guard lock(mutex_);
    return budget_;
}

void Residency::setBudget(std::size_t bytes) {
    std::vector<std::string> changed;
    {
        std::lock_guard lock(mutex_);
        budget_ = bytes;
        // Streamed for want of room: decided again, under this budget, at its next request.
        for (auto& [key, e] : entries_)
            if (e.status.state == Residence::Streamed && e.overBudget) {
                e.status = ResidencyStatus{};
                e.overBudget = false;
                changed.push_back(key);
            }
        std::vector<std::string> held;
        for (const auto& [key, e] : entries_)
            if (e.data) held.push_back(key);
        makeRoomLocked(0);
        for (const std::string& key : held)
            if (!entries_.at(key).data) changed.push_back(key); // evicted
    }
    for (const std::string& key : changed) notify(key);
}

std::size_t Residency::heldBytes() const {
    std::lock_guard lock(mutex_);
    return heldLocked();
}

std::size_t Residency::heldLocked() const {
    std::size_t held = draining_;
    for (const auto& [key, e] : entries_) held += e.reserved + (e.data && !e.borrowed ? e.status.bytes : 0);
    return held;
}

void Residency::setSlabBytes(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    slabBytes_ = hostSlabBytes_ = std::max<std::size_t>(bytes, 1);
}

void Residency::setYielding(bool yielding) {
    {
        std::lock_guard lock(mutex_);
        yielding_ = yielding;
    }
    changed_.notify_all();
}

bool Residency::waitWhileLoading(const std::string& key, const CancelToken& cancel) {
    // Declared before the lock: it ends (and stops waking this) after the lock is let go.
    const CancelToken::Subscription wake = cancel.onCancel([this] {
        { const std::lock_guard lock(mutex_); } // the waiter is waiting, or sees the cancel first
        changed_.notify_all();
    });
    std::unique_lock lock(mutex_);
    auto loading = [&] {
        const auto it = entries_.find(key);
        return it != entries_.end() && it->second.status.state == Residence::Loading;
    };
    if (!loading()) return false;
    changed_.wait(lock, [&] { return !loading() || cancel.cancelled(); });
    if (loading()) cancel.throwIfCancelled("'" + key + "' was still loading");
    return true;
}

void Residency::setListener(std::function<void(const std::string&)> listener) {
    std::lock_guard lock(listenerMutex_);
    listener_ = std::move(listener);
}

std::optional<DataArray> Residency::get(const std::string& key) {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(key);
    if (it == entries_.end() || !it->second.data) return std::nullopt;
    it->second.lastUse = ++clock_;
    return it->second.data;
}

ResidencyStatus Residency::status(const std::string& key) const {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(key);
    return it == entries_.end() ? ResidencyStatus{} : it->second.status;
}

bool Residency::makeRoomLocked(std::size_t bytes) {
    while (heldLocked() + bytes > budget_) {
        // The least recently used variable that only this object holds (a frame being computed
        // from one, or an export, holds a reference of its own: that one is in use).
        Entry* victim = nullptr;
        for (auto& [key, e] : entries_)
            if (e.data && !e.borrowed && e.data->variable().buffer().use_count() == 1 &&
                (!victim || e.lastUse < victim->lastUse))
                victim = &e;
        if (!victim) return false;
        victim->data.reset();
        victim->status = ResidencyStatus{};
    }
    return true;
}

void Residency::reapLocked() {
    for (auto it = loaders_.begin(); it != loaders_.end();) {
        if (it->done->load()) {
            it->thread.join();
            it = loaders_.erase(it);
        } else {
            ++it;
        }
    }
}

void Residency::request(const std::string& key, const DataArray& var, Device device) {
    std::size_t slab = 0;
    {
        std::lock_guard lock(mutex_);
        const auto it = entries_.find(key);
        if (it != entries_.end() && it->second.status.state != Residence::None) return; // known already
        slab = slabBytes_;
    }
    // The slab of a parallel source depends on how its file is laid out, which the reader may
    // read now: outside the lock, which the GUI's status queries take.
    if (!var.isLoaded()) slab = loadSlabBytes(var, slab);
    {
        std::lock_guard lock(mutex_);
        reapLocked();
        Entry& e = entries_[key];
        if (e.status.state != Residence::None) return; // resident, loading, streamed or failed already
        e.lastUse = ++clock_;
        e.overBudget = false;
        e.status.device = device;
        e.status.bytes = var.variable().nbytes();
        const std::size_t transient = var.isLoaded() ? 0 : 2 * std::min(slab, e.status.bytes);
        const std::size_t need = e.status.bytes + transient;
        if (var.isLoaded() && var.device() == device) {
            // In memory on that device already (an array handed over from Python): resident as
            // it is, without a load or a copy; its memory is its owner's, outside the budget.
            e.data = var;
            e.borrowed = true;
            e.status.state = Residence::Resident;
            e.status.progress = 1;
        } else if (const std::string refusal = sourceRefusal(var); !refusal.empty()) {
            e.status.state = Residence::Streamed;
            e.status.reason = refusal;
        } else if (need > budget_) {
            e.status.state = Residence::Streamed;
            e.status.reason =
                "larger than the budget: needs " + formatBytes(need) + " of " + formatBytes(budget_);
            e.overBudget = true;
        } else if (!makeRoomLocked(need)) {
            e.status.state = Residence::Streamed;
            e.status.reason = "the budget of " + formatBytes(budget_) + " is held by variables in use";
            e.overBudget = true;
        } else {
            e.status.state = Residence::Loading;
            e.reserved = need; // before anything is allocated
            e.cancel = CancelToken();
            auto done = std::make_shared<std::atomic<bool>>(false);
            loaders_.push_back({std::thread([this, key, var, device, cancel = *e.cancel, need, done] {
                                    load(key, var, device, cancel, need);
                                    done->store(true);
                                }),
                                done});
        }
    }
    notify(key);
}

void Residency::load(std::string key, DataArray var, Device device, CancelToken cancel,
                     std::size_t reserved) {
#if defined(__linux__)
    // Below the threads the user waits on (the GUI's, the frames'): a load is background work.
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kLoaderNice);
#endif
    std::optional<DataArray> loaded;
    std::string failure;
    bool outOfMemory = false;
    std::size_t slab;
    {
        std::lock_guard lock(mutex_);
        slab = device.isHost() ? hostSlabBytes_ : slabBytes_;
    }
    // Is this still the load of `key` (not cancelled and asked for again)?
    auto ours = [&](Entry& e) { return e.cancel == cancel && !cancel.cancelled(); };
    try {
        OwnedStream stream(device);
        loaded = loadWhole(
            var, device, stream.get(),
            [&](double fraction) {
                {
                    std::lock_guard lock(mutex_);
                    const auto it = entries_.find(key);
                    if (it == entries_.end() || !ours(it->second)) return;
                    it->second.status.progress = fraction;
                }
                notify(key);
                // Gives way while asked to; woken when that ends or the load is cancelled.
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [&] { return !yielding_ || cancel.cancelled(); });
            },
            cancel, slab);
    } catch (const CancelledError& e) {
        failure = e.what(); // dropped below when the load was cancelled, as it is
    } catch (const OutOfMemoryError& e) {
        outOfMemory = true;
        failure = e.what();
    } catch (const std::exception& e) {
        failure = e.what();
    }
    if (cancel.cancelled()) loaded.reset(); // its memory goes before its reservation does
    {
        std::lock_guard lock(mutex_);
        const auto it = entries_.find(key);
        if (cancel.cancelled()) { // cancelled: `loaded` is dropped, and with it the reservation
            draining_ -= reserved;
            return;
        }
        Entry& e = it->second;
        e.reserved = 0;
        e.cancel.reset();
        if (loaded) {
            e.data = std::move(loaded);
            e.status.state = Residence::Resident;
            e.status.progress = 1;
        } else {
            e.status.state = outOfMemory ? Residence::Streamed : Residence::Failed;
            e.status.reason = outOfMemory ? "out of memory while loading: " + failure : failure;
        }
    }
    notify(key);
}

void Residency::cancel(const std::string& key) {
    {
        std::lock_guard lock(mutex_);
        const auto it = entries_.find(key);
        if (it == entries_.end() || it->second.status.state != Residence::Loading) return;
        // The reservation stays held until the loader has let its memory go (at its next slab).
        it->second.cancel->cancel();
        draining_ += it->second.reserved;
        entries_.erase(it);
    }
    notify(key); // wakes the loader if it gives way, and those waiting for it
}

void Residency::release(const std::string& key) {
    {
        std::lock_guard lock(mutex_);
        const auto it = entries_.find(key);
        if (it == entries_.end()) return;
        if (it->second.cancel && it->second.status.state == Residence::Loading) {
            it->second.cancel->cancel(); // as cancel(): the reservation drains at the next slab
            draining_ += it->second.reserved;
        }
        entries_.erase(it);
    }
    notify(key);
}

void Residency::clear() {
    std::lock_guard lock(mutex_);
    for (auto& [key, e] : entries_)
        if (e.cancel) {
            e.cancel->cancel(); // each load stops at its next slab; its thread is joined later
            draining_ += e.reserved;
        }
    entries_.clear();
    changed_.notify_all(); // loaders giving way, and those waiting for them
}

void Residency::wait() {
    std::vector<Loader> loaders;
    {
        std::lock_guard lock(mutex_);
        loaders.swap(loaders_);
    }
    for (auto& l : loaders) l.thread.join();
}

void Residency::notify(const std::string& key) {
    changed_.notify_all();
    const std::lock_guard lock(listenerMutex_);
    if (listener_) listener_(key);
}

} // namespace strata
