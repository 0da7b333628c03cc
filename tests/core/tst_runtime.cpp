// Runtime: the backend choice is explained; STRATA_CPU forces the CPU.
#include <QtTest>

#include <cstdlib>

#include "strata/core/runtime.h"

using namespace strata;

class TestRuntime : public QObject {
    Q_OBJECT
private slots:
    void environmentForcesCpu() {
        qputenv("STRATA_CPU", "1");
        const ComputeInfo& info = computeInfo(); // decided once, on first use
        QVERIFY(info.device.isHost());
        QCOMPARE(QString::fromStdString(info.reason), QString("STRATA_CPU is set"));
        QVERIFY(QString::fromStdString(info.name).startsWith("CPU ("));
        QCOMPARE(&computeInfo(), &info);
    }

    void deviceCountMatchesBuild() {
        if (!cudaCompiled()) QCOMPARE(cudaDeviceCount(), 0);
        QVERIFY(cudaDeviceCount() >= 0);
        QVERIFY(hostThreads() >= 1);
        QCOMPARE(deviceFreeMemory(Device::host()), SIZE_MAX);
    }
};

QTEST_APPLESS_MAIN(TestRuntime)
#include "tst_runtime.moc"
