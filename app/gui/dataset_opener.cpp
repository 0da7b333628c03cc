#include "dataset_opener.h"

#include <QtConcurrent/QtConcurrentRun>

#include "strata/io/multifile.h"

namespace strata::app {

DatasetOpener::DatasetOpener(QObject* parent) : QObject(parent) {}

DatasetOpener::~DatasetOpener() {
    if (watcher_) watcher_->waitForFinished();
}

void DatasetOpener::open(const QStringList& paths, std::optional<ViewSpec> initial) {
    cancel();
    const std::uint64_t generation = ++generation_;
    cancel_ = CancelToken();
    auto* watcher = new QFutureWatcher<OpenOutcome>(this);
    watcher_ = watcher;
    connect(watcher, &QFutureWatcher<OpenOutcome>::finished, this,
            [this, watcher, generation, paths, initial] {
                const OpenOutcome outcome = watcher->result();
                watcher->deleteLater();
                if (watcher == watcher_) watcher_ = nullptr;
                if (generation != generation_) return; // cancelled, or overtaken by another open
                emit opened(paths, initial, outcome);
            });
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    watcher->setFuture(QtConcurrent::run([files, cancel = cancel_] {
        OpenOutcome out;
        io::MultiOpenOptions options;
        options.cancel = cancel; // Cancel stops its reads over HTTP
        try {
            out.dataset =
                std::make_shared<Dataset>(io::openPaths(files, out.notes, options)); // isolated, one or many
        } catch (const io::FileSetError& e) {
            out.error = QString::fromStdString(e.what());
            out.grouping = e.grouping();
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

bool DatasetOpener::cancel() {
    if (!watcher_) return false;
    ++generation_; // its result, when it comes, is dropped
    watcher_ = nullptr;
    cancel_.cancel(); // its transfers (a store over HTTP) are aborted
    return true;
}

} // namespace strata::app
