#pragma once
// Residency: whole variables kept loaded and decoded on the compute device (the host on the CPU
// path), so that frames, reductions, ranges and probes are computed from memory, not the file.
// A budget bounds the bytes held; a load reserves its bytes before it allocates any, so two loads
// cannot overrun the budget together; least-recently-used variables that nobody holds leave
// first. Loads run on threads of their own (a stream of their own on a GPU), slab by slab, with
// progress and cancel; a variable that cannot fit, or whose load runs out of memory, is
// "streamed": read from the file as needed, with the reason kept for the user.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "strata/core/cancel.h"
#include "strata/core/data_array.h"

namespace strata {

enum class Residence {
    None,     // not asked for
    Loading,  // being loaded; progress says how far
    Resident, // whole, decoded, on `device`
    Streamed, // served from the file (reason says why: larger than the budget, out of memory, ...)
    Failed,   // the load failed for a reason that is not memory (a damaged file): reason names it
};

struct ResidencyStatus {
    Residence state = Residence::None;
    Device device;
    std::size_t bytes = 0; // the decoded variable's size
    double progress = 0;   // 0..1 while loading
    std::string reason;
    // "on GPU 0 (1.5 GB)", "on the host (1.5 GB)", "loading 43 %", "streamed (larger than the
    // budget)", "not loaded": for the status bar and the dataset panel.
    std::string describe() const;
};

// The budget for `device` unless set otherwise: STRATA_RESIDENT_BUDGET (a size such as "8G", or
// a share of what is free such as "50%"), else 60 % of the device's free memory (of the host's
// available memory on the CPU path). A value that is neither is warned about once and the
// 60 % holds.
std::size_t defaultResidentBudget(Device device);
// "8G" → bytes; "40%" → 40 % of `available`; nullopt for anything else.
std::optional<std::size_t> parseResidentBudget(std::string_view text, std::size_t available);
// The host memory the kernel says is available now (MemAvailable), or the physical memory.
std::size_t hostAvailableMemory();

// Loads the whole of `var` (lazy, dims in the file's order) onto `device`, decoded, slab by slab
// along its first dim on `stream`, calling progress(fraction) after each slab. Throws
// CancelledError once `cancel` is cancelled (nothing is kept; reads over the network abort).
// The transient memory besides the result is at most two slabs of loadSlabBytes(var, slabBytes)
// (packed and decoded). Throws as Variable::load does.
DataArray loadWhole(const DataArray& var, Device device, Stream stream,
                    const std::function<void(double)>& progress, const CancelToken& cancel,
                    std::size_t slabBytes = std::size_t(64) << 20);

// The slab a load of `var` reads at once: `slabBytes`, or more for a source that reads in
// parallel (enough for all its threads: DataSource::parallelReadBytes).
std::size_t loadSlabBytes(const DataArray& var, std::size_t slabBytes);

class Residency {
public:
    explicit Residency(std::size_t budgetBytes);
    ~Residency(); // cancels every load and waits for it
    Residency(const Residency&) = delete;
    Residency& operator=(const Residency&) = delete;

    std::size_t budget() const;
    // Evicts what no longer fits and is not in use; a variable streamed for want of room goes
    // back to None, to be decided again at its next request. The listener hears of each.
    void setBudget(std::size_t bytes);
    std::size_t heldBytes() const; // resident plus reserved by loads

    // The resident copy of `key` (a use: it becomes the most recently used), or nullopt.
    std::optional<DataArray> get(const std::string& key);
    // Starts loading `var` onto `device` unless `key` is resident, loading or streamed already.
    // A variable larger than the budget, or that cannot fit beside the variables in use, is
    // marked streamed at once. One in memory on `device` already (an array from Python) is
    // resident at once, as it is: no load, no copy, and outside the budget (its owner's memory).
    void request(const std::string& key, const DataArray& var, Device device);
    ResidencyStatus status(const std::string& key) const;
    void cancel(const std::string& key); // a load in progress stops; the key goes back to None
    // Lets `key` go whatever its state: a load in progress stops, a resident copy is dropped (its
    // memory freed once no frame holds it), a streamed mark forgotten; the key goes back to None
    // and the listener hears of it. A HEALPix pyramid's zoom no longer drawn, for one.
    void release(const std::string& key);
    void clear(); // cancels every load and drops every variable (a file closed); does not block
    void wait();  // until no load runs (tests, the command line)
    // Until `key` is not loading (its load ended, failed or was cancelled): true when it was
    // loading. Woken by the loader, never a poll. Throws CancelledError once `cancel` is
    // cancelled while the load goes on.
    bool waitWhileLoading(const std::string& key, const CancelToken& cancel);
    // Called on the loading thread whenever a key's status changes (progress included). Once
    // setListener returns, the listener it replaced is not running and is never called again.
    void setListener(std::function<void(const std::string& key)> listener);
    // While set, loads wait between slabs (work the user waits for wants the file); clearing it
    // wakes them.
    void setYielding(bool yielding);

    // Slab size of loads (tests make it small to see progress and cancel mid-way).
    void setSlabBytes(std::size_t bytes);

private:
    struct Entry {
        ResidencyStatus status;
        std::optional<DataArray> data;
        std::size_t reserved = 0;
        std::uint64_t lastUse = 0;
        std::optional<CancelToken> cancel; // the load in progress's
        bool borrowed = false;   // in memory on its device before it was asked for: not ours to count
        bool overBudget = false; // streamed for want of room (not for a failure): a new budget decides again
    };
    struct Loader {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    void load(std::string key, DataArray var, Device device, CancelToken cancel, std::size_t reserved);
    void notify(const std::string& key);
    // Frees room for `bytes` by evicting unused resident variables, least recently used first
    // (mutex held). False when it cannot.
    bool makeRoomLocked(std::size_t bytes);
    std::size_t heldLocked() const;
    void reapLocked(); // joins the threads of loads that have ended

    mutable std::mutex mutex_;
    std::map<std::string, Entry> entries_;
    std::vector<Loader> loaders_;
    std::size_t budget_;
    std::size_t draining_ = 0; // reservations of cancelled loads still letting their memory go
    // A frame asked for while a variable loads waits for at most one slab's read (the netCDF
    // library reads one thing at a time): small enough not to be felt, large enough to stream.
    // Host loads read where the data goes, so their slabs can be smaller still (about one
    // compressed chunk of a 0.25° global field); device loads also pay an upload per slab.
    std::size_t slabBytes_ = std::size_t(16) << 20;
    std::size_t hostSlabBytes_ = std::size_t(4) << 20;
    std::uint64_t clock_ = 0;
    // Held while the listener runs (never with mutex_), so that replacing it waits for a call in
    // progress: a listener may use what its owner frees once it is replaced.
    std::mutex listenerMutex_;
    std::function<void(const std::string&)> listener_;
    bool yielding_ = false;
    // Notified when a status changes (progress included), a load is cancelled, or yielding_ is
    // cleared: what loaders and waitWhileLoading wait on.
    std::condition_variable changed_;
};

} // namespace strata
