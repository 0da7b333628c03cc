// The baseline comparator itself: it catches what a strict baseline must (a colour map shifted by
// eight entries, one changed tick label) and lets through what it must (the same picture, glyph
// edges shaded a few levels otherwise). The pictures are drawn by the renderer, then changed here.
#include <QtTest/QtTest>

#include <unordered_map>

#include "image_compare.h"
#include "render_fixtures.h"
#include "strata/render/image_export.h"

using namespace strata;
using namespace test;

namespace {

constexpr int kW = 720, kH = 420;

QRgb rgbOf(const Rgba8& c) { return qRgb(c.r, c.g, c.b); }

// `img` with each pixel of the map's colour k repainted with colour k + shift (clamped): the
// picture the renderer would give with its colour-map index off by `shift`.
QImage shiftColours(const QImage& img, const std::vector<Rgba8>& table, int shift) {
    std::unordered_map<QRgb, int> entry;
    for (int k = int(table.size()) - 1; k >= 0; --k) entry[rgbOf(table[std::size_t(k)])] = k;
    QImage out = img.convertToFormat(QImage::Format_RGB32);
    long repainted = 0;
    for (int y = 0; y < out.height(); ++y)
        for (int x = 0; x < out.width(); ++x) {
            const auto e = entry.find(out.pixel(x, y) | 0xff000000u);
            if (e == entry.end()) continue;
            const int k = std::clamp(e->second + shift, 0, int(table.size()) - 1);
            out.setPixel(x, y, rgbOf(table[std::size_t(k)]));
            ++repainted;
        }
    return repainted > 0 ? out : QImage();
}

// A ramp of 40 cells, offset + i/8, over the fixed range [offset, offset + 5]: the cells' colours
// do not depend on the offset, the colour bar's tick labels do (10, 11, ... or 20, 21, ...).
QImage rampOver(double offset) {
    std::vector<float> v;
    for (int i = 0; i < 40; ++i) v.push_back(static_cast<float>(offset + i / 8.0));
    Variable var = DataArray::fromHost("ramp", {"y", "x"}, {1, 40}, v).variable();
    var.attrs().set({"units", DType::Char, std::string("K")});
    DataArray f("ramp", var);
    ImageViewSettings s;
    s.colouring.range = {RangeMode::Fixed, offset, offset + 5};
    s.aspect = AspectMode::Fill;
    return renderImage({f}, s, QSize(kW, kH));
}

} // namespace

class TestImageCompare : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d)
            QFAIL("the image tests draw through X: run them under xvfb-run (scripts/run-tests.sh)");
    }

    void samePicturePasses() {
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, -1, 1};
        const QImage a = renderImage({lonLatFrame(true, false)}, s, QSize(kW, kH));
        const Difference d = compareImages(a, a);
        QCOMPARE(d.total(), 0L);
        // The text was found, and it is a small part of the page.
        QVERIFY2(d.inkArea > 2000 && d.inkArea < kW * kH / 10, qPrintable(QString::number(d.inkArea)));
    }

    // Viridis shifted by eight entries changes no channel by more than 24 in most of the picture
    // (what the comparator allowed before); every cell is caught now.
    void colourMapShiftedByEightEntriesIsCaught() {
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, -1, 1};
        const QImage a = renderImage({lonLatFrame(true, false)}, s, QSize(kW, kH));
        const QImage shifted = shiftColours(a, colormapTable("viridis"), 8);
        QVERIFY(!shifted.isNull());
        const Difference d = compareImages(shifted, a);
        QVERIFY2(d.colourPixels > 100000, qPrintable(QString::number(d.colourPixels)));
        qInfo("shifted by 8: %ld pixels differ by more than 24 in a channel (the old rule allowed %ld); "
              "%ld colour pixels by more than 3",
              differingPixels(shifted, a, 24), long(0.002 * kW * kH), d.colourPixels);
        const QImage baseline(QString(STRATA_BASELINES) + "/analytic_lonlat.png");
        QVERIFY(!baseline.isNull());
        QVERIFY2(compareImages(shifted, baseline).total() > 100000,
                 "a colour map shifted by 8 entries matched the baseline");
        // (One entry is within the channel tolerance in most of viridis: the cell-by-cell colour
        // checks of tst_imagerender, exact against the table, catch that.)
    }

    // Ranges [10, 15] and [20, 25]: the same cells and the same bar; only the bar's labels differ
    // ("10" becomes "20", ...): the ink rule sees the labels.
    void changedTickLabelIsCaught() {
        const QImage tens = rampOver(10), twenties = rampOver(20);
        const Difference d = compareImages(twenties, tens);
        // Caught by the ink rule on its own (a few pixels inside the thickest strokes, more than
        // 2 pixels from the page, fall to the colour rule as well).
        QVERIFY2(d.inkPixels > 20, qPrintable(QString::number(d.inkPixels)));
        QVERIFY2(d.colourPixels < d.inkPixels, qPrintable(QString::number(d.colourPixels)));
        QCOMPARE(compareImages(tens, rampOver(10)).total(), 0L); // and it draws the same each time
    }

    // Anti-aliased edges shaded otherwise (another font rasteriser, another driver): every grey
    // pixel of the page a few levels darker or lighter still matches.
    void glyphEdgesShadedOtherwisePass() {
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, -1, 1};
        const QImage a =
            renderImage({lonLatFrame(true, false)}, s, QSize(kW, kH)).convertToFormat(QImage::Format_RGB32);
        QImage b = a;
        long changed = 0;
        for (int y = 0; y < b.height(); ++y)
            for (int x = 0; x < b.width(); ++x) {
                const QRgb c = b.pixel(x, y);
                const int g = qRed(c);
                if (g != qGreen(c) || g != qBlue(c) || g > 240 || g < 16) continue; // grey edges only
                const int v = g + (((x + y) % 2) ? 10 : -10);
                b.setPixel(x, y, qRgb(v, v, v));
                ++changed;
            }
        QVERIFY2(changed > 200, qPrintable(QString::number(changed)));
        const Difference d = compareImages(b, a);
        QVERIFY2(d.total() == 0,
                 qPrintable(QString("%1 colour, %2 ink").arg(d.colourPixels).arg(d.inkPixels)));
    }

    // A hue changed by 10 in one channel, on every pixel that is not the white page, is caught
    // anywhere: in the cells (the colour rule) and in the ink next to the page, where the
    // blurred grey alone moves by 5 at most and let it through.
    void aHueChangeOfTenIsCaughtAnywhere() {
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, -1, 1};
        const QImage a =
            renderImage({lonLatFrame(true, false)}, s, QSize(kW, kH)).convertToFormat(QImage::Format_RGB32);
        for (int channel = 0; channel < 3; ++channel) {
            QImage b = a;
            for (int y = 0; y < b.height(); ++y)
                for (int x = 0; x < b.width(); ++x) {
                    const QRgb c = b.pixel(x, y);
                    if (qRed(c) >= 250 && qGreen(c) >= 250 && qBlue(c) >= 250) continue; // the page
                    int rgb[3] = {qRed(c), qGreen(c), qBlue(c)};
                    rgb[channel] += rgb[channel] > 245 ? -10 : 10;
                    b.setPixel(x, y, qRgb(rgb[0], rgb[1], rgb[2]));
                }
            const Difference d = compareImages(b, a);
            QVERIFY2(d.colourPixels > 10000, qPrintable(QString::number(d.colourPixels)));
            // Nearly all of the ink: only pixels of the page in one picture are not changed.
            QVERIFY2(
                d.inkPixels > d.inkArea * 9 / 10,
                qPrintable(
                    QString("channel %1: %2 of %3 ink pixels").arg(channel).arg(d.inkPixels).arg(d.inkArea)));
            Tolerance greyOnly;
            greyOnly.hue = 255; // the rule before: the blurred grey alone
            QCOMPARE(compareImages(b, a, greyOnly).inkPixels, 0L);
        }
    }
};

QTEST_GUILESS_MAIN(TestImageCompare)
#include "tst_imagecompare.moc"
