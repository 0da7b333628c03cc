#include "colour_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLineEdit>
#include <QPixmap>

#include "strata/core/format.h"
#include "strata/render/colormaps.h"

namespace strata::app {
namespace {

QIcon preview(const std::string& name) {
    const auto table = colormapTable(name);
    QImage image(96, 14, QImage::Format_RGB32);
    for (int x = 0; x < image.width(); ++x) {
        const Rgba8& c = table[x * (table.size() - 1) / (image.width() - 1)];
        for (int y = 0; y < image.height(); ++y) image.setPixel(x, y, qRgb(c.r, c.g, c.b));
    }
    return QIcon(QPixmap::fromImage(image));
}

const RangeMode kModes[] = {RangeMode::Frame, RangeMode::Variable, RangeMode::Fixed, RangeMode::Symmetric};

} // namespace

ColourPanel::ColourPanel(QWidget* parent)
    : QWidget(parent), map_(new QComboBox(this)), reverse_(new QCheckBox(tr("&Reverse"), this)),
      mode_(new QComboBox(this)), min_(new QLineEdit(this)), max_(new QLineEdit(this)) {
    map_->setObjectName("colormap");
    map_->setIconSize(QSize(96, 14));
    for (const auto& name : colormapNames()) map_->addItem(preview(name), QString::fromStdString(name));
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
    auto* layout = new QFormLayout(this);
    layout->addRow(tr("Colour &map"), map_);
    layout->addRow(QString(), reverse_);
    layout->addRow(tr("R&ange"), mode_);
    auto* fixed = new QHBoxLayout;
    fixed->addWidget(min_);
    fixed->addWidget(max_);
    layout->addRow(tr("Fixed"), fixed);
    auto emitChanged = [this] {
        if (updating_) return;
        updateEnabled();
        emit changed();
    };
    connect(map_, &QComboBox::currentIndexChanged, this, emitChanged);
    connect(reverse_, &QCheckBox::toggled, this, emitChanged);
    connect(mode_, &QComboBox::currentIndexChanged, this, emitChanged);
    connect(min_, &QLineEdit::editingFinished, this, emitChanged);
    connect(max_, &QLineEdit::editingFinished, this, emitChanged);
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
    min_->setText(QString::fromStdString(formatNumber(colouring.range.fixedMin)));
    max_->setText(QString::fromStdString(formatNumber(colouring.range.fixedMax)));
    updating_ = false;
    updateEnabled();
}

Colouring ColourPanel::colouring() const {
    Colouring c = colouring_;
    c.colormap = map_->currentText().toStdString();
    c.reversed = reverse_->isChecked();
    ColourRange& r = c.range = ColourRange{}; // [0, 1] unless the typed range is a range
    r.mode = kModes[std::max(0, mode_->currentIndex())];
    bool ok1 = false, ok2 = false;
    const double lo = QLocale().toDouble(min_->text(), &ok1), hi = QLocale().toDouble(max_->text(), &ok2);
    const double lo2 = ok1 ? lo : min_->text().toDouble(&ok1), hi2 = ok2 ? hi : max_->text().toDouble(&ok2);
    if (ok1 && ok2 && lo2 < hi2) {
        r.fixedMin = lo2;
        r.fixedMax = hi2;
    }
    return c;
}

void ColourPanel::updateEnabled() {
    const bool fixed = kModes[std::max(0, mode_->currentIndex())] == RangeMode::Fixed;
    min_->setEnabled(fixed);
    max_->setEnabled(fixed);
}

} // namespace strata::app
