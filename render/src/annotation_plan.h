#pragma once
// AnnotationPlan: everything the image view draws around the frame — the plot's border, the
// axes' tick marks, labels and titles, the colour bar with its ticks, triangles and "missing"
// swatch, the title — laid out once from the view, in window pixels (origin bottom left, as
// ViewLayout). Both painters draw it as it is: the GL scene (image_annotations.cpp) with VTK
// props, the raster scene (raster_scene.cpp) with QPainter. Neither lays anything out itself.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "coast_plan.h"
#include "colour_bar_plan.h"
#include "strata/render/grid_geometry.h"
#include "strata/render/view_layout.h"

namespace strata::detail {

enum class Align { Left, Centre, Right };
enum class VAlign { Bottom, Centre, Top };

// A line of ink from (x0, y0) to (x1, y1), AnnotationPlan::lineWidth wide, centred on it.
struct Segment {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    friend bool operator==(const Segment&, const Segment&) = default;
};

// A label: its anchor, font size in pixels and alignment about the anchor.
struct TextItem {
    std::string text;
    double x = 0, y = 0;
    double size = 12;
    Align h = Align::Left;
    VAlign v = VAlign::Bottom;
    bool upright = false; // turned a quarter anticlockwise about the anchor
    double maxWidth = 0;  // > 0: shortened at the end with "…" to span at most this many pixels
    std::string role;     // a label whose text changes from frame to frame (the title): its name
    bool halo = false;    // on a pale box, readable over data (the graticule's labels in the plot)
    friend bool operator==(const TextItem&, const TextItem&) = default;
};

// A text item of `size` anchored at (x, y) as `h` and `v` say.
inline TextItem textAt(std::string s, double x, double y, double size, Align h, VAlign v,
                       bool upright = false) {
    TextItem t;
    t.text = std::move(s);
    t.x = x;
    t.y = y;
    t.size = size;
    t.h = h;
    t.v = v;
    t.upright = upright;
    return t;
}

// What one part of the annotations draws in ink: boxes are filled rectangles on whole pixels
// (the borders and tick marks), lines are the slanted edges of the colour bar's triangles.
struct InkGroup {
    std::vector<PixelRect> boxes;
    std::vector<Segment> lines;
    std::vector<TextItem> texts;
    friend bool operator==(const InkGroup&, const InkGroup&) = default;
};

// The colour bar's colours: one band per map entry over `geometry.bands`, low at the bottom,
// the triangles and the swatch in their colours. Empty `content.table`: no colour bar.
struct ColourBarFill {
    ColourBarPlan geometry;
    ColourBarContent content;
    friend bool operator==(const ColourBarFill&, const ColourBarFill&) = default;
};

// Lines (or outlines to fill) of one colour and width over the frame, in window pixels.
struct InkLines {
    std::vector<PixelPolyline> lines;
    Rgba8 colour{24, 24, 24, 255};
    double width = 1; // whole pixels
    bool filled = false;
    friend bool operator==(const InkLines&, const InkLines&) = default;
};

// What the annotations show, apart from where.
struct AnnotationContent {
    ViewLayout layout;
    ViewWindow window;
    const AxisGrid* x = nullptr;
    const AxisGrid* y = nullptr;
    ColourBarContent bar;
    std::string title;
    std::string barTitle; // the variable's units
    // The coastlines over the frame, in window pixels (coast_plan.h), when they are drawn:
    // planned by the content for its window and plot, and kept while those stay (a step
    // through time reuses them).
    std::shared_ptr<const std::vector<PixelPolyline>> coast;
    // The frame's isolines in window pixels, when asked for (ImageViewSettings::contours), and
    // their labels on a halo (contour_labels.h).
    std::shared_ptr<const std::vector<PixelPolyline>> contours;
    std::vector<TextItem> contourLabels;
    Rgba8 contourColour{72, 72, 72, 255};
    double contourWidth = 1; // logical pixels
    // The vector pair's arrows, barbs, streamlines or particles (over the isolines), and their
    // legend's text on a halo.
    std::shared_ptr<const std::vector<InkLines>> vectors;
    std::vector<TextItem> vectorLabels;
    // A map in a projection (x and y are map metres): no ticks; the border, and the graticule's
    // labels over the frame (its lines come with the coastlines in `coast`).
    bool map = false;
    std::vector<TextItem> mapLabels;
};

struct AnnotationPlan {
    ViewLayout layout;
    double lineWidth = 1; // whole pixels: the borders', ticks' and lines' width
    // Three groups, each redrawn by the GL scene only when it changes: a step through time
    // changes the title (and the colour bar, with a per-frame range), not the axes.
    InkGroup axes;
    ColourBarFill barFill;
    InkGroup bar;
    InkGroup title;
    // Over the frame: the coastlines in window pixels, clipped to the plot, lineWidth wide.
    std::shared_ptr<const std::vector<PixelPolyline>> coast; // null: none
    // Over the frame, under the coastlines: the isolines, clipped to the plot (null: none).
    std::shared_ptr<const std::vector<PixelPolyline>> contours;
    Rgba8 contourColour{72, 72, 72, 255};
    double contourWidth = 1; // whole pixels
    // Over the isolines, under the coastlines: the vector pair's glyphs (null: none).
    std::shared_ptr<const std::vector<InkLines>> vectors;
    // Over the frame too, over the lines: a map's graticule labels and the isolines' labels on a
    // halo (planned with `coast` and `contours`, so that they change when those do).
    std::vector<TextItem> overFrame;
    // A map's graticule labels beyond its edge (planned with `coast` too), in window pixels: over
    // everything, not clipped to the plot (one may reach over the plot's border).
    std::vector<TextItem> beyondMap;
};

// The isolines' colour unless chosen (ImageViewSettings::contourColour), both painters: a dark
// grey, apart from the coastlines' near-black.
inline constexpr int kContourInk[3] = {72, 72, 72};

// Sizes, logical pixels (times the layout's scale).
inline constexpr double kTickLength = 5, kLabelSize = 12, kAxisTitleSize = 13, kTitleSize = 15;

// The plan for `content`: x ticks below the plot with their labels under them and the axis
// title below those; y ticks left of the plot, labels before them, the title turned upright;
// the colour bar right of the plot with ticks and labels on its right and the units upright
// beyond; the title centred at the top, shortened to the window's width less 8 pixels a side;
// the coastlines over the plot (coast_plan.h).
AnnotationPlan planAnnotations(const AnnotationContent& content);

} // namespace strata::detail
