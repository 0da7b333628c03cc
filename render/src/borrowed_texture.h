#pragma once
// A GL texture that another part of the window owns (the frame texture, filled by CUDA-GL
// interop or from the host), lent to a VTK actor: sampled nearest, clamped at the edges, never
// repeated. The VTK wrappers are made again only when the texture or its context changes.
#include <vtkSmartPointer.h>

class vtkActor;
class vtkOpenGLRenderWindow;
class vtkOpenGLTexture;
class vtkTextureObject;

namespace strata::detail {

class BorrowedTexture {
public:
    // Shows `texture` of `window`'s context on `actor`.
    void lend(unsigned texture, vtkOpenGLRenderWindow* window, vtkActor* actor);
    // Takes it back from `actor` (the GL texture itself is its owner's to delete).
    void release(vtkActor* actor);
    unsigned name() const { return glTexture_; }

private:
    vtkSmartPointer<vtkOpenGLTexture> texture_;
    vtkSmartPointer<vtkTextureObject> textureObject_;
    unsigned glTexture_ = 0;
};

} // namespace strata::detail
