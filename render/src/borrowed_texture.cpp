#include "borrowed_texture.h"

#include <GL/gl.h>
#include <vtkActor.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkOpenGLTexture.h>
#include <vtkTextureObject.h>

namespace strata::detail {

void BorrowedTexture::lend(unsigned texture, vtkOpenGLRenderWindow* window, vtkActor* actor) {
    if (texture == glTexture_ && textureObject_ && textureObject_->GetContext() == window) return;
    textureObject_ = vtkSmartPointer<vtkTextureObject>::New();
    textureObject_->SetContext(window);
    textureObject_->AssignToExistingTexture(texture, GL_TEXTURE_2D);
    textureObject_->SetMinificationFilter(vtkTextureObject::Nearest);
    textureObject_->SetMagnificationFilter(vtkTextureObject::Nearest);
    textureObject_->SetWrapS(vtkTextureObject::ClampToEdge);
    textureObject_->SetWrapT(vtkTextureObject::ClampToEdge);
    texture_ = vtkSmartPointer<vtkOpenGLTexture>::New();
    texture_->SetTextureObject(textureObject_);
    texture_->InterpolateOff();
    texture_->RepeatOff();
    actor->SetTexture(texture_);
    glTexture_ = texture;
}

void BorrowedTexture::release(vtkActor* actor) {
    actor->SetTexture(nullptr);
    texture_ = nullptr;
    textureObject_ = nullptr;
    glTexture_ = 0;
}

} // namespace strata::detail
