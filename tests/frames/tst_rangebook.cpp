// RangeBook: a variable's extremes are kept per file and variable; the frame table answers for
// its own view only (variable, X and Y; no reductions); another file clears the book, and a
// table made for the file closed meanwhile is refused. The table's values are written by hand.
#include <QtTest>

#include <cmath>

#include "range_book.h"

using namespace strata;
using namespace strata::app;

namespace {

FrameSpec mapOf(const std::string& file, std::int64_t time) {
    FrameSpec s;
    s.file = file;
    s.variable = "T";
    s.xDim = "lon";
    s.yDim = "lat";
    s.indices = {{"time", time}};
    return s;
}

// T(time = 3, lat = 2, lon = 2): frame 0 holds 1..4, frame 1 holds -5..0.5, frame 2 holds 7 and NaN.
std::shared_ptr<const FrameRanges> table() {
    const std::vector<double> v{1, 2, 3, 4, -5, 0.5, 0, -1, 7, NAN, 7, NAN};
    const DataArray a = DataArray::fromHost("T", {"time", "lat", "lon"}, {3, 2, 2}, v);
    return std::make_shared<const FrameRanges>(FrameRanges::compute(a, "lon", "lat", Stream::host()));
}

} // namespace

class TestRangeBook : public QObject {
    Q_OBJECT
private slots:
    void variableRangesArePerFileAndVariable() {
        RangeBook book;
        const FrameSpec a = mapOf("/data/a.nc", 0);
        QVERIFY(!book.variableRange(variableKeyOf(a)));
        book.setVariableRange(variableKeyOf(a), {-2, 9});
        QCOMPARE(*book.variableRange(variableKeyOf(a)), (MinMax{-2, 9}));
        QVERIFY(!book.variableRange({"/data/b.nc", "T"})); // the same variable of another file
        QVERIFY(!book.variableRange({"/data/a.nc", "U"}));
        book.setVariableRange(variableKeyOf(a), {-3, 8}); // made again: the new one
        QCOMPARE(*book.variableRange(variableKeyOf(a)), (MinMax{-3, 8}));
    }

    void theTableAnswersForItsViewOnly() {
        RangeBook book;
        const FrameSpec at1 = mapOf("/data/a.nc", 1);
        QVERIFY(!book.hasFrameTable(at1));
        QVERIFY(book.setFrameTable(at1, table(), book.generation()));
        QVERIFY(book.hasFrameTable(mapOf("/data/a.nc", 2))); // one table for every frame of the view
        QCOMPARE(*book.frameRange(mapOf("/data/a.nc", 0)), (MinMax{1, 4}));
        QCOMPARE(*book.frameRange(at1), (MinMax{-5, 0.5}));
        QCOMPARE(*book.frameRange(mapOf("/data/a.nc", 2)), (MinMax{7, 7}));
        FrameSpec swapped = at1; // another view of the same variable
        std::swap(swapped.xDim, swapped.yDim);
        QVERIFY(!book.hasFrameTable(swapped));
        QVERIFY(!book.frameRange(swapped));
        FrameSpec reduced = at1;
        reduced.reductions = {{"time", ReduceOp::Mean}};
        QVERIFY(!RangeBook::takesFrameTable(reduced));
        QVERIFY(!book.frameRange(reduced));
        QVERIFY(!book.frameRange(mapOf("/data/b.nc", 1))); // another file
        // A table that could not be made: known as tried, answers nothing.
        QVERIFY(book.setFrameTable(swapped, nullptr, book.generation()));
        QVERIFY(book.hasFrameTable(swapped));
        QVERIFY(!book.frameRange(swapped));
        QVERIFY(!book.hasFrameTable(at1)); // the last view's table went
    }

    // Kept in the variable's units, given in those a view shows: K's 250–300 is -23.15–26.85 degC.
    void rangesAreGivenInTheUnitsShown() {
        RangeBook book;
        FrameSpec a = mapOf("/data/a.nc", 1);
        book.setVariableRange(variableKeyOf(a), {250, 300}, "K");
        QVERIFY(book.setFrameTable(a, table(), book.generation(), "K"));
        a.units = "degC";
        const MinMax v = *book.variableRange(variableKeyOf(a), a.units);
        QVERIFY(std::abs(v.first + 23.15) < 1e-9 && std::abs(v.second - 26.85) < 1e-9);
        const MinMax f = *book.frameRange(a);
        QVERIFY(std::abs(f.first + 278.15) < 1e-9 && std::abs(f.second + 272.65) < 1e-9);
        QVERIFY(!book.variableRange(variableKeyOf(a), "m")); // no temperature: not known
        a.units = "K";
        QCOMPARE(*book.frameRange(a), (MinMax{-5, 0.5}));
    }

    // Another file: every range goes, and a table made meanwhile for the last one is not kept.
    void anotherFileInvalidates() {
        RangeBook book;
        const FrameSpec a = mapOf("/data/a.nc", 0);
        book.setVariableRange(variableKeyOf(a), {-2, 9});
        QVERIFY(book.setFrameTable(a, table(), book.generation()));
        const std::uint64_t before = book.generation(); // a table for a.nc starts being made
        book.clear();                                   // b.nc opens
        QVERIFY(!book.variableRange(variableKeyOf(a)));
        QVERIFY(!book.hasFrameTable(a));
        QVERIFY(!book.frameRange(a));
        QVERIFY(!book.setFrameTable(a, table(), before)); // a.nc's table, made too late
        QVERIFY(!book.hasFrameTable(a));
        const FrameSpec b = mapOf("/data/b.nc", 0);
        QVERIFY(book.setFrameTable(b, table(), book.generation()));
        QCOMPARE(*book.frameRange(b), (MinMax{1, 4}));
    }
};

QTEST_APPLESS_MAIN(TestRangeBook)
#include "tst_rangebook.moc"
