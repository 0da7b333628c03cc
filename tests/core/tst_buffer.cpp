// Buffer: ownership, alignment, poisoning, and the counted copies across devices.
#include "gpu_skip.h"
#include <QtTest>

#include <cstring>
#include <type_traits>
#include <vector>

#include "host_pool.h"
#include "poison.h"
#include "strata/core/buffer.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"

using namespace strata;

static_assert(!std::is_copy_constructible_v<Buffer>, "Buffer must not be copyable");
static_assert(!std::is_copy_assignable_v<Buffer>, "Buffer must not be copy-assignable");
static_assert(std::is_nothrow_move_constructible_v<Buffer>, "Buffer moves must not throw");

// The free list is off under AddressSanitizer (which must see every block freed).
#if defined(__SANITIZE_ADDRESS__)
#define SKIP_WITHOUT_POOL() QSKIP("the host free list is off under AddressSanitizer")
#else
#define SKIP_WITHOUT_POOL()
#endif

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
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
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

    // The free list of large host blocks (host_pool.h).
    void releasedLargeBlocksAreReusedBySize() {
        SKIP_WITHOUT_POOL();
        detail::trimHostPool();
        const std::size_t frame = 1440 * 721 * 4; // a float frame of the benchmark's grid
        void* first = nullptr;
        {
            Buffer a(frame, Device::host(), Stream::host());
            first = a.data();
            std::memset(a.data(), 1, a.size());
        }
        QCOMPARE(detail::hostPoolBlocks(), std::size_t(1));
        QVERIFY(detail::hostPoolBytes() >= frame);
        {
            Buffer other(frame * 2, Device::host(), Stream::host()); // another size: not that block
            QVERIFY(other.data() != first);
            QCOMPARE(detail::hostPoolBlocks(), std::size_t(1));
        }
        Buffer again(frame, Device::host(), Stream::host());
        QCOMPARE(again.data(), first);
        QCOMPARE(reinterpret_cast<std::uintptr_t>(again.data()) % 64, std::uintptr_t(0));
        QCOMPARE(detail::hostPoolBlocks(), std::size_t(1)); // the 2x block; the frame's is taken
        std::memset(again.data(), 2, again.size());
        detail::trimHostPool();
        QCOMPARE(detail::hostPoolBlocks(), std::size_t(0));
        QCOMPARE(detail::hostPoolBytes(), std::size_t(0));
    }

    void smallAndPinnedBlocksAreNotKept() {
        SKIP_WITHOUT_POOL();
        detail::trimHostPool();
        { Buffer small(4096, Device::host(), Stream::host()); }
        QCOMPARE(detail::hostPoolBlocks(), std::size_t(0));
        if (cudaDeviceCount() > 0) {
            { Buffer pinned(std::size_t(4) << 20, Device::host(), Stream::host(), HostMemory::Pinned); }
            QCOMPARE(detail::hostPoolBlocks(), std::size_t(0));
        }
    }

    void poolStaysWithinItsLimits() {
        SKIP_WITHOUT_POOL();
        const detail::HostPoolLimits before = detail::hostPoolLimits();
        detail::HostPoolLimits limits;
        limits.minBytes = std::size_t(1) << 20;
        limits.maxBytes = std::size_t(8) << 20;
        limits.maxBlocks = 3;
        detail::setHostPoolLimits(limits);
        detail::trimHostPool();
        {
            std::vector<Buffer> many;
            for (int i = 0; i < 6; ++i)
                many.emplace_back(std::size_t(2) << 20, Device::host(), Stream::host());
        } // six 2 MiB blocks released: three kept (maxBlocks), 6 MiB
        QCOMPARE(detail::hostPoolBlocks(), std::size_t(3));
        QCOMPARE(detail::hostPoolBytes(), std::size_t(6) << 20);
        { Buffer big(std::size_t(16) << 20, Device::host(), Stream::host()); } // above maxBytes: freed
        QCOMPARE(detail::hostPoolBlocks(), std::size_t(3));
        {
            Buffer a(std::size_t(3) << 20, Device::host(), Stream::host());
            Buffer b(std::size_t(3) << 20, Device::host(), Stream::host());
        } // 12 MiB would be kept: the oldest blocks go until 8 MiB or less remain
        QVERIFY(detail::hostPoolBytes() <= limits.maxBytes);
        QCOMPARE(detail::hostPoolBytes(), std::size_t(8) << 20); // 3 + 3 + 2 MiB
        detail::setHostPoolLimits(before);
        detail::trimHostPool();
    }

    void reusedBlocksArePoisonedToo() {
        SKIP_WITHOUT_POOL();
        detail::trimHostPool();
        const std::size_t bytes = std::size_t(2) << 20;
        void* first = nullptr;
        {
            Buffer a(bytes, Device::host(), Stream::host());
            std::memset(a.data(), 0, bytes);
            first = a.data();
        }
        detail::setPoisonPattern(0x5A);
        Buffer b(bytes, Device::host(), Stream::host());
        detail::setPoisonPattern(-1);
        QCOMPARE(b.data(), first);
        const auto* p = static_cast<const unsigned char*>(b.data());
        for (std::size_t i = 0; i < bytes; i += 4093) QCOMPARE(int(p[i]), 0x5A);
        QCOMPARE(int(p[bytes - 1]), 0x5A);
    }

    void hugeBlocksAreAlignedToHugePages() {
        detail::trimHostPool();
        Buffer big(std::size_t(24) << 20, Device::host(), Stream::host());
        QCOMPARE(reinterpret_cast<std::uintptr_t>(big.data()) % (std::uintptr_t(2) << 20), std::uintptr_t(0));
        std::memset(big.data(), 3, big.size());
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
