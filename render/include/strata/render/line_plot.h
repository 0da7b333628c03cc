#pragma once
// Line plots of a 1-D series on the host (a probe through time, a zonal mean): x labelled
// with the coordinate's values or dates, y with the variable's units, NaN shown as gaps.
// On screen as LinePlotView, to a file with exportLinePlotPng.
#include <QImage>
#include <QSize>
#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/render/vtk_gl_widget.h"

namespace strata {

struct LineSeries {
    std::vector<double> x, y; // same length; NaN in y leaves a gap
    std::string xTitle, yTitle, title;
    std::optional<TimeAxis> xTime; // x values are in these units: ticks are dates
};

// The series of a 1-D array with its data on the host (call asHost() first; a device array
// throws ValueError): x from its dim's coordinate (indices without one), titles from attrs.
LineSeries lineSeries(const DataArray& a);

// The runs of consecutive finite (x, y) points: [first, last) index pairs. A NaN ends a run.
// At most `maxPoints` points of `s` for drawing: where there are more, each bin keeps its lowest
// and highest point (in x order) and a NaN where it has one, so that peaks and gaps survive.
LineSeries thinnedForDrawing(LineSeries s, std::size_t maxPoints = 8192);
std::vector<std::pair<std::size_t, std::size_t>> finiteRuns(const LineSeries& s);

// Drawn offscreen at `pixels` (fonts and lines × scale); needs an X display.
QImage renderLinePlot(const LineSeries& series, QSize pixels, double scale = 1);
void exportLinePlotPng(const LineSeries& series, QSize pixels, const QString& path, double scale = 1);

namespace detail {
class LinePlotScene;
}

class LinePlotView : public VtkGlWidget {
    Q_OBJECT
public:
    explicit LinePlotView(QWidget* parent = nullptr);
    ~LinePlotView() override;
    void setSeries(LineSeries series);
    const LineSeries& series() const;

protected:
    void prepareRender(int widthPixels, int heightPixels, double devicePixelRatio) override;

private:
    std::unique_ptr<detail::LinePlotScene> scene_;
};

} // namespace strata
