#include "curvilinear_actor.h"

#include <GL/gl.h>
#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkIdTypeArray.h>
#include <vtkMatrix4x4.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

namespace strata::detail {

CurvilinearActor::CurvilinearActor() {
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(mesh_);
    mapper->ScalarVisibilityOff();
    actor_->SetMapper(mapper);
    actor_->GetProperty()->LightingOff(); // texture colours exactly
    actor_->GetProperty()->SetColor(1, 1, 1);
    actor_->ForceOpaqueOn();
    actor_->VisibilityOff();
}

CurvilinearActor::~CurvilinearActor() { detach(); }

void CurvilinearActor::attach(vtkRenderer* plot) {
    detach();
    plot_ = plot;
    plot_->AddActor(actor_);
}

void CurvilinearActor::detach() {
    if (!plot_) return;
    plot_->RemoveActor(actor_);
    plot_ = nullptr;
}

void CurvilinearActor::setGrid(const CurvilinearGrid& g) {
    lonOrigin_ = g.extent.x0;
    latOrigin_ = g.extent.y0;
    // A cell across the edge of a grid that wraps is drawn on both sides: one quad a copy.
    double shifts[3];
    vtkIdType drawn = 0;
    for (std::int64_t k = 0; k < g.cells(); ++k) drawn += g.valid(k) ? g.wrapShifts(k, shifts) : 0;
    vtkNew<vtkPoints> points;
    points->SetDataTypeToFloat();
    points->SetNumberOfPoints(drawn * 4);
    vtkNew<vtkFloatArray> tcoords;
    tcoords->SetNumberOfComponents(2);
    tcoords->SetNumberOfTuples(drawn * 4);
    // Quads of four consecutive vertices: offsets 0, 4, 8, ... and connectivity 0, 1, 2, ...
    vtkNew<vtkIdTypeArray> offsets, connectivity;
    offsets->SetNumberOfValues(drawn + 1);
    connectivity->SetNumberOfValues(drawn * 4);
    for (vtkIdType q = 0; q <= drawn; ++q) offsets->SetValue(q, 4 * q);
    for (vtkIdType q = 0; q < drawn * 4; ++q) connectivity->SetValue(q, q);
    vtkNew<vtkCellArray> quads;
    quads->SetData(offsets, connectivity);
    auto* xyz = static_cast<float*>(points->GetVoidPointer(0));
    float* st = tcoords->GetPointer(0);
    vtkIdType v = 0;
    for (std::int64_t k = 0; k < g.cells(); ++k) {
        if (!g.valid(k)) continue;
        // The texel of cell (j, i): the frame's row j is texture row j.
        const float s =
            static_cast<float>((static_cast<double>(k % g.columns) + 0.5) / static_cast<double>(g.columns));
        const float t =
            static_cast<float>((static_cast<double>(k / g.columns) + 0.5) / static_cast<double>(g.rows));
        const int copies = g.wrapShifts(k, shifts);
        for (int copy = 0; copy < copies; ++copy)
            for (std::size_t c = 0; c < 4; ++c, ++v) {
                const auto at = static_cast<std::size_t>(k * 4) + c;
                xyz[3 * v] = static_cast<float>(g.cornerLon[at] + shifts[copy] - lonOrigin_);
                xyz[3 * v + 1] = static_cast<float>(g.cornerLat[at] - latOrigin_);
                xyz[3 * v + 2] = 0;
                st[2 * v] = s;
                st[2 * v + 1] = t;
            }
    }
    points->Modified();
    tcoords->Modified();
    mesh_->SetPoints(points);
    mesh_->SetPolys(quads);
    mesh_->GetPointData()->SetTCoords(tcoords);
    mesh_->Modified();
}

void CurvilinearActor::place(const ViewTransform& t) {
    // Vertex (lon − lonOrigin, lat − latOrigin) → pixels relative to the plot's origin.
    const ViewWindow& w = t.window();
    const PixelRect& p = t.plot();
    const double sx = p.width() / (w.x1 - w.x0), sy = p.height() / (w.y1 - w.y0);
    vtkNew<vtkMatrix4x4> m;
    m->Identity();
    m->SetElement(0, 0, sx);
    m->SetElement(0, 3, (lonOrigin_ - w.x0) * sx);
    m->SetElement(1, 1, sy);
    m->SetElement(1, 3, (latOrigin_ - w.y0) * sy);
    actor_->SetUserMatrix(m);
    actor_->SetVisibility(shown_);
}

void CurvilinearActor::setTexture(unsigned texture, vtkOpenGLRenderWindow* window) {
    if (texture == 0 || !window) {
        shown_ = false;
        actor_->VisibilityOff();
        return;
    }
    shown_ = true;
    texture_.lend(texture, window, actor_);
    actor_->VisibilityOn();
}

void CurvilinearActor::releaseGraphics() {
    shown_ = false;
    texture_.release(actor_);
    actor_->VisibilityOff();
}

long long CurvilinearActor::vertices() const { return mesh_->GetNumberOfPoints(); }

} // namespace strata::detail
