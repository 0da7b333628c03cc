#pragma once
// Baseline comparison for image tests: a rendered image against tests/baselines/<name>.png,
// within a tolerance. The image always goes to the build folder (STRATA_TEST_OUTPUT), with a
// difference picture on a mismatch. A missing baseline FAILS the test, and nothing is written
// into tests/baselines: a new baseline is looked at and copied there by a person.
#include <QImage>
#include <QString>

namespace test {

struct Tolerance {
    int channel = 24;             // a pixel differs when a channel is off by more than this
    double pixelFraction = 0.002; // the image differs when more pixels than this fraction do
};

// Empty when the image matches its baseline; otherwise why not (for QVERIFY2).
QString compareWithBaseline(const QImage& image, const QString& name, Tolerance tolerance = {});

// Writes a and a picture of where b differs from it (red) to the build folder as <name>.png and
// <name>.diff.png; returns the diff's path.
QString saveDifference(const QImage& a, const QImage& b, const QString& name, int channel = 0);

// Number of pixels whose channels differ by more than `channel` (sizes must agree).
long differingPixels(const QImage& a, const QImage& b, int channel);

} // namespace test
