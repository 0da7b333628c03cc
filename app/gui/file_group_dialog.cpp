#include "file_group_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

QString fileGroupText(const io::FileGroup& group) {
    const QString files = group.files.size() == 1
                              ? QObject::tr("1 file")
                              : QObject::tr("%1 files").arg(QString::number(group.files.size()));
    const QString pattern = q(io::fileSetPattern(group.files));
    return group.along.empty() ? QString("%1: %2").arg(files, pattern)
                               : QObject::tr("%1: %2 along %3").arg(files, pattern, q(group.along));
}

FileGroupDialog::FileGroupDialog(const QString& name, io::FileGrouping grouping, QWidget* parent)
    : QDialog(parent), grouping_(std::move(grouping)), conflicts_(new QListWidget(this)),
      groups_(new QListWidget(this)), open_(new QPushButton(tr("Open Group"), this)) {
    setObjectName("fileGroups");
    setWindowTitle(tr("Cannot open %1 as one dataset").arg(name));
    std::size_t files = 0;
    for (const io::FileGroup& g : grouping_.groups) files += g.files.size();
    auto* layout = new QVBoxLayout(this);
    const QString count = QString::number(files), conflicts = QString::number(grouping_.conflicts.size());
    auto* why = new QLabel(
        grouping_.conflicts.size() == 1
            ? tr("The %1 files of %2 do not form one dataset:").arg(count, name)
            : tr("The %1 files of %2 do not form one dataset (%3 conflicts):").arg(count, name, conflicts),
        this);
    why->setWordWrap(true);
    layout->addWidget(why);
    conflicts_->setObjectName("conflicts");
    conflicts_->setSelectionMode(QAbstractItemView::NoSelection);
    conflicts_->setTextElideMode(Qt::ElideMiddle);
    for (const std::string& c : grouping_.conflicts) {
        auto* item = new QListWidgetItem(q(c), conflicts_);
        item->setToolTip(q(c));
    }
    layout->addWidget(conflicts_, 1);
    layout->addWidget(new QLabel(tr("These groups of them each form one. Open the files of one:"), this));
    groups_->setObjectName("groups");
    for (const io::FileGroup& g : grouping_.groups) {
        auto* item = new QListWidgetItem(fileGroupText(g), groups_);
        QStringList names;
        for (const std::string& f : g.files) names << q(f);
        item->setToolTip(names.join('\n'));
    }
    groups_->setCurrentRow(0); // the largest
    layout->addWidget(groups_, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(open_, QDialogButtonBox::AcceptRole);
    open_->setDefault(true);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(groups_, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
    connect(groups_, &QListWidget::currentRowChanged, this, [this](int row) { open_->setEnabled(row >= 0); });
    connect(this, &QDialog::accepted, this, [this] {
        if (const QStringList files = chosenFiles(); !files.isEmpty()) emit groupChosen(files);
    });
    resize(640, 420);
}

QStringList FileGroupDialog::chosenFiles() const {
    const int row = groups_->currentRow();
    QStringList out;
    if (row < 0 || std::size_t(row) >= grouping_.groups.size()) return out;
    for (const std::string& f : grouping_.groups[std::size_t(row)].files) out << q(f);
    return out;
}

} // namespace strata::app
