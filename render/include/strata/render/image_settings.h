#pragma once
// What the image view shows and how: plain, copyable state (the app's view settings hold one),
// read by the on-screen view and by PNG export alike.
#include <bit>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/core/contour.h"
#include "strata/core/data_array.h"
#include "strata/core/flow.h" // describeGrid, VectorStyle
#include "strata/core/map_crs.h"
#include "strata/core/ops.h"
#include "strata/render/colour_range.h"
#include "strata/render/view_layout.h"

namespace strata {

class SphereCells; // sphere_cells.h

enum class GridSpace {
    Index,  // cells as rows and columns
    LonLat, // a curvilinear grid's cells where their 2-D longitude/latitude say
};

struct ImageViewSettings {
    Colouring colouring;
    AspectMode aspect = AspectMode::Auto;
    std::optional<ViewWindow> window; // zoom and pan; unset shows the whole frame
    bool allowInterop = true;         // false forces the host upload (for comparisons)
    // Coastlines over the frame when x/y are CF longitude/latitude. Off here (the render layer's
    // pictures are the frame's cells alone); the window and the command line turn them on.
    bool coastlines = false;
    // A frame on a curvilinear grid (2-D longitude/latitude over its dims) drawn as its cells in
    // longitude/latitude space, or in index space (rows and columns). Index space here; the window
    // and the command line choose longitude/latitude.
    GridSpace grid = GridSpace::Index;
    // A map projection's name (strata/render/projection.h) for frames whose x/y are CF
    // longitude/latitude: the frame is shown resampled into it, with a graticule. Empty: none.
    std::string projection;
    // Isolines of the frame's values over it, at these levels (the automatic ones in the colour
    // range); unset: none. Computed on the frame's device, drawn on every grid and map.
    std::optional<ContourSpec> contours;
    bool contourLabels = true;            // the levels' values along the lines
    bool contourDashNegative = false;     // lines of levels below zero dashed
    Rgba8 contourColour{72, 72, 72, 255}; // their ink: a dark grey, apart from the coastlines' black
    // Filled contours: the colour map banded at the levels `contours` names (`fillLevels` while
    // no lines are drawn), each band the colour of its middle, the colour bar in bands.
    bool filledContours = false;
    ContourSpec fillLevels;  // automatic unless chosen
    double contourWidth = 1; // their width in logical pixels (0.5 to 8)
    // The frame's vector pair drawn as these, a glyph every `vectorSpacing` logical pixels of the
    // plot (streamlines a third of that apart), whatever the zoom.
    VectorStyle vectors = VectorStyle::None;
    double vectorSpacing = 36;
    Rgba8 vectorColour{24, 24, 24, 255};
    // Particles (VectorStyle::Particles): about one for every (vectorSpacing / 3)² / 1.5 pixels of
    // the plot times `particleDensity`, moving about 1.5 pixels a step times `particleSpeed`.
    // `particleTime` counts the steps they have moved in the window (the image view's own
    // clock); a view seeds them afresh, so that export and the command line draw a still.
    double particleDensity = 1;
    double particleSpeed = 1;
    std::uint64_t particleTime = 0;
    friend bool operator==(const ImageViewSettings&, const ImageViewSettings&) = default;
};

// The order of a colour-mapped pixel's four bytes in memory. Bgra is a 32-bit 0xAARRGGBB on a
// little-endian machine: what Qt's raster windows hold (QImage::Format_RGB32), so that a frame
// in that order is copied onto the window without converting a pixel.
enum class PixelOrder { Rgba, Bgra };
inline constexpr PixelOrder kWindowPixelOrder =
    std::endian::native == std::endian::little ? PixelOrder::Bgra : PixelOrder::Rgba;

// A frame on the host already colour-mapped (off the GUI thread) as the view would map it with
// some colouring: the pixels, the range it was mapped with, and the colouring that decides them.
struct ColouredFrame {
    DataArray rgba; // uint8 {rows, columns, 4}, on the host, bytes in `order`
    PixelOrder order = PixelOrder::Rgba;
    MinMax range; // [vmin, vmax] as resolveRange gave it
    Colouring colouring;
    std::optional<MinMax> extremes; // the frame's own finite extremes, where the range needed them
};

// A frame's isolines traced before it reaches the view (the window's worker traces the steps
// ahead, as it colours them): the view draws them when its levels and seam are these, and
// traces its own otherwise. Traced from the contour frame when there is one, else the frame.
struct TracedIsolines {
    std::vector<double> levels; // increasing, as contourLevels gave them
    bool wrapX = false;         // the columns make a whole turn of longitude (isolines' wrapX)
    MinMax extremes;            // the traced frame's finite extremes (minmaxValues)
    std::vector<Isoline> lines;
};
// `frame`'s isolines at `spec`'s levels in `range` (the colour range, or for a contour frame
// its own extremes), with the seam the image view gives its axes. `extremes`: the frame's finite
// extremes (minmaxValues) when they are known, else read here. Null when it draws none: no
// finite values, a constant frame or no level inside the range. Throws as isolines() does.
std::shared_ptr<const TracedIsolines> traceIsolines(const DataArray& frame, const ContourSpec& spec,
                                                    std::optional<MinMax> range,
                                                    std::optional<MinMax> extremes = std::nullopt);
// The bytes `t` holds (a cache's account).
std::size_t bytesOf(const TracedIsolines& t);

// A frame to show: a 2-D array (dims: rows drawn vertically, columns horizontally) on the
// host or a device, with what the view cannot work out from it.
struct ImageFrame {
    DataArray frame;
    std::string title;                   // empty: frameTitle(frame)
    std::optional<MinMax> variableRange; // the whole variable's extremes, for RangeMode::Variable
    // `frame` colour-mapped ahead: the view uploads it as it is when it was made with the view's
    // colouring (colouredFor), and colours the frame itself otherwise.
    std::shared_ptr<const ColouredFrame> coloured;
    // The frame's own extremes (minmax() of it) when they are known on the host already: the
    // per-frame range is then not read back from the frame's device.
    std::optional<MinMax> frameRange;
    // The CRS of the frame's columns (x) and rows (y) when they are a map's own coordinates (a
    // CF grid mapping): coastlines and a graticule are drawn through it. Unset: none.
    std::optional<MapCrs> crs;
    // Another variable's frame whose isolines are drawn over this one's colours (zg over ta),
    // on the same grid: its automatic levels are in its own range. Unset: the frame's own.
    std::optional<DataArray> contourFrame;
    std::shared_ptr<const TracedIsolines> isolines; // traced ahead (null: the view traces them)
    // The frames of a vector pair on the same grid (eastward and northward, or along the grid's
    // x and y when gridRelative), drawn as ImageViewSettings::vectors says.
    std::optional<DataArray> vectorU, vectorV;
    bool vectorsGridRelative = false;
    // A frame along one dim of cells on the sphere (HEALPix, a mesh's faces): 1-D along
    // cells->dim(), drawn on the settings' projection (PlateCarree when none is set). Unset: a
    // frame of rows and columns.
    std::shared_ptr<const SphereCells> cells;
};

// The dim ImageContent gives a frame of sphere cells (ImageFrame::cells) to draw it as one row.
inline constexpr const char* kCellRowDim = "cell_row";

// Why `contours` (a frame of another variable) cannot be drawn over `frame`: not 2-D, or on
// another grid (dims, sizes or coordinate values), both grids named. Empty when it can.
std::string contourFrameProblem(const DataArray& frame, const DataArray& contours);

// `frame` (2-D, on the host) colour-mapped as the image view maps it with `colouring`: the range
// resolved from the mode (the frame's extremes, `variableRange`, fixed), the map's LUT, NaN in
// the colouring's colour, each pixel's bytes in `order` (the LUT's channels are swapped for Bgra:
// no pass over the pixels). Throws ValueError for a frame on a device or not 2-D, or an
// unknown map.
// With `bands`, the table is banded at the levels they give in the resolved range (filled
// contours: bandedTable). `extremes`, when given, stand for the frame's (a map's pixels resampled
// from a mesh's nodes take the range of the nodes).
ColouredFrame colourFrame(const DataArray& frame, const Colouring& colouring,
                          std::optional<MinMax> variableRange, PixelOrder order = PixelOrder::Rgba,
                          const std::optional<ContourSpec>& bands = std::nullopt,
                          std::optional<MinMax> extremes = std::nullopt);
// The levels filled contours band `range` at for `settings` (none when they are off).
std::optional<ContourSpec> fillBands(const ImageViewSettings& settings);

// True when `c` is what colourFrame makes of a frame of `frame`'s shape with `colouring` (and
// the same variable range): an equal Colouring, and the frame's shape.
bool colouredFor(const ColouredFrame& c, const Colouring& colouring, const DataArray& frame);

} // namespace strata
