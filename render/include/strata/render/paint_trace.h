#pragma once
// Where the time of a GL paint goes, for the frame trace (STRATA_TRACE_FRAMES): the GL view
// notes when its last paint began and when the GPU had finished drawing it, and the window
// prints both beside the frame. The rest, up to the swap's end, is the display's presentation.
#include <cstdint>

#include "strata/core/monotonic_clock.h" // the times' clock

namespace strata {

struct PaintTimes {
    std::int64_t beganNs = 0;    // CLOCK_MONOTONIC, as the window's frame trace
    std::int64_t preparedNs = 0; // the scene brought up to date (actors, text, the frame's texture)
    std::int64_t renderedNs = 0; // VTK's render issued (GL calls made, not yet done)
    std::int64_t drawnNs = 0;    // after glFinish: every draw of the paint done on the GPU
};

// True when STRATA_TRACE_FRAMES is set: only then does a paint wait for the GPU (glFinish)
// to note when it was drawn.
bool paintTraceOn();
void notePaint(PaintTimes t);
PaintTimes lastPaint();

} // namespace strata
