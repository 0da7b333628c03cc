#include <algorithm>
#include <cmath>

#include <vtkAxis.h>
#include <vtkChartXY.h>
#include <vtkContextActor.h>
#include <vtkContextScene.h>
#include <vtkDoubleArray.h>
#include <vtkPen.h>
#include <vtkPlot.h>
#include <vtkPlotPoints.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkStringArray.h>
#include <vtkTable.h>
#include <vtkTextProperty.h>

#include "fonts.h"
#include "line_plot_scene.h"
#include "strata/core/error.h"
#include "strata/render/frame_labels.h"
#include "strata/render/grid_geometry.h"
#include "strata/render/ticks.h"

namespace strata {

namespace detail {
namespace {

// Ticks at their values less `origin` (the plot's data are drawn relative to it).
void setTicks(vtkAxis* axis, const std::vector<Tick>& ticks, double origin) {
    vtkNew<vtkDoubleArray> pos;
    vtkNew<vtkStringArray> labels;
    for (const Tick& t : ticks) {
        pos->InsertNextValue(t.value - origin);
        labels->InsertNextValue(t.label);
    }
    axis->SetCustomTickPositions(pos, labels);
}

void styleAxis(vtkAxis* axis, const std::string& title, double s) {
    axis->SetTitle(title);
    applyFont(axis->GetTitleProperties(), 13 * s);
    applyFont(axis->GetLabelProperties(), 12 * s);
    axis->SetBehavior(vtkAxis::FIXED);
    axis->GetPen()->SetWidth(static_cast<float>(s));
}

} // namespace

LinePlotScene::LinePlotScene() {
    for (const char* name : {"x", "y"}) {
        vtkNew<vtkDoubleArray> column;
        column->SetName(name);
        column->SetNumberOfValues(2);
        column->FillValue(0); // until the marker is placed
        marker_->AddColumn(column);
    }
    renderer_->SetBackground(1, 1, 1);
    renderer_->SetBackgroundAlpha(1);
    actor_->SetScene(scene_);
    scene_->SetRenderer(renderer_);
    scene_->AddItem(chart_);
    renderer_->AddActor(actor_);
}

LinePlotScene::~LinePlotScene() { detach(); }

void LinePlotScene::attach(vtkRenderWindow* window) {
    if (window_ == window) return;
    detach();
    window_ = window;
    window_->AddRenderer(renderer_);
}

void LinePlotScene::detach() {
    if (window_) window_->RemoveRenderer(renderer_);
    window_ = nullptr;
}

void LinePlotScene::setSeries(LineSeries s) {
    STRATA_EXPECTS(s.x.size() == s.y.size(), ValueError, "a line series needs as many x as y values");
    series_ = std::move(s);
    builtScale_ = 0;
}

void LinePlotScene::setMarker(std::optional<double> x) {
    series_.marker = x;
    if (builtScale_ != 0) placeMarker();
}

void LinePlotScene::placeMarker() {
    const bool shown = series_.marker && std::isfinite(*series_.marker);
    markerPlot_->SetVisible(shown);
    if (!shown) return;
    const double x = *series_.marker - x0_;
    for (vtkIdType row : {0, 1}) {
        marker_->SetValue(row, 0, x);
        marker_->SetValue(row, 1, row == 0 ? 0.0 : yTop_);
    }
    marker_->Modified();
}

PlotXAxis LinePlotScene::xAxis(double dpr) const {
    vtkAxis* bottom = chart_->GetAxis(vtkAxis::BOTTOM);
    PlotXAxis a;
    a.left = bottom->GetPosition1().GetX() / dpr;
    a.right = bottom->GetPosition2().GetX() / dpr;
    a.lo = bottom->GetMinimum() + x0_;
    a.hi = bottom->GetMaximum() + x0_;
    return a;
}

void LinePlotScene::prepare(double s) {
    if (builtScale_ == s) return;
    builtScale_ = s;
    chart_->ClearPlots();
    chart_->SetShowLegend(false);
    chart_->SetTitle(series_.title);
    applyFont(chart_->GetTitleProperties(), 15 * s);

    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    const auto runs = finiteRuns(series_);
    for (auto [a, b] : runs)
        for (std::size_t i = a; i < b; ++i) {
            xlo = std::min(xlo, series_.x[i]);
            xhi = std::max(xhi, series_.x[i]);
            ylo = std::min(ylo, series_.y[i]);
            yhi = std::max(yhi, series_.y[i]);
        }
    if (!(xhi >= xlo)) xlo = 0, xhi = 1, ylo = 0, yhi = 1;
    if (xhi == xlo) xlo -= 0.5, xhi += 0.5;
    if (yhi == ylo) ylo -= 0.5, yhi += 0.5;
    const double pad = (yhi - ylo) * 0.05;
    ylo -= pad;
    yhi += pad;
    // VTK's charts lose a line whose values sit far from zero relative to their spread (a
    // temperature of 290 ± 2 K draws nothing): plot relative to the lower-left corner and
    // place the ticks (labelled with the true values) the same way.
    const double x0 = xlo, y0 = ylo;
    x0_ = x0;
    yTop_ = yhi - y0;
    for (auto [a, b] : runs) {
        vtkNew<vtkTable> table;
        vtkNew<vtkDoubleArray> xs, ys;
        xs->SetName("x");
        ys->SetName("y");
        for (std::size_t i = a; i < b; ++i) {
            xs->InsertNextValue(series_.x[i] - x0);
            ys->InsertNextValue(series_.y[i] - y0);
        }
        table->AddColumn(xs);
        table->AddColumn(ys);
        // A lone finite value between gaps is drawn as a point so that it is not lost.
        vtkPlot* plot = chart_->AddPlot(b - a == 1 ? vtkChart::POINTS : vtkChart::LINE);
        plot->SetInputData(table, 0, 1);
        plot->SetColor(31, 119, 180, 255);
        plot->SetWidth(static_cast<float>(2 * s));
        if (auto* pts = vtkPlotPoints::SafeDownCast(plot)) {
            if (b - a == 1)
                pts->SetMarkerStyle(vtkPlotPoints::CIRCLE);
            else
                pts->SetMarkerStyle(vtkPlotPoints::NONE);
            pts->SetMarkerSize(static_cast<float>(8 * s));
        }
    }

    // The marker over the series, in a colour of its own.
    markerPlot_ = chart_->AddPlot(vtkChart::LINE);
    markerPlot_->SetInputData(marker_, 0, 1);
    markerPlot_->SetColor(kMarkerRgb[0], kMarkerRgb[1], kMarkerRgb[2], 255);
    markerPlot_->SetWidth(static_cast<float>(2 * s));
    placeMarker();

    vtkAxis* bottom = chart_->GetAxis(vtkAxis::BOTTOM);
    vtkAxis* left = chart_->GetAxis(vtkAxis::LEFT);
    styleAxis(bottom, series_.xTitle, s);
    styleAxis(left, series_.yTitle, s);
    bottom->SetRange(xlo - x0, xhi - x0);
    left->SetRange(ylo - y0, yhi - y0);
    setTicks(bottom, series_.xTime ? dateTicks(xlo, xhi, *series_.xTime, 6) : niceTicks(xlo, xhi, 6), x0);
    setTicks(left, niceTicks(ylo, yhi, 6), y0);
    chart_->Update();
}

} // namespace detail

} // namespace strata
