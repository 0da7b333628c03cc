#pragma once
// Colour controls: the colour map (with previews), reverse, and the range: per frame, the
// whole variable (exact, computed on the device), fixed (typed), or symmetric about zero.
#include <QWidget>
#include <string>

#include "strata/core/colour_range.h"

class QComboBox;
class QCheckBox;
class QLineEdit;

namespace strata::app {

class ColourPanel : public QWidget {
    Q_OBJECT
public:
    explicit ColourPanel(QWidget* parent = nullptr);
    void set(const std::string& colormap, bool reversed, const ColourRange& range); // no signal
    std::string colormap() const;
    bool reversed() const;
    ColourRange range() const;

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
    bool updating_ = false;
};

} // namespace strata::app
