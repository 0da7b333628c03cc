#pragma once
// View ▸ Contour Levels…: the isolines' levels as --contours spells them (auto, a count, a list,
// step:base), their labels and dashes below zero. A spelling that cannot be read is said under
// the field, and the levels are not applied until it can; every valid change applies at once.
#include <QDialog>

#include "strata/core/contour.h"

class QCheckBox;
class QLabel;
class QLineEdit;

namespace strata::app {

struct ContourChoice {
    ContourSpec levels;
    bool labels = true;
    bool dashNegative = false;
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

signals:
    void changed(const strata::app::ContourChoice& choice);

private:
    void update();

    ContourChoice choice_;
    QLineEdit* levels_;
    QLabel* problem_;
    QCheckBox* labels_;
    QCheckBox* dashes_;
};

} // namespace strata::app
