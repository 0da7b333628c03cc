#pragma once
// Rows the export dialogs share (Export PNG's size, Export Animation…): a size in pixels, and
// OK / Cancel.
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSize>
#include <QSpinBox>

namespace strata::app {

// Width and height rows, in pixels from `minimum` to 16384, starting at `size`.
struct SizeRows {
    QSpinBox *width, *height;
    QSize size() const { return {width->value(), height->value()}; }
};
inline SizeRows addSizeRows(QFormLayout* form, QSize size, int minimum) {
    SizeRows rows{new QSpinBox(form->parentWidget()), new QSpinBox(form->parentWidget())};
    for (QSpinBox* b : {rows.width, rows.height}) {
        b->setRange(minimum, 16384);
        b->setSuffix(QObject::tr(" px"));
    }
    rows.width->setValue(size.width());
    rows.height->setValue(size.height());
    form->addRow(QObject::tr("Width"), rows.width);
    form->addRow(QObject::tr("Height"), rows.height);
    return rows;
}

// OK and Cancel, which accept or reject `dialog`.
inline void addOkCancel(QFormLayout* form, QDialog* dialog) {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    form->addRow(buttons);
}

} // namespace strata::app
