#pragma once
// ClusterProgress: the status bar's word on a computation that runs elsewhere while a frame waits
// for it (the Dask cluster computing a box or a reduction of a Dask-backed variable shown from
// Python): "computing on Dask (2 workers): 3/13 tasks", with a bar filled as far. It shows what
// it is told, on the GUI thread; empty text hides it.
#include <QString>
#include <QWidget>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace strata::app {

class ClusterProgress : public QWidget {
    Q_OBJECT
public:
    // Added to `bar`'s permanent widgets, hidden.
    explicit ClusterProgress(QStatusBar* bar);

    // `text` beside a bar filled to `fraction` (0..1; < 0: not known, a busy stripe). Empty text:
    // nothing computes, the widget hides.
    void setProgress(const QString& text, double fraction);
    // What it says: empty while hidden.
    QString text() const;
    // The bar's fill in percent, or -1 for a busy stripe.
    int percent() const;

private:
    QLabel* label_;
    QProgressBar* bar_;
};

} // namespace strata::app
