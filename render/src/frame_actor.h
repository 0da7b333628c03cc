#pragma once
// The frame drawn as a textured mesh: one quad per run of evenly spaced cells (a single quad
// for a regular grid), its vertices on the cells' edges, so that each cell covers exactly its
// own extent even on irregular coordinates. Geometry lives in the frame's normalised [0, 1]
// extents; a user matrix places it in the plot renderer's pixels for the current view.
//
// A regular grid whose cells land on whole pixels (every unzoomed view: the plot rectangle is
// whole pixels) is instead copied from the texture with one glBlitFramebuffer (nearest, flipped
// for descending coordinates) at the end of the plot renderer's pass: no shaded quad. Under a
// software GL that is the difference between about 8 ms and 1 ms for a 1440 x 721 frame.
#include <vtkNew.h>

#include "borrowed_texture.h"

#include "strata/render/view_layout.h"

class vtkActor;
class vtkOpenGLRenderWindow;
class vtkCallbackCommand;
class vtkPolyData;
class vtkRenderer;

namespace strata::detail {

class FrameActor {
public:
    FrameActor();
    ~FrameActor();
    vtkActor* actor() const;
    // Adds the actor to `plot` (the renderer whose pixels place() is given) and draws the
    // copied frame at the end of its pass.
    void attach(vtkRenderer* plot);
    void detach();
    // Rebuilds the mesh for a frame with these axes (x: columns, y: rows).
    void setGrid(const AxisGrid& x, const AxisGrid& y);
    // Places the frame for the view: the plot renderer's pixels span `t.plot()`.
    void place(const ViewTransform& t);
    // Draws from GL texture `texture` (width x height texels) of `window`'s context (0: hides
    // the frame).
    void setTexture(unsigned texture, int width, int height, vtkOpenGLRenderWindow* window);
    void releaseGraphics();
    // True when the frame is shown and the last place() chose the copy over the quad.
    bool copies() const { return shown_ && copy_; }
    // True when both axes of the grid are evenly spaced (one quad, or one copy, draws it).
    bool regular() const { return uniform_; }
    // True when the copy fills the whole plot rectangle: nothing under it needs clearing.
    bool coversPlot() const { return copies() && covers_; }

private:
    vtkNew<vtkActor> actor_;
    vtkNew<vtkPolyData> mesh_;
    BorrowedTexture texture_;
    double xLo_ = 0, xHi_ = 1, yLo_ = 0, yHi_ = 1;
    bool uniform_ = false, xDescending_ = false, yDescending_ = false;
    // The copy: a framebuffer with the texture attached, and where it goes (window pixels,
    // reversed for a descending axis).
    void copyFrame();
    void releaseFramebuffer();
    vtkRenderer* plot_ = nullptr;
    vtkNew<vtkCallbackCommand> onEnd_;
    unsigned long observer_ = 0;
    unsigned framebuffer_ = 0, framebufferTexture_ = 0;
    vtkOpenGLRenderWindow* context_ = nullptr;
    int textureWidth_ = 0, textureHeight_ = 0;
    bool shown_ = false, copy_ = false, covers_ = false;
    int dst_[4] = {0, 0, 0, 0};
    int clip_[4] = {0, 0, 0, 0}; // the plot: x, y, width, height
};

} // namespace strata::detail
