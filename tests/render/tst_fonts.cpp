// The face VTK's text is drawn in (render/src/fonts.cpp): DejaVu Sans wherever fontconfig finds
// it, not only at Debian's path. Here fontconfig is given a configuration whose one folder holds
// a copy of DejaVu Sans (as the GPU machine's fonts and Fedora's lie outside Debian's path): that
// copy is the file VTK gets, unless STRATA_FONT_FILE names another. VTK's built-in face, used
// otherwise, has no square brackets.
#include <QtTest>

#include <QFile>
#include <QTemporaryDir>
#include <vtkNew.h>
#include <vtkTextProperty.h>

#include "fonts.h"

using namespace strata::detail;

class TestFonts : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString copy_;

private slots:
    void initTestCase() {
        const QString system = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
        QVERIFY2(QFile::exists(system),
                 "DejaVu Sans (fonts-dejavu-core, from scripts/setup.sh) is not installed");
        QVERIFY(dir_.isValid());
        QVERIFY(QDir().mkpath(dir_.filePath("fonts")));
        copy_ = dir_.filePath("fonts/DejaVuSans.ttf");
        QVERIFY(QFile::copy(system, copy_));
        QFile conf(dir_.filePath("fonts.conf"));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write(
            QString("<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig>\n"
                    "  <dir>%1</dir>\n  <cachedir>%2</cachedir>\n</fontconfig>\n")
                .arg(dir_.filePath("fonts"), dir_.filePath("cache"))
                .toUtf8());
        conf.close();
        // Before the first call: the file is looked up once.
        qputenv("FONTCONFIG_FILE", dir_.filePath("fonts.conf").toUtf8());
        qunsetenv("STRATA_FONT_FILE");
    }

    void dejaVuFromFontconfig() { QCOMPARE(QString::fromStdString(renderFontFile()), copy_); }

    // STRATA_FONT_FILE, naming a file, comes before fontconfig; naming none, it is passed over
    // (the settings reader warns of it: tst_settings).
    void theSettingComesFirst() {
        const QString named = dir_.filePath("named.ttf");
        QVERIFY(QFile::copy(copy_, named));
        qputenv("STRATA_FONT_FILE", named.toUtf8());
        QCOMPARE(QString::fromStdString(findFontFile()), named);
        qputenv("STRATA_FONT_FILE", dir_.filePath("absent.ttf").toUtf8());
        QCOMPARE(QString::fromStdString(findFontFile()), copy_);
        qunsetenv("STRATA_FONT_FILE");
        QCOMPARE(QString::fromStdString(findFontFile()), copy_);
    }

    void vtkIsGivenTheFile() {
        vtkNew<vtkTextProperty> p;
        applyFont(p, 13.4);
        QCOMPARE(p->GetFontFamily(), VTK_FONT_FILE);
        QCOMPARE(QString(p->GetFontFile()), copy_);
        QCOMPARE(p->GetFontSize(), 13);
        QVERIFY(!p->GetBold() && !p->GetItalic());
    }
};

QTEST_GUILESS_MAIN(TestFonts)
#include "tst_fonts.moc"
