#pragma once
// The frame drawn as a textured mesh: one quad per run of evenly spaced cells (a single quad
// for a regular grid), its vertices on the cells' edges, so that each cell covers exactly its
// own extent even on irregular coordinates. Geometry lives in the frame's normalised [0, 1]
// extents; a user matrix places it in the plot renderer's pixels for the current view.
#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include "strata/render/view_layout.h"

class vtkActor;
class vtkOpenGLRenderWindow;
class vtkOpenGLTexture;
class vtkPolyData;
class vtkTextureObject;

namespace strata::detail {

class FrameActor {
public:
    FrameActor();
    ~FrameActor();
    vtkActor* actor() const;
    // Rebuilds the mesh for a frame with these axes (x: columns, y: rows).
    void setGrid(const AxisGrid& x, const AxisGrid& y);
    // Places the frame for the view: the plot renderer's pixels span `t.plot()`.
    void place(const ViewTransform& t);
    // Draws from GL texture `texture` of `window`'s context (0: hides the frame).
    void setTexture(unsigned texture, vtkOpenGLRenderWindow* window);
    void releaseGraphics();

private:
    vtkNew<vtkActor> actor_;
    vtkNew<vtkPolyData> mesh_;
    vtkSmartPointer<vtkOpenGLTexture> texture_;
    vtkSmartPointer<vtkTextureObject> textureObject_;
    unsigned glTexture_ = 0;
    double xLo_ = 0, xHi_ = 1, yLo_ = 0, yHi_ = 1;
};

} // namespace strata::detail
