#include "frame_service.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <algorithm>
#include <cmath>
#include <tuple>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "strata/core/cancel.h"
#include "strata/core/error.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/core/streaming.h"
#include "strata/core/view.h"

namespace strata::app {
namespace {

std::size_t bytesOf(const DataArray& a) { return static_cast<std::size_t>(a.size()) * sizeOf(a.dtype()); }

// A frame computed faster than this gets its next step computed ahead even before the user steps.
constexpr double kQuickFrameMs = 50;
constexpr int kWorkerNice = 10; // the worker thread's nice value once it computes ahead (Linux)
constexpr std::size_t kResidentCacheBytes = std::size_t(96) << 20; // see cacheLimitLocked

// `c` when it holds the colours of `spec`, else null.
std::shared_ptr<const ColouredFrame> colouredMatching(const std::shared_ptr<const ColouredFrame>& c,
                                                      const ViewSpec& spec, const DataArray& frame) {
    return c && colouredFor(*c, spec.colouring, frame) ? c : nullptr;
}

ViewSpec withIndex(ViewSpec s, const std::string& dim, std::int64_t index) {
    for (auto& [d, i] : s.indices)
        if (d == dim) {
            i = index;
            return s;
        }
    s.indices.push_back({dim, index});
    return s;
}

} // namespace

FrameService::FrameService(QObject* parent)
    : QObject(parent), residency_(std::make_unique<Residency>(defaultResidentBudget(computeDevice()))) {
    qRegisterMetaType<std::shared_ptr<const FrameResult>>();
    qRegisterMetaType<std::shared_ptr<const SeriesResult>>();
    residency_->setListener([this](const std::string& variable) {
        // A load that ended resident: the worker makes the table of the view's frame ranges,
        // so that the steps answered from the cache come with theirs.
        const ResidencyStatus status = residency_->status(variable);
        if (status.state == Residence::Resident && !status.device.isHost()) {
            {
                std::lock_guard lock(mutex_);
                rangesDue_ = true;
            }
            wake_.notify_all();
        }
        // On the loading thread: the GUI thread learns of it through the queued signal.
        QMetaObject::invokeMethod(
            this, [this, v = QString::fromStdString(variable)] { emit residencyChanged(v); },
            Qt::QueuedConnection);
    });
    thread_ = std::thread([this] { run(); });
}

FrameService::~FrameService() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        interrupt_.cancel();
        closing_.cancel();
    }
    wake_.notify_all();
    thread_.join();
    residency_->setListener({});
    residency_->setYielding(false);
    residency_.reset(); // cancels the loads and waits for them
}

void FrameService::setDataset(std::shared_ptr<const Dataset> ds) {
    std::lock_guard lock(mutex_);
    dataset_ = std::move(ds);
    ++generation_;
    frameJob_.reset();
    seriesJob_.reset();
    aheadJob_.reset();
    cache_.clear();
    cacheIndex_.clear();
    cacheBytes_ = 0;
    ranges_.clear();
    frameRanges_.reset();
    lastFrameSpec_.reset();
    rangesDue_ = false;
    interrupt_.cancel();
    closing_.cancel(); // a whole variable's range being computed for the last file stops
    declined_.clear();
    yieldLocked();
    residency_->clear(); // the loads of the last file stop at their next slab
}

bool FrameService::spansLoadDim(const ViewSpec& spec, const DataArray& var) {
    // A load reads along the first dim: a view that slices it reads one slab from the file
    // cheaply; one that shows or reduces it (a Hovmöller, a mean over time) reads across every
    // slab, as long as the load itself on a compressed file.
    if (var.ndim() == 0) return false;
    const auto sliced = spec.slicedDims(var.dims());
    return std::find(sliced.begin(), sliced.end(), var.dims()[0]) == sliced.end();
}

bool FrameService::waitForLoad(const std::string& variable, bool interruptible) {
    if (residency_->status(variable).state != Residence::Loading) return false;
    setWaitingForLoad(true); // the load must not give way to this very wait
    try {
        // interrupt_ is cancelled whenever closing_ is (another file, stopping).
        residency_->waitWhileLoading(variable, interruptible ? interrupt_ : closing_);
    } catch (...) {
        setWaitingForLoad(false);
        throw;
    }
    setWaitingForLoad(false);
    return true;
}

void FrameService::setWaitingForLoad(bool waiting) {
    std::lock_guard lock(mutex_);
    waitingForLoad_ = waiting;
    yieldLocked();
}

void FrameService::yieldLocked() {
    // A load gives way between its slabs while a frame or series the user asked for is computed
    // (netCDF-C reads one thing at a time, and its lock is not fair: a load reading slab after
    // slab would keep a step waiting for many of them).
    residency_->setYielding((working_ && !waitingForLoad_) || hasWork());
}

ResidencyStatus FrameService::residency(const std::string& variable) const {
    return residency_->status(variable);
}
void FrameService::cancelLoad(const std::string& variable) {
    {
        std::lock_guard lock(mutex_);
        declined_.insert(variable); // not loaded again by the next frame: the user said no
    }
    residency_->cancel(variable);
}

void FrameService::allowLoad(const std::string& variable) {
    std::lock_guard lock(mutex_);
    declined_.erase(variable);
}
void FrameService::setResidentBudget(std::size_t bytes) { residency_->setBudget(bytes); }
std::size_t FrameService::residentBudget() const { return residency_->budget(); }
void FrameService::waitForLoads() { residency_->wait(); }

DataArray FrameService::source(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds, bool load) {
    if (auto resident = residency_->get(spec.variable)) return *resident;
    DataArray var = variableOf(*ds, spec.variable);
    if (load) {
        {
            std::lock_guard lock(mutex_);
            if (declined_.count(spec.variable)) return var;
        }
        residency_->request(spec.variable, var, computeDevice());
    }
    return var;
}

ViewLimits FrameService::limits() const {
    // A reduction of a variable not resident (still loading, or streamed) reads at most a
    // quarter of the budget at once, in slabs of a sixteenth (at most 64 MiB).
    const std::size_t budget = residency_->budget();
    ViewLimits l;
    l.loadAtOnce = std::min<std::size_t>(budget / 4, std::size_t(256) << 20);
    l.slabBytes = std::max<std::size_t>(1, std::min<std::size_t>(budget / 16, std::size_t(64) << 20));
    l.cancel = interrupt_;
    return l;
}

std::shared_ptr<const Dataset> FrameService::dataset() const {
    std::lock_guard lock(mutex_);
    return dataset_;
}

std::uint64_t FrameService::requestFrame(const ViewSpec& spec, const std::string& steppingDim,
                                         int direction) {
    std::uint64_t id;
    std::shared_ptr<FrameResult> answer;
    {
        std::lock_guard lock(mutex_);
        id = nextId_++;
        showing_ = true;
        interrupt_.cancel(); // newest wins: a streamed reduction of an older request stops
        aheadFrom_ = std::chrono::steady_clock::now() + aheadWait_;
        const Job job{id, spec, steppingDim, direction};
        lastFrameSpec_ = spec;
        answer = answerFromCache(job);
        if (answer) {
            // Computed already (ahead, most often): answered from here, even while the worker is
            // busy computing another step ahead; the worker then computes around this one.
            frameJob_.reset(); // newest wins
            // Around a step; or for a frame whose colours the view must make (another map's
            // were cached), so that the worker makes the new ones.
            const bool uncoloured = !answer->coloured && answer->frame.device().isHost();
            if (direction != 0 || uncoloured) aheadJob_ = job;
            ++posted_;
        } else {
            frameJob_ = job;
        }
        yieldLocked();
    }
    wake_.notify_all();
    if (answer) // queued: the caller learns the id before the answer arrives
        QMetaObject::invokeMethod(
            this,
            [this, answer] {
                bool nowIdle;
                {
                    std::lock_guard lock(mutex_);
                    --posted_;
                    nowIdle = idleLocked();
                }
                emit frameReady(answer);
                if (nowIdle) emit idle();
            },
            Qt::QueuedConnection);
    return id;
}

void FrameService::setPrefetch(int stepsAhead, int stepsBehind) {
    prefetchSteps_ = std::max(0, stepsAhead);
    prefetchBehind_ = std::max(0, stepsBehind);
}

std::shared_ptr<FrameResult> FrameService::answerFromCache(const Job& job) {
    std::optional<MinMax> range;
    if (needsVariableRange(job.spec.colouring.range.mode)) {
        range = knownRangeLocked(job.spec);
        if (!range) return nullptr; // the worker works it out
    }
    const auto hit = cachedLocked(keyOf(job.spec));
    if (!hit || hit->frame.ndim() == 1) return nullptr; // a line is built on the worker
    auto result = std::make_shared<FrameResult>();
    result->id = job.id;
    result->spec = job.spec;
    result->frame = hit->frame;
    result->fallback = hit->fallback;
    result->fromCache = true;
    result->variableRange = range;
    result->frameRange = frameRangeLocked(job.spec);
    // Colours of another map or range are not made here (the GUI thread): the view makes them.
    result->coloured = colouredMatching(hit->coloured, job.spec, hit->frame);
    return result;
}

std::uint64_t FrameService::requestSeries(const ViewSpec& seriesSpec) {
    std::uint64_t id;
    {
        std::lock_guard lock(mutex_);
        id = nextId_++;
        seriesJob_ = Job{id, seriesSpec, {}, 0};
        yieldLocked();
    }
    wake_.notify_all();
    return id;
}

void FrameService::setCacheBytes(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    cacheLimit_ = bytes;
    evictLocked();
}

std::size_t FrameService::cachedFrames() const {
    std::lock_guard lock(mutex_);
    return cache_.size();
}

bool FrameService::busy() const {
    std::lock_guard lock(mutex_);
    return working_ || hasWork() || posted_ > 0;
}

bool FrameService::isIdle() const {
    std::lock_guard lock(mutex_);
    return idleLocked();
}

bool FrameService::idleLocked() const {
    if (!waiting_ || working_ || hasAnyWork() || rangesDue_ || posted_ > 0) return false;
    // Woken, or about to be, but not running yet: the worker has something to do.
    if (waitReady_ && waitReady_()) return false;
    return !waitUntil_ || std::chrono::steady_clock::now() < *waitUntil_;
}

template <class Ready>
void FrameService::waitIdle(std::unique_lock<std::mutex>& lock, Ready ready,
                            std::optional<std::chrono::steady_clock::time_point> until) {
    if (ready()) return;
    waiting_ = true;
    waitReady_ = ready;
    waitUntil_ = until;
    if (idleLocked()) { // said outside the lock: a queued signal to the GUI thread
        lock.unlock();
        emit idle();
        lock.lock();
    }
    if (until)
        wake_.wait_until(lock, *until, ready);
    else
        wake_.wait(lock, ready);
    waiting_ = false;
    waitReady_ = nullptr;
    waitUntil_.reset();
}

bool FrameService::hasWork() const { return frameJob_.has_value() || seriesJob_.has_value(); }

bool FrameService::hasAnyWork() const { return hasWork() || aheadJob_.has_value(); }

std::optional<FrameService::CacheEntry> FrameService::cached(const FrameKey& key) {
    std::lock_guard lock(mutex_);
    return cachedLocked(key);
}

std::optional<FrameService::CacheEntry> FrameService::cachedLocked(const FrameKey& key) {
    const auto found = cacheIndex_.find(key);
    if (found == cacheIndex_.end()) return std::nullopt;
    cache_.splice(cache_.begin(), cache_, found->second); // the most recent first
    return cache_.front();
}

std::size_t FrameService::cacheLimitLocked() const {
    // With variables resident on the host, frames are a millisecond away: a few steps around the
    // one shown are kept (with their colours), not the cache's whole limit beside the variable.
    const bool residentOnHost = computeDevice().isHost() && residency_->heldBytes() > 0;
    return residentOnHost ? std::min(cacheLimit_, kResidentCacheBytes) : cacheLimit_;
}

void FrameService::store(CacheEntry entry, const std::shared_ptr<const Dataset>& ds) {
    std::lock_guard lock(mutex_);
    if (entry.bytes > cacheLimitLocked() || dataset_ != ds) return; // too big, or of a file gone since
    if (const auto had = cacheIndex_.find(entry.key); had != cacheIndex_.end()) {
        cacheBytes_ -= had->second->bytes;
        cache_.erase(had->second);
        cacheIndex_.erase(had);
    }
    cacheBytes_ += entry.bytes;
    cache_.push_front(std::move(entry));
    cacheIndex_.emplace(cache_.front().key, cache_.begin());
    evictLocked();
}

void FrameService::evictLocked() {
    const std::size_t limit = cacheLimitLocked();
    while (cacheBytes_ > limit && !cache_.empty()) {
        cacheBytes_ -= cache_.back().bytes;
        cacheIndex_.erase(cache_.back().key);
        cache_.pop_back();
    }
}

void FrameService::run() {
    for (;;) {
        Job job;
        bool isFrame = false, isAhead = false;
        std::shared_ptr<const Dataset> ds;
        {
            std::unique_lock lock(mutex_);
            waitIdle(lock, [&] { return stopping_ || hasAnyWork() || rangesDue_; });
            if (stopping_) return;
            ds = dataset_;
            interrupt_ = CancelToken(); // requests from here on interrupt this job
            closing_ = CancelToken();
            if (!hasWork() && !aheadJob_) { // only the table of frame ranges to make
                rangesDue_ = false;
                const std::optional<ViewSpec> spec = lastFrameSpec_;
                lock.unlock();
                if (ds && spec) ensureFrameRanges(*spec, ds);
                continue;
            }
            if (!hasWork()) { // only steps to compute around a frame answered from the cache
                job = *aheadJob_;
                aheadJob_.reset();
                isAhead = true;
            } else {
                isFrame = frameJob_.has_value();
                job = isFrame ? *frameJob_ : *seriesJob_;
                (isFrame ? frameJob_ : seriesJob_).reset();
                working_ = true;
                yieldLocked();
            }
        }
        if (isAhead) {
            if (ds) prefetch(job, ds);
            continue;
        }
        emit busyChanged(true);
        double computeMs = -1;
        if (ds) {
            if (isFrame) {
                computeMs = serveFrame(job, ds);
            } else {
                serveSeries(job, ds);
            }
        }
        bool idle;
        {
            std::lock_guard lock(mutex_);
            idle = !hasWork();
            working_ = !idle;
            yieldLocked();
        }
        if (idle) emit busyChanged(false);
        // A new view (not a step) gets its next step only when its frame was quick to compute:
        // a Hovmöller slab of a compressed file or a reduction costs far more than a step.
        if (idle && isFrame && ds && (job.direction != 0 || (computeMs > 0 && computeMs < kQuickFrameMs)))
            prefetch(job, ds);
    }
}

double FrameService::serveFrame(const Job& job, const std::shared_ptr<const Dataset>& ds) {
    auto result = std::make_shared<FrameResult>();
    result->id = job.id;
    result->spec = job.spec;
    try {
        const FrameKey key = keyOf(job.spec);
        const auto hit = cached(key);
        const StreamProgress progress = [this, id = job.id](double f) { emit computeProgress(id, f); };
        // A newer request (or Cancel, which asks for the view on the screen) aborts the reads
        // this frame waits on over HTTP, not only a streamed pass between slabs.
        std::optional<CancelScope> interruptible(std::in_place, interrupt_);
        if (needsVariableRange(job.spec.colouring.range.mode))
            result->variableRange = variableRange(job.spec, ds, progress);
        if (hit) {
            result->frame = hit->frame;
            result->fallback = hit->fallback;
            result->fromCache = true;
        } else {
            QElapsedTimer clock;
            clock.start();
            DataArray var = source(job.spec, ds);
            if (!var.isLoaded() && spansLoadDim(job.spec, var) && waitForLoad(job.spec.variable, true))
                var = source(job.spec, ds); // resident now, unless the load ended otherwise
            ViewLimits l = limits();
            l.progress = progress;
            result->frame = computeFrame(var, job.spec, computeDevice(), result->fallback, l);
            result->computeMs = clock.nsecsElapsed() / 1e6;
        }
        interruptible.reset();
        // The variable shown is loaded whole after its first frame: that one comes from a slab
        // at once, and does not wait behind the load's reads.
        source(job.spec, ds, true);
        ensureFrameRanges(job.spec, ds);
        {
            std::lock_guard lock(mutex_);
            result->frameRange = frameRangeLocked(job.spec);
        }
        CacheEntry entry =
            entryFor(key, job.spec, result->frame, result->fallback, result->variableRange, hit);
        result->coloured = entry.coloured;
        if (!hit || entry.coloured != hit->coloured) store(std::move(entry), ds);
        if (result->frame.ndim() == 1) // built here: a long line must not stall the GUI thread
            result->line =
                std::make_shared<LineSeries>(thinnedForDrawing(lineSeries(result->frame.asHost())));
    } catch (const CancelledError&) {
        return -1; // a newer request overtook it: that one is answered
    } catch (const std::exception& e) {
        result->error = QString::fromStdString(e.what());
        result->frame = DataArray();
    }
    emit frameReady(result);
    return result->error.isEmpty() ? result->computeMs : -1;
}

void FrameService::serveSeries(const Job& job, const std::shared_ptr<const Dataset>& ds) {
    auto result = std::make_shared<SeriesResult>();
    result->id = job.id;
    result->spec = job.spec;
    try {
        DataArray var = source(job.spec, ds);
        // A series runs along a dim; across the one a load reads, it waits for the load (a new
        // frame asked for meanwhile waits with it: the series is not overtaken by frames).
        if (!var.isLoaded() && spansLoadDim(job.spec, var) && waitForLoad(job.spec.variable, false))
            var = source(job.spec, ds);
        FallbackNote note;
        ViewLimits l = limits();
        l.cancel = CancelToken(); // a series is not overtaken by frames
        result->series =
            computeFrame(var, job.spec, computeDevice(), note, l).asHost(); // the copy-to-host path
        result->line = std::make_shared<LineSeries>(thinnedForDrawing(lineSeries(result->series)));
    } catch (const std::exception& e) {
        result->error = QString::fromStdString(e.what());
    }
    emit seriesReady(result);
}

void FrameService::setAheadWait(std::chrono::milliseconds wait) {
    std::lock_guard lock(mutex_);
    aheadWait_ = wait;
}

void FrameService::frameShown() {
    {
        std::lock_guard lock(mutex_);
        showing_ = false;
    }
    wake_.notify_all();
}

void FrameService::prefetch(const Job& job, const std::shared_ptr<const Dataset>& ds) {
    int ahead = prefetchSteps_, behind = prefetchBehind_;
    if (ahead <= 0 && behind <= 0) return;
#if defined(__linux__)
    // From the first step ahead on, this thread runs below the GUI thread (and the X server):
    // when both want a core, the paint of the frame on its way to the screen goes first. When
    // the GUI waits for this thread it is idle, and this thread has a core anyway. (Not before:
    // the first frame is computed while the GUI thread builds the window.)
    if (!lowered_) {
        (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kWorkerNice);
        lowered_ = true;
    }
#endif
    try {
        const DataArray var = source(job.spec, ds);
        // The dim stepped along; for a new view, the first slider's dim, forwards, one step.
        std::string dim = job.steppingDim;
        int direction = job.direction;
        if (dim.empty() || direction == 0) {
            const auto sliced = job.spec.slicedDims(var.dims());
            if (sliced.empty()) return;
            dim = dim.empty() ? sliced.front() : dim;
            direction = 1;
            ahead = std::min(ahead, 1);
            behind = 0;
        }
        const auto& dims = var.dims();
        if (std::find(dims.begin(), dims.end(), dim) == dims.end()) return;
        const std::int64_t n = var.sizeOf(dim);
        const std::int64_t at = job.spec.indexOf(dim);
        // Nearest first: two ahead, one behind, then the rest ahead, then the rest behind.
        std::vector<std::int64_t> offsets;
        for (int k = 1; k <= std::min(ahead, 2); ++k) offsets.push_back(k * direction);
        if (behind > 0) offsets.push_back(-direction);
        for (int k = 3; k <= ahead; ++k) offsets.push_back(k * direction);
        for (int k = 2; k <= behind; ++k) offsets.push_back(-k * direction);
        // The frame itself first: answered from the cache with another map's colours (the view
        // coloured it), it gets the new ones for the next time it is shown.
        recolour(job.spec, ds);
        ensureFrameRanges(job.spec, ds); // for the steps answered from the cache
        std::vector<std::int64_t> done{at};
        for (const std::int64_t offset : offsets) {
            {
                std::unique_lock lock(mutex_);
                // The next step is what the next press needs: computed at once. The others wait
                // until the frame asked for is on the screen (see frameShown).
                if (offset != offsets.front())
                    waitIdle(
                        lock, [&] { return stopping_ || hasAnyWork() || !showing_; }, aheadFrom_);
                if (hasAnyWork() || stopping_ || dataset_ != ds) return; // the user moved on
            }
            const std::int64_t next = ((at + offset) % n + n) % n;                 // play loops
            if (std::find(done.begin(), done.end(), next) != done.end()) continue; // short dims
            done.push_back(next);
            const ViewSpec spec = withIndex(job.spec, dim, next);
            if (recolour(spec, ds)) continue; // computed before
            // Not across the dim a load is reading: that read would hold the file as long as
            // the load, and the step will come from memory once it is done.
            if (!var.isLoaded() && spansLoadDim(spec, var) &&
                residency_->status(spec.variable).state == Residence::Loading)
                return;
            FallbackNote note;
            DataArray frame = computeFrame(var, spec, computeDevice(), note, limits());
            store(entryFor(keyOf(spec), spec, std::move(frame), note, knownRange(spec)), ds);
        }
    } catch (const std::exception&) {
        // A step ahead that fails is not shown; the request for it will say why.
    }
}

FrameService::CacheEntry FrameService::entryFor(const FrameKey& key, const ViewSpec& spec, DataArray frame,
                                                FallbackNote note, std::optional<MinMax> variableRange,
                                                const std::optional<CacheEntry>& had) {
    CacheEntry e{key, std::move(frame), std::move(note), 0, nullptr};
    e.bytes = bytesOf(e.frame);
    // Colour-mapped here, on the worker, for a 2-D frame on the host whose range is known: the
    // GUI thread then only uploads (a frame on a device is coloured there, into GL's buffer).
    if (had) e.coloured = colouredMatching(had->coloured, spec, e.frame);
    if (!e.coloured && e.frame.ndim() == 2 && e.frame.device().isHost() &&
        (!needsVariableRange(spec.colouring.range.mode) || variableRange))
        e.coloured = std::make_shared<const ColouredFrame>(
            colourFrame(e.frame, spec.colouring, variableRange, kWindowPixelOrder));
    if (e.coloured) e.bytes += bytesOf(e.coloured->rgba);
    return e;
}

bool FrameService::recolour(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds) {
    const FrameKey key = keyOf(spec);
    const auto hit = cached(key);
    if (!hit) return false;
    CacheEntry entry = entryFor(key, spec, hit->frame, hit->fallback, knownRange(spec), hit);
    if (entry.coloured != hit->coloured) store(std::move(entry), ds);
    return true;
}

} // namespace strata::app
