// The built-in colour maps: the set, their ends against the published anchor colours,
// direction, reversal, and the shape of the LUT arrays.
#include <QtTest/QtTest>

#include <cmath>
#include <set>

#include "strata/core/error.h"
#include "strata/render/colormaps.h"

using namespace strata;

namespace {

Rgba8 hex(const char* h) {
    auto byte = [&](int i) {
        return static_cast<std::uint8_t>(std::stoi(std::string(h + i, 2), nullptr, 16));
    };
    return {byte(0), byte(2), byte(4), 255};
}

// CIE L* of an sRGB colour, computed here from the sRGB definition.
double lightness(const Rgba8& c) {
    auto lin = [](double v) {
        v /= 255;
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    double y = 0.2126729 * lin(c.r) + 0.7151522 * lin(c.g) + 0.0721750 * lin(c.b);
    return y > 0.008856 ? 116 * std::cbrt(y) - 16 : 903.3 * y;
}

} // namespace

class TestColormaps : public QObject {
    Q_OBJECT
private slots:
    void names() {
        // The perceptual maps first, then the diverging ones, cmocean's, Crameri's and
        // ColorBrewer's: each name once.
        const auto& n = colormapNames();
        const std::vector<std::string> first = {"viridis", "magma", "plasma", "inferno",
                                                "cividis", "turbo", "gray",   "RdBu"};
        QCOMPARE(n.size(), std::size_t(37));
        for (std::size_t i = 0; i < first.size(); ++i)
            QCOMPARE(QString::fromStdString(n[i]), QString::fromStdString(first[i]));
        QCOMPARE(std::set<std::string>(n.begin(), n.end()).size(), n.size());
        for (const char* name : {"turbo", "cmo.thermal", "cmo.balance", "batlow", "vik", "BrBG", "Blues"})
            QVERIFY2(hasColormap(name), name);
        QVERIFY(!hasColormap("jet"));
        QVERIFY(!hasColormap("cmo")); // the table "cmo.thermal" is not cut at its dot
    }

    void ends_data() {
        QTest::addColumn<QString>("map");
        QTest::addColumn<QString>("low");
        QTest::addColumn<QString>("high");
        // The published end colours of each map.
        QTest::newRow("viridis") << "viridis"
                                 << "440154"
                                 << "fde725";
        QTest::newRow("magma") << "magma"
                               << "000004"
                               << "fcfdbf";
        QTest::newRow("plasma") << "plasma"
                                << "0d0887"
                                << "f0f921";
        // The new families: ColorBrewer's class ends, cmocean's and Crameri's table ends (the
        // generator keeps every anchor's end exact).
        QTest::newRow("Blues") << "Blues"
                               << "f7fbff"
                               << "08306b";
        QTest::newRow("BrBG") << "BrBG"
                              << "543005"
                              << "003c30";
        QTest::newRow("cmo.thermal") << "cmo.thermal"
                                     << "042333"
                                     << "e8fa5b";
        QTest::newRow("batlow") << "batlow"
                                << "011959"
                                << "faccfa";
        QTest::newRow("inferno") << "inferno"
                                 << "000004"
                                 << "fcffa4";
        QTest::newRow("cividis") << "cividis"
                                 << "00204d"
                                 << "ffea46";
        QTest::newRow("turbo") << "turbo"
                               << "30123b"
                               << "7a0403";
        QTest::newRow("gray") << "gray"
                              << "000000"
                              << "ffffff";
        QTest::newRow("RdBu") << "RdBu"
                              << "67001f"
                              << "053061";
    }
    void ends() {
        QFETCH(QString, map);
        QFETCH(QString, low);
        QFETCH(QString, high);
        auto t = colormapTable(map.toStdString());
        QCOMPARE(t.size(), std::size_t(256));
        QVERIFY(t.front() == hex(low.toLatin1().constData()));
        QVERIFY(t.back() == hex(high.toLatin1().constData()));
        for (const Rgba8& c : t) QCOMPARE(int(c.a), 255);
        auto r = colormapTable(map.toStdString(), true);
        for (std::size_t i = 0; i < t.size(); ++i) QVERIFY(r[i] == t[t.size() - 1 - i]);
    }

    // The perceptual maps rise in lightness from end to end; gray is exactly linear.
    void perceptualMapsRiseInLightness_data() {
        QTest::addColumn<QString>("map");
        for (const char* m : {"viridis", "magma", "plasma", "inferno", "cividis"}) QTest::newRow(m) << m;
    }
    void perceptualMapsRiseInLightness() {
        QFETCH(QString, map);
        auto t = colormapTable(map.toStdString());
        for (std::size_t i = 8; i < t.size(); i += 8)
            QVERIFY2(lightness(t[i]) > lightness(t[i - 8]), qPrintable(QString::number(i)));
    }
    // The sequential maps of cmocean, Crameri and ColorBrewer change lightness one way only;
    // the diverging ones are lightest in the middle (berlin: darkest).
    void sequentialMapsAreMonotonic_data() {
        QTest::addColumn<QString>("map");
        QTest::addColumn<bool>("rising");
        for (const char* m : {"cmo.thermal", "cmo.haline", "cmo.ice", "batlow", "lajolla", "oslo", "davos"})
            QTest::newRow(m) << m << true;
        for (const char* m : {"cmo.deep", "cmo.dense", "cmo.amp", "cmo.tempo", "Blues", "Greens", "Reds",
                              "Greys", "YlOrRd", "YlGnBu", "PuBu"})
            QTest::newRow(m) << m << false;
    }
    void sequentialMapsAreMonotonic() {
        QFETCH(QString, map);
        QFETCH(bool, rising);
        auto t = colormapTable(map.toStdString());
        for (std::size_t i = 8; i < t.size(); i += 8)
            QVERIFY2((lightness(t[i]) > lightness(t[i - 8])) == rising, qPrintable(QString::number(i)));
    }
    void divergingMapsTurnInTheMiddle_data() {
        QTest::addColumn<QString>("map");
        for (const char* m : {"RdYlBu", "BrBG", "PuOr", "PiYG", "Spectral", "cmo.balance", "cmo.curl", "vik",
                              "roma", "cork", "berlin"})
            QTest::newRow(m) << m;
    }
    void divergingMapsTurnInTheMiddle() {
        QFETCH(QString, map);
        auto t = colormapTable(map.toStdString());
        const double mid = lightness(t[128]), sign = map == "berlin" ? -1 : 1;
        for (std::size_t i : {0, 32, 96, 160, 224, 255})
            QVERIFY2(sign * (mid - lightness(t[i])) > 0, qPrintable(QString::number(i)));
    }

    void grayIsLinear() {
        auto t = colormapTable("gray");
        for (int i = 0; i < 256; ++i)
            QVERIFY(t[i] == (Rgba8{std::uint8_t(i), std::uint8_t(i), std::uint8_t(i), 255}));
    }
    // RdBu diverges: red below, blue above, lightest in the middle.
    void rdbuDiverges() {
        auto t = colormapTable("RdBu");
        QVERIFY(t[20].r > t[20].b);
        QVERIFY(t[235].b > t[235].r);
        double mid = std::max(lightness(t[127]), lightness(t[128]));
        QVERIFY(mid > 95);
        QVERIFY(lightness(t[64]) < mid && lightness(t[192]) < mid);
    }

    void unknownMapThrows() {
        try {
            colormapTable("jet");
            QFAIL("no exception");
        } catch (const ValueError& e) {
            QVERIFY(QString(e.what()).contains("jet"));
            QVERIFY(QString(e.what()).contains("viridis"));
        }
    }

    void lutArray() {
        auto t = colormapTable("magma");
        DataArray lut = colormapLut(t, Device::host(), Stream::host());
        QCOMPARE(lut.dtype(), DType::UInt8);
        QCOMPARE(lut.shape(), (Shape{256, 4}));
        auto v = lut.values<int>();
        QCOMPARE(v[4 * 100 + 0], int(t[100].r));
        QCOMPARE(v[4 * 100 + 1], int(t[100].g));
        QCOMPARE(v[4 * 100 + 2], int(t[100].b));
        QCOMPARE(v[4 * 100 + 3], 255);
    }
};

QTEST_APPLESS_MAIN(TestColormaps)
#include "tst_colormaps.moc"
