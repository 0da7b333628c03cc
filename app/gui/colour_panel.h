#pragma once
// Colour controls: the colour map (with previews, drawn in the chosen direction), reverse, the
// range: per frame, the whole variable (exact, computed on the device), fixed (typed; prefilled
// with the range shown when chosen; an empty or inverted range is refused at the field), or
// symmetric about zero; and the colours of missing values and of values beyond a fixed range.
#include <QWidget>
#include <functional>

#include "strata/core/colour_range.h"

class QComboBox;
class QCheckBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace strata::app {

class UnitsButton;

class ColourPanel : public QWidget {
    Q_OBJECT
public:
    explicit ColourPanel(QWidget* parent = nullptr);
    void set(const Colouring& colouring); // no signal
    // The colouring as the controls show it; a fixed range the fields refuse stays the last
    // valid one.
    Colouring colouring() const { return colouring_; }
    // The range the frame is drawn with now: what choosing Fixed starts from.
    void setShownRangeSource(std::function<MinMax()> source) { shownRange_ = std::move(source); }

    // The colours of missing values and of values below / above a fixed range (unset: the
    // map's ends); each emits changed() when it changes what is drawn.
    void setNanColour(Rgba8 colour);
    void setUnderColour(std::optional<Rgba8> colour);
    void setOverColour(std::optional<Rgba8> colour);

    QComboBox* mapBox() const { return map_; }
    QComboBox* modeBox() const { return mode_; }
    QCheckBox* reverseBox() const { return reverse_; }
    QLineEdit* minEdit() const { return min_; }
    QLineEdit* maxEdit() const { return max_; }
    QLabel* rangeError() const { return rangeError_; } // why the typed range is refused
    QToolButton* nanButton() const { return nan_; }
    QToolButton* underButton() const { return under_; }
    QToolButton* overButton() const { return over_; }
    // The units the variable is shown in, and the others it can be (the window converts).
    UnitsButton* unitsButton() const { return units_; }

signals:
    void changed();

private:
    void onMapOrMode();
    void onFieldsEdited();
    void showRange();
    void showRangeError(const QString& why);
    void refreshPreviews();
    void refreshSwatches();
    void chooseColour(QToolButton* button);
    QComboBox* map_;
    QCheckBox* reverse_;
    QComboBox* mode_;
    QLineEdit *min_, *max_;
    QLabel* rangeError_;
    QToolButton *nan_, *under_, *over_;
    UnitsButton* units_;
    Colouring colouring_;
    std::function<MinMax()> shownRange_;
    bool previewsReversed_ = false;
    bool updating_ = false;
};

} // namespace strata::app
