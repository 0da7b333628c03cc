// The window's keys: Space, ← →, Page Up/Down, Home/End act on the view wherever the focus is,
// except in a text field (a line edit, or a spin box's editor, keeps every key it reads) and
// Space on a button reached with Tab; a choice in a combo box hands the focus back to the view;
// Help ▸ Keyboard Shortcuts lists the window's actions and shortcuts as they are, so the list
// cannot go stale.
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QShortcut>
#include <QSlider>
#include <QStackedWidget>
#include <QTextEdit>

#include "main_window.h"
#include "slice_panel.h"

namespace strata::app {
namespace {

// Whether `o` is a field the user types into (the focus of a spin box is the box itself).
bool isTextField(const QObject* o) {
    if (qobject_cast<const QLineEdit*>(o) || qobject_cast<const QAbstractSpinBox*>(o) ||
        qobject_cast<const QTextEdit*>(o) || qobject_cast<const QPlainTextEdit*>(o))
        return true;
    const auto* combo = qobject_cast<const QComboBox*>(o);
    return combo && combo->isEditable();
}

// Gives the view keys to a text field that has the focus: a line edit claims ← → Home End
// Space itself, but a spin box would lose Page Up/Down to the window's shortcuts. And Space to
// a button reached with Tab, which it presses, as a keyboard user expects; a button that took
// the focus from a click leaves Space to the view.
class TextFieldKeys : public QObject {
public:
    TextFieldKeys(QList<QKeySequence> keys, QObject* parent) : QObject(parent), keys_(std::move(keys)) {}

protected:
    bool eventFilter(QObject* o, QEvent* e) override {
        auto* button = qobject_cast<QAbstractButton*>(o);
        if (button && e->type() == QEvent::FocusIn) {
            const Qt::FocusReason why = static_cast<QFocusEvent*>(e)->reason();
            button->setProperty(kFromKeyboard, why == Qt::TabFocusReason || why == Qt::BacktabFocusReason);
            return false;
        }
        if (e->type() != QEvent::ShortcutOverride) return false;
        const auto* k = static_cast<QKeyEvent*>(e);
        if (button && k->key() == Qt::Key_Space && k->modifiers() == Qt::NoModifier &&
            button->property(kFromKeyboard).toBool()) {
            e->accept(); // the button's own Space: it is pressed
            return true;
        }
        if (!isTextField(o)) return false;
        if (!keys_.contains(QKeySequence(k->keyCombination()))) return false;
        e->accept(); // the key goes to the field, as a key press
        return true;
    }

private:
    static constexpr const char* kFromKeyboard = "strataFocusFromKeyboard";
    QList<QKeySequence> keys_;
};

QString plainText(QString text) {
    text.remove(QRegularExpression("&(?!&)"));
    text.remove(QChar(0x2026)); // "…"
    return text.trimmed();
}

} // namespace

void MainWindow::buildShortcuts() {
    auto add = [this](QKeySequence keys, const QString& what, auto act) {
        auto* s = new QShortcut(keys, this, act); // Qt::WindowShortcut: docks and panels too
        s->setWhatsThis(what);                    // the shortcut list reads it
        return s;
    };
    // The dim stepped is the one whose slider has the focus, else the one last touched.
    auto active = [this] {
        if (const QWidget* f = QApplication::focusWidget(); f && f->objectName().startsWith("slider:"))
            slices_->setActiveDim(f->objectName().mid(7));
        return slices_->slider(slices_->activeDim());
    };
    auto stepBy = [this, active](int delta) {
        if (active()) slices_->step(delta);
    };
    auto page = [this, active](int sign) {
        if (QSlider* s = active()) slices_->step(sign * s->pageStep());
    };
    auto toEnd = [this, active](bool last) {
        if (QSlider* s = active()) slices_->step(last ? s->maximum() - s->value() : -s->value());
    };
    QList<QKeySequence> keys;
    keys << add(Qt::Key_Space, tr("play / pause the active dim"), [this, active] {
                if (active()) slices_->togglePlay(slices_->activeDim());
            })->key();
    keys << add(Qt::Key_Right, tr("step the active dim forward"), [stepBy] { stepBy(+1); })->key();
    keys << add(Qt::Key_Left, tr("step the active dim back"), [stepBy] { stepBy(-1); })->key();
    keys << add(Qt::Key_PageUp, tr("jump a tenth of the active dim forward"), [page] { page(+1); })->key();
    keys << add(Qt::Key_PageDown, tr("jump a tenth of the active dim back"), [page] { page(-1); })->key();
    keys << add(Qt::Key_Home, tr("go to the first index of the active dim"), [toEnd] {
                toEnd(false);
            })->key();
    keys << add(Qt::Key_End, tr("go to the last index of the active dim"), [toEnd] { toEnd(true); })->key();
    qApp->installEventFilter(new TextFieldKeys(keys, this));

    // A choice made in a combo box hands the keyboard back to the view (Space plays again
    // rather than opening the box, Page Down steps rather than changing the choice).
    for (QComboBox* box : findChildren<QComboBox*>())
        connect(box, &QComboBox::activated, this, &MainWindow::focusView);
}

void MainWindow::focusView() {
    QWidget* view = stack_->currentWidget();
    (view == image_ || view == line_ ? view : image_)->setFocus(Qt::OtherFocusReason);
}

QList<QPair<QString, QString>> MainWindow::shortcutList() const {
    QList<QPair<QString, QString>> out;
    for (const QAction* a : findChildren<QAction*>()) {
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        if (!keys.isEmpty()) out.append({keys.join(", "), plainText(a->text())});
    }
    for (const QShortcut* s : findChildren<QShortcut*>())
        out.append({s->key().toString(QKeySequence::NativeText), s->whatsThis()});
    // Keys read by widgets themselves, and the mouse.
    out.append({tr("X, Y, S, R on a dim chip"), tr("show it on X or Y, slice it, reduce it")});
    out.append(
        {tr("\u2191 \u2193, +, \u2212 in the dataset tree"), tr("choose a variable, expand, collapse")});
    out.append({tr("Tab, then Space"), tr("press the button Tab reached")});
    out.append({tr("wheel, drag, double-click"), tr("zoom, pan, reset the zoom")});
    out.append({tr("click"), tr("plot the series through the point")});
    return out;
}

void MainWindow::showShortcuts() {
    QString html = "<table>";
    for (const auto& [keys, what] : shortcutList())
        html += QString("<tr><td>%1&nbsp;&nbsp;</td><td>%2</td></tr>")
                    .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    html += "</table>";
    auto* box =
        new QMessageBox(QMessageBox::Information, tr("Keyboard shortcuts"), html, QMessageBox::Ok, this);
    box->setObjectName("shortcutsBox");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace strata::app
