#pragma once
// FileGroupDialog: files opened as one dataset (a directory, a glob, several picked) that do not
// form one. It lists every conflict, and the groups of the files that do each form a dataset
// ("12 files: tas_*.nc along time"), the largest chosen at first; Open Group asks for the files
// of the group chosen.
#include <QDialog>
#include <QStringList>

#include "strata/io/multifile.h"

class QListWidget;
class QPushButton;

namespace strata::app {

// "12 files: tas_*.nc along time", "1 file: orog.nc".
QString fileGroupText(const io::FileGroup& group);

class FileGroupDialog : public QDialog {
    Q_OBJECT
public:
    // `name`: what was opened (the directory's name, the glob, the files' label).
    FileGroupDialog(const QString& name, io::FileGrouping grouping, QWidget* parent = nullptr);

    QListWidget* conflictList() const { return conflicts_; }
    QListWidget* groupList() const { return groups_; }
    QPushButton* openButton() const { return open_; }
    QStringList chosenFiles() const; // the files of the group chosen, in the order given

signals:
    void groupChosen(const QStringList& files); // Open Group, or a double-click on a group

private:
    io::FileGrouping grouping_;
    QListWidget *conflicts_, *groups_;
    QPushButton* open_;
};

} // namespace strata::app
