// How coordinate values read (value_format.h): decimals from the axis's spacing, the same for
// every value of an axis, hemispheres for latitude and longitude, and dates to the time axis's
// resolution. Axes are built from the values of the files in tests/data (as ncdump prints
// them); dates go through the CF decoding of cftime.h.
#include <QtTest>

#include "strata/core/coordinate.h"
#include "strata/core/format.h"
#include "strata/core/value_format.h"

using namespace strata;

namespace {

// A 1-D index coordinate as a file gives it, its format decided as a dataset's would be.
Coordinate axis(const std::string& name, std::vector<double> values, const std::string& units,
                const std::string& calendar = {}) {
    Coordinate c;
    c.name = name;
    c.dims = {name};
    c.shape = {static_cast<std::int64_t>(values.size())};
    c.values = std::move(values);
    c.attrs.set({"units", DType::Char, units});
    if (!calendar.empty()) {
        TimeAxis t;
        t.units = parseTimeUnits(units);
        t.calendar = parseCalendar(calendar);
        for (double v : c.values) t.dates.push_back(decodeTime(v, t.units, t.calendar));
        c.time = t;
    }
    Coordinates cs;
    cs.set(c);
    return *cs.find(name);
}

QStringList labels(const Coordinate& c) {
    QStringList out;
    for (std::size_t i = 0; i < c.values.size(); ++i) out << QString::fromStdString(c.label(std::int64_t(i)));
    return out;
}

} // namespace

class TestValueFormat : public QObject {
    Q_OBJECT
private slots:
    // tas_rectilinear_grid_2D.nc's Gaussian latitudes (float, 1.865° apart): two decimals.
    void gaussianLatitudes() {
        const Coordinate lat = axis("lat",
                                    {-4.6631498336792, -2.79788970947266, -0.932630002498627,
                                     0.932629883289337, 2.79788994789124, 88.5721664428711},
                                    "degrees_north");
        QCOMPARE(labels(lat), QStringList({"4.66°S", "2.80°S", "0.93°S", "0.93°N", "2.80°N", "88.57°N"}));
    }
    // Its longitudes, 1.875° apart from 0: 0.00° reads as wide as its neighbours.
    void longitudes() {
        const Coordinate lon = axis("lon", {0, 1.875, 3.75, 5.625, 358.125}, "degrees_east");
        QCOMPARE(labels(lon), QStringList({"0.00°", "1.88°E", "3.75°E", "5.63°E", "358.13°E"}));
        const Coordinate west = axis("lon", {-180, -177.5, -175}, "degrees_east");
        QCOMPARE(labels(west), QStringList({"180.0°W", "177.5°W", "175.0°W"}));
    }
    // Whole-number levels stay whole, with their units where the label carries them.
    void levelsAndOtherNumbers() {
        const Coordinate lev = axis("lev", {1000, 850, 500}, "hPa");
        QCOMPARE(labels(lev), QStringList({"1000", "850", "500"}));
        QCOMPARE(QString::fromStdString(lev.labelWithUnits(1)), QString("850 hPa"));
        const Coordinate x = axis("x", {-1.5, -0.5, 0.5, 1.5}, "km");
        QCOMPARE(QString::fromStdString(x.labelWithUnits(1)), QString("-0.5 km"));
        const Coordinate q = axis("q", {0, 0.25, 0.5}, "1");
        QCOMPARE(labels(q), QStringList({"0.00", "0.25", "0.50"}));
    }
    // A single value has no spacing: six significant digits, three decimals for an angle.
    void singleValues() {
        QCOMPARE(QString::fromStdString(axis("z", {2.0 / 3.0}, "m").labelWithUnits(0)),
                 QString("0.666667 m"));
        QCOMPARE(QString::fromStdString(axis("lat", {-84.7532330}, "degrees_north").label(0)),
                 QString("84.753°S"));
    }
    // The sample's monthly axis ("days since 1850-01-01", values at noon and at midnight): one
    // style for every month, never "2005-01-16T12:00:00" beside "2005-02-15".
    void monthlyDatesKeepOneStyle() {
        const Coordinate time = axis("time", {56628.5, 56658, 56687.5, 56718, 56748.5, 56779},
                                     "days since 1850-01-01 00:00:00", "proleptic_gregorian");
        QCOMPARE(labels(time), QStringList({"2005-01-16", "2005-02-15", "2005-03-16", "2005-04-16",
                                            "2005-05-16", "2005-06-16"}));
        QCOMPARE(time.valueFormat().dates, DateResolution::Days);
    }
    // test_stageiv_xyt.nc's hourly axis: hours show.
    void hourlyDatesShowHours() {
        const Coordinate time =
            axis("time", {1, 2, 3}, "Hour since 2001-12-31T23:00:00Z", "proleptic_gregorian");
        QCOMPARE(labels(time), QStringList({"2002-01-01 00:00", "2002-01-01 01:00", "2002-01-01 02:00"}));
    }
    // An uneven axis: daily, but two values on one day; the day alone would read twice.
    void unevenDatesStayDistinct() {
        const Coordinate time = axis("time", {0, 1, 1.25, 2}, "days since 2000-01-01", "standard");
        QCOMPARE(labels(time), QStringList({"2000-01-01 00:00", "2000-01-02 00:00", "2000-01-02 06:00",
                                            "2000-01-03 00:00"}));
    }
    // One date: as much of it as it holds.
    void singleDates() {
        QCOMPARE(axis("time", {0.5}, "days since 2005-01-16", "standard").label(0),
                 std::string("2005-01-16 12:00"));
        QCOMPARE(axis("time", {0}, "days since 2005-01-16", "standard").label(0), std::string("2005-01-16"));
    }
    // A slice keeps its axis's format: the equator's neighbour, alone, still reads "0.93°N".
    void aSliceReadsAsItsAxis() {
        const Coordinate lat =
            axis("lat", {-0.932630002498627, 0.932629883289337, 2.79788994789124}, "degrees_north");
        Coordinate one = lat;
        one.dims.clear();
        one.shape.clear();
        one.values = {lat.values[1]};
        QCOMPARE(one.label(0), std::string("0.93°N"));
    }

    // Unpacked values read to their step (the scale_factor), whatever the double's digits.
    void packedValuesToTheirStep() {
        // ERA-Interim's z and u, as shorts times scale_factor plus add_offset (the probe showed
        // "121750.37456509797" and "16.749313312580114").
        QCOMPARE(QString::fromStdString(formatPacked(121750.37456509797, 0.3745650979742)),
                 QString("121750.4"));
        QCOMPARE(QString::fromStdString(formatPacked(16.749313312580114, 0.000503)), QString("16.7493"));
        QCOMPARE(QString::fromStdString(formatPacked(270.5, 1.0)), QString("270")); // %.0f rounds to even
        QCOMPARE(QString::fromStdString(formatPacked(271.0, 1.0)), QString("271"));
        QCOMPARE(QString::fromStdString(formatPacked(1200.0, 100.0)), QString("1200"));
        QCOMPARE(QString::fromStdString(formatPacked(0.125, 0.01)), QString("0.12"));
        QCOMPARE(QString::fromStdString(formatPacked(-0.0004, 0.01)), QString("0.00")); // no "-0.00"
        QCOMPARE(QString::fromStdString(formatPacked(-3.25, 0.05)), QString("-3.25"));
        QCOMPARE(QString::fromStdString(formatPacked(1.5e-20, 1e-20)),
                 QString::fromStdString(std::string("0.") + std::string(12, '0'))); // at most 12 decimals
        // Every step of a packed axis reads differently at its decimals.
        const double scale = 0.0123;
        QStringList seen;
        for (int k = -50; k <= 50; ++k) seen << QString::fromStdString(formatPacked(k * scale + 7.0, scale));
        seen.removeDuplicates();
        QCOMPARE(seen.size(), 101);
        // No step (0, NaN): the shortest form; NaN stays nan.
        QCOMPARE(QString::fromStdString(formatPacked(0.1, 0.0)), QString("0.1"));
        QCOMPARE(QString::fromStdString(formatPacked(NAN, 0.5)), QString("nan"));
    }

    // A float32 datum widened to double reads as the float; a double as itself.
    void narrowestForm() {
        QCOMPARE(QString::fromStdString(formatNarrowest(double(5886.7f))), QString("5886.7"));
        QCOMPARE(QString::fromStdString(formatNarrowest(0.1)), QString("0.1"));
        QCOMPARE(QString::fromStdString(formatNarrowest(double(0.1f))), QString("0.1"));
        QCOMPARE(QString::fromStdString(formatNarrowest(1.0 / 3)), QString("0.3333333333333333"));
        QCOMPARE(QString::fromStdString(formatNarrowest(NAN)), QString("nan"));
    }
};

QTEST_APPLESS_MAIN(TestValueFormat)
#include "tst_valueformat.moc"
