#pragma once
// One row per sliced dim: its name, a slider, the index, and the decoded coordinate value
// (a date for time, the value with its units otherwise), with Play/Pause that steps through
// the dim at the chosen rate and loops. Arrow keys on a slider step, Page keys jump a tenth.
// The play rate shows only while a dim has steps to play through.
#include <QWidget>
#include <map>
#include <string>

#include "strata/core/data_array.h"
#include "view_spec.h"

class QSlider;
class QSpinBox;
class QLabel;
class QToolButton;
class QTimer;
class QVBoxLayout;

namespace strata::app {

// The label of index i along `dim` of `var` in its axis's format (value_format.h): "2005-01-16",
// "0.93°N", "850 hPa", or "index 3" without a coordinate.
QString coordinateText(const DataArray& var, const std::string& dim, std::int64_t i);

class SlicePanel : public QWidget {
    Q_OBJECT
public:
    explicit SlicePanel(QWidget* parent = nullptr);
    void show(const DataArray& var, const ViewSpec& spec); // a row per sliced dim
    void clear();
    // Moves the sliders to the spec's indices (same sliced dims), without a signal.
    void setIndices(const ViewSpec& spec);

    QSlider* slider(const QString& dim) const;
    QLabel* valueLabel(const QString& dim) const;
    // The step box: counts from 1, "1 / 12" for the first of 12 steps.
    QSpinBox* positionBox(const QString& dim) const;
    QToolButton* playButton(const QString& dim) const;
    QSpinBox* rateBox() const { return rate_; }

    // The dim the user last touched (the first sliced dim before that); empty when none.
    QString activeDim() const;
    void setActiveDim(const QString& dim);
    // Steps the active dim by `delta` (looping at the ends when `wrap`).
    void step(int delta, bool wrap = false);
    void togglePlay(const QString& dim); // Play/Pause
    bool playing() const;
    QString playingDim() const { return playing_; }

signals:
    // direction: +1/-1 when the index moved by steps (for computing ahead), 0 for a jump.
    void indexChanged(const QString& dim, qint64 index, int direction);

private:
    struct Row {
        QSlider* slider;
        QSpinBox* index; // the position, index + 1
        QLabel* value;
        QToolButton* play;
    };
    void setIndex(const QString& dim, qint64 index, int direction);
    void onTick();

    QVBoxLayout* rows_;
    QWidget* body_ = nullptr;
    QWidget* rateRow_; // "Play rate" and its box
    QSpinBox* rate_;
    QTimer* timer_;
    std::map<QString, Row> widgets_;
    QString active_, playing_;
    DataArray var_;
    bool updating_ = false;
};

} // namespace strata::app
