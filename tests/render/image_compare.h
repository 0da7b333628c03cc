#pragma once
// Baseline comparison for image tests: a rendered image against tests/baselines/<name>.png.
// Two rules, one for each kind of content:
//   ink   text, tick marks and frame lines: what is drawn within 2 pixels of the white page
//         (and the outermost 2 pixels of the plot and the colour bar). Their anti-aliased
//         edges move with the font and the GL driver, so they are compared as ink coverage
//         blurred over 3×3 pixels: a glyph edge shading by a few levels passes, a changed
//         digit (a whole stroke of ink) does not. Their colour is compared too, pixel by
//         pixel, less its grey: a hue changed by 10 in any channel does not pass there either;
//   rest  the colour cells, the colour bar, lines in colour: every channel within `channel`
//         of the baseline, and no pixel allowed to differ.
// The image always goes to the build folder (STRATA_TEST_OUTPUT), with a difference picture on
// a mismatch. A missing baseline FAILS the test, and nothing is written into tests/baselines:
// a new baseline is looked at and copied there by a person.
#include <QImage>
#include <QString>

namespace test {

struct Tolerance {
    int channel = 3; // a pixel outside the ink differs when a channel is off by more than this
    int ink = 24;    // an ink pixel differs when its 3×3 mean ink is off by more than this,
    int hue = 4;     // or a channel less the pixel's grey (qGray) is off by more than this
    long pixels = 0; // the image differs when more pixels than this do (of either kind)
};

// Where an image and its baseline differ, by rule.
struct Difference {
    long colourPixels = 0; // outside the ink, a channel off by more than Tolerance::channel
    long inkPixels = 0;    // in the ink, the blurred ink or the hue off (Tolerance::ink, ::hue)
    long inkArea = 0;      // pixels counted as ink (text and lines on the page)
    long total() const { return colourPixels + inkPixels; }
};

// The two rules applied to `image` against `expected` (sizes must agree).
Difference compareImages(const QImage& image, const QImage& expected, Tolerance tolerance = {});

// The GL renderer of this display (an offscreen context's GL_RENDERER), and whether it is the
// one the GL rows' baselines were drawn with (Mesa's llvmpipe, as under Xvfb here). Another
// GL (a GPU's driver) anti-aliases lines and text and places a resampled pixel's edge its own
// way: it has baselines of its own, named for it (glBaselineTag: "nvidia" on the GPU machine).
QString glRenderer();
bool glBaselinesApply();
QString glBaselineTag(); // empty on llvmpipe
// compareWithBaseline for a picture a GL painter drew (`gl`) or not: on a GL other than
// llvmpipe, against `name`_<tag> (tests/baselines/projection_Robinson_gl_nvidia.png).
QString compareWithPainterBaseline(const QImage& image, const QString& name, bool gl);

// Empty when the image matches its baseline; otherwise why not (for QVERIFY2).
QString compareWithBaseline(const QImage& image, const QString& name, Tolerance tolerance = {});

// Writes a and a picture of where b differs from it (red) to the build folder as <name>.png and
// <name>.diff.png; returns the diff's path.
QString saveDifference(const QImage& a, const QImage& b, const QString& name, int channel = 0);

// Number of pixels whose channels differ by more than `channel` (sizes must agree).
long differingPixels(const QImage& a, const QImage& b, int channel);

} // namespace test
