// CancelToken: copies share one state; a cancel wakes sleepers, runs callbacks once, and makes
// throwIfCancelled throw CancelledError; CancelScope makes a token the thread's, nested.
#include <QtTest>
#include <atomic>
#include <chrono>
#include <thread>

#include "strata/core/cancel.h"
#include "strata/core/error.h"

using namespace strata;
using namespace std::chrono_literals;

class TestCancel : public QObject {
    Q_OBJECT
private slots:
    void copiesShareOneState() {
        const CancelToken a;
        const CancelToken b = a; // NOLINT: a copy is the point
        const CancelToken other;
        QVERIFY(!a.cancelled());
        a.throwIfCancelled("nothing"); // does not throw
        b.cancel();
        QVERIFY(a.cancelled());
        QVERIFY(!other.cancelled());
        QVERIFY(a == b);
        QVERIFY(!(a == other));
        QVERIFY_THROWS_EXCEPTION(CancelledError, a.throwIfCancelled("loading 'v'"));
        try {
            a.throwIfCancelled("loading 'v'");
        } catch (const CancelledError& e) {
            QVERIFY2(std::string(e.what()).find("loading 'v': cancelled") != std::string::npos, e.what());
        }
        b.cancel(); // twice: nothing more
        QVERIFY(a.cancelled());
    }

    // waitFor sleeps its time when nobody cancels, and wakes at once when another thread does.
    void waitForWakesOnCancel() {
        const CancelToken token;
        auto start = std::chrono::steady_clock::now();
        QVERIFY(!token.waitFor(30ms));
        QVERIFY(std::chrono::steady_clock::now() - start >= 30ms);
        std::thread canceller([token] {
            std::this_thread::sleep_for(20ms);
            token.cancel();
        });
        start = std::chrono::steady_clock::now();
        QVERIFY(token.waitFor(60s));
        QVERIFY(std::chrono::steady_clock::now() - start < 30s);
        canceller.join();
        QVERIFY(token.waitFor(0ms)); // cancelled: no wait
    }

    // A callback runs once, on cancel; one whose subscription ended never does; one registered
    // on a cancelled token runs at once.
    void callbacksRunOnce() {
        const CancelToken token;
        int kept = 0, dropped = 0, late = 0;
        const auto keep = token.onCancel([&] { ++kept; });
        {
            const auto gone = token.onCancel([&] { ++dropped; });
        }
        QCOMPARE(kept, 0);
        token.cancel();
        token.cancel();
        QCOMPARE(kept, 1);
        QCOMPARE(dropped, 0);
        const auto after = token.onCancel([&] { ++late; });
        QCOMPARE(late, 1);
        // A callback that cancels its own token again does not dead-lock.
        const CancelToken self;
        const auto again = self.onCancel([self] { self.cancel(); });
        self.cancel();
        QVERIFY(self.cancelled());
    }

    // The thread's token: the innermost scope's, none outside; other threads do not see it.
    void scopesNest() {
        QVERIFY(CancelScope::current() == nullptr);
        QVERIFY(!CancelScope::cancelled());
        const CancelToken outer, inner;
        {
            const CancelScope a(outer);
            QVERIFY(*CancelScope::current() == outer);
            {
                const CancelScope b(inner);
                QVERIFY(*CancelScope::current() == inner);
                outer.cancel();
                QVERIFY(!CancelScope::cancelled());
                bool seenThere = true;
                std::thread([&] { seenThere = CancelScope::current() != nullptr; }).join();
                QVERIFY(!seenThere);
            }
            QVERIFY(CancelScope::cancelled());
        }
        QVERIFY(CancelScope::current() == nullptr);
    }
};

QTEST_APPLESS_MAIN(TestCancel)
#include "tst_cancel.moc"
