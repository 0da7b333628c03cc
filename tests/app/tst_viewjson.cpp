// The view as JSON (View ▸ Save/Load, the last view of each file): the whole ViewSpec, the
// colouring with its NaN colour and the zoom window included, reads back equal; a view saved
// before those keys existed still loads; malformed colours and windows are refused by name.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "strata/core/error.h"
#include "view_json.h"

using namespace strata;
using namespace strata::app;

namespace {

ViewSpec zoomedView() {
    ViewSpec v;
    v.file = "/data/hgt.nc";
    v.variable = "HGT";
    v.xDim = "lon";
    v.yDim = "lat";
    v.indices = {{"level", 1}, {"time", 7}}; // by dim: a JSON object keeps its keys sorted
    v.reductions = {{"member", ReduceOp::Std}, {"run", ReduceOp::Mean}};
    v.areaWeighted = true;
    v.colouring.colormap = "RdBu";
    v.colouring.reversed = true;
    v.colouring.range = {RangeMode::Fixed, -3.25, 4.5};
    v.colouring.nanColour = {12, 34, 56, 78};
    v.colouring.overColour = Rgba8{200, 10, 20, 255};
    v.window = ViewWindow{10.5, 187.125, -33.3, 61.0 / 3}; // in the map's metres
    v.projection = "Robinson";
    v.units = "degC";
    v.derived = {"d = tas - b.tas", "e = d * c.w"};
    v.with = {{"b", {"/data/run2.nc"}}, {"c", {"/data/w_1.nc", "/data/w_2.nc"}}};
    return v;
}

QString refusal(const QByteArray& text) {
    try {
        (void)viewFromJsonText(text);
    } catch (const ValueError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestViewJson : public QObject {
    Q_OBJECT
private slots:
    void roundTripsTheWholeView() {
        const ViewSpec v = zoomedView();
        const ViewSpec back = viewFromJsonText(toJsonText(v));
        QVERIFY(back.colouring == v.colouring);
        QVERIFY(back.window == v.window);
        QVERIFY(back == v);
        // Unzoomed: no window written, none read.
        ViewSpec whole = v;
        whole.window.reset();
        QVERIFY(!toJson(whole).contains("window"));
        QVERIFY(viewFromJsonText(toJsonText(whole)) == whole);
        // Not on a map: no projection written, none read.
        whole.projection.clear();
        QVERIFY(!toJson(whole).contains("projection"));
        QVERIFY(viewFromJsonText(toJsonText(whole)) == whole);
        // In the variable's own units: none written, none read.
        whole.units.clear();
        QVERIFY(!toJson(whole).contains("units"));
        QVERIFY(viewFromJsonText(toJsonText(whole)) == whole);
    }

    void writesTheColouringAndWindowAsFields() {
        const QJsonObject o = toJson(zoomedView());
        QCOMPARE(o.value("colormap").toString(), QString("RdBu"));
        QCOMPARE(o.value("nanColour").toArray(), (QJsonArray{12, 34, 56, 78}));
        QCOMPARE(o.value("overColour").toArray(), (QJsonArray{200, 10, 20, 255}));
        QVERIFY(!o.contains("underColour")); // unset: the map's end
        const QJsonObject w = o.value("window").toObject();
        QCOMPARE(w.value("x0").toDouble(), 10.5);
        QCOMPARE(w.value("x1").toDouble(), 187.125);
        QCOMPARE(w.value("y0").toDouble(), -33.3);
        QCOMPARE(w.value("y1").toDouble(), 61.0 / 3);
        QCOMPARE(o.value("projection").toString(), QString("Robinson"));
        QCOMPARE(o.value("units").toString(), QString("degC"));
        QCOMPARE(o.value("derived").toArray(), (QJsonArray{"d = tas - b.tas", "e = d * c.w"}));
        const QJsonObject with = o.value("with").toObject();
        QCOMPARE(with.value("b").toArray(), (QJsonArray{"/data/run2.nc"}));
        QCOMPARE(with.value("c").toArray(), (QJsonArray{"/data/w_1.nc", "/data/w_2.nc"}));
        ViewSpec plain = zoomedView();
        plain.with.clear();
        QVERIFY(!toJson(plain).contains("with")); // none open: none written
    }

    void readsAViewSavedBeforeColouringAndWindow() {
        // As an earlier Strata wrote it: no "nanColour", no "window".
        const QByteArray old = R"({"file": "a.nc", "variable": "tas", "x": "lon", "y": "lat",
            "indices": {"time": 2}, "reductions": [], "colormap": "magma", "reversed": true,
            "range": {"mode": "fixed", "min": 250, "max": 300}})";
        const ViewSpec v = viewFromJsonText(old);
        QCOMPARE(v.colouring.colormap, std::string("magma"));
        QVERIFY(v.colouring.reversed);
        QVERIFY(v.colouring.range == (ColourRange{RangeMode::Fixed, 250, 300}));
        QVERIFY(v.colouring.nanColour == Colouring().nanColour);
        QVERIFY(!v.window);
        QVERIFY(v.projection.empty()); // no map
        QCOMPARE(v.indexOf("time"), 2);
        // Only a variable and X: every colour field its default.
        const ViewSpec bare = viewFromJsonText(R"({"variable": "tas", "x": "lon"})");
        QVERIFY(bare.colouring == Colouring());
        QVERIFY(!bare.window);
    }

    void refusesMalformedColoursAndWindows_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("reason");
        const QByteArray head = R"({"variable": "tas", "x": "lon", )";
        QTest::newRow("colour of three") << head + R"("nanColour": [1, 2, 3]})"
                                         << "nanColour";
        QTest::newRow("channel over 255") << head + R"("nanColour": [1, 2, 3, 256]})"
                                          << "nanColour";
        QTest::newRow("fractional channel") << head + R"("nanColour": [1, 2, 3.5, 4]})"
                                            << "nanColour";
        QTest::newRow("colour as text") << head + R"("nanColour": "#ff00ff"})"
                                        << "nanColour";
        QTest::newRow("window not an object") << head + R"("window": [0, 1, 0, 1]})"
                                              << "window";
        QTest::newRow("window without y1") << head + R"("window": {"x0": 0, "x1": 1, "y0": 0}})"
                                           << "y1";
        QTest::newRow("window inside out") << head + R"("window": {"x0": 5, "x1": 1, "y0": 0, "y1": 1}})"
                                           << "x0 < x1";
        QTest::newRow("projection not text") << head + R"("projection": 3})"
                                             << "\"projection\" must be text";
        QTest::newRow("with not an object") << head + R"("with": ["b.nc"]})"
                                            << "'with' must map aliases";
        QTest::newRow("with as the view's own alias") << head + R"("with": {"a": ["x.nc"]}})"
                                                      << "'a' is not an alias";
        QTest::newRow("with alias not a name") << head + R"("with": {"b c": ["x.nc"]}})"
                                               << "'b c' is not an alias";
        QTest::newRow("with no paths") << head + R"("with": {"b": []}})"
                                       << "'b' must be a list of paths";
        QTest::newRow("with a path not text") << head + R"("with": {"b": [3]}})"
                                              << "'b' must be a list of paths";
    }
    void refusesMalformedColoursAndWindows() {
        QFETCH(QByteArray, text);
        QFETCH(QString, reason);
        const QString why = refusal(text);
        QVERIFY2(why.contains(reason), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestViewJson)
#include "tst_viewjson.moc"
