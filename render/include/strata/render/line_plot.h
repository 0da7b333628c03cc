#pragma once
// Line plots of a 1-D series on the host (a probe through time, a zonal mean): x labelled
// with the coordinate's values or dates, y with the variable's units, NaN shown as gaps.
// On screen as LinePlotView, to a file with exportLinePlotPng (both through the VTK views
// module, loaded on first use).
#include <QImage>
#include <QPointF>
#include <QSize>
#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/data_array.h"

class QLabel;
class QWindow;
#include <QWidget>
#include <memory>

namespace strata {

struct LineSeries {
    std::vector<double> x, y; // same length; NaN in y leaves a gap
    std::string xTitle, yTitle, title;
    std::optional<TimeAxis> xTime; // x values are in these units: ticks are dates
    std::optional<double> marker;  // x of a vertical line across the plot (the step shown)
};

// The x axis as drawn: the pixel columns of its two ends (in the widget's pixels, from the
// left) and the data x there, so that a pixel maps to an x and back. Not drawn() before the
// plot's first frame.
struct PlotXAxis {
    double left = 0, right = 0;
    double lo = 0, hi = 0;
    bool drawn() const { return right > left && hi != lo; }
    double xAt(double pixel) const { return lo + (pixel - left) * (hi - lo) / (right - left); }
    double pixelAt(double x) const { return left + (x - lo) * (right - left) / (hi - lo); }
};

// The marker's colour (orange, apart from the series' blue).
inline constexpr unsigned char kMarkerRgb[3] = {255, 127, 14};

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

class LinePlotSurface;

// The plot on screen. It draws through VTK, in the module loaded on first use
// (strata/render/vtk_views.h): the first setSeries loads it. When it cannot be loaded the
// view shows why in its place and sends unavailable; it keeps the series all the same.
class LinePlotView : public QWidget {
    Q_OBJECT
public:
    explicit LinePlotView(QWidget* parent = nullptr);
    ~LinePlotView() override;
    void setSeries(LineSeries series);
    const LineSeries& series() const { return series_; }
    // Moves (or, with none, hides) the series' marker without building the plot again.
    void setMarker(std::optional<double> x);
    // The x axis as last drawn (not drawn() before the first frame, or when unavailable).
    PlotXAxis xAxis() const;
    // Why the plot cannot be drawn (empty while it can, or before the first series).
    QString unavailableReason() const;
    // The plot as drawn now, read back from GL (null before it has a GL window with a context).
    QImage grabFramebuffer();
    QWindow* glWindow() const; // null before the first series, or when unavailable

signals:
    void frameSwapped(); // after each frame has been swapped onto the screen
    void unavailable(const QString& reason);
    // The mouse over the plot (it moves in the GL window): at `pos`, in this widget's pixels.
    void hovered(QPointF pos);
    void hoverLeft();

protected:
    void resizeEvent(QResizeEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    LineSeries series_;
    std::unique_ptr<LinePlotSurface> surface_;
    QLabel* message_ = nullptr;
};

} // namespace strata
