// FrameCache: least recently used frames leave first, the bytes held never pass the limit, an
// entry alone over the limit is refused, a key stored again replaces its entry, and the coloured
// frame kept with a frame comes back with it.
#include <QtTest>

#include "frame_cache.h"
#include "strata/render/image_settings.h" // ColouredFrame: a plain struct, header only

using namespace strata;
using namespace strata::app;

namespace {

FrameKey keyAt(std::int64_t t) {
    FrameKey k;
    k.file = "/data/hgt.nc";
    k.variable = "HGT";
    k.xDim = "lon";
    k.yDim = "lat";
    k.indices = {{"time", t}};
    return k;
}

CachedFrame entry(std::int64_t t, std::size_t bytes) {
    CachedFrame e;
    e.key = keyAt(t);
    e.bytes = bytes;
    return e;
}

} // namespace

class TestFrameCache : public QObject {
    Q_OBJECT
private slots:
    void leastRecentlyUsedLeavesFirst() {
        FrameCache cache(300);
        QVERIFY(cache.store(entry(0, 100)));
        QVERIFY(cache.store(entry(1, 100)));
        QVERIFY(cache.store(entry(2, 100)));
        QCOMPARE(cache.bytes(), std::size_t(300));
        QVERIFY(cache.find(keyAt(0))); // 0 is now the most recently used: 1 is the oldest
        QVERIFY(cache.store(entry(3, 100)));
        QCOMPARE(cache.size(), std::size_t(3));
        QVERIFY(!cache.find(keyAt(1)));
        QVERIFY(cache.find(keyAt(0)));
        QVERIFY(cache.find(keyAt(2)));
        QVERIFY(cache.find(keyAt(3)));
        QCOMPARE(cache.bytes(), std::size_t(300));
    }

    // A large entry pushes out as many old ones as it needs; one over the limit is refused and
    // leaves the cache as it was.
    void bytesNeverPassTheLimit() {
        FrameCache cache(1000);
        for (int t = 0; t < 10; ++t) QVERIFY(cache.store(entry(t, 100)));
        QCOMPARE(cache.bytes(), std::size_t(1000));
        QVERIFY(cache.store(entry(10, 450))); // 0..4 leave (oldest first), 5..9 stay
        QCOMPARE(cache.bytes(), std::size_t(950));
        for (int t = 0; t < 5; ++t) QVERIFY(!cache.find(keyAt(t)));
        for (int t = 5; t < 11; ++t) QVERIFY(cache.find(keyAt(t)));
        QVERIFY(!cache.store(entry(11, 1001)));
        QCOMPARE(cache.bytes(), std::size_t(950));
        QCOMPARE(cache.size(), std::size_t(6));
        // Used last: 8, then 6, then 10, 9, 7, 5 (the finds above, newest last).
        QVERIFY(cache.find(keyAt(6)));
        QVERIFY(cache.find(keyAt(8)));
        cache.setLimit(250); // 5, 7, 9 and 10 leave, in that order, until 200 bytes are held
        QCOMPARE(cache.bytes(), std::size_t(200));
        QCOMPARE(cache.size(), std::size_t(2));
        QVERIFY(cache.find(keyAt(8)));
        QVERIFY(cache.find(keyAt(6)));
        QVERIFY(!cache.find(keyAt(10)));
        QVERIFY(!cache.find(keyAt(9)));
    }

    // A variable's frames go (a pyramid's zoom no longer drawn), its bytes with them; others stay.
    void aVariablesFramesAreDropped() {
        FrameCache cache(1000);
        for (int t = 0; t < 3; ++t) QVERIFY(cache.store(entry(t, 100)));
        for (int t = 0; t < 2; ++t) {
            CachedFrame other = entry(t, 50);
            other.key.variable = "/z3/tas";
            QVERIFY(cache.store(other));
        }
        QCOMPARE(cache.dropVariable("/z3/tas"), std::size_t(2));
        QCOMPARE(cache.size(), std::size_t(3));
        QCOMPARE(cache.bytes(), std::size_t(300));
        for (int t = 0; t < 3; ++t) QVERIFY(cache.find(keyAt(t)));
        QCOMPARE(cache.dropVariable("/z3/tas"), std::size_t(0));
        QCOMPARE(cache.dropVariable("HGT"), std::size_t(3));
        QCOMPARE(cache.bytes(), std::size_t(0));
    }

    // The same key again replaces the entry (its bytes counted once) with its new colours.
    void aKeyStoredAgainReplacesItsEntry() {
        FrameCache cache(1000);
        CachedFrame first = entry(0, 100);
        auto c1 = std::make_shared<ColouredFrame>();
        c1->colouring.colormap = "viridis";
        first.coloured = c1;
        QVERIFY(cache.store(first));
        QVERIFY(cache.store(entry(1, 100)));
        CachedFrame again = entry(0, 300);
        auto c2 = std::make_shared<ColouredFrame>();
        c2->colouring.colormap = "magma";
        again.coloured = c2;
        QVERIFY(cache.store(again));
        QCOMPARE(cache.size(), std::size_t(2));
        QCOMPARE(cache.bytes(), std::size_t(400));
        const auto hit = cache.find(keyAt(0));
        QVERIFY(hit);
        QCOMPARE(hit->bytes, std::size_t(300));
        QVERIFY(hit->coloured == c2);
        QCOMPARE(hit->coloured->colouring.colormap, std::string("magma"));
        cache.clear();
        QCOMPARE(cache.size(), std::size_t(0));
        QCOMPARE(cache.bytes(), std::size_t(0));
        QVERIFY(!cache.find(keyAt(1)));
    }

    // Keys differ by what decides the frame: another index is another entry.
    void keysAreTheFrames() {
        FrameCache cache(1000);
        CachedFrame e = entry(0, 10);
        e.frame = DataArray();
        QVERIFY(cache.store(e));
        FrameKey other = keyAt(0);
        other.variable = "T";
        QVERIFY(!cache.find(other));
        QVERIFY(!cache.find(keyAt(1)));
        QVERIFY(cache.find(keyAt(0)));
    }
};

QTEST_APPLESS_MAIN(TestFrameCache)
#include "tst_framecache.moc"
