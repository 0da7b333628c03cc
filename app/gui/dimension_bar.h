#pragma once
// The dimension bar: a chip for each dim of the current variable (its name and length) in one
// of four slots, X, Y, Slice and Reduce. Dragging a chip onto a slot, or a key on a focused
// chip (X, Y, S, R; its context menu lists the same), asks for that role; a chip in Reduce
// carries the operation (mean, min, max, std, sum) on a button of its own. The bar shows a
// ViewSpec and asks for changes; the window applies them (assignRole) and shows the result.
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QToolButton>
#include <map>

#include "view_roles.h"

namespace strata::app {

class DimChip : public QFrame {
    Q_OBJECT
public:
    DimChip(const QString& dim, qint64 length, QWidget* parent = nullptr);
    ~DimChip() override;
    QString dim() const { return dim_; }
    // In Reduce: the op button shows `op` ("area mean" for an area-weighted mean); elsewhere no
    // op is shown.
    void setReduceOp(std::optional<ReduceOp> op, bool areaWeighted = false);
    // Whether "area mean" is among the ops (the variable has a CF latitude or cell areas).
    void setAreaMeanOffered(bool on);
    // Whether "Anomaly…" is on its menu (a CF time dim).
    void setAnomalyOffered(bool on) { anomalyOffered_ = on; }
    QToolButton* opButton() const { return opButton_; }

signals:
    void dropped(const QString& dim, QPoint globalPosition); // a drag ended here
    void dragMoved(QPoint globalPosition);
    void roleAsked(const QString& dim, strata::app::Role role);
    void opAsked(const QString& dim, strata::ReduceOp op);
    void areaMeanAsked(const QString& dim);
    void anomalyAsked(const QString& dim);

protected:
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;

private:
    QString dim_;
    QLabel* label_;
    QToolButton* opButton_;
    QAction* areaMean_ = nullptr; // in the op button's menu
    bool areaMeanOffered_ = false;
    bool anomalyOffered_ = false;
    QPoint pressedAt_;
    bool pressed_ = false, dragging_ = false;
    QPointer<QLabel> ghost_; // follows the cursor while dragging
};

class RoleSlot : public QFrame {
    Q_OBJECT
public:
    RoleSlot(Role role, QWidget* parent = nullptr);
    Role role() const { return role_; }
    void addChip(DimChip* chip);
    void showEmpty(); // after its chips went
    void setHighlighted(bool on);

private:
    Role role_;
    QHBoxLayout* chips_;
    QLabel* empty_;
};

class DimensionBar : public QWidget {
    Q_OBJECT
public:
    explicit DimensionBar(QWidget* parent = nullptr);
    // Chips for the dims of `var`, in the slots `spec` gives them. `onCells`: var lies on cells
    // of the sphere that weigh an area mean (a HEALPix grid, a mesh's faces; cell_areas.h).
    void show(const DataArray& var, const ViewSpec& spec, bool onCells = false);
    void clear();
    RoleSlot* slot(Role r) const;
    DimChip* chip(const QString& dim) const;
    // The slot under a global position (nullptr when none).
    RoleSlot* slotAt(QPoint globalPosition) const;

signals:
    void roleRequested(const QString& dim, strata::app::Role role, strata::ReduceOp op);
    // An op chosen on a reduced chip's menu: `areaWeighted` for "area mean" (every mean of the
    // view becomes one area-weighted mean), false for the other ops, plain "mean" included.
    void opChosen(const QString& dim, strata::ReduceOp op, bool areaWeighted);
    // "Anomaly…" on a time dim's chip.
    void anomalyRequested(const QString& dim);

private:
    void onDropped(const QString& dim, QPoint globalPosition);
    void onDragMoved(QPoint globalPosition);
    std::map<Role, RoleSlot*> slots_;
    std::map<QString, DimChip*> chips_;
    ViewSpec spec_;
};

} // namespace strata::app
