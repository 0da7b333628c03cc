// The command line's overlays beyond isolines, as a user runs them: filled contours (--filled)
// band the picture's colours; and the vector pair (--vectors, --uv): each style drawn over the
// geostrophic heights (the pair found by its CF standard names, or named), pictures that differ
// from the frame alone; and its refusals, exit status 2 with one line and nothing written: an
// unknown style, a --uv that is not two names, a pair on another grid (both named), a file
// without a pair.
#include <QtTest>

#if STRATA_HAVE_RENDER // the pictures (QtGui comes with the render layer)
#include <QHash>
#include <QImage>
#endif
#include <QTemporaryDir>

#include "strata_process.h"

using namespace stratatest;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kWinds = kData + "/geostrophic_500.nc";

} // namespace

class TestCliVectors : public QObject {
    Q_OBJECT

private slots:
#if STRATA_HAVE_RENDER
    // Each style is drawn (the picture differs from the heights alone), by the pair the file's
    // standard names give or by --uv; the refusals write nothing.
    void eachStyleIsDrawn() {
        QTemporaryDir dir;
        const QStringList base{kWinds, "--var", "zg", "--coastlines", "off", "--size", "480x300"};
        const QString plain = dir.filePath("plain.png");
        QCOMPARE(runStrata(base + QStringList{"--export-png", plain}).status, 0);
        const QImage without(plain);
        QVERIFY(!without.isNull());
        for (const QString style : {"arrows", "barbs", "streamlines", "particles"}) {
            const QString path = dir.filePath(style + ".png");
            const Run r = runStrata(base + QStringList{"--vectors", style, "--export-png", path});
            QVERIFY2(r.status == 0, qPrintable(r.err));
            QVERIFY2(!r.err.contains("not drawn"), qPrintable(r.err));
            const QImage with(path);
            QCOMPARE(with.size(), without.size());
            QVERIFY2(with != without, qPrintable(style));
        }
        // Named: the same pair gives the same picture.
        const QString named = dir.filePath("named.png");
        QCOMPARE(runStrata(base + QStringList{"--vectors", "arrows", "--uv", "ua,va", "--export-png", named})
                     .status,
                 0);
        QCOMPARE(QImage(named), QImage(dir.filePath("arrows.png")));
    }
#endif

#if STRATA_HAVE_RENDER
    // --filled bands the colours: fewer colours cover the plot than in the plain picture, and
    // with --contours the lines are drawn over them too.
    void filledContoursBandThePicture() {
        QTemporaryDir dir;
        const QStringList base{kWinds, "--var", "zg", "--coastlines", "off", "--size", "480x300"};
        auto colours = [](const QString& path) { // those covering 30 pixels or more (not text)
            const QImage img(path);
            QHash<QRgb, int> seen;
            for (int y = 80; y < 220; ++y) // inside the plot
                for (int x = 100; x < 300; ++x) ++seen[img.pixel(x, y)];
            int n = 0;
            for (int count : seen) n += count >= 30;
            return n;
        };
        const QString plain = dir.filePath("plain.png"), filled = dir.filePath("filled.png"),
                      both = dir.filePath("both.png");
        QCOMPARE(runStrata(base + QStringList{"--export-png", plain}).status, 0);
        QCOMPARE(runStrata(base + QStringList{"--filled", "--export-png", filled}).status, 0);
        QCOMPARE(
            runStrata(base + QStringList{"--filled", "--contours", "100:0", "--export-png", both}).status, 0);
        QVERIFY2(colours(filled) <= 12 && colours(plain) > 40,
                 qPrintable(QString("%1 colours filled, %2 plain").arg(colours(filled)).arg(colours(plain))));
        QVERIFY(QImage(both) != QImage(filled));
    }
#endif

    void misuseExitsTwoAndWritesNothing_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        const QString png = QDir::tempPath() + "/strata-vectors-misuse.png";
        QTest::newRow("unknown style") << QStringList{kWinds, "--vectors", "feathers", "--export-png", png}
                                       << "--vectors: vectors: 'feathers' is not a style";
        QTest::newRow("not a pair") << QStringList{kWinds, "--uv", "ua", "--export-png", png}
                                    << "--uv: 'ua' is not two variables U,V";
#if STRATA_HAVE_RENDER
        QTest::newRow("pair on another grid")
            << QStringList{kWinds, "--var", "zg", "--vectors", "barbs", "--uv", "ua,lat", "--export-png", png}
            << "--uv lat: 'lat' (lat 73) cannot be shown as 'zg' (time 2, lat 73, lon 144) is";
        QTest::newRow("unknown component")
            << QStringList{kWinds, "--var", "zg", "--vectors", "arrows", "--uv", "ua,vb", "--export-png", png}
            << "--uv vb: ";
        QTest::newRow("no pair in the file")
            << QStringList{kData + "/hgt.nc", "--var", "HGT", "--vectors", "arrows", "--export-png", png}
            << "has no vector pair with the dims of 'HGT' (time 21, lat 73, lon 144)";
#endif
    }
    void misuseExitsTwoAndWritesNothing() {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const QString png = QDir::tempPath() + "/strata-vectors-misuse.png";
        QFile::remove(png);
        const Run r = runStrata(args);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(named), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY(!QFile::exists(png));
    }
};

QTEST_GUILESS_MAIN(TestCliVectors)
#include "tst_clivectors.moc"
