#pragma once
// FrameService: computes what the window shows off the GUI thread. One worker thread takes the
// newest request (a frame, or a series through a point) and drops the ones it overtook, so
// scrubbing never queues work the user has moved past. Frames are computed on the compute
// device (falling back to the CPU with a reason when the GPU fails) and kept in a small cache.
// Once a frame is shown the worker computes the steps around it ahead of time: along the dim
// the user steps (the first sliced dim for a new view), mostly in the direction of the steps,
// a few behind, so that a step on a compressed file is served from memory. A request whose
// frame is cached is answered at once from the GUI thread, even while the worker is busy
// computing ahead. Results arrive on the GUI thread as signals.
#include <QObject>
#include <QString>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

#include "strata/core/dataset.h"
#include "strata/core/fallback.h"
#include "strata/core/frame_ranges.h"
#include "strata/core/residency.h"
#include "strata/core/streaming.h"
#include "strata/core/view.h"
#include "strata/render/image_settings.h"
#include "strata/render/line_plot.h"
#include "view_roles.h" // groupOf, variableOf

namespace strata::app {

// A variable of a file: what the whole variable's extremes are kept by.
struct VariableKey {
    std::string file;
    std::string variable;
    friend bool operator==(const VariableKey&, const VariableKey&) = default;
};
inline VariableKey variableKeyOf(const ViewSpec& spec) { return {spec.file, spec.variable}; }

struct FrameResult {
    std::uint64_t id = 0;
    ViewSpec spec;
    DataArray frame;                        // 2-D (y, x) or 1-D (x); on the compute device or the host
    std::shared_ptr<const LineSeries> line; // for a 1-D frame: on the host, thinned for drawing
    std::optional<MinMax> variableRange;    // when the range mode needs the whole variable's
    // The frame's own extremes, known on the host without reading the frame: from the table of
    // every frame's extremes made once the variable is resident on a device (unset before, for
    // a view with reductions, or a frame holding ±inf). The view's per-frame range uses them.
    std::optional<MinMax> frameRange;
    // A 2-D frame on the host colour-mapped on the worker with the spec's colours (null for a
    // frame on a device, a line, or a range not known yet): the GUI thread only uploads it.
    std::shared_ptr<const ColouredFrame> coloured;
    double computeMs = 0; // worker time for this frame (0 from the cache)
    bool fromCache = false;
    FallbackNote fallback;
    QString error; // non-empty: nothing was computed, this says why
};

struct SeriesResult {
    std::uint64_t id = 0;
    ViewSpec spec;                          // the series' view: xDim is the dim along which it runs
    DataArray series;                       // 1-D, on the host (fetched by the explicit copy-to-host path)
    std::shared_ptr<const LineSeries> line; // the same, thinned for drawing
    QString error;
};

class FrameService : public QObject {
    Q_OBJECT
public:
    explicit FrameService(QObject* parent = nullptr);
    ~FrameService() override;

    // The file the requests refer to; drops the cache and any pending work.
    void setDataset(std::shared_ptr<const Dataset> ds);
    std::shared_ptr<const Dataset> dataset() const;

    // Newest wins. `steppingDim`/`direction` (+1, -1): the dim the user is stepping along, so
    // that the worker computes the next steps ahead once this one is done (empty: the first
    // sliced dim, forwards).
    std::uint64_t requestFrame(const ViewSpec& spec, const std::string& steppingDim = {}, int direction = 0);
    std::uint64_t requestSeries(const ViewSpec& seriesSpec);

    // Steps computed ahead (in the direction of the steps) and behind, and the cache's limit
    // (bytes of frames kept).
    void setPrefetch(int stepsAhead, int stepsBehind = 2);
    // The frame asked for last is on the screen. Of the steps around a frame, all but the next
    // one are computed only after this (or aheadWait after the request, when it does not
    // come): on a machine with few cores the worker would otherwise take memory bandwidth and
    // CPU from the very paint the user waits for (measured on 2 cores: the paint of a cached
    // step 2.5 ms alone, 4-12 ms beside the worker's steps ahead).
    void frameShown();
    void setAheadWait(std::chrono::milliseconds wait); // default 40 ms
    void setCacheBytes(std::size_t bytes);
    std::size_t cachedFrames() const;
    bool busy() const; // a request is being computed or waits, or its answer is on its way
    // Nothing happens until something from outside does: no request waits or is computed, no
    // answer is on its way, and the worker waits (for a request, or with steps ahead left for
    // frameShown or aheadWait). A load in the background is apart (waitForLoads). idle() is
    // emitted each time the worker starts such a wait (and when the last answer on its way from
    // the cache is delivered); it may arrive late, so a waiter checks isIdle() on each.
    bool isIdle() const;

    // Residency: a variable shown is loaded whole onto the compute device in the background;
    // from then on its frames, reductions, ranges and series are computed from that copy.
    ResidencyStatus residency(const std::string& variable) const;
    // Stops loading `variable`, and its frames keep coming from the file: it is not loaded again
    // until allowLoad (the user shows it anew) or another file.
    void cancelLoad(const std::string& variable);
    void allowLoad(const std::string& variable);
    void setResidentBudget(std::size_t bytes);
    std::size_t residentBudget() const;
    void waitForLoads(); // tests: until no load runs

signals:
    void frameReady(const std::shared_ptr<const strata::app::FrameResult>& result);
    void seriesReady(const std::shared_ptr<const strata::app::SeriesResult>& result);
    void busyChanged(bool busy);
    void idle();                                    // see isIdle
    void residencyChanged(const QString& variable); // a load started, progressed, ended or was cancelled
    // The frame `id` is computed from the file slab by slab (a streamed reduction, or the whole
    // variable's range): the fraction of that pass done, after each slab. From the worker thread.
    void computeProgress(quint64 id, double fraction);

private:
    struct Job {
        std::uint64_t id = 0;
        ViewSpec spec;
        std::string steppingDim;
        int direction = 0;
    };
    struct CacheEntry {
        FrameKey key;
        DataArray frame;
        FallbackNote fallback;
        std::size_t bytes = 0;                         // the frame's and the colours'
        std::shared_ptr<const ColouredFrame> coloured; // with the colours of the spec it was made for
    };
    void run();
    // Returns how long the frame took to compute (0 from the cache, -1 when it failed).
    double serveFrame(const Job& job, const std::shared_ptr<const Dataset>& ds);
    void serveSeries(const Job& job, const std::shared_ptr<const Dataset>& ds);
    // The steps around `job`'s frame: all of them while the user steps (job.direction != 0),
    // else only the next one along the first sliced dim.
    void prefetch(const Job& job, const std::shared_ptr<const Dataset>& ds);
    bool hasWork() const;    // a frame or series request waits (mutex held)
    bool hasAnyWork() const; // that, or steps to compute around a frame (mutex held)
    bool idleLocked() const; // isIdle, mutex held
    // The worker waits on wake_ until `until` (or without end), idle when `ready` is false now.
    template <class Ready>
    void waitIdle(std::unique_lock<std::mutex>& lock, Ready ready,
                  std::optional<std::chrono::steady_clock::time_point> until = std::nullopt);
    std::optional<CacheEntry> cached(const FrameKey& key);       // a copy, taken under the lock
    std::optional<CacheEntry> cachedLocked(const FrameKey& key); // the same, mutex held
    // The answer to `job` from the cache when it can be given without the worker (mutex held).
    std::shared_ptr<FrameResult> answerFromCache(const Job& job);
    void store(CacheEntry entry, const std::shared_ptr<const Dataset>& ds); // dropped unless ds is current
    std::size_t cacheLimitLocked() const; // smaller while variables are resident on the host
    void evictLocked(); // the least recently used frames, until the cache is within its limit
    std::optional<MinMax> variableRange(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds,
                                        const StreamProgress& progress = {});
    // The variable `spec` shows: its resident copy when there is one, else the file's (lazy).
    // `load`: start loading it onto the compute device when it is not resident yet.
    DataArray source(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds, bool load = false);
    ViewLimits limits() const; // what a frame may read at once, from the residency's budget
    // Whether `spec` reads across the dim a load of `var` reads along (its first).
    static bool spansLoadDim(const ViewSpec& spec, const DataArray& var);
    // Waits while `variable` loads (true when it was loading), woken by the load; throws CancelledError when
    // the file closes, or (when `interruptible`) when a newer request comes.
    bool waitForLoad(const std::string& variable, bool interruptible);
    void setWaitingForLoad(bool waiting);
    void yieldLocked(); // tells the residency whether loads give way now (mutex held)
    // The table of every frame's extremes for `spec`'s view, made (on the worker) once its
    // variable is resident on a device; frameRangeLocked looks a frame up in it (mutex held).
    void ensureFrameRanges(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds);
    std::optional<MinMax> frameRangeLocked(const ViewSpec& spec) const;
    std::optional<MinMax> knownRangeLocked(const ViewSpec& spec) const; // computed before (mutex held)
    std::optional<MinMax> knownRange(const ViewSpec& spec);             // the same, for a mode that needs it
    // For a cached frame of `spec`: its colours made anew when they are another spec's. False
    // when the frame is not cached.
    bool recolour(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds);
    // The entry for `frame` with its colours for `spec` (reused from `had` when they match).
    CacheEntry entryFor(const FrameKey& key, const ViewSpec& spec, DataArray frame, FallbackNote note,
                        std::optional<MinMax> variableRange, const std::optional<CacheEntry>& had = {});

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::shared_ptr<const Dataset> dataset_;
    std::optional<Job> frameJob_, seriesJob_;
    std::optional<Job> aheadJob_; // a frame answered from the cache: compute the steps around it
    int posted_ = 0;              // answers from the cache on their way to the GUI thread
    bool showing_ = false;        // a frame was asked for and is not on the screen yet
    bool lowered_ = false;        // the worker's priority is lowered (worker thread only)
    std::chrono::steady_clock::time_point aheadFrom_; // steps ahead wait for the screen until then
    std::chrono::milliseconds aheadWait_{40};
    std::uint64_t nextId_ = 1;
    std::uint64_t generation_ = 0; // bumped by setDataset: work for an older dataset is dropped
    bool stopping_ = false;
    bool working_ = false;
    // The worker waits (for a request or the screen) until waitReady_() or waitUntil_: idle
    // while neither has come (see isIdle).
    bool waiting_ = false;
    std::function<bool()> waitReady_;
    std::optional<std::chrono::steady_clock::time_point> waitUntil_;
    std::list<CacheEntry> cache_; // most recent first
    // Each entry of cache_ by its key.
    std::unordered_map<FrameKey, std::list<CacheEntry>::iterator> cacheIndex_;
    std::size_t cacheBytes_ = 0, cacheLimit_ = std::size_t(512) << 20;
    std::list<std::pair<VariableKey, MinMax>> ranges_; // variable → whole extremes
    struct FrameRangesEntry {
        VariableKey variable;
        std::string xDim, yDim;
        std::shared_ptr<const FrameRanges> table; // null: it could not be made (not tried again)
    };
    std::optional<FrameRangesEntry> frameRanges_; // the view's; another view's replaces it
    std::optional<ViewSpec> lastFrameSpec_;       // the view asked for last
    bool rangesDue_ = false;                      // a load ended: make the view's table
    std::atomic<int> prefetchSteps_{8}, prefetchBehind_{2};
    // The job in progress's: cancelled by a newer request (a streamed reduction in progress
    // stops), and by another file or stopping (a whole variable's range in progress stops too).
    // Replaced when the worker takes a job (mutex held).
    CancelToken interrupt_, closing_;
    bool waitingForLoad_ = false; // the worker waits for a load, which must not give way to it
    std::unique_ptr<Residency> residency_;
    std::set<std::string> declined_; // loads the user cancelled (mutex held)
    std::thread thread_;
};

} // namespace strata::app

Q_DECLARE_METATYPE(std::shared_ptr<const strata::app::FrameResult>)
Q_DECLARE_METATYPE(std::shared_ptr<const strata::app::SeriesResult>)
