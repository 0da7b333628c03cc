#include "strata/render/paint_trace.h"

#include <atomic>

#include "strata/core/settings.h"

namespace strata {
namespace {
std::atomic<std::int64_t> began{0}, prepared{0}, rendered{0}, drawn{0}; // GUI thread writes, any thread reads
} // namespace

bool paintTraceOn() {
    static const bool on = settings::traceFrames();
    return on;
}

void notePaint(PaintTimes t) {
    began.store(t.beganNs, std::memory_order_relaxed);
    prepared.store(t.preparedNs, std::memory_order_relaxed);
    rendered.store(t.renderedNs, std::memory_order_relaxed);
    drawn.store(t.drawnNs, std::memory_order_relaxed);
}

PaintTimes lastPaint() {
    return {began.load(std::memory_order_relaxed), prepared.load(std::memory_order_relaxed),
            rendered.load(std::memory_order_relaxed), drawn.load(std::memory_order_relaxed)};
}

} // namespace strata
