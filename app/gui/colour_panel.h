#pragma once
// Colour controls: the colour map (with previews), reverse, and the range: per frame, the
// whole variable (exact, computed on the device), fixed (typed), or symmetric about zero.
#include <QWidget>

#include "strata/core/colour_range.h"

class QComboBox;
class QCheckBox;
class QLineEdit;

namespace strata::app {

class ColourPanel : public QWidget {
    Q_OBJECT
public:
    explicit ColourPanel(QWidget* parent = nullptr);
    void set(const Colouring& colouring); // no signal
    // The colouring set, with the map, direction and range as the controls show them now (the
    // NaN colour has no control: it stays as set).
    Colouring colouring() const;

    QComboBox* mapBox() const { return map_; }
    QComboBox* modeBox() const { return mode_; }
    QCheckBox* reverseBox() const { return reverse_; }
    QLineEdit* minEdit() const { return min_; }
    QLineEdit* maxEdit() const { return max_; }

signals:
    void changed();

private:
    void updateEnabled();
    QComboBox* map_;
    QCheckBox* reverse_;
    QComboBox* mode_;
    QLineEdit *min_, *max_;
    Colouring colouring_;
    bool updating_ = false;
};

} // namespace strata::app
