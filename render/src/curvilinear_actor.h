#pragma once
// A curvilinear grid drawn through GL as a mesh in longitude/latitude: four vertices per cell at
// its corners, all four with the texture coordinate of the cell's own texel (column i, row j) of
// the frame texture, sampled nearest — so each cell takes its colour from the colour-mapped frame
// where it already is (on the device through CUDA-GL interop, or uploaded from the host): no
// colour and no value crosses to the host for the mesh. The geometry is built once per grid and
// placed for each view by a user matrix (lon/lat → the plot renderer's pixels).
#include <vtkNew.h>

#include "borrowed_texture.h"

#include "strata/render/curvilinear_grid.h"
#include "strata/render/view_layout.h"

class vtkActor;
class vtkOpenGLRenderWindow;
class vtkPolyData;
class vtkRenderer;

namespace strata::detail {

class CurvilinearActor {
public:
    CurvilinearActor();
    ~CurvilinearActor();
    void attach(vtkRenderer* plot);
    void detach();
    // Rebuilds the mesh for `grid`'s cells (those with four finite corners).
    void setGrid(const CurvilinearGrid& grid);
    // Places the mesh for the view: the plot renderer's pixels span `t.plot()`.
    void place(const ViewTransform& t);
    // Colours the cells from GL texture `texture` of `window`'s context (0: hides the mesh).
    void setTexture(unsigned texture, vtkOpenGLRenderWindow* window);
    void releaseGraphics();
    long long vertices() const; // in the mesh now (4 per drawn cell)

private:
    vtkNew<vtkActor> actor_;
    vtkNew<vtkPolyData> mesh_;
    BorrowedTexture texture_;
    vtkRenderer* plot_ = nullptr;
    bool shown_ = false;
    double lonOrigin_ = 0, latOrigin_ = 0; // vertices are stored relative to these (float precision)
};

} // namespace strata::detail
