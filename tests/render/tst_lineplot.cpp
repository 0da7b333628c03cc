// Line plots: runs between NaN gaps, series from labelled arrays, the drawn picture with
// date ticks (baseline) whose gap leaves its columns empty, and the step marker at its x.
#include <QtTest/QtTest>

#include "image_compare.h"
#include "marker_pixels.h"
#include "strata/render/line_plot.h"

using namespace strata;
using test::markerColumn;

namespace {

// Pixels of the plot's line colour (31, 119, 180), antialiasing allowed.
bool isLine(QRgb c) {
    return std::abs(qRed(c) - 31) < 50 && std::abs(qGreen(c) - 119) < 50 && qBlue(c) > 130;
}

std::vector<int> lineColumns(const QImage& img) {
    std::vector<int> n(static_cast<std::size_t>(img.width()), 0);
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (isLine(img.pixel(x, y))) ++n[static_cast<std::size_t>(x)];
    return n;
}

// Three years of monthly values (days since 2000-01-01, mid-month), NaN from month 14 to 21
// and around a lone value at month 28.
DataArray monthly() {
    std::vector<double> t, v;
    for (int m = 0; m < 36; ++m) {
        t.push_back(15 + 30.44 * m);
        double y = 280 + 10 * std::sin(2 * M_PI * m / 12);
        if ((m >= 14 && m <= 21) || m == 27 || m == 29) y = NAN;
        v.push_back(y);
    }
    Coordinate c;
    c.name = "time";
    c.dims = {"time"};
    c.shape = {36};
    c.values = t;
    c.attrs.set({"units", DType::Char, std::string("days since 2000-01-01")});
    TimeAxis ta;
    ta.units = parseTimeUnits("days since 2000-01-01");
    c.time = ta;
    Coordinates cs;
    cs.set(c);
    Variable var = DataArray::fromHost("tas", {"time"}, {36}, v).variable();
    var.attrs().set({"long_name", DType::Char, std::string("near-surface air temperature")});
    var.attrs().set({"units", DType::Char, std::string("K")});
    return DataArray("tas", var, cs);
}

} // namespace

class TestLinePlot : public QObject {
    Q_OBJECT
private slots:
    void runsBetweenGaps() {
        LineSeries s;
        for (int i = 0; i < 10; ++i) s.x.push_back(i);
        s.y = {1, 2, 3, NAN, 5, 6, NAN, NAN, 9, 10};
        auto r = finiteRuns(s);
        QCOMPARE(r.size(), std::size_t(3));
        QCOMPARE(r[0], (std::pair<std::size_t, std::size_t>{0, 3}));
        QCOMPARE(r[1], (std::pair<std::size_t, std::size_t>{4, 6}));
        QCOMPARE(r[2], (std::pair<std::size_t, std::size_t>{8, 10}));
        s.y = {NAN, NAN};
        s.x = {0, 1};
        QVERIFY(finiteRuns(s).empty());
    }
    void seriesFromAnArray() {
        LineSeries s = lineSeries(monthly());
        QCOMPARE(s.x.size(), std::size_t(36));
        QCOMPARE(s.x[1], 15 + 30.44);
        QVERIFY(s.xTime.has_value());
        QCOMPARE(QString::fromStdString(s.yTitle), QString("near-surface air temperature [K]"));
        QCOMPARE(QString::fromStdString(s.xTitle), QString("time"));
        QVERIFY(std::isnan(s.y[14]));
        std::vector<double> v{1, 2};
        DataArray twoD = DataArray::fromHost("a", {"y", "x"}, {1, 2}, v);
        QVERIFY_THROWS_EXCEPTION(ValueError, lineSeries(twoD));
    }
    void drawnFarFromZero() {
        // A real probe: 12 monthly temperatures of 290 ± 2 K. VTK's charts once drew no line
        // for values far from zero relative to their spread.
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d) QFAIL("the line plot is drawn through X: run under xvfb-run");
        LineSeries s;
        for (int m = 0; m < 12; ++m) {
            s.x.push_back(56978.5 + 30.4 * m);
            s.y.push_back(290 + 2 * std::sin(m));
        }
        const auto columns = lineColumns(renderLinePlot(s, QSize(720, 400)));
        int drawn = 0;
        for (int x = 100; x < 620; ++x) drawn += columns[static_cast<std::size_t>(x)] > 0;
        QCOMPARE(drawn, 520);
    }
    void drawnWithDatesAndGaps() {
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d) QFAIL("the line plot is drawn through X: run under xvfb-run");
        LineSeries s = lineSeries(monthly());
        QImage img = renderLinePlot(s, QSize(720, 400));
        QCOMPARE(img.size(), QSize(720, 400));
        // Without the gaps the line crosses every column of the plot's middle; with them a
        // band of columns (months 14..21 lie at 39 %..60 % of the x range) holds none of it.
        LineSeries whole = s;
        for (std::size_t i = 0; i < whole.y.size(); ++i)
            if (std::isnan(whole.y[i])) whole.y[i] = 280 + 10 * std::sin(2 * M_PI * double(i) / 12);
        QImage full = renderLinePlot(whole, QSize(720, 400));
        auto withGap = lineColumns(img), without = lineColumns(full);
        int emptyWithGap = 0, emptyWithout = 0;
        for (int x = 360 - 40; x < 360 + 40; ++x) {
            emptyWithGap += withGap[static_cast<std::size_t>(x)] == 0;
            emptyWithout += without[static_cast<std::size_t>(x)] == 0;
        }
        QCOMPARE(emptyWithout, 0);
        QVERIFY2(emptyWithGap >= 60, qPrintable(QString::number(emptyWithGap)));
        QString why = test::compareWithBaseline(img, "lineplot_dates");
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
    void markerAtItsX() {
        // The step marker is drawn into the picture (a PNG export shows it) at its x: from x = 2
        // to x = 8 of 0..10 it moves right by 6/10 of the axis' length.
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d) QFAIL("the line plot is drawn through X: run under xvfb-run");
        LineSeries s;
        for (int i = 0; i <= 10; ++i) {
            s.x.push_back(i);
            s.y.push_back(290 + std::sin(i));
        }
        QCOMPARE(markerColumn(renderLinePlot(s, QSize(720, 400))), -1.0);
        s.marker = 2;
        const double at2 = markerColumn(renderLinePlot(s, QSize(720, 400)));
        s.marker = 8;
        const double at8 = markerColumn(renderLinePlot(s, QSize(720, 400)));
        s.marker = 0;
        const double at0 = markerColumn(renderLinePlot(s, QSize(720, 400)));
        QVERIFY2(at2 > 0 && at8 > 0, qPrintable(QString("%1, %2").arg(at2).arg(at8)));
        // x = 0 lies on the y axis, which may hide the marker there: the axis' length from 2 and 8.
        const double perUnit = (at8 - at2) / 6;
        QVERIFY2(perUnit > 40, qPrintable(QString::number(perUnit))); // most of 720 px over 10 units
        if (at0 > 0) QVERIFY(std::fabs(at0 - (at2 - 2 * perUnit)) <= 2);
        // The series' line is unchanged beside it.
        s.marker.reset();
        const auto without = lineColumns(renderLinePlot(s, QSize(720, 400)));
        s.marker = 5;
        const auto with = lineColumns(renderLinePlot(s, QSize(720, 400)));
        int differ = 0;
        for (std::size_t x = 0; x < with.size(); ++x) differ += with[x] != without[x];
        QVERIFY2(differ <= 4, qPrintable(QString::number(differ))); // only under the marker
    }
};

QTEST_GUILESS_MAIN(TestLinePlot)
#include "tst_lineplot.moc"
