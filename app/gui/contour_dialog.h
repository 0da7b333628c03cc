#pragma once
// View ▸ Contour Levels…: the isolines' levels as --contours spells them (auto, a count, a list,
// step:base), their labels, dashes below zero, colour and width. A spelling that cannot be read is said under
// the field, and the levels are not applied until it can; every valid change applies at once.
#include <QDialog>

#include "strata/core/colour_range.h"
#include "strata/core/contour.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace strata::app {

struct ContourChoice {
    ContourSpec levels;
    bool labels = true;
    bool dashNegative = false;
    Rgba8 colour{72, 72, 72, 255};
    double width = 1; // logical pixels
    friend bool operator==(const ContourChoice&, const ContourChoice&) = default;
};

class ContourDialog : public QDialog {
    Q_OBJECT
public:
    explicit ContourDialog(const ContourChoice& start, QWidget* parent = nullptr);
    const ContourChoice& choice() const { return choice_; }
    QLineEdit* levels() const { return levels_; }
    QLabel* problem() const { return problem_; } // empty while the levels read
    QCheckBox* labels() const { return labels_; }
    QCheckBox* dashes() const { return dashes_; }
    QPushButton* colour() const { return colour_; } // opens a colour dialog
    QDoubleSpinBox* width() const { return width_; }
    void setColour(const Rgba8& c); // as the colour dialog does

signals:
    void changed(const strata::app::ContourChoice& choice);

private:
    void update();

    ContourChoice choice_;
    QLineEdit* levels_;
    QLabel* problem_;
    QCheckBox* labels_;
    QCheckBox* dashes_;
    QPushButton* colour_;
    QDoubleSpinBox* width_;
};

} // namespace strata::app
