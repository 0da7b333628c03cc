#pragma once
// LinePlotScene: a VTK chart (vtkChartXY in a context actor) built from a LineSeries, shared
// by LinePlotView and exportLinePlotPng. The series' marker is a line plot of its own, moved
// without building the chart again.
#include <optional>
#include <vtkNew.h>

#include "strata/render/line_plot.h"

class vtkChartXY;
class vtkContextActor;
class vtkContextScene;
class vtkPlot;
class vtkRenderer;
class vtkRenderWindow;
class vtkTable;

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
    void setMarker(std::optional<double> x);
    // The x axis as laid out by the last render; `devicePixelRatio` turns its pixels into the
    // widget's.
    PlotXAxis xAxis(double devicePixelRatio) const;

private:
    void placeMarker(); // the marker's table from series_.marker and the axes' ranges

    vtkRenderWindow* window_ = nullptr;
    vtkNew<vtkRenderer> renderer_;
    vtkNew<vtkContextActor> actor_;
    vtkNew<vtkContextScene> scene_;
    vtkNew<vtkChartXY> chart_;
    vtkNew<vtkTable> marker_;       // two points: the marker from the bottom of the y axis to its top
    vtkPlot* markerPlot_ = nullptr; // held by chart_
    LineSeries series_;
    double builtScale_ = 0;
    double x0_ = 0, yTop_ = 1; // the plot's origin in x, and its y axis' top (relative to its origin)
};

} // namespace strata::detail
