// The CF axis classifier (cf_axis.h): a table of the spellings the CF conventions give for
// latitude, longitude, rotated-pole, projection, vertical and time coordinates (sections 4.1 to
// 4.4, 5.6 and appendix D), in any case, and of near misses that must not classify. Expected
// kinds are read off the CF document, not off the code.
#include <QtTest>

#include "strata/core/cf_axis.h"

using namespace strata;

Q_DECLARE_METATYPE(CfAxis)

namespace {

Attributes units(const char* u) {
    Attributes a;
    a.set({"units", DType::Char, std::string(u)});
    return a;
}

} // namespace

class TestCfAxis : public QObject {
    Q_OBJECT
private slots:
    void classifies_data() {
        QTest::addColumn<QString>("standardName");
        QTest::addColumn<QString>("units");
        QTest::addColumn<QString>("axis");
        QTest::addColumn<QString>("positive");
        QTest::addColumn<CfAxis>("kind");
        const auto row = [](const char* tag, const char* standardName, const char* u, const char* axis,
                            const char* positive, CfAxis kind) {
            QTest::newRow(tag) << QString(standardName) << QString(u) << QString(axis) << QString(positive)
                               << kind;
        };
        // 4.1 latitude: the units CF recommends and the ones it accepts, in any case.
        for (const char* u : {"degrees_north", "degree_north", "degree_N", "degrees_N", "degreeN", "degreesN",
                              "Degrees_North", "DEGREES_NORTH", "Degree_n", "DEGREEN"})
            row(qPrintable(QString("units %1").arg(u)), "", u, "", "", CfAxis::Latitude);
        // 4.2 longitude.
        for (const char* u : {"degrees_east", "degree_east", "degree_E", "degrees_E", "degreeE", "degreesE",
                              "Degrees_East", "DEGREES_EAST", "Degree_e", "DEGREESE"})
            row(qPrintable(QString("units %1").arg(u)), "", u, "", "", CfAxis::Longitude);
        row("standard_name latitude", "latitude", "", "", "", CfAxis::Latitude);
        row("standard_name Latitude", "Latitude", "", "", "", CfAxis::Latitude);
        row("standard_name longitude, units degrees", "longitude", "degrees", "", "", CfAxis::Longitude);
        // 5.6 a rotated pole: grid_latitude / grid_longitude in degrees, kept apart.
        row("rotated rlat", "grid_latitude", "degrees", "Y", "", CfAxis::GridLatitude);
        row("rotated rlon", "grid_longitude", "degrees", "X", "", CfAxis::GridLongitude);
        row("grid_latitude wins over units", "grid_latitude", "degrees_north", "", "", CfAxis::GridLatitude);
        // 5.6 projection coordinates.
        row("projection x", "projection_x_coordinate", "m", "X", "", CfAxis::ProjectionX);
        row("projection y", "projection_y_coordinate", "km", "Y", "", CfAxis::ProjectionY);
        // 4.4 time.
        row("days since", "", "days since 1970-01-01", "", "", CfAxis::Time);
        row("hours since, time of day", "", "hours since 2000-1-1 00:00:00", "", "", CfAxis::Time);
        row("Seconds Since", "", "Seconds Since 1990-01-01", "", "", CfAxis::Time);
        row("standard_name time", "time", "", "", "", CfAxis::Time);
        row("axis T", "", "", "T", "", CfAxis::Time);
        // 4.3 vertical: pressure units, positive, axis Z, vertical and parametric standard names.
        for (const char* u : {"hPa", "Pa", "hpa", "mbar", "millibar", "dbar", "decibar", "bar", "atm", "kPa"})
            row(qPrintable(QString("pressure %1").arg(u)), "", u, "", "", CfAxis::Vertical);
        row("positive up", "", "m", "", "up", CfAxis::Vertical);
        row("positive down", "", "m", "", "down", CfAxis::Vertical);
        row("positive Down", "", "", "", "Down", CfAxis::Vertical);
        row("axis Z", "", "1", "Z", "", CfAxis::Vertical);
        for (const char* s :
             {"air_pressure", "altitude", "height", "depth", "model_level_number",
              "height_above_mean_sea_level", "atmosphere_sigma_coordinate",
              "atmosphere_hybrid_sigma_pressure_coordinate", "atmosphere_ln_pressure_coordinate",
              "ocean_s_coordinate_g1", "ocean_sigma_z_coordinate"})
            row(qPrintable(QString("standard_name %1").arg(s)), s, "", "", "", CfAxis::Vertical);
        // axis X / Y with nothing more specific.
        row("axis X", "", "m", "X", "", CfAxis::X);
        row("axis y", "", "", "y", "", CfAxis::Y);
        row("units win over axis", "", "degrees_north", "X", "", CfAxis::Latitude);
        // Near misses: none of these is anything by CF.
        for (const char* u :
             {"degrees", "degree", "degrees_northward", "degrees_eastward", "north", "east", "degrees north",
              "degrees_north ", "m", "K", "days", "days_since_1970-01-01", "since", "Pascal_per_m"})
            row(qPrintable(QString("not: units '%1'").arg(u)), "", u, "", "", CfAxis::None);
        row("not: standard_name air_temperature", "air_temperature", "K", "", "", CfAxis::None);
        row("not: standard_name northward_wind", "northward_wind", "m s-1", "", "", CfAxis::None);
        row("not: standard_name latitude_bounds", "latitude_bounds", "", "", "", CfAxis::None);
        row("not: axis W", "", "", "W", "", CfAxis::None);
        row("not: positive sideways", "", "", "", "sideways", CfAxis::None);
        row("not: nothing", "", "", "", "", CfAxis::None);
    }
    void classifies() {
        QFETCH(QString, standardName);
        QFETCH(QString, units);
        QFETCH(QString, axis);
        QFETCH(QString, positive);
        QFETCH(CfAxis, kind);
        Attributes a;
        const auto put = [&](const char* name, const QString& value) {
            if (!value.isEmpty()) a.set({name, DType::Char, value.toStdString()});
        };
        put("standard_name", standardName);
        put("units", units);
        put("axis", axis);
        put("positive", positive);
        QCOMPARE(int(cfAxisOf(a)), int(kind));
        // The helpers say the same as the kind.
        QCOMPARE(isLatitude(a), kind == CfAxis::Latitude);
        QCOMPARE(isLongitude(a), kind == CfAxis::Longitude);
        QCOMPARE(isLatitudeLike(a), kind == CfAxis::Latitude || kind == CfAxis::GridLatitude);
        QCOMPARE(isLongitudeLike(a), kind == CfAxis::Longitude || kind == CfAxis::GridLongitude);
    }

    void unitsAlone() {
        QVERIFY(isLatitudeUnits("Degrees_North"));
        QVERIFY(isLongitudeUnits("degreesE"));
        QVERIFY(!isLatitudeUnits("degrees_east"));
        QVERIFY(!isLongitudeUnits("degrees"));
        QVERIFY(isTimeUnits("days since 1850-01-01"));
        QVERIFY(isTimeUnits("HOURS SINCE 2000-01-01"));
        QVERIFY(!isTimeUnits("days"));
        QVERIFY(!isTimeUnits("days_since_1850"));
    }

    void screenAxes() {
        for (CfAxis k : {CfAxis::Longitude, CfAxis::GridLongitude, CfAxis::ProjectionX, CfAxis::X})
            QCOMPARE(int(screenAxisOf(k)), int(ScreenAxis::X));
        for (CfAxis k : {CfAxis::Latitude, CfAxis::GridLatitude, CfAxis::ProjectionY, CfAxis::Y})
            QCOMPARE(int(screenAxisOf(k)), int(ScreenAxis::Y));
        for (CfAxis k : {CfAxis::None, CfAxis::Vertical, CfAxis::Time})
            QCOMPARE(int(screenAxisOf(k)), int(ScreenAxis::None));
    }

    // The case that five rules disagreed on: units "Degrees_North" alone.
    void capitalisedUnitsAloneAreLatitude() {
        const Attributes lat = units("Degrees_North"), lon = units("Degrees_East");
        QVERIFY(isLatitude(lat) && isLatitudeLike(lat));
        QVERIFY(isLongitude(lon) && isLongitudeLike(lon));
        QCOMPARE(int(screenAxisOf(cfAxisOf(lat))), int(ScreenAxis::Y));
        QCOMPARE(int(screenAxisOf(cfAxisOf(lon))), int(ScreenAxis::X));
    }
};

QTEST_APPLESS_MAIN(TestCfAxis)
#include "tst_cfaxis.moc"
