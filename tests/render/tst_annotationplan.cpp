// The annotation plan as a unit: its geometry (borders, tick marks, the colour bar's parts) and
// its text (labels, anchors, sizes), each worked out here by hand from the stated layout and the
// axis mapping pixel = plot.x0 + (value - window.x0) / (window.x1 - window.x0) * plot.width().
#include <QtTest>
#include <algorithm>
#include <optional>

#include "../../render/src/annotation_plan.h"

using namespace strata;
using namespace strata::detail;

namespace {

AxisGrid plainAxis(const std::string& dim, double lo, double hi, int n, const std::string& title) {
    AxisGrid g;
    g.dim = dim;
    for (int i = 0; i <= n; ++i) g.edges.push_back(lo + (hi - lo) * i / n);
    for (int i = 0; i < n; ++i) g.centres.push_back((g.edges[i] + g.edges[i + 1]) / 2);
    g.title = title;
    return g;
}

bool hasBox(const InkGroup& g, PixelRect r) { return std::count(g.boxes.begin(), g.boxes.end(), r) == 1; }

// The label reading `s` (aligned as `h` when given: "0" is on both axes).
const TextItem* findText(const InkGroup& g, const std::string& s, std::optional<Align> h = {}) {
    for (const TextItem& t : g.texts)
        if (t.text == s && (!h || t.h == *h)) return &t;
    return nullptr;
}

} // namespace

class TestAnnotationPlan : public QObject {
    Q_OBJECT
    // A 400 × 300 window at scale 1, x over [0, 10], y over [0, 100], not keeping the aspect:
    // margins 84 left, 58 below, 40 above, 118 right give the plot {84, 58, 282, 260}
    // (198 × 202 pixels) and the colour bar {300, 58, 318, 260}.
    AxisGrid x_ = plainAxis("x", 0, 10, 10, "x [m]"), y_ = plainAxis("y", 0, 100, 20, "y [m]");

    AnnotationContent content(double scale = 1) const {
        AnnotationContent c;
        c.window = {0, 10, 0, 100};
        c.layout = computeLayout(int(400 * scale), int(300 * scale), scale, c.window, false);
        c.x = &x_;
        c.y = &y_;
        c.bar.table = {{0, 0, 0, 255}, {80, 80, 80, 255}, {160, 160, 160, 255}, {240, 240, 240, 255}};
        c.bar.range = {0, 10};
        c.title = "air temperature";
        c.barTitle = "K";
        return c;
    }

private slots:
    void layoutIsAsStated() {
        const AnnotationContent c = content();
        QCOMPARE(c.layout.plot, (PixelRect{84, 58, 282, 260}));
        QCOMPARE(c.layout.colourBar, (PixelRect{300, 58, 318, 260}));
    }

    void borderIsARingJustOutsideThePlot() {
        const AnnotationPlan p = planAnnotations(content());
        QCOMPARE(p.lineWidth, 1.0);
        QVERIFY(hasBox(p.axes, {83, 57, 283, 58}));   // below, corners included
        QVERIFY(hasBox(p.axes, {83, 260, 283, 261})); // above
        QVERIFY(hasBox(p.axes, {83, 58, 84, 260}));   // left
        QVERIFY(hasBox(p.axes, {282, 58, 283, 260})); // right
    }

    void xTicksWhereTheMappingPutsThem() {
        // 198 pixels hold 198 / 90 → 2 ticks: a step of 5 over [0, 10]: 0, 5, 10 at pixels
        // 84, 84 + 99 = 183, 282; marks 5 pixels below the border (rows 52…57).
        const AnnotationPlan p = planAnnotations(content());
        for (auto [label, px] : {std::pair{"0", 84.0}, {"5", 183.0}, {"10", 282.0}}) {
            QVERIFY2(hasBox(p.axes, {px, 52, px + 1, 57}), label);
            const TextItem* t = findText(p.axes, label, Align::Centre);
            QVERIFY2(t, label);
            QCOMPARE(t->x, px + 0.5);
            QCOMPARE(t->y, 58.0 - 5 - 3);
            QCOMPARE(t->h, Align::Centre);
            QCOMPARE(t->v, VAlign::Top);
            QCOMPARE(t->size, 12.0);
        }
        const TextItem* title = findText(p.axes, "x [m]");
        QVERIFY(title);
        QCOMPARE(title->x, (84 + 282) / 2.0);
        QCOMPARE(title->y, 58.0 - 34);
        QVERIFY(!title->upright);
    }

    void yTicksWhereTheMappingPutsThem() {
        // 202 pixels hold 202 / 45 → 4 ticks: a step of 25 over [0, 100]; value v at
        // 58 + v / 100 × 202: 0 → 58, 25 → 108.5 (109), 50 → 159, 75 → 209.5 (210), 100 → 260.
        const AnnotationPlan p = planAnnotations(content());
        for (auto [label, py] :
             {std::pair{"0", 58.0}, {"25", 109.0}, {"50", 159.0}, {"75", 210.0}, {"100", 260.0}}) {
            QVERIFY2(hasBox(p.axes, {84 - 1 - 5, py, 84 - 1, py + 1}), label);
            const TextItem* t = findText(p.axes, label, Align::Right);
            QVERIFY2(t, label);
            QCOMPARE(t->x, 84.0 - 8);
            QCOMPARE(t->y, py + 0.5);
            QCOMPARE(t->h, Align::Right);
        }
        const TextItem* title = findText(p.axes, "y [m]");
        QVERIFY(title);
        QVERIFY(title->upright);
        QCOMPARE(title->x, 84.0 - 66);
        // 2 border boxes per side, one per tick.
        QCOMPARE(p.axes.boxes.size(), std::size_t(4 + 3 + 5));
    }

    void colourBarTicksBandsAndUnits() {
        // The bands fill the bar; range [0, 10] over 202 pixels → 4 ticks, step 2.5: 5.0 at
        // 58 + 101 = 159.
        const AnnotationPlan p = planAnnotations(content());
        QCOMPARE(p.barFill.geometry.bands, (PixelRect{300, 58, 318, 260}));
        QCOMPARE(p.barFill.content.table.size(), std::size_t(4));
        QVERIFY(hasBox(p.bar, {299, 57, 319, 58}));
        QVERIFY(hasBox(p.bar, {319, 159, 324, 160}));
        const TextItem* five = findText(p.bar, "5.0");
        QVERIFY(five);
        QCOMPARE(five->x, 318.0 + 8);
        QCOMPARE(five->y, 159.5);
        QCOMPARE(five->h, Align::Left);
        const TextItem* units = findText(p.bar, "K");
        QVERIFY(units);
        QVERIFY(units->upright);
        QCOMPARE(units->x, 318.0 + 60);
        QVERIFY(p.bar.lines.empty()); // no triangles within the range
    }

    void trianglesAndMissingSwatch() {
        AnnotationContent c = content();
        c.bar.extendLow = c.bar.extendHigh = true;
        c.bar.missing = Rgba8{255, 0, 255, 255};
        const AnnotationPlan p = planAnnotations(c);
        // Triangles as tall as the bar is wide (18, under a sixth of 202): bands 76…242.
        QCOMPARE(p.barFill.geometry.bands, (PixelRect{300, 76, 318, 242}));
        // Two slanted edges each, from the base's right end to the apex and back to its left.
        QCOMPARE(p.bar.lines.size(), std::size_t(4));
        QCOMPARE(p.bar.lines[0], (Segment{318, 76, 309, 58}));
        QCOMPARE(p.bar.lines[1], (Segment{309, 58, 300, 76}));
        QCOMPARE(p.bar.lines[2], (Segment{318, 242, 309, 260}));
        // The swatch: 24 below the bar, as wide as it: {300, 16, 318, 34}, ringed; its label.
        QCOMPARE(*p.barFill.geometry.missing, (PixelRect{300, 16, 318, 34}));
        QVERIFY(hasBox(p.bar, {299, 15, 319, 16}));
        const TextItem* missing = findText(p.bar, "missing");
        QVERIFY(missing);
        QCOMPARE(missing->x, 318.0 + 5);
        QCOMPARE(missing->y, 25.0);
    }

    void titleCentredOnTopWithItsWidth() {
        const AnnotationPlan p = planAnnotations(content());
        QCOMPARE(p.title.texts.size(), std::size_t(1));
        const TextItem& t = p.title.texts[0];
        QCOMPARE(t.text, std::string("air temperature"));
        QCOMPARE(t.x, 200.0);
        QCOMPARE(t.y, 300.0 - 12);
        QCOMPARE(t.size, 15.0);
        QCOMPARE(t.maxWidth, 400.0 - 16);
        QVERIFY(!t.role.empty()); // one label kept from frame to frame
    }

    void scaledLinesAndSizes() {
        // At scale 2 everything doubles: lines 2 wide, marks 10 long, labels 24 pixels.
        const AnnotationPlan p = planAnnotations(content(2));
        QCOMPARE(p.lineWidth, 2.0);
        QCOMPARE(p.layout.plot, (PixelRect{168, 116, 564, 520}));
        QVERIFY(hasBox(p.axes, {166, 114, 566, 116}));
        QVERIFY(hasBox(p.axes, {168, 116 - 2 - 10, 170, 116 - 2}));
        QCOMPARE(findText(p.axes, "0")->size, 24.0);
    }

    void aStepInTimeChangesOnlyTheTitle() {
        // The GL scene redraws a group when its part of the plan changes.
        AnnotationContent a = content(), b = content();
        b.title = "air temperature, time = 2005-02-15";
        const AnnotationPlan pa = planAnnotations(a), pb = planAnnotations(b);
        QVERIFY(pa.axes == pb.axes);
        QVERIFY(pa.bar == pb.bar && pa.barFill == pb.barFill);
        QVERIFY(!(pa.title == pb.title));
    }

    void noAxesWithoutGrids() {
        AnnotationContent c = content();
        c.x = c.y = nullptr;
        QVERIFY(planAnnotations(c).axes.boxes.empty());
        c.bar.table.clear();
        const AnnotationPlan p = planAnnotations(c);
        QVERIFY(p.bar.boxes.empty() && p.bar.texts.empty());
    }
};

QTEST_GUILESS_MAIN(TestAnnotationPlan)
#include "tst_annotationplan.moc"
