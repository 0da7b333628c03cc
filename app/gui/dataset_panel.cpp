#include "dataset_panel.h"
#include "pyramid_view.h"

#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QSplitter>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "elided_label.h"
#include "frame_service.h"
#include "strata/core/derived.h"
#include "strata/io/multifile.h"

namespace strata::app {
namespace {

enum Column { kName, kDims, kShape, kType, kUnits, kLongName, kWhere };
constexpr int kPathRole = Qt::UserRole + 1; // the variable's path ("name", "/g/name")
constexpr int kKindRole = Qt::UserRole + 2; // "variable", "coordinate", "file", "group"

QString q(const std::string& s) { return QString::fromStdString(s); }

QString joined(const std::vector<std::string>& v, const char* sep) {
    QStringList out;
    for (const auto& s : v) out << q(s);
    return out.join(sep);
}

// The CF attributes decoding ignores, one line each ("attribute '_FillValue' value NaN cannot be
// represented in int16; ignored, as xarray does").
QString warningText(const std::vector<CfWarning>& warnings) {
    QStringList out;
    for (const auto& w : warnings) out << q(w.text);
    return out.join("\n");
}

QString shapeText(const Variable& v) {
    QStringList out;
    for (auto n : v.shape()) out << QString::number(n);
    return "(" + out.join(", ") + ")";
}

} // namespace

DatasetPanel::DatasetPanel(QWidget* parent)
    : QWidget(parent), tree_(new QTreeWidget(this)), attributes_(new QTreeWidget(this)),
      attributesTitle_(new ElidedLabel(this)) {
    tree_->setObjectName("datasetTree");
    tree_->setHeaderLabels(
        {tr("Name"), tr("Dims"), tr("Shape"), tr("Type"), tr("Units"), tr("Long name"), tr("Where")});
    tree_->setUniformRowHeights(true);
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    attributes_->setObjectName("attributeTable");
    attributes_->setHeaderLabels({tr("Attribute"), tr("Value")});
    attributes_->setRootIsDecorated(false);
    attributes_->setTextElideMode(Qt::ElideRight);
    attributes_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    attributes_->header()->setStretchLastSection(true);
    attributes_->viewport()->installEventFilter(this); // the columns follow its width
    attributesTitle_->setObjectName("attributesTitle");
    auto* attributeBox = new QWidget(this);
    auto* attributeLayout = new QVBoxLayout(attributeBox);
    attributeLayout->setContentsMargins(0, 2, 0, 0);
    attributeLayout->setSpacing(2);
    attributeLayout->addWidget(attributesTitle_);
    attributeLayout->addWidget(attributes_, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(tree_);
    split->addWidget(attributeBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    connect(tree_, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* item, QTreeWidgetItem*) { onCurrentChanged(item); });
    connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item, int) {
        if (item->data(kName, kKindRole).toString() == "other") { // b.tas: a derived variable of it
            const QString ref = item->data(kName, kPathRole).toString();
            emit derivedEditRequested(ref.section('.', 1) + "_" + ref.section('.', 0, 0) + " = " + ref);
            return;
        }
        if (!ds_ || item->data(kName, kKindRole).toString() != "derived") return;
        const QString path = item->data(kName, kPathRole).toString();
        if (const Variable* v = ds_->findVariable(path.toStdString()))
            if (const DerivedSource* d = derivedSourceOf(*v)) emit derivedEditRequested(q(d->statement()));
    });
}

void DatasetPanel::clear() {
    ds_.reset();
    tree_->clear();
    attributes_->clear();
    attributesTitle_->setText(QString());
}

void DatasetPanel::setDataset(std::shared_ptr<const Dataset> ds) {
    ds_ = std::move(ds);
    rebuild();
}

void DatasetPanel::setOthers(std::vector<DatasetAlias> others) {
    others_ = std::move(others);
    const QString current =
        tree_->currentItem() ? tree_->currentItem()->data(kName, kPathRole).toString() : QString();
    rebuild();
    if (!current.isEmpty()) setCurrent(current);
}

void DatasetPanel::rebuild() {
    updating_ = true;
    tree_->clear();
    if (ds_) {
        const QString name =
            ds_->files.empty() ? QFileInfo(q(ds_->path)).fileName() : q(fileSetLabel(ds_->files));
        // With others beside it, the dataset is "a", as expressions may call it.
        auto* root = new QTreeWidgetItem(
            tree_, {others_.empty() ? name : "a: " + name, QString(), QString(), q(ds_->format)});
        root->setData(kName, kKindRole, "file");
        root->setToolTip(kName, q(ds_->path));
        fillGroup(root, *ds_, QString());
        // A HEALPix pyramid: its variables at the root are shown at the zoom that fits the view.
        if (const std::optional<healpix::Pyramid> p = pyramidOfDataset(*ds_))
            for (const std::string& v : p->variables)
                if (QTreeWidgetItem* item = itemOf(q(v)))
                    item->setToolTip(kName, tr("%1: shown at the zoom whose cells fit the view's pixels (the "
                                               "groups hold each zoom; this row's shape is the coarsest)")
                                                .arg(q(p->describe())));
        if (!ds_->files.empty()) { // a file set: its files in record order
            auto* files = new QTreeWidgetItem(root, {tr("Files (%1)").arg(ds_->files.size())});
            files->setData(kName, kKindRole, "files");
            for (const std::string& f : ds_->files) {
                auto* item = new QTreeWidgetItem(files, {QFileInfo(q(f)).fileName()});
                item->setData(kName, kKindRole, "member");
                item->setToolTip(kName, q(f));
            }
        }
        root->setExpanded(true);
        showAttributes(tr("File attributes"), ds_->attrs);
    }
    for (const DatasetAlias& other : others_) {
        const Dataset& o = *other.dataset;
        const QString name = o.files.empty() ? QFileInfo(q(o.path)).fileName() : q(fileSetLabel(o.files));
        auto* root =
            new QTreeWidgetItem(tree_, {q(other.alias) + ": " + name, QString(), QString(), q(o.format)});
        root->setData(kName, kKindRole, "other-file");
        root->setData(kName, kPathRole, q(other.alias));
        root->setToolTip(
            kName,
            tr("%1\nIts variables are read in derived variables as %2.NAME").arg(q(o.path), q(other.alias)));
        fillGroup(root, o, QString(), q(other.alias));
        root->setExpanded(true);
    }
    updating_ = false;
}

void DatasetPanel::fillGroup(QTreeWidgetItem* parent, const Dataset& group, const QString& prefix,
                             const QString& alias) {
    auto* variables = new QTreeWidgetItem(parent, {tr("Variables")});
    auto* coordinates = new QTreeWidgetItem(parent, {tr("Coordinates")});
    auto* dims = new QTreeWidgetItem(parent, {tr("Dimensions")});
    const auto data = group.dataVariables();
    std::vector<std::string> bounds; // a coordinate's cell bounds: listed with the coordinates
    for (const auto& [name, v] : group.variables)
        if (auto b = v.attrs().text("bounds")) bounds.push_back(*b);
    for (const auto& [name, v] : group.variables) {
        const bool isData = std::find(data.begin(), data.end(), name) != data.end() &&
                            std::find(bounds.begin(), bounds.end(), name) == bounds.end();
        auto* item = new QTreeWidgetItem(isData ? variables : coordinates);
        item->setText(kName, q(name));
        item->setText(kDims, joined(v.dims(), ", "));
        item->setText(kShape, shapeText(v));
        item->setText(kType, q(std::string(strata::name(v.dtype()))));
        item->setText(kUnits, q(v.attrs().text("units").value_or("")));
        item->setText(kLongName, q(v.attrs().text("long_name").value_or("")));
        item->setData(kName, kPathRole, prefix.isEmpty() ? q(name) : prefix + "/" + q(name));
        item->setData(kName, kKindRole, isData ? "variable" : "coordinate");
        if (!alias.isEmpty()) { // another dataset's: read as alias.NAME, shown through a derived variable
            item->setData(kName, kPathRole, alias + "." + q(name));
            item->setData(kName, kKindRole, "other");
            item->setToolTip(kName,
                             tr("%1.%2: double-click for a derived variable of it").arg(alias, q(name)));
        }
        if (!isNumeric(v.dtype()) || v.ndim() == 0)
            item->setForeground(kName, QPalette().brush(QPalette::Disabled, QPalette::Text));
        if (const DerivedSource* derived = derivedSourceOf(v)) { // marked, and editable
            item->setText(kName, q(name) + " ƒ");
            item->setData(kName, kKindRole, "derived");
            item->setText(kUnits, derived->units().empty() ? tr("(no units)") : q(derived->units()));
            item->setToolTip(kName, tr("Derived: %1\nUnits: %2 (%3)\nDouble-click to edit")
                                        .arg(q(derived->statement()),
                                             derived->units().empty() ? tr("none") : q(derived->units()),
                                             q(derived->unitsReason())));
            item->setToolTip(
                kUnits, derived->unitsReason() == "none"
                            ? tr("No units: only + and - of equal units, K − 273.15 and functions "
                                 "that keep their operand's units have them; set them as NAME [units] = …")
                            : tr("Units %1").arg(q(derived->unitsReason())));
        }
        if (const auto& warnings = v.encoding().warnings; !warnings.empty()) {
            item->setIcon(kName, style()->standardIcon(QStyle::SP_MessageBoxWarning));
            item->setToolTip(kName, warningText(warnings));
        }
    }
    for (const auto& d : group.dims)
        new QTreeWidgetItem(dims, {q(d.name), QString(),
                                   QString::number(d.length) + (d.unlimited ? tr(" (unlimited)") : "")});
    variables->setExpanded(true);
    if (!alias.isEmpty()) return; // expressions read another dataset's root variables only
    for (const Dataset& g : group.groups) {
        const QString path = q(g.group);
        auto* item = new QTreeWidgetItem(parent, {tr("group %1").arg(path)});
        item->setData(kName, kKindRole, "group");
        item->setData(kName, kPathRole, path);
        fillGroup(item, g, path);
    }
}

QTreeWidgetItem* DatasetPanel::itemOf(const QString& variablePath) const {
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if ((*it)->data(kName, kPathRole).toString() == variablePath &&
            (*it)->data(kName, kKindRole).toString() != "group" &&
            !(*it)->data(kName, kKindRole).toString().startsWith("other"))
            return *it;
    return nullptr;
}

void DatasetPanel::setResidency(const QString& variablePath, const QString& where, const QString& why) {
    if (QTreeWidgetItem* item = itemOf(variablePath)) {
        item->setText(kWhere, where);
        item->setToolTip(kWhere, why);
    }
}

QString DatasetPanel::residencyOf(const QString& variablePath) const {
    const QTreeWidgetItem* item = itemOf(variablePath);
    return item ? item->text(kWhere) : QString();
}

void DatasetPanel::setCurrent(const QString& variablePath) {
    updating_ = true;
    if (QTreeWidgetItem* item = itemOf(variablePath)) {
        tree_->setCurrentItem(item);
        onCurrentChanged(item);
    }
    updating_ = false;
}

void DatasetPanel::showAttributes(const QString& title, const Attributes& attrs,
                                  const std::vector<CfWarning>& warnings) {
    attributes_->clear();
    attributesTitle_->setText(title);
    for (const auto& a : attrs) {
        auto* item = new QTreeWidgetItem(attributes_, {q(a.name), q(a.text())});
        item->setToolTip(1, q(a.text()));
        std::vector<CfWarning> mine;
        for (const auto& w : warnings)
            if (w.attribute == a.name) mine.push_back(w);
        if (!mine.empty()) { // ignored in decoding: marked, and why on hovering
            item->setIcon(0, style()->standardIcon(QStyle::SP_MessageBoxWarning));
            item->setToolTip(0, warningText(mine));
            item->setToolTip(1, q(a.text()) + "\n" + warningText(mine));
        }
    }
    fitAttributeColumns();
}

void DatasetPanel::fitAttributeColumns() {
    attributes_->resizeColumnToContents(0); // the names (and "Attribute")
    attributes_->setColumnWidth(
        0, std::min(attributes_->columnWidth(0), attributes_->viewport()->width() * 2 / 5));
}

bool DatasetPanel::eventFilter(QObject* watched, QEvent* e) {
    if (watched == attributes_->viewport() && e->type() == QEvent::Resize) fitAttributeColumns();
    return QWidget::eventFilter(watched, e);
}

void DatasetPanel::onCurrentChanged(QTreeWidgetItem* item) {
    if (!item) return;
    const QString kind = item->data(kName, kKindRole).toString();
    const QString path = item->data(kName, kPathRole).toString();
    if (!ds_ && !kind.startsWith("other")) return;
    if (kind == "variable" || kind == "coordinate" || kind == "derived") {
        const Dataset& g = groupOf(*ds_, path.toStdString());
        if (const Variable* v = g.findVariable(path.section('/', -1).toStdString()))
            showAttributes(tr("Attributes of %1").arg(item->text(kName)), v->attrs(), v->encoding().warnings);
        if (!updating_) emit variableChosen(path);
    } else if (kind == "other" || kind == "other-file") { // another dataset's: its attributes, not shown
        const QString alias = path.section('.', 0, 0);
        for (const DatasetAlias& o : others_)
            if (q(o.alias) == alias) {
                if (kind == "other-file") {
                    showAttributes(tr("File attributes of %1").arg(alias), o.dataset->attrs);
                } else if (const Variable* v = o.dataset->findVariable(path.section('.', 1).toStdString())) {
                    showAttributes(tr("Attributes of %1").arg(path), v->attrs(), v->encoding().warnings);
                }
            }
    } else if (kind == "file") {
        showAttributes(tr("File attributes"), ds_->attrs);
    } else if (kind == "group") {
        showAttributes(tr("Attributes of group %1").arg(path), ds_->findGroup(path.toStdString()).attrs);
    }
}

} // namespace strata::app
