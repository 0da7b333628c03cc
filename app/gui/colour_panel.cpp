#include "colour_panel.h"

#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QDoubleValidator>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPixmap>
#include <QToolButton>
#include <cmath>
#include <tuple>

#include "strata/core/format.h"
#include "strata/render/colormaps.h"
#include "units_button.h"

namespace strata::app {
namespace {

QIcon preview(const std::string& name, bool reversed) {
    const auto table = colormapTable(name, reversed);
    QImage image(96, 14, QImage::Format_RGB32);
    for (int x = 0; x < image.width(); ++x) {
        const Rgba8& c = table[x * (table.size() - 1) / (image.width() - 1)];
        for (int y = 0; y < image.height(); ++y) image.setPixel(x, y, qRgb(c.r, c.g, c.b));
    }
    return QIcon(QPixmap::fromImage(image));
}

QIcon swatch(Rgba8 c) {
    QPixmap p(28, 14);
    p.fill(QColor(c.r, c.g, c.b));
    return QIcon(p);
}

const RangeMode kModes[] = {RangeMode::Frame, RangeMode::Variable, RangeMode::Fixed, RangeMode::Symmetric};

// `text` as a number in the user's locale, or else in C's ("250.5" where "," is the decimal).
// A range end as text, without a float32 extreme's noise ("5886.7").
QString rangeText(double v) { return QString::fromStdString(formatNarrowest(v)); }

std::optional<double> number(const QString& text) {
    bool ok = false;
    double v = QLocale().toDouble(text, &ok);
    if (!ok) v = text.toDouble(&ok);
    return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

} // namespace

ColourPanel::ColourPanel(QWidget* parent)
    : QWidget(parent), map_(new QComboBox(this)), reverse_(new QCheckBox(tr("&Reverse"), this)),
      mode_(new QComboBox(this)), min_(new QLineEdit(this)), max_(new QLineEdit(this)),
      rangeError_(new QLabel(this)), nan_(new QToolButton(this)), under_(new QToolButton(this)),
      over_(new QToolButton(this)), units_(new UnitsButton(this)) {
    map_->setObjectName("colormap");
    map_->setIconSize(QSize(96, 14));
    map_->setMaxVisibleItems(20);
    for (const auto& name : colormapNames())
        map_->addItem(preview(name, false), QString::fromStdString(name));
    mode_->setObjectName("rangeMode");
    mode_->addItem(tr("Per frame"));
    mode_->addItem(tr("Whole variable"));
    mode_->addItem(tr("Fixed"));
    mode_->addItem(tr("Symmetric about 0"));
    for (QLineEdit* e : {min_, max_}) {
        e->setValidator(new QDoubleValidator(e));
        e->setMaximumWidth(110);
    }
    min_->setObjectName("rangeMin");
    max_->setObjectName("rangeMax");
    min_->setPlaceholderText(tr("min"));
    max_->setPlaceholderText(tr("max"));
    rangeError_->setObjectName("rangeError");
    rangeError_->setStyleSheet("color: #c00000");
    rangeError_->setWordWrap(true);
    rangeError_->hide();
    nan_->setObjectName("nanColour");
    nan_->setToolTip(tr("The colour of missing values (NaN)"));
    under_->setObjectName("underColour");
    under_->setToolTip(tr("The colour of values below a fixed range"));
    over_->setObjectName("overColour");
    over_->setToolTip(tr("The colour of values above a fixed range"));
    for (QToolButton* b : {nan_, under_, over_}) {
        b->setIconSize(QSize(28, 14));
        b->setToolButtonStyle(Qt::ToolButtonIconOnly);
        connect(b, &QToolButton::clicked, this, [this, b] { chooseColour(b); });
    }
    for (QToolButton* b : {under_, over_}) {
        auto* menu = new QMenu(b);
        menu->addAction(tr("The colour map's end"), this, [this, b] {
            if (b == under_)
                setUnderColour(std::nullopt);
            else
                setOverColour(std::nullopt);
        });
        b->setMenu(menu);
        b->setPopupMode(QToolButton::MenuButtonPopup);
    }

    auto* layout = new QFormLayout(this);
    layout->addRow(tr("Colour &map"), map_);
    layout->addRow(QString(), reverse_);
    layout->addRow(tr("&Units"), units_);
    layout->addRow(tr("R&ange"), mode_);
    auto* fixed = new QHBoxLayout;
    fixed->addWidget(min_);
    fixed->addWidget(max_);
    layout->addRow(tr("Fixed"), fixed);
    layout->addRow(QString(), rangeError_);
    auto* beyond = new QHBoxLayout;
    beyond->addWidget(under_);
    beyond->addWidget(over_);
    beyond->addStretch();
    layout->addRow(tr("Under / over"), beyond);
    layout->addRow(tr("Missing"), nan_);

    connect(map_, &QComboBox::currentIndexChanged, this, &ColourPanel::onMapOrMode);
    connect(reverse_, &QCheckBox::toggled, this, &ColourPanel::onMapOrMode);
    connect(mode_, &QComboBox::currentIndexChanged, this, &ColourPanel::onMapOrMode);
    connect(min_, &QLineEdit::editingFinished, this, &ColourPanel::onFieldsEdited);
    connect(max_, &QLineEdit::editingFinished, this, &ColourPanel::onFieldsEdited);
    // The validator holds back editingFinished for an empty field or a lone "-": said as typed,
    // so that neither silence nor an older message stands for it.
    for (QLineEdit* e : {min_, max_})
        connect(e, &QLineEdit::textEdited, this, [this] {
            if (colouring_.range.mode != RangeMode::Fixed) return;
            const std::optional<double> lo = number(min_->text()), hi = number(max_->text());
            const QString stays =
                tr("the range stays %1 to %2")
                    .arg(rangeText(colouring_.range.fixedMin), rangeText(colouring_.range.fixedMax));
            if (!lo || !hi)
                showRangeError(tr("min and max must be numbers; %1").arg(stays));
            else if (!(*lo < *hi))
                showRangeError(tr("min must be below max; %1").arg(stays));
            else
                showRangeError({}); // taken when the field is left or Enter pressed
        });
    set(Colouring{});
}

void ColourPanel::set(const Colouring& colouring) {
    updating_ = true;
    colouring_ = colouring;
    const int i = map_->findText(QString::fromStdString(colouring.colormap));
    map_->setCurrentIndex(i < 0 ? 0 : i);
    reverse_->setChecked(colouring.reversed);
    for (int m = 0; m < 4; ++m)
        if (kModes[m] == colouring.range.mode) mode_->setCurrentIndex(m);
    showRange();
    showRangeError({});
    refreshPreviews();
    refreshSwatches();
    updating_ = false;
}

void ColourPanel::onMapOrMode() {
    if (updating_) return;
    const RangeMode mode = kModes[std::max(0, mode_->currentIndex())];
    Colouring c = colouring_;
    c.colormap = map_->currentText().toStdString();
    c.reversed = reverse_->isChecked();
    if (mode == RangeMode::Fixed && c.range.mode != RangeMode::Fixed) {
        // Fixed starts from what is shown: the map does not jump when it is chosen.
        if (shownRange_) std::tie(c.range.fixedMin, c.range.fixedMax) = shownRange_();
    }
    c.range.mode = mode;
    colouring_ = c;
    updating_ = true;
    showRange();
    showRangeError({});
    updating_ = false;
    refreshPreviews();
    refreshSwatches();
    emit changed();
}

void ColourPanel::onFieldsEdited() {
    if (updating_ || colouring_.range.mode != RangeMode::Fixed) return;
    const std::optional<double> lo = number(min_->text()), hi = number(max_->text());
    if (!lo || !hi) {
        showRangeError(tr("min and max must be numbers; the range stays %1 to %2")
                           .arg(rangeText(colouring_.range.fixedMin), rangeText(colouring_.range.fixedMax)));
        return;
    }
    if (!(*lo < *hi)) {
        showRangeError(tr("min must be below max; the range stays %1 to %2")
                           .arg(rangeText(colouring_.range.fixedMin), rangeText(colouring_.range.fixedMax)));
        return;
    }
    showRangeError({});
    if (colouring_.range.fixedMin == *lo && colouring_.range.fixedMax == *hi) return;
    colouring_.range.fixedMin = *lo;
    colouring_.range.fixedMax = *hi;
    emit changed();
}

void ColourPanel::showRange() {
    const bool fixed = colouring_.range.mode == RangeMode::Fixed;
    min_->setEnabled(fixed);
    max_->setEnabled(fixed);
    // Other modes leave the fields empty: no greyed numbers that look like a range in use.
    min_->setText(fixed ? rangeText(colouring_.range.fixedMin) : QString());
    max_->setText(fixed ? rangeText(colouring_.range.fixedMax) : QString());
    under_->setEnabled(fixed);
    over_->setEnabled(fixed);
}

void ColourPanel::showRangeError(const QString& why) {
    for (QLineEdit* e : {min_, max_}) {
        e->setStyleSheet(why.isEmpty() ? QString()
                                       : QStringLiteral("QLineEdit { border: 2px solid #c00000; }"));
        e->setToolTip(why);
    }
    rangeError_->setText(why);
    rangeError_->setVisible(!why.isEmpty());
}

void ColourPanel::refreshPreviews() {
    const bool reversed = reverse_->isChecked();
    if (reversed == previewsReversed_) return;
    for (int i = 0; i < map_->count(); ++i)
        map_->setItemIcon(i, preview(map_->itemText(i).toStdString(), reversed));
    previewsReversed_ = reversed;
}

void ColourPanel::refreshSwatches() {
    const auto table = colormapTable(colouring_.colormap, colouring_.reversed);
    nan_->setIcon(swatch(colouring_.nanColour));
    under_->setIcon(swatch(colouring_.underColour.value_or(table.front())));
    over_->setIcon(swatch(colouring_.overColour.value_or(table.back())));
}

void ColourPanel::chooseColour(QToolButton* button) {
    const auto table = colormapTable(colouring_.colormap, colouring_.reversed);
    const Rgba8 now = button == nan_     ? colouring_.nanColour
                      : button == under_ ? colouring_.underColour.value_or(table.front())
                                         : colouring_.overColour.value_or(table.back());
    const QColor c = QColorDialog::getColor(QColor(now.r, now.g, now.b), this, button->toolTip());
    if (!c.isValid()) return;
    const Rgba8 chosen{static_cast<std::uint8_t>(c.red()), static_cast<std::uint8_t>(c.green()),
                       static_cast<std::uint8_t>(c.blue()), 255};
    if (button == nan_)
        setNanColour(chosen);
    else if (button == under_)
        setUnderColour(chosen);
    else
        setOverColour(chosen);
}

void ColourPanel::setNanColour(Rgba8 colour) {
    if (colouring_.nanColour == colour) return;
    colouring_.nanColour = colour;
    refreshSwatches();
    emit changed();
}

void ColourPanel::setUnderColour(std::optional<Rgba8> colour) {
    if (colouring_.underColour == colour) return;
    colouring_.underColour = colour;
    refreshSwatches();
    emit changed();
}

void ColourPanel::setOverColour(std::optional<Rgba8> colour) {
    if (colouring_.overColour == colour) return;
    colouring_.overColour = colour;
    refreshSwatches();
    emit changed();
}

} // namespace strata::app
