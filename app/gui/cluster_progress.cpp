#include "cluster_progress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <algorithm>

namespace strata::app {

ClusterProgress::ClusterProgress(QStatusBar* bar)
    : QWidget(bar), label_(new QLabel(this)), bar_(new QProgressBar(this)) {
    setObjectName("clusterProgress");
    label_->setObjectName("clusterText");
    bar_->setObjectName("clusterBar");
    bar_->setTextVisible(false); // the label says the tasks done
    bar_->setMaximumWidth(120);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addWidget(bar_);
    bar->addPermanentWidget(this);
    hide();
}

void ClusterProgress::setProgress(const QString& text, double fraction) {
    label_->setText(text);
    if (fraction < 0) {
        bar_->setRange(0, 0);
    } else {
        bar_->setRange(0, 100);
        bar_->setValue(std::clamp(int(fraction * 100), 0, 100));
    }
    setVisible(!text.isEmpty());
}

QString ClusterProgress::text() const { return !isHidden() ? label_->text() : QString(); }

int ClusterProgress::percent() const { return bar_->maximum() == 0 ? -1 : bar_->value(); }

} // namespace strata::app
