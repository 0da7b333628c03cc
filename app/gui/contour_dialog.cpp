#include "contour_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

#include "strata/core/error.h"

namespace strata::app {

ContourDialog::ContourDialog(const ContourChoice& start, QWidget* parent) : QDialog(parent), choice_(start) {
    setWindowTitle(tr("Contour Levels"));
    setObjectName("contourDialog");
    auto* form = new QFormLayout(this);
    levels_ = new QLineEdit(QString::fromStdString(toString(start.levels)), this);
    levels_->setObjectName("contourLevels");
    levels_->setPlaceholderText(tr("auto"));
    levels_->setToolTip(tr("auto (about ten nice levels in the colour range), a count (12), levels "
                           "(270,280,290) or a step and its base (5:0)"));
    form->addRow(tr("&Levels"), levels_);
    problem_ = new QLabel(this);
    problem_->setObjectName("contourProblem");
    problem_->setWordWrap(true);
    problem_->setStyleSheet("color: #b00020");
    form->addRow(QString(), problem_);
    labels_ = new QCheckBox(tr("&Label the lines with their values"), this);
    labels_->setObjectName("contourLabels");
    labels_->setChecked(start.labels);
    form->addRow(QString(), labels_);
    dashes_ = new QCheckBox(tr("&Dash levels below zero"), this);
    dashes_->setObjectName("contourDashes");
    dashes_->setChecked(start.dashNegative);
    form->addRow(QString(), dashes_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    form->addRow(buttons);
    connect(levels_, &QLineEdit::textChanged, this, &ContourDialog::update);
    connect(labels_, &QCheckBox::toggled, this, &ContourDialog::update);
    connect(dashes_, &QCheckBox::toggled, this, &ContourDialog::update);
}

void ContourDialog::update() {
    ContourChoice next = choice_;
    const QString text = levels_->text().trimmed();
    try {
        next.levels = parseContourSpec(text.isEmpty() ? "auto" : text.toStdString());
        problem_->clear();
    } catch (const ValueError& e) { // said at the field; the levels drawn stay
        problem_->setText(QString::fromStdString(e.what()));
    }
    next.labels = labels_->isChecked();
    next.dashNegative = dashes_->isChecked();
    if (next == choice_) return;
    choice_ = next;
    emit changed(choice_);
}

} // namespace strata::app
