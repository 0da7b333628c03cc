// The strata executable does not link VTK: the VTK views are a module loaded on first use
// (strata/render/vtk_views.h). The executable's needed libraries name no libvtk, the module's
// do, and a window showing a host frame has mapped none of them; a PNG export loads it.
// FFmpeg's libraries likewise: the movie module (libstrata_movie.so) needs them, the executable
// does not, and a window has not mapped them.
#include <QtTest/QtTest>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <cstring>
#include <elf.h>

#include "strata_process.h"

namespace {

// The DT_NEEDED entries of a 64-bit ELF file (empty when it is not one).
QStringList neededLibraries(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    auto at = [&b](quint64 offset, quint64 size) { return offset + size <= quint64(b.size()); };
    Elf64_Ehdr eh;
    if (!at(0, sizeof eh)) return {};
    std::memcpy(&eh, b.constData(), sizeof eh);
    if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64) return {};
    auto section = [&](int i) {
        Elf64_Shdr sh{};
        const quint64 off = eh.e_shoff + quint64(i) * eh.e_shentsize;
        if (at(off, sizeof sh)) std::memcpy(&sh, b.constData() + off, sizeof sh);
        return sh;
    };
    QStringList needed;
    for (int i = 0; i < eh.e_shnum; ++i) {
        const Elf64_Shdr dyn = section(i);
        if (dyn.sh_type != SHT_DYNAMIC || !at(dyn.sh_offset, dyn.sh_size)) continue;
        const Elf64_Shdr strtab = section(int(dyn.sh_link));
        for (quint64 o = dyn.sh_offset; o + sizeof(Elf64_Dyn) <= dyn.sh_offset + dyn.sh_size;
             o += sizeof(Elf64_Dyn)) {
            Elf64_Dyn d;
            std::memcpy(&d, b.constData() + o, sizeof d);
            if (d.d_tag == DT_NULL) break;
            if (d.d_tag == DT_NEEDED && d.d_un.d_val < strtab.sh_size)
                needed << QString::fromUtf8(b.constData() + strtab.sh_offset + d.d_un.d_val);
        }
    }
    return needed;
}

bool namesVtk(const QStringList& libraries) {
    for (const QString& l : libraries)
        if (l.startsWith("libvtk")) return true;
    return false;
}

bool namesFfmpeg(const QStringList& libraries) {
    for (const QString& l : libraries)
        if (l.startsWith("libavcodec") || l.startsWith("libavformat") || l.startsWith("libswscale"))
            return true;
    return false;
}

} // namespace

class TestLazyVtk : public QObject {
    Q_OBJECT
private slots:
    void theExecutableDoesNotNeedVtk() {
        const QStringList needed = neededLibraries(STRATA_APP_BINARY);
        QVERIFY2(!needed.isEmpty(), "no needed libraries read from the strata executable");
        QVERIFY2(!namesVtk(needed), qPrintable(needed.join(' ')));
        QVERIFY2(!namesFfmpeg(needed), qPrintable(needed.join(' ')));
    }

    void theMovieModuleNeedsFfmpeg() {
        const QStringList needed = neededLibraries(STRATA_MOVIE_MODULE);
        QVERIFY2(namesFfmpeg(needed), qPrintable(needed.join(' ')));
        for (const QString& l : needed) QVERIFY2(!l.startsWith("libstrata"), qPrintable(l));
    }

    void theModuleNeedsVtk() {
        const QStringList needed = neededLibraries(STRATA_VTKVIEWS_MODULE);
        QVERIFY2(namesVtk(needed), qPrintable(needed.join(' ')));
        // It holds no strata library of its own: those are the executable's.
        for (const QString& l : needed) QVERIFY2(!l.startsWith("libstrata"), qPrintable(l));
    }

    // The window on a host frame (the CPU path, painted with the raster engine): once the
    // first frame is on the screen, no VTK library is in the process.
    void aHostFrameMapsNoVtk() {
        if (qEnvironmentVariableIsEmpty("DISPLAY")) QSKIP("needs an X display (run-tests.sh starts Xvfb)");
        QTemporaryDir home;
        QProcess p;
        p.setProcessEnvironment(stratatest::strataEnvironment({"STRATA_TRACE_FRAMES=1"}, {}, home.path()));
        const QString log = home.filePath("stderr.txt"); // the frame trace is on stderr
        p.setStandardErrorFile(log);
        p.start(STRATA_APP_BINARY,
                {QStringLiteral(STRATA_SOURCE_DIR "/resources/sample/tas_rectilinear_grid_2D.nc")});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        QElapsedTimer t;
        t.start();
        while (!err.contains("strata-frame") && t.elapsed() < 60000 && p.state() == QProcess::Running) {
            QTest::qWait(50);
            if (QFile f(log); f.open(QIODevice::ReadOnly)) err = f.readAll();
        }
        QFile maps(QString("/proc/%1/maps").arg(p.processId()));
        const bool opened = maps.open(QIODevice::ReadOnly);
        const QByteArray mapped = opened ? maps.readAll() : QByteArray();
        p.kill();
        p.waitForFinished();
        QVERIFY2(err.contains("strata-frame"), err.constData());
        QVERIFY(opened && !mapped.isEmpty());
        QVERIFY2(mapped.contains("libQt6Gui"), "the maps do not look like the window's");
        QVERIFY2(!mapped.contains("libvtk"), "VTK was loaded before the first host frame");
        QVERIFY2(!mapped.contains("libstrata_vtkviews"),
                 "the VTK views were loaded before the first host frame");
        QVERIFY2(!mapped.contains("libavcodec") && !mapped.contains("libstrata_movie"),
                 "FFmpeg was loaded before the first host frame");
    }

    // A PNG export needs VTK: the command line loads the module for it.
    void theCommandLineExportLoadsTheModule() {
        QTemporaryDir dir;
        const QString png = dir.filePath("out.png");
        const auto r = stratatest::runStrata(
            {QStringLiteral(STRATA_SOURCE_DIR "/resources/sample/tas_rectilinear_grid_2D.nc"), "--export-png",
             png, "--size", "320x200"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QImage image(png);
        QCOMPARE(image.size(), QSize(320, 200));
    }

    // Without the module the export fails with a message that says so, and does not crash.
    void aMissingModuleIsReported() {
        QTemporaryDir dir;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("STRATA_CPU", "1");
        env.insert("STRATA_VTKVIEWS", dir.filePath("no-such-module.so"));
        p.setProcessEnvironment(env);
        p.start(STRATA_APP_BINARY,
                {QStringLiteral(STRATA_SOURCE_DIR "/resources/sample/tas_rectilinear_grid_2D.nc"),
                 "--export-png", dir.filePath("out.png"), "--size", "320x200"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY(p.exitCode() != 0);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("VTK views") && err.contains("no-such-module.so"), qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath("out.png")));
    }
};

QTEST_GUILESS_MAIN(TestLazyVtk)
#include "tst_lazyvtk.moc"
