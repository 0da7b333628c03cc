#pragma once
// UnitsButton: the units a variable is shown in, as a button that names them ("K", or "degC"
// with the stored units in its tooltip); its menu offers the stored units, the common ones they
// convert to (udunits2: K ↔ degC, Pa ↔ hPa, kg m-2 s-1 ↔ mm/day, m s-1 ↔ knots) and Other… for
// any units typed. It says what was chosen; the window converts.
#include <QToolButton>
#include <string>

namespace strata::app {

class UnitsButton : public QToolButton {
    Q_OBJECT
public:
    explicit UnitsButton(QWidget* parent = nullptr);
    // A variable stored in `stored` (empty: none, and nothing to offer), shown in `shown`
    // (empty: as stored).
    void show(const std::string& stored, const std::string& shown);
    // The units offered, in the menu's order (for tests).
    QStringList offered() const;

signals:
    // The units chosen: empty for the stored ones.
    void chosen(const QString& units);

private:
    void askOther();
    std::string stored_, shown_;
};

} // namespace strata::app
