#include "contour_dialog.h"

#include <QCheckBox>
#include <QColorDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

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
    colour_ = new QPushButton(this);
    colour_->setObjectName("contourColour");
    colour_->setToolTip(tr("The lines' colour"));
    setColour(start.colour);
    form->addRow(tr("&Colour"), colour_);
    connect(colour_, &QPushButton::clicked, this, [this] {
        const Rgba8& c = choice_.colour;
        const QColor picked = QColorDialog::getColor(QColor(c.r, c.g, c.b, c.a), this, tr("Contour Colour"),
                                                     QColorDialog::ShowAlphaChannel);
        if (picked.isValid())
            setColour(Rgba8{std::uint8_t(picked.red()), std::uint8_t(picked.green()),
                            std::uint8_t(picked.blue()), std::uint8_t(picked.alpha())});
    });
    width_ = new QDoubleSpinBox(this);
    width_->setObjectName("contourWidth");
    width_->setRange(0.5, 8);
    width_->setSingleStep(0.5);
    width_->setSuffix(tr(" px"));
    width_->setValue(start.width);
    form->addRow(tr("&Width"), width_);
    connect(width_, &QDoubleSpinBox::valueChanged, this, &ContourDialog::update);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    form->addRow(buttons);
    connect(levels_, &QLineEdit::textChanged, this, &ContourDialog::update);
    connect(labels_, &QCheckBox::toggled, this, &ContourDialog::update);
    connect(dashes_, &QCheckBox::toggled, this, &ContourDialog::update);
}

void ContourDialog::setColour(const Rgba8& c) {
    QPixmap swatch(24, 14);
    swatch.fill(QColor(c.r, c.g, c.b, c.a));
    colour_->setIcon(QIcon(swatch));
    colour_->setText(QColor(c.r, c.g, c.b).name());
    if (c == choice_.colour) return;
    choice_.colour = c;
    emit changed(choice_);
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
    next.width = width_->value();
    if (next == choice_) return;
    choice_ = next;
    emit changed(choice_);
}

} // namespace strata::app
