#pragma once
// The image an export draws of a view's frame, shared by the PNG export and the movie export
// (export_view.cpp): the frames drawn over it, the scene, and what the user is told about it.
// Only in a build with the render layer.
#include <QSize>
#include <optional>

#include "export_view.h"
#include "strata/render/image_export.h"
#include "strata/render/sphere_cells.h"

namespace strata::app::detail {

// The frames drawn over the view's: another variable's isolines, a vector pair.
struct Overlays {
    std::optional<DataArray> contours, u, v;
    bool gridRelative = false;
};

// The overlays `options` ask for, computed as the view's frame is. Throws ValueError (naming
// --contour-var or --uv and both grids) when one does not fit the frame.
Overlays overlaysOf(const Dataset& ds, const ViewSpec& view, const DataArray& frame,
                    const ExportOptions& options);

// The cells the view's variable lies on when `frame` is the whole of a frame along them (a
// HEALPix grid, a mesh's faces, their geometry in `ds` or in options.gridFile); null otherwise,
// and when the file's grid cannot be drawn as a map (told through options.tell).
std::shared_ptr<const SphereCells> cellsOf(const Dataset& ds, const ViewSpec& view, const DataArray& frame,
                                           const ExportOptions& options);

// The image view's scene of `frame`: its title, map, colour range, overlays, its `cells` (from
// cellsOf; null for a frame of rows and columns) and the options' settings; what will not be
// drawn (coastlines, a projection) is told through options.tell.
struct Scene {
    ImageFrame image;
    ImageViewSettings settings;
};
Scene sceneOf(const Dataset& ds, const ViewSpec& view, const DataArray& frame, const Overlays& overlays,
              std::shared_ptr<const SphereCells> cells, const ExportOptions& options);

// After drawing `scene` at `size`: contours or vectors that could not be drawn, and, for
// --verbose, the coastlines drawn.
void tellDrawn(const Scene& scene, QSize size, const ExportOptions& options);

} // namespace strata::app::detail
