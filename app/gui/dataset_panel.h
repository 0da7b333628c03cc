#pragma once
// The dataset panel: the file's groups and variables (dims, shape, dtype, units, long name),
// its coordinates listed apart, its dimensions, and the attributes of the file and of the
// variable selected (names and values side by side whatever the panel's width and the names'
// lengths). A variable with CF attributes that decoding ignores carries a warning icon, the reasons as its
// tooltip, and so do those attributes. Choosing a variable asks the window to show it. Other datasets added
// beside it (File ▸ Add Dataset…) are listed under their aliases (b, c, …) with their variables as derived
// variables read them (b.tas): double-clicking one offers a derived variable of it.
#include <QWidget>
#include <memory>
#include <vector>

#include "strata/core/dataset.h"
#include "strata/core/derived.h"

class QTreeWidget;
class QTreeWidgetItem;

namespace strata::app {

class ElidedLabel;

class DatasetPanel : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPanel(QWidget* parent = nullptr);
    void setDataset(std::shared_ptr<const Dataset> ds);
    // The other datasets, listed after the dataset (then shown as "a"), each under its alias.
    void setOthers(std::vector<DatasetAlias> others);
    void clear();
    // Marks `variablePath` ("name" or "/group/name") as the current one, without a signal.
    void setCurrent(const QString& variablePath);
    // Where a variable's data is ("on GPU 0 (1.5 GB)", "loading 43 %", "streamed (…)"), with
    // the reason as its tooltip; shown in the Where column.
    void setResidency(const QString& variablePath, const QString& where, const QString& why);
    QString residencyOf(const QString& variablePath) const;
    QTreeWidget* tree() const { return tree_; }
    QTreeWidget* attributes() const { return attributes_; }
    // What the attributes shown are of ("Attributes of tas"): shortened to the panel's width,
    // the whole as its tooltip.
    ElidedLabel* attributesTitle() const { return attributesTitle_; }
    // The tree item of a variable ("name" or "/group/name"); nullptr when none.
    QTreeWidgetItem* itemOf(const QString& variablePath) const;

signals:
    void variableChosen(const QString& variablePath);
    // A derived variable double-clicked: its statement, to edit.
    void derivedEditRequested(const QString& statement);

private:
    void rebuild();
    // `alias`: empty for the dataset's own variables; else another dataset's, read as alias.NAME.
    void fillGroup(QTreeWidgetItem* parent, const Dataset& group, const QString& prefix,
                   const QString& alias = QString());
    // `warnings`: CF attributes that decoding ignores, marked with an icon and their reason.
    void showAttributes(const QString& title, const Attributes& attrs,
                        const std::vector<CfWarning>& warnings = {});
    void onCurrentChanged(QTreeWidgetItem* item);
    // The names' column as wide as the names, but for at most two fifths of the view: the
    // values (shortened, whole in their tooltips) fill the rest.
    void fitAttributeColumns();
    bool eventFilter(QObject* watched, QEvent* e) override;

    QTreeWidget* tree_;
    QTreeWidget* attributes_;
    ElidedLabel* attributesTitle_;
    std::shared_ptr<const Dataset> ds_;
    std::vector<DatasetAlias> others_;
    bool updating_ = false;
};

} // namespace strata::app
