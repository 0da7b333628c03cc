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
// This class is the Qt adapter: its signals, its worker thread, and the composition of the
// Qt-free parts in app/frames (the scheduler, the frame cache, the prefetch plan, the range book)
// with the residency.
#include <QObject>
#include <QString>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "frame_cache.h"   // FrameCache: the frames computed, with their colours
#include "prefetch_plan.h" // PrefetchPlan: the steps computed ahead
#include "range_book.h"    // RangeBook: the colour ranges known
#include "scheduler.h"     // Scheduler: newest wins, and when the worker waits
#include "strata/core/cancel.h"
#include "strata/core/dataset.h"
#include "strata/core/fallback.h"
#include "strata/core/frame_ranges.h"
#include "strata/core/residency.h"
#include "strata/core/streaming.h"
#include "strata/render/image_settings.h"
#include "strata/render/line_plot.h"
#include "view_roles.h" // groupOf, variableOf
#include "view_spec.h"

namespace strata::app {

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
    // The isolines the spec asks for, traced on the worker (from contourFrame when there is one)
    // at the levels of the colours' range: the view draws them without tracing. Null: the view
    // traces its own (levels not known here, or none).
    std::shared_ptr<const TracedIsolines> isolines;
    // The vector pair's frames when the spec draws one (computed as the frame is, on its device),
    // or why they could not be (the frame is shown either way).
    std::optional<DataArray> vectorU, vectorV;
    std::optional<DataArray> contourFrame; // spec.contourVariable's frame
    QString contourError;
    bool vectorsGridRelative = false;
    QString vectorError;
    // A 1-D frame along the cells of a HEALPix grid or a mesh (found and indexed on the worker:
    // a large mesh takes seconds): drawn as a map of them, with no line. Null otherwise.
    std::shared_ptr<const SphereCells> cells;
    QString cellsError;   // why the file's grid for the frame's cells cannot be, when it cannot
    double computeMs = 0; // worker time for this frame (0 from the cache)
    // Computed on the host because the compute device was not known yet (a GPU's driver still
    // starting): it is asked for again from the device once it is (FrameService::deviceDecided).
    bool beforeDevice = false;
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
    // The same files with derived variables added, changed or removed: what is resident stays;
    // frames computed before go (a derived variable may have another meaning now).
    void updateDataset(std::shared_ptr<const Dataset> ds);
    std::shared_ptr<const Dataset> dataset() const;
    // A file holding the mesh the dataset's file lacks (null: none); frames are drawn on it.
    void setGridFile(std::shared_ptr<const Dataset> grid);

    // Newest wins. `steppingDim`/`direction` (+1, -1): the dim the user is stepping along, so
    // that the worker computes the next steps ahead once this one is done (empty: the first
    // sliced dim, forwards).
    std::uint64_t requestFrame(const ViewSpec& spec, const std::string& steppingDim = {}, int direction = 0);
    std::uint64_t requestSeries(const ViewSpec& seriesSpec);

    // Steps computed ahead (in the direction of the steps) and behind, and the cache's limit
    // (bytes of frames kept).
    void setPrefetch(int stepsAhead, int stepsBehind = 2);
    int stepsAhead() const { return prefetchSteps_; }
    int stepsBehind() const { return prefetchBehind_; }
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
    // Lets `variable` go from the compute device (a HEALPix pyramid's zoom no longer drawn): its
    // load stops or its resident copy is dropped, and its cached frames go. Shown again, it loads.
    void release(const std::string& variable);
    void allowLoad(const std::string& variable);
    // A variable streamed for want of room is decided again under the new budget; the frames
    // computed go, so that the next one asked for loads its variable where it fits now.
    void setResidentBudget(std::size_t bytes);
    std::size_t residentBudget() const;
    // The budget the user saved ("60%", "12 GiB"), applied when the budget is first decided: at
    // the first load (on the worker) or the first residentBudget(), not when the service is
    // made, since it asks the device for its free memory (the CUDA driver's start, which must
    // not hold up the window's first paint). Before either.
    void setSavedBudget(const std::string& text);
    void waitForLoads(); // tests: until no load runs

    // Where frames are computed: the compute device, once it is known. While a GPU's driver is
    // still starting (a quarter of a second after launch), frames are computed on the host at
    // once instead of waiting for it, and drawn without GL; once the device is known,
    // deviceDecided() drops them so that the view, asked for again, comes from the device. The
    // probe says which device, or nullopt for "not known yet, a GPU likely" (it must not wait).
    // The default asks the runtime; tests set their own.
    using DeviceProbe = std::function<std::optional<Device>()>;
    void setDeviceProbe(DeviceProbe probe);
    // The GUI thread learnt that the compute device is known. True when frames were computed on
    // the host before it was and it is a GPU: they are dropped from the cache, and the caller
    // asks for the view on the screen again. False otherwise, and on any later call.
    bool deviceDecided();

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
    void run(); // the worker
    // Returns how long the frame took to compute (0 from the cache, -1 when it failed).
    double serveFrame(const FrameJob& job, const std::shared_ptr<const Dataset>& ds);
    // The vector pair's frames for `spec` into `result` (its frame computed), or why not.
    void vectorFrames(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds, FrameResult& result);
    // spec.contourVariable's frame into `result`, or why not.
    void contourFrame(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds, FrameResult& result);
    // Variable `name`'s frame computed as `spec`'s is (in its own units), on `device`.
    DataArray overlayFrame(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds,
                           const std::string& name, Device device);
    void serveSeries(const FrameJob& job, const std::shared_ptr<const Dataset>& ds);
    // The steps around `job`'s frame (PrefetchPlan), until the user moves on.
    void prefetch(const FrameJob& job, const std::shared_ptr<const Dataset>& ds);
    std::optional<CachedFrame> cached(const FrameKey& key); // a copy, taken under the lock
    // The answer to `job` from the cache when it can be given without the worker (mutex held).
    std::shared_ptr<FrameResult> answerFromCache(const FrameJob& job);
    // Dropped unless ds is current, or when made on the host before the device was known and it
    // is known now.
    void store(CachedFrame entry, const std::shared_ptr<const Dataset>& ds, bool beforeDevice = false);
    std::size_t cacheLimitLocked() const; // smaller while variables are resident on the host
    std::optional<MinMax> variableRange(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds,
                                        const StreamProgress& progress = {});
    // The variable `spec` shows: its resident copy when there is one, else the file's (lazy).
    DataArray source(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds);
    // Starts loading the variable `spec` shows onto the compute device in the background, unless
    // it is resident, loading or streamed already, or the user cancelled its load.
    void startLoad(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds);
    // startLoad would start nothing: the variable (or each input of a derived one) is loading,
    // resident, streamed, failed or declined already.
    bool loadingOrResident(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds) const;
    ViewLimits limits() const; // what a frame may read at once, from the residency's budget
    // Whether `spec` reads across the dim a load of `var` reads along (its first).
    static bool spansLoadDim(const ViewSpec& spec, const DataArray& var);
    // Waits while `variable` loads (true when it was loading), woken by the load; throws
    // CancelledError when the file closes, or (when `interruptible`) when a newer request comes.
    bool waitForLoad(const std::string& variable, bool interruptible);
    // The table of every frame's extremes for `spec`'s view, made (on the worker) once its
    // variable is resident on a device.
    void ensureFrameRanges(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds);
    std::optional<MinMax> knownRange(const ViewSpec& spec); // computed before, for a mode that needs it
    // For a cached frame of `spec`: its colours made anew when they are another spec's. False
    // when the frame is not cached.
    bool recolour(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds);
    // The entry for `frame` with its colours and isolines for `spec` (reused from `had` when
    // they match). `ahead`: a step computed ahead, whose isolines are traced on this thread alone.
    CachedFrame entryFor(const FrameKey& key, const ViewSpec& spec, DataArray frame, FallbackNote note,
                         std::optional<MinMax> variableRange, const std::optional<CachedFrame>& had = {},
                         bool ahead = false);

    // `frame`'s isolines for `spec` (its own, not a contour variable's) at the levels of its
    // colour range, when that is known: `had`'s when they are at those levels, else traced here.
    // Null when the spec draws none, or they cannot be traced (the view says why). `serial`: on
    // this thread alone, not the CPU backend's pool (a step ahead: the pool's threads run at the
    // GUI thread's priority, and on two cores they took the paint's time from it).
    std::shared_ptr<const TracedIsolines> isolinesFor(const ViewSpec& spec, const DataArray& frame,
                                                      const ColouredFrame* coloured,
                                                      std::optional<MinMax> variableRange,
                                                      const std::optional<CachedFrame>& had, bool serial);
    // A cached frame's isolines when they are at `spec`'s levels, found from what is known
    // without reading the frame; null otherwise (the worker traces them anew around the step).
    static std::shared_ptr<const TracedIsolines> cachedIsolines(const CachedFrame& hit, const ViewSpec& spec,
                                                                const ColouredFrame* coloured,
                                                                std::optional<MinMax> variableRange,
                                                                std::optional<MinMax> frameRange);
    // spec.contourVariable's isolines in its own range, from result.contourFrame.
    static void contourVariableIsolines(const ViewSpec& spec, FrameResult& result);

    void decideBudget() const; // once: the saved budget, else STRATA_RESIDENT_BUDGET, else 60%
    // The device a frame is computed on now (see setDeviceProbe); sets `beforeDevice` when it is
    // the host for want of a decided device.
    Device frameDevice(bool& beforeDevice);
    // The default probe: the runtime's device once decided; nullopt while a GPU's driver starts;
    // the host at once where no GPU is likely (deciding that takes no driver start).
    static std::optional<Device> runtimeDevice();

    Scheduler scheduler_; // thread-safe on its own
    mutable std::once_flag budgetDecided_;
    std::string savedBudget_; // set before the budget is decided, read once then
    std::shared_ptr<Residency>
        residency_;            // thread-safe on its own; derived variables' lookups hold it weakly
    mutable std::mutex mutex_; // guards what follows, to thread_
    FrameCache cache_;
    std::size_t cacheLimit_ = std::size_t(512) << 20; // as set; cacheLimitLocked is what applies
    RangeBook ranges_;
    std::set<std::string> declined_; // loads the user cancelled
    DeviceProbe deviceProbe_;
    bool hostBeforeDevice_ = false; // a frame was computed on the host before the device was known
    std::shared_ptr<const Dataset> gridFile_;
    // The cells of a variable (by name) of the dataset: found once, or why they cannot be.
    struct Cells {
        std::shared_ptr<const SphereCells> cells;
        std::string error;
    };
    std::map<std::string, Cells> cells_;
    Cells cellsOf(const ViewSpec& spec, const Dataset& ds);
    std::shared_ptr<const Dataset> gridFile() const; // under the lock
    std::atomic<int> prefetchSteps_{8}, prefetchBehind_{2};
    // The worker thread's own: the tokens of the job it computes, and its lowered priority.
    CancelToken interrupt_, closing_;
    bool lowered_ = false;
    std::thread thread_;
};

} // namespace strata::app

Q_DECLARE_METATYPE(std::shared_ptr<const strata::app::FrameResult>)
Q_DECLARE_METATYPE(std::shared_ptr<const strata::app::SeriesResult>)
