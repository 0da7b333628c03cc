#include "image_compare.h"

#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <cstdlib>

namespace test {

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

QString saveDifference(const QImage& image, const QImage& expected, const QString& name, int channel) {
    QDir().mkpath(STRATA_TEST_OUTPUT);
    image.save(QString(STRATA_TEST_OUTPUT) + "/" + name + ".png");
    QImage diff(image.size(), QImage::Format_RGB888);
    const QImage a = image.convertToFormat(QImage::Format_RGB888),
                 b = expected.convertToFormat(QImage::Format_RGB888);
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb pa = a.pixel(x, y), pb = b.pixel(x, y);
            const int d = std::max({std::abs(qRed(pa) - qRed(pb)), std::abs(qGreen(pa) - qGreen(pb)),
                                    std::abs(qBlue(pa) - qBlue(pb))});
            const int g = qGray(pb) / 2;
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
    const long bad = differingPixels(image, expected, tol.channel);
    const long allowed = static_cast<long>(tol.pixelFraction * image.width() * image.height());
    if (bad <= allowed) return {};
    saveDifference(image, expected, name, tol.channel);
    return QString("%1 pixels differ from %2 (allowed %3); see %4")
        .arg(bad)
        .arg(baseline)
        .arg(allowed)
        .arg(actual);
}

} // namespace test
