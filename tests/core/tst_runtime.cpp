// Runtime: the backend choice is explained; STRATA_CPU forces the CPU; a HostSerialScope keeps
// the CPU backend's work on its own thread.
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QtTest>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>

#include "../../core/src/cpu/thread_pool.h"
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

    // The threads the pool runs 64 chunks of 2 ms on: spread without a scope, the calling one
    // alone inside one (nested too), and spread again once it ends.
    void aSerialScopeKeepsTheWorkOnItsThread() {
        if (detail::cpu::poolThreads() < 2) QSKIP("one host thread: the pool has nothing to spread over");
        const auto threadsOf = [] {
            std::mutex m;
            std::set<std::thread::id> ids;
            detail::cpu::forEachChunk(64, [&](std::int64_t) {
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                std::lock_guard lock(m);
                ids.insert(std::this_thread::get_id());
            });
            return ids;
        };
        QVERIFY(threadsOf().size() >= 2);
        {
            const HostSerialScope alone;
            const std::set<std::thread::id> ids = threadsOf();
            QCOMPARE(ids, std::set<std::thread::id>{std::this_thread::get_id()});
            { const HostSerialScope nested; }
            QCOMPARE(threadsOf().size(), std::size_t(1)); // the outer scope still holds
        }
        QVERIFY(threadsOf().size() >= 2);
    }
};

QTEST_APPLESS_MAIN(TestRuntime)
#include "tst_runtime.moc"
