#include "image_compare.h"

#include <QDebug>
#include <QDir>
#include <QFileInfo>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QRegularExpression>
#include <algorithm>
#include <cstdlib>
#include <vector>

namespace test {

namespace {

bool isPageWhite(QRgb c) { return qRed(c) >= 250 && qGreen(c) >= 250 && qBlue(c) >= 250; }

int inkOf(QRgb c) { return 255 - qGray(c); }

// Ink coverage of `img`, each pixel the mean over its 3×3 neighbourhood (clipped at the edges).
std::vector<int> blurredInk(const QImage& img) {
    const int w = img.width(), h = img.height();
    std::vector<int> ink(static_cast<std::size_t>(w) * h), out(ink.size());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) ink[static_cast<std::size_t>(y) * w + x] = inkOf(img.pixel(x, y));
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            int sum = 0, n = 0;
            for (int yy = std::max(0, y - 1); yy <= std::min(h - 1, y + 1); ++yy)
                for (int xx = std::max(0, x - 1); xx <= std::min(w - 1, x + 1); ++xx, ++n)
                    sum += ink[static_cast<std::size_t>(yy) * w + xx];
            out[static_cast<std::size_t>(y) * w + x] = sum / n;
        }
    return out;
}

// Ink: not the white page in both pictures, and within 2 pixels of the page in either: text
// (anti-aliased glyph edges may be tinted), ticks, frame lines and the outermost pixels of the
// plot and the colour bar; the cells inside them are compared by colour.
std::vector<bool> inkMask(const QImage& a, const QImage& b) {
    const int w = a.width(), h = a.height();
    std::vector<bool> white(static_cast<std::size_t>(w) * h), mask(white.size());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            white[static_cast<std::size_t>(y) * w + x] =
                isPageWhite(a.pixel(x, y)) || isPageWhite(b.pixel(x, y));
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const QRgb pa = a.pixel(x, y), pb = b.pixel(x, y);
            if (isPageWhite(pa) && isPageWhite(pb)) continue;
            bool nearPage = false;
            for (int yy = std::max(0, y - 2); yy <= std::min(h - 1, y + 2) && !nearPage; ++yy)
                for (int xx = std::max(0, x - 2); xx <= std::min(w - 1, x + 2) && !nearPage; ++xx)
                    nearPage = white[static_cast<std::size_t>(yy) * w + xx];
            mask[static_cast<std::size_t>(y) * w + x] = nearPage;
        }
    return mask;
}

// How far the pixels' colours, each less its grey, are apart in the channel furthest apart: 0
// for two greys whatever their levels, 10 - 10 · 11/32 for a red raised by 10.
int hueDifference(QRgb a, QRgb b) {
    const int ga = qGray(a), gb = qGray(b);
    return std::max({std::abs((qRed(a) - ga) - (qRed(b) - gb)), std::abs((qGreen(a) - ga) - (qGreen(b) - gb)),
                     std::abs((qBlue(a) - ga) - (qBlue(b) - gb))});
}

int channelDifference(QRgb a, QRgb b) {
    return std::max(
        {std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
}

} // namespace

long differingPixels(const QImage& a0, const QImage& b0, int channel) {
    const QImage a = a0.convertToFormat(QImage::Format_RGB888), b = b0.convertToFormat(QImage::Format_RGB888);
    if (a.size() != b.size()) return -1;
    long n = 0;
    for (int y = 0; y < a.height(); ++y) {
        const uchar* pa = a.constScanLine(y);
        const uchar* pb = b.constScanLine(y);
        for (int x = 0; x < a.width(); ++x)
            for (int c = 0; c < 3; ++c)
                if (std::abs(int(pa[3 * x + c]) - int(pb[3 * x + c])) > channel) {
                    ++n;
                    break;
                }
    }
    return n;
}

Difference compareImages(const QImage& image, const QImage& expected, Tolerance tol) {
    const QImage a = image.convertToFormat(QImage::Format_RGB32),
                 b = expected.convertToFormat(QImage::Format_RGB32);
    Difference d;
    if (a.size() != b.size()) {
        d.colourPixels = static_cast<long>(a.width()) * a.height();
        return d;
    }
    const int w = a.width();
    const std::vector<bool> ink = inkMask(a, b);
    const std::vector<int> inkA = blurredInk(a), inkB = blurredInk(b);
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * w + x;
            if (ink[i]) {
                ++d.inkArea;
                d.inkPixels += std::abs(inkA[i] - inkB[i]) > tol.ink ||
                               hueDifference(a.pixel(x, y), b.pixel(x, y)) > tol.hue;
            } else {
                d.colourPixels += channelDifference(a.pixel(x, y), b.pixel(x, y)) > tol.channel;
            }
        }
    return d;
}

QString saveDifference(const QImage& image, const QImage& expected, const QString& name, int channel) {
    QDir().mkpath(STRATA_TEST_OUTPUT);
    image.save(QString(STRATA_TEST_OUTPUT) + "/" + name + ".png");
    QImage diff(image.size(), QImage::Format_RGB888);
    const QImage a = image.convertToFormat(QImage::Format_RGB888),
                 b = expected.convertToFormat(QImage::Format_RGB888);
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const int d = channelDifference(a.pixel(x, y), b.pixel(x, y));
            const int g = qGray(b.pixel(x, y)) / 2;
            diff.setPixel(x, y, d > channel ? qRgb(255, 0, 0) : qRgb(g, g, g));
        }
    const QString path = QString(STRATA_TEST_OUTPUT) + "/" + name + ".diff.png";
    diff.save(path);
    return path;
}

QString compareWithBaseline(const QImage& image, const QString& name, Tolerance tol) {
    const QString baseline = QString(STRATA_BASELINES) + "/" + name + ".png";
    QDir().mkpath(STRATA_TEST_OUTPUT);
    const QString actual = QString(STRATA_TEST_OUTPUT) + "/" + name + ".png";
    image.save(actual);
    if (!QFileInfo::exists(baseline)) // the picture stays in the build folder until someone looks
        return "no baseline " + baseline + ": the picture is " + actual +
               " — look at it, then copy it there and commit it";
    QImage expected(baseline);
    if (expected.isNull()) return "cannot read the baseline " + baseline;
    if (expected.size() != image.size())
        return QString("size %1x%2, the baseline %3x%4")
            .arg(image.width())
            .arg(image.height())
            .arg(expected.width())
            .arg(expected.height());
    const Difference d = compareImages(image, expected, tol);
    if (d.total() <= tol.pixels) return {};
    const QString diff = saveDifference(image, expected, name, tol.channel);
    return QString(
               "%1 colour pixels (channel > %2) and %3 of %4 ink pixels (3×3 ink > %5 or hue > %6) differ "
               "from %7 (allowed %8 in all); see %9 and %10")
        .arg(d.colourPixels)
        .arg(tol.channel)
        .arg(d.inkPixels)
        .arg(d.inkArea)
        .arg(tol.ink)
        .arg(tol.hue)
        .arg(baseline)
        .arg(tol.pixels)
        .arg(actual, diff);
}

} // namespace test

namespace test {

QString glRenderer() {
    static const QString renderer = [] {
        QOpenGLContext context;
        QOffscreenSurface surface;
        surface.create();
        if (!context.create() || !context.makeCurrent(&surface)) return QString();
        const auto* name = context.functions()->glGetString(GL_RENDERER);
        const QString out = name ? QString::fromLatin1(reinterpret_cast<const char*>(name)) : QString();
        context.doneCurrent();
        return out;
    }();
    return renderer;
}

bool glBaselinesApply() { return glRenderer().contains("llvmpipe"); }

QString glBaselineTag() {
    if (glBaselinesApply()) return {};
    if (glRenderer().contains("NVIDIA", Qt::CaseInsensitive)) return "nvidia";
    QString tag = glRenderer().section(' ', 0, 0).toLower();
    tag.remove(QRegularExpression("[^a-z0-9]"));
    return tag.isEmpty() ? QString("unknown") : tag;
}

QString compareWithPainterBaseline(const QImage& image, const QString& name, bool gl) {
    if (!gl || glBaselinesApply()) return compareWithBaseline(image, name);
    // Another GL draws text and lines its own way: the picture is compared with that GL's own
    // baseline, made on it and looked at (a missing one fails, as any does).
    return compareWithBaseline(image, name + "_" + glBaselineTag());
}

} // namespace test
