// Runtime: the backend choice is explained; STRATA_CPU forces the CPU.
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
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
        // An oracle outside CUDA: the driver makes a /dev/nvidiaN node per GPU. No driver: no
        // device. Some: CUDA sees at least one and no more than there are nodes (a container
        // may show the nodes of GPUs it may not use), unless CUDA_VISIBLE_DEVICES hides them.
        int nodes = 0;
        for (const QString& n : QDir("/dev").entryList({"nvidia*"}, QDir::System | QDir::Files))
            nodes += QRegularExpression("^nvidia[0-9]+$").match(n).hasMatch() ? 1 : 0;
        const int count = cudaDeviceCount();
        if (nodes == 0 && !QFileInfo::exists("/proc/driver/nvidia")) // no driver at all
            QCOMPARE(count, 0);
        else if (cudaCompiled() && !qEnvironmentVariableIsSet("CUDA_VISIBLE_DEVICES"))
            QVERIFY2(count >= 1 && count <= nodes,
                     qPrintable(QString("%1 devices, %2 nodes").arg(count).arg(nodes)));
        QVERIFY(hostThreads() >= 1);
        QCOMPARE(deviceFreeMemory(Device::host()), SIZE_MAX);
    }
};

QTEST_APPLESS_MAIN(TestRuntime)
#include "tst_runtime.moc"
