#include "units_button.h"

#include <QInputDialog>
#include <QMenu>

#include "strata/core/error.h"
#include "strata/core/units.h"

namespace strata::app {
namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
} // namespace

UnitsButton::UnitsButton(QWidget* parent) : QToolButton(parent) {
    setObjectName("displayUnits");
    setPopupMode(QToolButton::InstantPopup);
    setMenu(new QMenu(this));
    show({}, {});
}

void UnitsButton::show(const std::string& stored, const std::string& shown) {
    if (!menu()->isEmpty() && stored == stored_ && (shown.empty() ? stored : shown) == shown_)
        return; // as shown
    stored_ = stored;
    shown_ = shown.empty() ? stored : shown;
    QMenu* m = menu();
    m->clear();
    std::vector<std::string> units;
    try {
        units = commonUnits(stored);
    } catch (const Error& e) { // udunits2's database unreadable: nothing can be converted
        setEnabled(false);
        setText(stored.empty() ? tr("(no units)") : q(stored));
        setToolTip(q(e.what()));
        return;
    }
    setEnabled(!units.empty());
    if (units.empty()) {
        setText(stored.empty() ? tr("(no units)") : q(stored));
        setToolTip(
            stored.empty()
                ? tr("The variable has no units attribute: there is nothing to convert")
                : tr("udunits2 does not know the units '%1': they cannot be converted").arg(q(stored)));
        return;
    }
    setText(q(shown_));
    setToolTip(shown_ == stored ? tr("Shown as stored, in %1: choose other units").arg(q(stored))
                                : tr("Shown in %1, converted from the stored %2").arg(q(shown_), q(stored)));
    for (const std::string& u : units) {
        QString label = q(u);
        if (u == stored)
            label += tr(" (as stored)");
        else if (const UnitConversion c = unitConversion(stored, u); !c.assumption.empty())
            label += " (" + q(c.assumption) + ")";
        QAction* a = m->addAction(label, this, [this, u] { emit chosen(u == stored_ ? QString() : q(u)); });
        a->setData(q(u));
        a->setCheckable(true);
        a->setChecked(u == shown_);
    }
    m->addSeparator();
    m->addAction(tr("Other…"), this, &UnitsButton::askOther);
}

QStringList UnitsButton::offered() const {
    QStringList out;
    for (const QAction* a : menu()->actions())
        if (a->data().isValid()) out << a->data().toString();
    return out;
}

void UnitsButton::askOther() {
    bool ok = false;
    const QString text =
        QInputDialog::getText(
            this, tr("Show in Other Units"),
            tr("Units to show %1 in (udunits2 syntax, e.g. degC, hPa, mm/day):").arg(q(stored_)),
            QLineEdit::Normal, q(shown_), &ok)
            .trimmed();
    if (ok && !text.isEmpty()) emit chosen(text.toStdString() == stored_ ? QString() : text);
}

} // namespace strata::app
