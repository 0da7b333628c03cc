#pragma once
// SeriesDock: the Series dock — the series through a clicked cell, along the dim chosen in its
// "Along" box (the first sliced dim unless the user chose another that is still sliced), and the
// cell it runs through. It plots what it is given; the window asks for the series.
#include <QDockWidget>
#include <cstdint>
#include <string>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/render/line_plot.h"

class QComboBox;

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

    void plot(DataArray series, LineSeries line, const QString& along);
    // Forgets the series and the cell (another file or variable).
    void clear();
    const DataArray& series() const { return series_; }

    LinePlotView* plotView() const { return plot_; }
    QComboBox* dimBox() const { return dim_; }

signals:
    void alongChanged(); // another dim chosen: the series is asked for again

private:
    LinePlotView* plot_;
    QComboBox* dim_;
    QString preferred_; // the dim the user chose last
    DataArray series_;
    std::int64_t row_ = -1, column_ = -1;
};

} // namespace strata::app
