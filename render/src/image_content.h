#pragma once
// ImageContent: what the image view shows, apart from how it is drawn — the frame, its axes'
// grids, the settings, the visible window, the layout for a window size, the titles and the
// cell under a pixel. The GL scene (ImageScene) and the raster scene (RasterScene) each hold
// one, so that both lay out and pick alike.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "annotation_plan.h"
#include "native_map.h"
#include "strata/render/curvilinear_grid.h"
#include "strata/render/image_settings.h"
#include "strata/render/projection.h"

namespace strata::detail {

struct ParticleRun; // image_vectors.cpp

class ImageContent {
public:
    // Throws ValueError for a frame that is not 2-D; true when the cells' grid changed (the
    // edges of either axis), so that the caller rebuilds what depends on it.
    bool setFrame(ImageFrame frame);
    // The grids point into the frame's coordinates, so they let go of them with it: the next
    // frame's grids are compared with these (a use after free under ASan before).
    void clearFrame() {
        frame_.reset();
        x_.coordinate = y_.coordinate = srcX_.coordinate = srcY_.coordinate = nullptr;
    }
    bool hasFrame() const { return frame_.has_value(); }
    const ImageFrame* frame() const { return frame_ ? &*frame_ : nullptr; }
    // Throws ValueError for an unknown colour map (and changes nothing); true when the frame's
    // colours change with it (map, direction, range, NaN colour, interop).
    bool setSettings(const ImageViewSettings& settings);
    const ImageViewSettings& settings() const { return settings_; }

    ViewWindow window() const;     // the visible data window
    ViewWindow fullExtent() const; // the whole frame
    // True when both axes are evenly spaced: one quad (or one copy) draws the frame.
    bool regular() const { return regular_; }
    // The layout for a window of width × height device pixels; unzoomed, a regular grid snaps
    // to whole pixels per cell.
    ViewLayout layoutFor(int width, int height, double scale) const;
    Pick pick(const ViewLayout& layout, double px, double py) const; // window pixels, origin bottom left

    // The frame's curvilinear grid when its cells are drawn in longitude/latitude space
    // (settings.grid LonLat and 2-D longitude/latitude over the frame's dims), else null; the
    // axes (xGrid, yGrid) are then longitude and latitude over the cells' extent.
    // The curvilinear grid drawn as cells in lon/lat (none while it is resampled onto a map).
    const CurvilinearGrid* curvilinear() const { return curvilinearOn() && !map_ ? curv_.get() : nullptr; }
    // Why a frame's 2-D longitude/latitude could not make cells (empty when they could, or when
    // it has none).
    const std::string& curvilinearProblem() const { return curvProblem_; }
    // Bumped whenever the cells drawn change (a new grid of either kind, or the grid space).
    std::uint64_t cellsVersion() const { return cellsVersion_; }
    // The resampling into the settings' projection while one is shown (the frame's x/y are
    // longitude/latitude): the drawn grid (xGrid, yGrid) is then the map image's, in map metres,
    // and the painters resample the frame's colours through it. Null otherwise.
    const Reprojection* map() const { return map_.get(); }
    // Why the settings' projection is not shown (an unknown name, x/y not longitude/latitude).
    const std::string& projectionProblem() const { return projectionProblem_; }

    const AxisGrid& xGrid() const { return x_; }
    const AxisGrid& yGrid() const { return y_; }
    // Bumped whenever the axes would draw differently (edges, dims, titles, units, calendars).
    std::uint64_t gridVersion() const { return gridVersion_; }
    std::string title() const;    // the frame's, else frameTitle
    std::string barTitle() const; // the variable's units
    // What the colour bar needs of the frame's values: whether one is missing (NaN: counted once
    // per frame, 8 bytes from a device) for the "missing" swatch, and, with a fixed range, its
    // extremes (16 bytes) for the triangles of values beyond.
    FrameValues frameValues() const;
    // What the annotations show for `layout`, with the colour map's `table` and the frame's
    // resolved colour `range` (the grids are this content's: it must outlive the result).
    // With settings.coastlines on a longitude/latitude frame, the shorelines at the level the
    // zoom asks for; when they cannot be read, none, and coastProblem() says why.
    AnnotationContent annotations(const ViewLayout& layout, std::vector<Rgba8> table, MinMax range) const;
    const std::string& coastProblem() const { return coastProblem_; }
    // Why the contours asked for (ImageViewSettings::contours) are not drawn for the frame and
    // settings given: another grid, a constant field, or why computing them failed (too many
    // crossings); empty when they are, or none are asked for. Reads the frame's extremes once.
    std::string contourProblem() const;
    std::string contourBlocker() const; // contourProblem() but a failure to compute them
    // Why the vectors asked for (ImageViewSettings::vectors) are not drawn: no pair given, a pair
    // on other grids, or why computing them failed; empty when they are, or none are asked for.
    std::string vectorProblem() const;
    std::string vectorBlocker() const; // vectorProblem() but a failure to compute them
    // The shorelines the last annotations() drew: their level and where they come from
    // ("GSHHG 2.3.7 high (0.2 km), /usr/share/gmt-gshhg (gmt-gshhg-high)"); resolution 0 when
    // none.
    struct CoastDrawn {
        char resolution = 0;
        std::string path, description;
    };
    const CoastDrawn& coastDrawn() const { return coastDrawn_; }

private:
    bool curvilinearOn() const { return curv_ && settings_.grid == GridSpace::LonLat; }
    // Sets x_, y_ (and map_) for the grid space in use: a curvilinear grid's longitude/latitude
    // extent, else the frame's grids, on the settings' projection when one is shown. True when
    // the drawn grid's edges changed.
    bool applyGrid(AxisGrid x, AxisGrid y);
    bool placeGrids(AxisGrid x, AxisGrid y); // the frame's grids, projected or not

    std::optional<ImageFrame> frame_;
    std::uint64_t frameVersion_ = 0;             // bumped by each setFrame
    mutable std::optional<MinMax> contourRange_; // the contoured frame's extremes, once read
    mutable std::string contourError_;           // why the last isolines could not be computed
    AxisGrid x_, y_;
    AxisGrid srcX_, srcY_; // the frame's own grids (index space; longitude, latitude while projected)
    std::shared_ptr<const CurvilinearGrid> curv_; // shared by copies (export paints a copy)
    std::shared_ptr<const CellLocator> locator_;
    std::string curvProblem_;
    std::uint64_t cellsVersion_ = 0;
    std::shared_ptr<const Reprojection> map_;
    Coordinate mapX_, mapY_; // the map's axes (map metres), for x_ and y_ while projected
    std::string projectionProblem_;
    bool regular_ = false;
    std::uint64_t gridVersion_ = 0;
    ImageViewSettings settings_;
    mutable std::optional<bool> hasMissing_;
    mutable std::optional<MinMax> extremes_;
    mutable std::string coastProblem_;
    // The isolines in window pixels for the frame, levels, window and plot they were made for.
    std::shared_ptr<const std::vector<PixelPolyline>>
    contourLines(const ViewLayout& layout, const ViewWindow& window, MinMax range) const;
    struct ContourKey {
        std::uint64_t frame = 0, cells = 0; // frameVersion_, cellsVersion_
        const Reprojection* map = nullptr;
        std::vector<double> levels;
        ViewWindow window;
        PixelRect plot;
        double scale = 1;
        bool labels = true, dashNegative = false;
        friend bool operator==(const ContourKey&, const ContourKey&) = default;
    };
    mutable ContourKey contourKey_;
    mutable std::shared_ptr<const std::vector<PixelPolyline>> contours_;
    mutable std::vector<TextItem> contourLabels_; // with contours_
    // Index-space polylines (x column, y row) in window pixels through `t`: through a curvilinear
    // grid's longitude/latitude, the frame's grid mapping or the map, cut at a map's seam (and,
    // with `turn`, continuous over a global longitude's). owner[k] is the line piece k is of.
    std::vector<PixelPolyline> pixelLines(const std::vector<const std::vector<double>*>& lines,
                                          const ViewTransform& t, bool turn,
                                          std::vector<std::size_t>& owner) const;
    // The vector pair's glyphs and legend in window pixels for the window and plot.
    std::shared_ptr<const std::vector<InkLines>> vectorGlyphs(const ViewLayout& layout,
                                                              const ViewWindow& window) const;
    struct VectorKey {
        std::uint64_t frame = 0, cells = 0;
        const Reprojection* map = nullptr;
        ViewWindow window;
        PixelRect plot;
        double scale = 1, spacing = 0;
        VectorStyle style = VectorStyle::None;
        Rgba8 colour;
        double density = 1, speed = 1;
        std::uint64_t particleTime = 0;
        friend bool operator==(const VectorKey&, const VectorKey&) = default;
    };
    mutable VectorKey vectorKey_;
    mutable std::shared_ptr<const std::vector<InkLines>> vectors_;
    mutable std::vector<TextItem> vectorLabels_; // with vectors_
    mutable std::string vectorError_;
    // The particles moving in the window, kept from one step to the next; a copy of the content
    // (export paints one) starts its own.
    struct Particles {
        std::shared_ptr<ParticleRun> run;
        Particles() = default;
        Particles(const Particles&) {}
        Particles& operator=(const Particles&) {
            run.reset();
            return *this;
        }
    };
    mutable Particles particles_;
    mutable CoastDrawn coastDrawn_;
    // The lines of the level pickCoast gives for `degreesPerPixel` over `box`, kept in
    // coastLines_ (so that CoastKey's pointer stays theirs), with coastDrawn_ and coastProblem_
    // set; null when none can be read.
    const std::vector<LonLatLine>* useCoast(double degreesPerPixel, const LonLatBox& box, char finest) const;
    mutable std::shared_ptr<const std::vector<LonLatLine>> coastLines_;
    struct CoastKey {
        const std::vector<LonLatLine>* lines = nullptr;
        ViewWindow window;
        PixelRect plot;
        const Reprojection* map = nullptr; // projected lines: the map they were planned for
        std::uint64_t native = 0;          // lines in the frame's own CRS: nativeVersion_
        friend bool operator==(const CoastKey&, const CoastKey&) = default;
    };
    mutable CoastKey coastKey_;
    // A map's lines over the frame (coastlines, then the graticule) and the graticule's labels,
    // for a plot and window.
    using MapLinesPlan =
        std::function<std::pair<std::vector<PixelPolyline>, Graticule>(const ViewTransform& plotWindow)>;
    // coast_ and mapLabels_ planned again by `plan` when `key` changed; both given to `c`.
    void useMapLines(const CoastKey& key, AnnotationContent& c, const MapLinesPlan& plan) const;
    // A frame in its own CRS: PROJ's set-up, and each coastline level forward-projected into it.
    mutable std::shared_ptr<const NativeMap> native_;
    mutable std::uint64_t nativeVersion_ = 0; // counts native_'s changes
    // Keyed by the level's lines themselves (kept alive here), not their address: a freed
    // vector's address may come back for other lines.
    mutable std::map<std::shared_ptr<const std::vector<LonLatLine>>,
                     std::shared_ptr<const std::vector<LonLatLine>>>
        nativeCoast_;
    mutable std::shared_ptr<const std::vector<PixelPolyline>> coast_; // planned for coastKey_
    mutable std::vector<TextItem> mapLabels_;                         // with coast_, projected
};

} // namespace strata::detail
