#pragma once
// DatasetOpener: opens a file, a file set, a glob or a store off the GUI thread (in a child
// process first, io::openPaths), one at a time: a newer open or Cancel drops the one in
// progress, and Cancel aborts its reads over the network. The outcome arrives as a signal.
#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <memory>
#include <optional>

#include "strata/core/cancel.h"
#include "strata/core/dataset.h"
#include "strata/io/multifile.h"
#include "strata/io/netcdf.h"
#include "view_spec.h"

namespace strata::app {

struct OpenOutcome {
    std::shared_ptr<const Dataset> dataset;
    OpenNotes notes;
    QString error; // non-empty: the file could not be opened, and why
    // Files that do not form one dataset: the groups of them that do (empty otherwise).
    io::FileGrouping grouping;
};

class DatasetOpener : public QObject {
    Q_OBJECT
public:
    explicit DatasetOpener(QObject* parent = nullptr);
    ~DatasetOpener() override; // waits for an open in progress

    // Starts opening `paths` as one dataset; `initial`, when set, is the view to show first.
    void open(const QStringList& paths, std::optional<ViewSpec> initial);
    // Drops the open in progress (its result, when it comes, is not told); false when none ran.
    bool cancel();
    bool opening() const { return watcher_ != nullptr; }

signals:
    void opened(const QStringList& paths, const std::optional<strata::app::ViewSpec>& initial,
                const strata::app::OpenOutcome& outcome);

private:
    QFutureWatcher<OpenOutcome>* watcher_ = nullptr;
    std::uint64_t generation_ = 0;
    CancelToken cancel_; // the open in progress's: its reads stop
};

} // namespace strata::app
