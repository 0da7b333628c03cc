#include "frame_actor.h"

#include <GL/gl.h>
#include <GL/glext.h>
#include <algorithm>
#include <cmath>
#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkMatrix4x4.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

namespace strata::detail {
namespace {

// Vertex positions along one axis (normalised to [0, 1] over lo..hi, always ascending, so that
// a descending coordinate gives the same triangles as an ascending one) and their texture
// coordinates (running backwards for a descending coordinate): all the edges, or just the two
// ends when the cells are evenly spaced.
void axisVertices(const AxisGrid& g, std::vector<double>& pos, std::vector<double>& tex) {
    const double lo = g.lo(), span = g.hi() - g.lo();
    const std::size_t n = g.edges.size() - 1;
    const bool down = g.descending();
    pos.clear();
    tex.clear();
    if (isUniform(g.edges)) {
        pos = {0.0, 1.0};
        tex = down ? std::vector<double>{1.0, 0.0} : std::vector<double>{0.0, 1.0};
        return;
    }
    for (std::size_t k = 0; k <= n; ++k) {
        const std::size_t i = down ? n - k : k; // the edge at ascending position k
        pos.push_back((g.edges[i] - lo) / span);
        tex.push_back(static_cast<double>(i) / static_cast<double>(n));
    }
}

} // namespace

FrameActor::FrameActor() {
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(mesh_);
    mapper->ScalarVisibilityOff();
    actor_->SetMapper(mapper);
    actor_->GetProperty()->LightingOff(); // texture colours exactly
    actor_->GetProperty()->SetColor(1, 1, 1);
    actor_->ForceOpaqueOn();
    actor_->VisibilityOff();
}

FrameActor::~FrameActor() { detach(); }

vtkActor* FrameActor::actor() const { return actor_.Get(); }

void FrameActor::attach(vtkRenderer* plot) {
    detach();
    plot_ = plot;
    plot_->AddActor(actor_);
    onEnd_->SetClientData(this);
    onEnd_->SetCallback(
        [](vtkObject*, unsigned long, void* self, void*) { static_cast<FrameActor*>(self)->copyFrame(); });
    observer_ = plot_->AddObserver(vtkCommand::EndEvent, onEnd_);
}

void FrameActor::detach() {
    if (!plot_) return;
    plot_->RemoveObserver(observer_);
    plot_->RemoveActor(actor_);
    plot_ = nullptr;
}

void FrameActor::setGrid(const AxisGrid& x, const AxisGrid& y) {
    std::vector<double> xp, xt, yp, yt;
    axisVertices(x, xp, xt);
    axisVertices(y, yp, yt);
    xLo_ = x.lo();
    xHi_ = x.hi();
    yLo_ = y.lo();
    yHi_ = y.hi();
    uniform_ = xp.size() == 2 && yp.size() == 2;
    xDescending_ = x.descending();
    yDescending_ = y.descending();
    const vtkIdType nx = static_cast<vtkIdType>(xp.size()), ny = static_cast<vtkIdType>(yp.size());
    vtkNew<vtkPoints> points;
    points->SetDataTypeToDouble();
    points->SetNumberOfPoints(nx * ny);
    vtkNew<vtkFloatArray> tcoords;
    tcoords->SetNumberOfComponents(2);
    tcoords->SetNumberOfTuples(nx * ny);
    for (vtkIdType j = 0; j < ny; ++j)
        for (vtkIdType i = 0; i < nx; ++i) {
            points->SetPoint(j * nx + i, xp[i], yp[j], 0);
            tcoords->SetTuple2(j * nx + i, xt[i], yt[j]);
        }
    vtkNew<vtkCellArray> quads;
    for (vtkIdType j = 0; j + 1 < ny; ++j)
        for (vtkIdType i = 0; i + 1 < nx; ++i) {
            vtkIdType q[4] = {j * nx + i, j * nx + i + 1, (j + 1) * nx + i + 1, (j + 1) * nx + i};
            quads->InsertNextCell(4, q);
        }
    mesh_->SetPoints(points);
    mesh_->SetPolys(quads);
    mesh_->GetPointData()->SetTCoords(tcoords);
    mesh_->Modified();
}

void FrameActor::place(const ViewTransform& t) {
    // Normalised u → data x = xLo + u (xHi − xLo) → pixels relative to the plot's origin.
    const ViewWindow& w = t.window();
    const PixelRect& p = t.plot();
    const double sx = p.width() / (w.x1 - w.x0), sy = p.height() / (w.y1 - w.y0);
    // A cell edge that falls exactly on a pixel centre is a tie the rasteriser may break
    // either way (differently in two contexts); a 1/64-pixel shift breaks it the same way in all.
    constexpr double nudge = 1.0 / 64;
    vtkNew<vtkMatrix4x4> m;
    m->Identity();
    m->SetElement(0, 0, (xHi_ - xLo_) * sx);
    m->SetElement(0, 3, (xLo_ - w.x0) * sx + nudge);
    m->SetElement(1, 1, (yHi_ - yLo_) * sy);
    m->SetElement(1, 3, (yLo_ - w.y0) * sy + nudge);
    actor_->SetUserMatrix(m);

    // The copy needs whole pixels at the frame's four sides (window pixels).
    const double edges[4] = {p.x0 + (xLo_ - w.x0) * sx, p.y0 + (yLo_ - w.y0) * sy, p.x0 + (xHi_ - w.x0) * sx,
                             p.y0 + (yHi_ - w.y0) * sy};
    copy_ = uniform_;
    for (int k = 0; k < 4; ++k) {
        const double r = std::round(edges[k]);
        copy_ = copy_ && std::abs(edges[k] - r) < 1e-6 && std::abs(r) < 1e8;
        dst_[k] = static_cast<int>(r);
    }
    clip_[0] = static_cast<int>(std::lround(p.x0));
    clip_[1] = static_cast<int>(std::lround(p.y0));
    clip_[2] = static_cast<int>(std::lround(p.width()));
    clip_[3] = static_cast<int>(std::lround(p.height()));
    covers_ = std::min(dst_[0], dst_[2]) <= p.x0 && std::max(dst_[0], dst_[2]) >= p.x1 &&
              std::min(dst_[1], dst_[3]) <= p.y0 && std::max(dst_[1], dst_[3]) >= p.y1;
    if (xDescending_) std::swap(dst_[0], dst_[2]);
    if (yDescending_) std::swap(dst_[1], dst_[3]);
    actor_->SetVisibility(shown_ && !copy_);
}

void FrameActor::copyFrame() {
    if (!shown_ || !copy_ || !context_ || texture_.name() == 0) return;
    if (framebuffer_ == 0) glGenFramebuffers(1, &framebuffer_);
    GLint read = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
    if (framebufferTexture_ != texture_.name()) {
        glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_.name(), 0);
        framebufferTexture_ = texture_.name();
    }
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    // Clipped to the plot (a frame panned by whole pixels reaches past it), whatever scissor
    // state the renderer left.
    GLint box[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_SCISSOR_BOX, box);
    const GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);
    glEnable(GL_SCISSOR_TEST);
    glScissor(clip_[0], clip_[1], clip_[2], clip_[3]);
    if (glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE)
        glBlitFramebuffer(0, 0, textureWidth_, textureHeight_, dst_[0], dst_[1], dst_[2], dst_[3],
                          GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glScissor(box[0], box[1], box[2], box[3]);
    if (!scissor) glDisable(GL_SCISSOR_TEST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read));
}

void FrameActor::setTexture(unsigned texture, int width, int height, vtkOpenGLRenderWindow* window) {
    if (texture == 0 || !window) {
        shown_ = false;
        actor_->VisibilityOff();
        return;
    }
    if (window != context_) framebuffer_ = framebufferTexture_ = 0; // names of another context
    context_ = window;
    textureWidth_ = width;
    textureHeight_ = height;
    shown_ = true;
    texture_.lend(texture, window, actor_);
    actor_->VisibilityOn();
}

void FrameActor::releaseFramebuffer() {
    if (framebuffer_ != 0) glDeleteFramebuffers(1, &framebuffer_);
    framebuffer_ = framebufferTexture_ = 0;
}

void FrameActor::releaseGraphics() {
    releaseFramebuffer();
    context_ = nullptr;
    shown_ = false;
    texture_.release(actor_);
    actor_->VisibilityOff();
}

} // namespace strata::detail
