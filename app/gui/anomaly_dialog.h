#pragma once
// Anomaly… (on a time dim's chip): the anomaly of a variable against its climatology by month,
// season, day of year or hour over a base period of years. Every change states the derived
// variable anew; the window redefines it and redraws (the climatology is recomputed where the
// variable is resident).
#include <QDialog>
#include <QString>

class QComboBox;
class QLabel;
class QSlider;

namespace strata::app {

class AnomalyDialog : public QDialog {
    Q_OBJECT
public:
    // `variable`'s record runs from `firstYear` to `lastYear`; the base period starts as
    // 1991–2020 where the record holds it, else the whole record.
    AnomalyDialog(const QString& variable, int firstYear, int lastYear, QWidget* parent = nullptr);

    // `NAME = anomaly(VARIABLE, "GROUP", FIRST, LAST)`, NAME being VARIABLE_anomaly.
    QString statement() const;
    QString derivedName() const { return variable_ + "_anomaly"; }
    QComboBox* group() const { return group_; }
    QSlider* firstYear() const { return first_; }
    QSlider* lastYear() const { return last_; }

signals:
    void changed(const QString& statement);

private:
    void update(QSlider* moved);

    QString variable_;
    QComboBox* group_;
    QSlider* first_;
    QSlider* last_;
    QLabel* period_;
};

} // namespace strata::app
