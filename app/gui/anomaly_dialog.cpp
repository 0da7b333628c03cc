#include "anomaly_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSlider>
#include <algorithm>

namespace strata::app {

AnomalyDialog::AnomalyDialog(const QString& variable, int firstYear, int lastYear, QWidget* parent)
    : QDialog(parent), variable_(variable), group_(new QComboBox(this)),
      first_(new QSlider(Qt::Horizontal, this)), last_(new QSlider(Qt::Horizontal, this)),
      period_(new QLabel(this)) {
    setWindowTitle(tr("Anomaly of %1").arg(variable));
    group_->addItem(tr("monthly"), "month");
    group_->addItem(tr("seasonal (DJF, MAM, JJA, SON)"), "season");
    group_->addItem(tr("daily (day of year)"), "dayofyear");
    group_->addItem(tr("hourly (hour of day)"), "hour");
    for (QSlider* s : {first_, last_}) {
        s->setRange(firstYear, lastYear);
        s->setPageStep(10);
        s->setTickPosition(QSlider::TicksBelow);
        s->setTickInterval(std::max(1, (lastYear - firstYear) / 10));
    }
    const bool wmo = firstYear <= 1991 && lastYear >= 2020; // the WMO's current normal
    first_->setValue(wmo ? 1991 : firstYear);
    last_->setValue(wmo ? 2020 : lastYear);
    first_->setObjectName("firstYear");
    last_->setObjectName("lastYear");
    auto* form = new QFormLayout(this);
    form->addRow(tr("Climatology"), group_);
    form->addRow(tr("Base period from"), first_);
    form->addRow(tr("to"), last_);
    form->addRow(QString(), period_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    connect(group_, &QComboBox::currentIndexChanged, this, [this] { update(nullptr); });
    connect(first_, &QSlider::valueChanged, this, [this] { update(first_); });
    connect(last_, &QSlider::valueChanged, this, [this] { update(last_); });
    period_->setText(tr("%1 vs %2–%3").arg(derivedName()).arg(first_->value()).arg(last_->value()));
}

QString AnomalyDialog::statement() const {
    return QString("%1 = anomaly(%2, \"%3\", %4, %5)")
        .arg(derivedName(), variable_, group_->currentData().toString())
        .arg(first_->value())
        .arg(last_->value());
}

void AnomalyDialog::update(QSlider* moved) {
    // The two ends stay in order: the one moved pushes the other.
    if (moved == first_ && last_->value() < first_->value()) last_->setValue(first_->value());
    if (moved == last_ && first_->value() > last_->value()) first_->setValue(last_->value());
    period_->setText(tr("%1 vs %2–%3 %4 climatology")
                         .arg(derivedName())
                         .arg(first_->value())
                         .arg(last_->value())
                         .arg(group_->currentText().section(' ', 0, 0)));
    emit changed(statement());
}

} // namespace strata::app
