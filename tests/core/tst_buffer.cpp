// Buffer: ownership, alignment, poisoning, and the counted copies across devices.
#include <QtTest>

#include <cstring>
#include <type_traits>

#include "poison.h"
#include "strata/core/buffer.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"

using namespace strata;

static_assert(!std::is_copy_constructible_v<Buffer>, "Buffer must not be copyable");
static_assert(!std::is_copy_assignable_v<Buffer>, "Buffer must not be copy-assignable");
static_assert(std::is_nothrow_move_constructible_v<Buffer>, "Buffer moves must not throw");

class TestBuffer : public QObject {
    Q_OBJECT
private slots:
    void hostAllocationIsAlignedAndSized() {
        Buffer b(1000, Device::host(), Stream::host());
        QCOMPARE(b.size(), std::size_t(1000));
        QVERIFY(b.device().isHost());
        QCOMPARE(reinterpret_cast<std::uintptr_t>(b.data()) % 64, std::uintptr_t(0));
        std::memset(b.data(), 7, b.size()); // the whole range is writable
    }

    void moveTransfersOwnership() {
        Buffer a(64, Device::host(), Stream::host());
        void* p = a.data();
        Buffer b(std::move(a));
        QCOMPARE(b.data(), p);
        QCOMPARE(a.data(), nullptr);
        QCOMPARE(a.size(), std::size_t(0));
        Buffer c;
        c = std::move(b);
        QCOMPARE(c.data(), p);
        QCOMPARE(b.data(), nullptr);
    }

    void poisonFillsNewBuffers() {
        detail::setPoisonPattern(0xA5);
        Buffer b(33, Device::host(), Stream::host());
        detail::setPoisonPattern(-1);
        const auto* bytes = static_cast<const unsigned char*>(b.data());
        for (std::size_t i = 0; i < b.size(); ++i) QCOMPARE(int(bytes[i]), 0xA5);
    }

    void hostCopyIsDeepAndUncounted() {
        Buffer a(16, Device::host(), Stream::host());
        std::memset(a.data(), 3, 16);
        const TransferCounters before = transferCounters();
        Buffer b = a.copyTo(Device::host(), Stream::host());
        QVERIFY(b.data() != a.data());
        QCOMPARE(std::memcmp(a.data(), b.data(), 16), 0);
        const TransferCounters moved = transferredSince(before);
        QCOMPARE(moved.hostToDevice, std::uint64_t(0));
        QCOMPARE(moved.deviceToHost, std::uint64_t(0));
    }

    void deviceRoundTripIsCounted() {
        if (cudaDeviceCount() == 0) QSKIP("no CUDA device");
        const Device gpu = Device::cuda(0);
        Buffer a(1 << 20, Device::host(), Stream::host());
        auto* bytes = static_cast<unsigned char*>(a.data());
        for (std::size_t i = 0; i < a.size(); ++i) bytes[i] = static_cast<unsigned char>(i * 31 + 7);
        const TransferCounters before = transferCounters();
        Buffer d = a.copyTo(gpu, defaultStream(gpu));
        QVERIFY(d.device() == gpu);
        Buffer back = d.copyTo(Device::host(), defaultStream(gpu));
        QCOMPARE(std::memcmp(a.data(), back.data(), a.size()), 0);
        const TransferCounters moved = transferredSince(before);
        QCOMPARE(moved.hostToDevice, std::uint64_t(a.size()));
        QCOMPARE(moved.deviceToHost, std::uint64_t(a.size()));
    }

    void pinnedFallsBackWithoutDevice() {
        Buffer p(4096, Device::host(), Stream::host(), HostMemory::Pinned);
        QVERIFY(p.data() != nullptr);
        QCOMPARE(p.isPinned(), cudaDeviceCount() > 0);
    }

    void impossibleAllocationThrows() {
        bool threw = false;
        try {
            Buffer huge(std::size_t(1) << 62, Device::host(), Stream::host());
        } catch (const OutOfMemoryError& e) {
            threw = true;
            QVERIFY(QString(e.what()).contains("MiB"));
        }
        QVERIFY(threw);
    }
};

QTEST_APPLESS_MAIN(TestBuffer)
#include "tst_buffer.moc"
