// FrameService: the Qt adapter. The worker's loop, the frames and series it computes, and the
// composition of the scheduler, the cache, the prefetch plan and the range book (app/frames)
// with the residency.
#include "frame_service.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <algorithm>
#include <cmath>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "export_view.h"
#include "strata/core/derived.h"
#include "strata/core/error.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/core/settings.h"
#include "strata/render/sphere_cells.h"
#include "view_roles.h"

namespace strata::app {
namespace {

// A frame computed faster than this gets its next step computed ahead even before the user steps.
constexpr double kQuickFrameMs = 50;
// The longest a load waits for its first frame to reach the screen (a hidden window never shows it).
constexpr std::chrono::milliseconds kLoadAfterScreenMs{300};
constexpr int kWorkerNice = 10; // the worker thread's nice value once it computes ahead (Linux)
constexpr std::size_t kResidentCacheBytes = std::size_t(96) << 20; // see cacheLimitLocked

// `c` when it holds the colours of `spec`, else null.
std::shared_ptr<const ColouredFrame> colouredMatching(const std::shared_ptr<const ColouredFrame>& c,
                                                      const ViewSpec& spec, const DataArray& frame) {
    return c && colouredFor(*c, spec.colouring, frame) ? c : nullptr;
}

} // namespace

FrameService::FrameService(QObject* parent)
    : QObject(parent), residency_(std::make_shared<Residency>(0)) { // the budget: decideBudget
    qRegisterMetaType<std::shared_ptr<const FrameResult>>();
    qRegisterMetaType<std::shared_ptr<const SeriesResult>>();
    deviceProbe_ = runtimeDevice;
    // Said from the worker: a queued signal to the GUI thread.
    scheduler_.setOnIdle([this] { emit idle(); });
    // A load gives way between its slabs while a frame or series the user asked for is computed
    // (netCDF-C reads one thing at a time, and its lock is not fair: a load reading slab after
    // slab would keep a step waiting for many of them).
    scheduler_.setOnLoadsYield([r = residency_.get()](bool yield) { r->setYielding(yield); });
    residency_->setListener([this](const std::string& variable) {
        // A load that ended resident: the worker makes the table of the view's frame ranges,
        // so that the steps answered from the cache come with theirs.
        const ResidencyStatus status = residency_->status(variable);
        if (status.state == Residence::Resident && !status.device.isHost()) scheduler_.setRangesDue();
        // On the loading thread: the GUI thread learns of it through the queued signal.
        QMetaObject::invokeMethod(
            this, [this, v = QString::fromStdString(variable)] { emit residencyChanged(v); },
            Qt::QueuedConnection);
    });
    thread_ = std::thread([this] { run(); });
}

FrameService::~FrameService() {
    scheduler_.stop();
    thread_.join();
    residency_->setListener({});
    scheduler_.setOnLoadsYield({});
    residency_->setYielding(false);
    residency_.reset(); // cancels the loads and waits for them
}

void FrameService::setGridFile(std::shared_ptr<const Dataset> grid) {
    std::lock_guard lock(mutex_);
    gridFile_ = std::move(grid);
    cells_.clear();
    cache_.clear(); // their frames were drawn without it
}

std::shared_ptr<const Dataset> FrameService::gridFile() const {
    std::lock_guard lock(mutex_);
    return gridFile_;
}

FrameService::Cells FrameService::cellsOf(const ViewSpec& spec, const Dataset& ds) {
    std::shared_ptr<const Dataset> grid;
    {
        std::lock_guard lock(mutex_);
        if (const auto it = cells_.find(spec.variable); it != cells_.end()) return it->second;
        grid = gridFile_;
    }
    Cells c;
    try { // outside the lock: a mesh is read and its locator built
        c.cells = sphereCellsOf(groupOf(ds, spec.variable), variableOf(ds, spec.variable), grid.get());
    } catch (const Error& e) {
        c.error = e.what();
    }
    std::lock_guard lock(mutex_);
    return cells_.emplace(spec.variable, std::move(c)).first->second;
}

void FrameService::setDataset(std::shared_ptr<const Dataset> ds) {
    std::lock_guard lock(mutex_);
    cells_.clear();
    scheduler_.setDataset(std::move(ds)); // drops the requests, stops the work in progress
    cache_.clear();
    ranges_.clear();
    declined_.clear();
    residency_->clear(); // the loads of the last file stop at their next slab
}

void FrameService::updateDataset(std::shared_ptr<const Dataset> ds) {
    std::lock_guard lock(mutex_);
    cells_.clear();
    scheduler_.setDataset(std::move(ds));
    cache_.clear();
    ranges_.clear();
}

std::shared_ptr<const Dataset> FrameService::dataset() const { return scheduler_.dataset(); }

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
    scheduler_.setWaitingForLoad(true); // the load must not give way to this very wait
    try {
        // interrupt_ is cancelled whenever closing_ is (another file, stopping).
        residency_->waitWhileLoading(variable, interruptible ? interrupt_ : closing_);
    } catch (...) {
        scheduler_.setWaitingForLoad(false);
        throw;
    }
    scheduler_.setWaitingForLoad(false);
    return true;
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

void FrameService::release(const std::string& variable) {
    {
        std::lock_guard lock(mutex_);
        cache_.dropVariable(variable); // frames may hold views of the resident copy
    }
    residency_->release(variable);
}

void FrameService::allowLoad(const std::string& variable) {
    std::lock_guard lock(mutex_);
    declined_.erase(variable);
}

void FrameService::setSavedBudget(const std::string& text) { savedBudget_ = text; }

void FrameService::decideBudget() const {
    std::call_once(budgetDecided_, [this] {
        // STRATA_RESIDENT_BUDGET, else the user's saved budget, else the default share.
        const Device device = computeDevice();
        const std::size_t available = device.isHost() ? hostAvailableMemory() : deviceFreeMemory(device);
        std::optional<std::size_t> bytes = settings::residentBudget(available);
        if (!bytes && !savedBudget_.empty()) bytes = parseResidentBudget(savedBudget_, available);
        residency_->setBudget(bytes ? *bytes : defaultResidentBudget(device));
    });
}

void FrameService::setResidentBudget(std::size_t bytes) {
    decideBudget(); // the user's choice comes after, and stays
    residency_->setBudget(bytes);
    std::lock_guard lock(mutex_);
    cache_.clear(); // the next frame is computed again, and loads its variable if it fits now
}
std::size_t FrameService::residentBudget() const {
    decideBudget();
    return residency_->budget();
}
void FrameService::waitForLoads() { residency_->wait(); }

DataArray FrameService::source(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds) {
    if (auto resident = residency_->get(spec.variable)) return *resident;
    return variableOf(*ds, spec.variable);
}

void FrameService::startLoad(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds) {
    decideBudget();
    const DataArray shown = variableOf(*ds, spec.variable);
    if (const DerivedSource* derived = derivedSourceOf(shown.variable())) {
        // A derived variable is never made whole: its inputs become resident (those of this
        // dataset; another's are read by the box), and its frames are evaluated from them.
        derived->setResidentLookup([weak = std::weak_ptr<Residency>(residency_)](const std::string& key) {
            const std::shared_ptr<Residency> r = weak.lock();
            if (!r) return std::optional<DataArray>();
            return r->get(key);
        });
        for (const VariableRef& in : derived->inputs()) {
            if (!in.alias.empty() || residency_->get(in.name)) continue;
            {
                std::lock_guard lock(mutex_);
                if (declined_.count(in.name)) continue;
            }
            residency_->request(in.name, variableOf(*ds, in.name), computeDevice());
        }
        return;
    }
    if (residency_->get(spec.variable)) return;
    {
        std::lock_guard lock(mutex_);
        if (declined_.count(spec.variable)) return;
    }
    residency_->request(spec.variable, shown, computeDevice());
}

bool FrameService::loadingOrResident(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds) const {
    const auto asked = [this](const std::string& name) {
        if (residency_->status(name).state != Residence::None) return true;
        std::lock_guard lock(mutex_);
        return declined_.count(name) > 0;
    };
    try {
        const DataArray shown = variableOf(*ds, spec.variable);
        if (const DerivedSource* derived = derivedSourceOf(shown.variable())) {
            for (const VariableRef& in : derived->inputs())
                if (in.alias.empty() && !asked(in.name)) return false;
            return true;
        }
    } catch (const Error&) {
        return true; // not in this dataset: nothing to load
    }
    return asked(spec.variable);
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

std::uint64_t FrameService::requestFrame(const ViewSpec& spec, const std::string& steppingDim,
                                         int direction) {
    const FrameJob job{scheduler_.nextId(), spec, steppingDim, direction};
    std::shared_ptr<FrameResult> answer;
    {
        std::lock_guard lock(mutex_);
        answer = answerFromCache(job);
        // Computed already (ahead, most often): answered from here, even while the worker is
        // busy computing another step ahead; the worker then computes around this one: around a
        // step, or for a frame whose colours or isolines the view must make (another map's or
        // other levels' were cached), so that the worker makes the new ones.
        const bool around =
            answer && (direction != 0 || (!answer->coloured && answer->frame.device().isHost()) ||
                       (job.spec.contours && !answer->isolines));
        scheduler_.requestFrame(job, answer != nullptr, around);
    }
    if (answer) // queued: the caller learns the id before the answer arrives
        QMetaObject::invokeMethod(
            this,
            [this, answer] {
                const bool nowIdle = scheduler_.delivered();
                emit frameReady(answer);
                if (nowIdle) emit idle();
            },
            Qt::QueuedConnection);
    return job.id;
}

std::uint64_t FrameService::requestSeries(const ViewSpec& seriesSpec) {
    const FrameJob job{scheduler_.nextId(), seriesSpec, {}, 0};
    scheduler_.requestSeries(job);
    return job.id;
}

void FrameService::setPrefetch(int stepsAhead, int stepsBehind) {
    prefetchSteps_ = std::max(0, stepsAhead);
    prefetchBehind_ = std::max(0, stepsBehind);
}

void FrameService::setAheadWait(std::chrono::milliseconds wait) { scheduler_.setAheadWait(wait); }
void FrameService::frameShown() { scheduler_.frameShown(); }
bool FrameService::busy() const { return scheduler_.busy(); }
bool FrameService::isIdle() const { return scheduler_.isIdle(); }

std::shared_ptr<FrameResult> FrameService::answerFromCache(const FrameJob& job) {
    std::optional<MinMax> range;
    if (needsVariableRange(job.spec.colouring.range.mode)) {
        range = ranges_.variableRange(variableKeyOf(job.spec), job.spec.units);
        if (!range) return nullptr; // the worker works it out
    }
    if (job.spec.vectors != VectorStyle::None || !job.spec.contourVariable.empty())
        return nullptr; // the pair's or the contour variable's frames: on the worker
    const auto hit = cache_.find(keyOf(job.spec));
    if (!hit || hit->frame.ndim() == 1) return nullptr; // a line is built on the worker
    auto result = std::make_shared<FrameResult>();
    result->id = job.id;
    result->spec = job.spec;
    result->frame = hit->frame;
    result->fallback = hit->fallback;
    result->fromCache = true;
    result->variableRange = range;
    result->frameRange = ranges_.frameRange(job.spec);
    // Colours of another map or range are not made here (the GUI thread): the view makes them.
    result->coloured = colouredMatching(hit->coloured, job.spec, hit->frame);
    result->isolines = cachedIsolines(*hit, job.spec, result->coloured.get(), range, result->frameRange);
    return result;
}

std::size_t FrameService::cachedFrames() const {
    std::lock_guard lock(mutex_);
    return cache_.size();
}

void FrameService::setCacheBytes(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    cacheLimit_ = bytes;
    cache_.setLimit(cacheLimitLocked());
}

std::size_t FrameService::cacheLimitLocked() const {
    // With variables resident on the host, frames are a millisecond away: a few steps around the
    // one shown are kept (with their colours), not the cache's whole limit beside the variable.
    const bool residentOnHost = residency_->heldBytes() > 0 && computeDevice().isHost(); // none: not asked
    return residentOnHost ? std::min(cacheLimit_, kResidentCacheBytes) : cacheLimit_;
}

std::optional<CachedFrame> FrameService::cached(const FrameKey& key) {
    std::lock_guard lock(mutex_);
    return cache_.find(key);
}

void FrameService::store(CachedFrame entry, const std::shared_ptr<const Dataset>& ds, bool beforeDevice) {
    std::lock_guard lock(mutex_);
    if (!scheduler_.isCurrent(ds)) return; // of a file gone since
    // Made on the host while the device was not known, and the device is known now: the view
    // will be asked for again (deviceDecided), and must not find this one.
    if (beforeDevice && !hostBeforeDevice_) return;
    cache_.setLimit(cacheLimitLocked());
    cache_.store(std::move(entry)); // not kept when larger than the limit
}

void FrameService::run() {
    for (;;) {
        const Scheduler::Next next = scheduler_.next();
        if (next.task == Scheduler::Task::Stop) return;
        interrupt_ = next.interrupt;
        closing_ = next.closing;
        const std::shared_ptr<const Dataset>& ds = next.dataset;
        const FrameJob& job = next.job;
        if (next.task == Scheduler::Task::Ranges) {
            if (ds) ensureFrameRanges(job.spec, ds);
            continue;
        }
        if (next.task == Scheduler::Task::Ahead) {
            if (ds) prefetch(job, ds);
            continue;
        }
        const bool isFrame = next.task == Scheduler::Task::Frame;
        emit busyChanged(true);
        double computeMs = -1;
        if (ds) {
            if (isFrame)
                computeMs = serveFrame(job, ds);
            else
                serveSeries(job, ds);
        }
        const bool idle = scheduler_.finished();
        if (idle) emit busyChanged(false);
        // A new view (not a step) gets its next step only when its frame was quick to compute:
        // a Hovmöller slab of a compressed file or a reduction costs far more than a step.
        if (idle && isFrame && ds && (job.direction != 0 || (computeMs > 0 && computeMs < kQuickFrameMs)))
            prefetch(job, ds);
        // The variable shown is loaded whole after its first frame (and the next step), once
        // that frame is on the screen: it comes from a slab at once, and neither waits behind
        // the load's reads nor shares the cores with them while it is coloured and painted (a
        // 1.5 GB file's load started beside the first paint put 100 ms on it, and 50 MiB).
        if (isFrame && ds && computeMs >= 0 && !loadingOrResident(job.spec, ds) &&
            scheduler_.waitForScreen(ds, kLoadAfterScreenMs))
            startLoad(job.spec, ds);
    }
}

double FrameService::serveFrame(const FrameJob& job, const std::shared_ptr<const Dataset>& ds) {
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
            const Device device = frameDevice(result->beforeDevice);
            result->frame =
                computeViewFrame(*ds, var, job.spec, device, result->fallback, l, gridFile().get());
            result->computeMs = clock.nsecsElapsed() / 1e6;
        }
        if (job.spec.vectors != VectorStyle::None && result->frame.ndim() == 2)
            vectorFrames(job.spec, ds, *result);
        // On a grid of rows and columns, or along sphere cells (drawn as their map).
        if (!job.spec.contourVariable.empty() && (result->frame.ndim() == 2 || result->frame.ndim() == 1))
            contourFrame(job.spec, ds, *result);
        interruptible.reset();
        ensureFrameRanges(job.spec, ds);
        {
            std::lock_guard lock(mutex_);
            result->frameRange = ranges_.frameRange(job.spec);
        }
        CachedFrame entry =
            entryFor(key, job.spec, result->frame, result->fallback, result->variableRange, hit);
        result->coloured = entry.coloured;
        result->isolines = entry.isolines;
        if (result->contourFrame) contourVariableIsolines(job.spec, *result);
        if (!hit || entry.coloured != hit->coloured || entry.isolines != hit->isolines)
            store(std::move(entry), ds, result->beforeDevice);
        if (result->frame.ndim() == 1) {
            const Cells cells = cellsOf(job.spec, *ds);
            if (cells.cells && isAlong(result->frame, *cells.cells)) result->cells = cells.cells;
            result->cellsError = QString::fromStdString(cells.error);
        }
        if (result->frame.ndim() == 1 &&
            !result->cells) // built here: a long line must not stall the GUI thread
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

void FrameService::serveSeries(const FrameJob& job, const std::shared_ptr<const Dataset>& ds) {
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
        result->series = computeViewFrame(*ds, var, job.spec, computeDevice(), note, l, gridFile().get())
                             .asHost(); // to the host
        result->line = std::make_shared<LineSeries>(thinnedForDrawing(lineSeries(result->series)));
    } catch (const std::exception& e) {
        result->error = QString::fromStdString(e.what());
    }
    emit seriesReady(result);
}

void FrameService::prefetch(const FrameJob& job, const std::shared_ptr<const Dataset>& ds) {
    const PrefetchPlan plan(prefetchSteps_, prefetchBehind_);
    if (prefetchSteps_ <= 0 && prefetchBehind_ <= 0) return;
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
        const PrefetchPlan::Steps steps =
            plan.around(job.spec, var.dims(), var.shape(), job.steppingDim, job.direction);
        if (steps.dim.empty()) return;
        // The frame itself first: answered from the cache with another map's colours (the view
        // coloured it), it gets the new ones for the next time it is shown.
        recolour(job.spec, ds);
        ensureFrameRanges(job.spec, ds); // for the steps answered from the cache
        for (std::size_t k = 0; k < steps.indices.size(); ++k) {
            // A step's next step is what the next press needs: computed at once. The others,
            // and a new view's first, wait until the frame asked for is on the screen (see
            // frameShown): a new view's frame is still on its way through the GUI thread (a
            // file's first frame: its paint and the panels), which the read would share the
            // two cores with, and the memory to the first frame would hold the step too.
            if (!scheduler_.mayComputeAhead(ds, k > 0 || job.direction == 0)) return; // the user moved on
            const ViewSpec spec = withIndex(job.spec, steps.dim, steps.indices[k]);
            if (recolour(spec, ds)) continue; // computed before
            // Not across the dim a load is reading: that read would hold the file as long as
            // the load, and the step will come from memory once it is done.
            if (!var.isLoaded() && spansLoadDim(spec, var) &&
                residency_->status(spec.variable).state == Residence::Loading)
                return;
            FallbackNote note;
            DataArray frame =
                computeViewFrame(*ds, var, spec, computeDevice(), note, limits(), gridFile().get());
            store(entryFor(keyOf(spec), spec, std::move(frame), note, knownRange(spec), {}, true), ds);
        }
    } catch (const std::exception&) {
        // A step ahead that fails is not shown; the request for it will say why.
    }
}

CachedFrame FrameService::entryFor(const FrameKey& key, const ViewSpec& spec, DataArray frame,
                                   FallbackNote note, std::optional<MinMax> variableRange,
                                   const std::optional<CachedFrame>& had, bool ahead) {
    CachedFrame e{key, std::move(frame), std::move(note), 0, nullptr};
    e.bytes = bytesOf(e.frame);
    // Colour-mapped here, on the worker, for a 2-D frame on the host whose range is known: the
    // GUI thread then only uploads (a frame on a device is coloured there, into GL's buffer).
    if (had) e.coloured = colouredMatching(had->coloured, spec, e.frame);
    if (!e.coloured && e.frame.ndim() == 2 && e.frame.device().isHost() &&
        (!needsVariableRange(spec.colouring.range.mode) || variableRange))
        e.coloured = std::make_shared<const ColouredFrame>(
            colourFrame(e.frame, spec.colouring, variableRange, kWindowPixelOrder));
    if (e.coloured) e.bytes += bytesOf(e.coloured->rgba);
    // The isolines too, for the same reason (a 1440 × 721 frame's take 10 ms on two cores).
    e.isolines = isolinesFor(spec, e.frame, e.coloured.get(), variableRange, had, ahead);
    if (e.isolines) e.bytes += bytesOf(*e.isolines);
    return e;
}

bool FrameService::recolour(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds) {
    const FrameKey key = keyOf(spec);
    const auto hit = cached(key);
    if (!hit) return false;
    CachedFrame entry = entryFor(key, spec, hit->frame, hit->fallback, knownRange(spec), hit, true);
    if (entry.coloured != hit->coloured || entry.isolines != hit->isolines) store(std::move(entry), ds);
    return true;
}

} // namespace strata::app
