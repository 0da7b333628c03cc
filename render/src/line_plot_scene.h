#pragma once
// LinePlotScene: a VTK chart (vtkChartXY in a context actor) built from a LineSeries, shared
// by LinePlotView and exportLinePlotPng.
#include <vtkNew.h>

#include "strata/render/line_plot.h"

class vtkChartXY;
class vtkContextActor;
class vtkContextScene;
class vtkRenderer;
class vtkRenderWindow;

namespace strata::detail {

class LinePlotScene {
public:
    LinePlotScene();
    ~LinePlotScene();
    void attach(vtkRenderWindow* window);
    void detach();
    void setSeries(LineSeries s);
    const LineSeries& series() const { return series_; }
    // Rebuilds the chart for the scale (fonts, lines) when it or the series changed.
    void prepare(double scale);

private:
    vtkRenderWindow* window_ = nullptr;
    vtkNew<vtkRenderer> renderer_;
    vtkNew<vtkContextActor> actor_;
    vtkNew<vtkContextScene> scene_;
    vtkNew<vtkChartXY> chart_;
    LineSeries series_;
    double builtScale_ = 0;
};

} // namespace strata::detail
