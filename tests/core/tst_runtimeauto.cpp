// Runtime, left to choose: the GPU when one is usable, otherwise the CPU with the reason.
#include <QtTest>

#include "strata/core/runtime.h"

using namespace strata;

class TestRuntimeAuto : public QObject {
    Q_OBJECT
private slots:
    void choosesAndExplains() {
        qunsetenv("STRATA_CPU");
        const ComputeInfo& info = computeInfo();
        if (cudaDeviceCount() > 0) {
            QVERIFY(info.device.isCuda());
            QVERIFY(info.totalMemory > 0);
            QVERIFY(QString::fromStdString(info.reason).contains("CUDA device 0"));
        } else {
            QVERIFY(info.device.isHost());
            const QString why = QString::fromStdString(info.reason);
            QVERIFY2(why.contains("CUDA") || why.contains("built without"), qPrintable(why));
        }
    }
};

QTEST_APPLESS_MAIN(TestRuntimeAuto)
#include "tst_runtimeauto.moc"
