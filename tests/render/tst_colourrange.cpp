// Range modes: per frame, whole variable, fixed, symmetric about zero, and the fallbacks.
#include <QtTest/QtTest>

#include <cmath>

#include "strata/core/error.h"
#include "strata/render/colour_range.h"

using namespace strata;

class TestColourRange : public QObject {
    Q_OBJECT
private slots:
    void frameMode() {
        ColourRange r{RangeMode::Frame};
        QCOMPARE(resolveRange(r, MinMax{-3, 7}, MinMax{-10, 10}), (MinMax{-3, 7}));
        QVERIFY(needsFrameRange(r, true));
    }
    void variableMode() {
        ColourRange r{RangeMode::Variable};
        QCOMPARE(resolveRange(r, MinMax{-3, 7}, MinMax{-10, 12}), (MinMax{-10, 12}));
        QVERIFY(!needsFrameRange(r, true));
        // Without the variable's extremes: the frame's.
        QVERIFY(needsFrameRange(r, false));
        QCOMPARE(resolveRange(r, MinMax{-3, 7}, std::nullopt), (MinMax{-3, 7}));
    }
    void fixedMode() {
        ColourRange r{RangeMode::Fixed, 250, 310};
        QCOMPARE(resolveRange(r, std::nullopt, std::nullopt), (MinMax{250, 310}));
        QVERIFY(!needsFrameRange(r, false));
        ColourRange swapped{RangeMode::Fixed, 5, -5};
        QCOMPARE(resolveRange(swapped, std::nullopt, std::nullopt), (MinMax{-5, 5}));
    }
    void symmetricMode() {
        ColourRange r{RangeMode::Symmetric};
        QCOMPARE(resolveRange(r, MinMax{-3, 7}, std::nullopt), (MinMax{-7, 7}));
        QCOMPARE(resolveRange(r, MinMax{-3, 7}, MinMax{-12, 4}), (MinMax{-12, 12}));
        QCOMPARE(resolveRange(r, MinMax{2, 5}, std::nullopt), (MinMax{-5, 5}));
        QCOMPARE(resolveRange(r, MinMax{0, 0}, std::nullopt), (MinMax{-1, 1}));
    }
    void emptyAndMissing() {
        ColourRange f{RangeMode::Frame};
        QCOMPARE(resolveRange(f, MinMax{4, 4}, std::nullopt), (MinMax{2, 6})); // ±|v|/2
        QCOMPARE(resolveRange(f, MinMax{0, 0}, std::nullopt), (MinMax{-0.5, 0.5}));
        QCOMPARE(resolveRange(f, MinMax{NAN, NAN}, std::nullopt), (MinMax{0, 1})); // all NaN
        QCOMPARE(resolveRange(f, std::nullopt, std::nullopt), (MinMax{0, 1}));
    }
    void ofAFrame() {
        // frameColourRange: the frame's finite extremes where the mode needs them, else the
        // variable's or the fixed range.
        const DataArray f =
            DataArray::fromHost("f", {"y", "x"}, {2, 3}, std::vector<float>{4, NAN, -2, 7, 1, 0});
        QCOMPARE(frameColourRange({}, f, std::nullopt), (MinMax{-2, 7}));
        QCOMPARE(frameColourRange({RangeMode::Variable, 0, 1}, f, MinMax{-10, 20}), (MinMax{-10, 20}));
        QCOMPARE(frameColourRange({RangeMode::Variable, 0, 1}, f, std::nullopt), (MinMax{-2, 7}));
        QCOMPARE(frameColourRange({RangeMode::Symmetric, 0, 1}, f, std::nullopt), (MinMax{-7, 7}));
        QCOMPARE(frameColourRange({RangeMode::Fixed, 3, 5}, f, std::nullopt), (MinMax{3, 5}));
        QVERIFY(needsVariableRange(RangeMode::Variable) && needsVariableRange(RangeMode::Symmetric));
        QVERIFY(!needsVariableRange(RangeMode::Frame) && !needsVariableRange(RangeMode::Fixed));
    }
    void names() {
        for (RangeMode m : {RangeMode::Frame, RangeMode::Variable, RangeMode::Fixed, RangeMode::Symmetric})
            QCOMPARE(parseRangeMode(name(m)), m);
        QVERIFY_THROWS_EXCEPTION(ValueError, parseRangeMode("auto"));
    }
};

QTEST_APPLESS_MAIN(TestColourRange)
#include "tst_colourrange.moc"
