#pragma once
// SeriesDock: the Series dock — the series through a clicked cell, along the dim chosen in its
// "Along" box (the first sliced dim unless the user chose another that is still sliced), and the
// cell it runs through. It plots what it is given (the window asks for the series), reads out
// the sample under the mouse, marks the step the view shows, and offers the series as CSV (the
// window writes it). Cleared, it says how to get a series and stays small.
#include <QDockWidget>
#include <QPointF>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/render/line_plot.h"
#include "value_text.h"
#include "view_spec.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace strata::app {

class SeriesDock : public QDockWidget {
    Q_OBJECT
public:
    explicit SeriesDock(QWidget* parent = nullptr);

    // The dims a series can run along for a view: its sliced dims, then X and Y. The user's
    // choice stays while it is among the sliced ones.
    void setDims(const std::vector<std::string>& sliced, const std::string& x, const std::string& y);
    QString along() const; // the dim chosen

    // The cell the series runs through (row, column of the frame); row < 0: none.
    void setCell(std::int64_t row, std::int64_t column) {
        row_ = row;
        column_ = column;
    }
    std::int64_t row() const { return row_; }
    std::int64_t column() const { return column_; }

    // `series` (1-D, on the host) drawn as `line` (thinned for drawing); its values read out as
    // `valueText` writes them.
    void plot(DataArray series, LineSeries line, const QString& along, ValueText valueText);
    // Forgets the series and the cell (another file or variable).
    void clear();
    const DataArray& series() const { return series_; }

    // Marks the step `view` shows when it slices the series' dim; no marker when that dim is
    // X or Y there (or reduced). The series itself stays.
    void followView(const ViewSpec& view);
    // The index of the sample marked, if any.
    std::optional<std::int64_t> step() const { return step_; }

    // The sample nearest in x to the pixel column of `pos` (in plotView()'s pixels); none
    // outside the x axis, or before the plot is drawn.
    std::optional<std::int64_t> sampleAt(QPointF pos) const;
    // "time = 2005-03-16: tas = 271.3 K" for sample i ("missing" for NaN).
    QString readoutText(std::int64_t i) const;

    LinePlotView* plotView() const { return plot_; }
    QComboBox* dimBox() const { return dim_; }
    QLabel* readout() const { return readout_; }
    QLabel* placeholder() const { return placeholder_; }
    QPushButton* exportButton() const { return export_; }

signals:
    void alongChanged();       // another dim chosen: the series is asked for again
    void exportCsvRequested(); // Export CSV… pressed

private:
    void showReadout(QPointF pos);
    void showPlot(bool shown); // the plot, or the placeholder in a small dock
    void fitHeight(int height);

    LinePlotView* plot_;
    QComboBox* dim_;
    QLabel* readout_;
    QLabel* placeholder_;
    QPushButton* export_;
    QString preferred_; // the dim the user chose last
    DataArray series_;
    std::vector<double> x_, y_; // every sample (the plot's line may be thinned)
    ValueText valueText_;
    std::optional<std::int64_t> step_;
    std::int64_t row_ = -1, column_ = -1;
    int plotHeight_ = 0; // the dock's height when it last showed a plot (0: none yet)
};

} // namespace strata::app
