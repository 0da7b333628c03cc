#pragma once
// SphereCells: the cells of a variable's one cell dim placed on the sphere, for grids whose
// values are not rows and columns of longitude and latitude (issue 37): a HEALPix grid, a
// mesh's faces. The image view draws such a frame on a map by asking, once per map image, which
// cell holds each pixel (pixelIndex); every step is then a gather by that index, on the frame's
// device (Reprojection's cell-map path).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/core/dataset.h"
#include "strata/core/healpix_grid.h"
#include "strata/core/mesh.h"
#include "strata/core/stream.h"
#include "strata/render/image_settings.h" // kCellRowDim
#include "strata/render/projection.h"

namespace strata {

class SphereCells {
public:
    virtual ~SphereCells() = default;
    virtual const std::string& dim() const = 0; // the frame's cell dim
    virtual std::int64_t size() const = 0;      // the values along it
    // What the grid is, for titles and the probe: "HEALPix nside 64, nest".
    virtual std::string describe() const = 0;
    // The index along dim of the cell holding longitude/latitude (degrees), -1 where none holds
    // it (off a subset or a regional mesh). Safe from many threads at once.
    virtual std::int64_t find(double lon, double lat) const = 0;
    // The centre of the cell at `index` (degrees).
    virtual void centre(std::int64_t index, double& lon, double& lat) const = 0;
    // The index of the cell under each pixel of the map image of `width` × `height` pixels over
    // `extent` of `projection` (pixel centres, row 0 at the bottom), -1 off the map or off the
    // cells: `out` holds width × height of them in memory of `stream`'s device. This one works on
    // the host (the rows shared among the CPU's threads; a device's index is made on the host
    // and copied); a grid whose cells a kernel can find overrides it.
    virtual void pixelIndex(const Projection& projection, const MapExtent& extent, int width, int height,
                            std::int64_t* out, Stream stream) const;
    // Whether two grids are one (the map images of one are the other's).
    virtual bool sameAs(const SphereCells& other) const = 0;

    // A grid whose pixels take values interpolated from several of its points, not one cell's
    // (a mesh's nodes: across each face, barycentric on triangles, the nodes' mean on other
    // polygons): how many points a pixel's value is made of at most; 0 for a grid of cells.
    virtual int interpolationNodes() const { return 0; }
    // For interpolationNodes() = K > 0: for each pixel of the map image (as pixelIndex), K
    // point indices along dim, -1 past those of the pixel's face and all -1 off the map or the
    // mesh, and their weights; host memory. Throws ValueError for a grid of cells.
    virtual void pixelWeights(const Projection& projection, const MapExtent& extent, int width, int height,
                              std::int32_t* nodes, float* weights) const;
};

// A frame along the cells (1-D along cells.dim(), loaded) as one row of them, dims
// {kCellRowDim, cells.dim()}: a view of its data, as Reprojection and the image view take it.
// Throws ValueError naming the frame and the grid for a frame of another dim or size.
DataArray cellsAsRow(const DataArray& frame, const SphereCells& cells);

// The cells `var` of `ds` lies on along one of its dims, as the file says it (a HEALPix grid in
// any of healpix_grid.h's forms; a mesh's faces in any of mesh.h's, its geometry in `ds` or in
// `grid`, a grid file opened beside it; data on its nodes interpolated across its faces); null
// when it says none. Throws ValueError naming the file, the variable and the problem for a grid
// that cannot be.
std::shared_ptr<const SphereCells> sphereCellsOf(const Dataset& ds, const DataArray& var,
                                                 const Dataset* grid = nullptr);

// Whether `frame` is the whole of a frame along `cells` (1-D along its dim, of its size).
bool isAlong(const DataArray& frame, const SphereCells& cells);

// A mesh's faces, found by its FaceLocator (mesh.h, face_locator.h) on the host's threads.
std::shared_ptr<const SphereCells> meshFaces(std::shared_ptr<const mesh::Mesh> mesh);
// A mesh's nodes, their values interpolated across the faces (FaceLocator::weights). find()
// gives the node that weighs most at a point. Throws ValueError for a mesh of 2^31 nodes or more.
std::shared_ptr<const SphereCells> meshNodes(std::shared_ptr<const mesh::Mesh> mesh);

// A HEALPix grid's cells: found by the cells' own formulas, on the host and the device. Throws
// ValueError for a subset that names a cell twice.
std::shared_ptr<const SphereCells> healpixCells(healpix::Grid grid);

} // namespace strata
