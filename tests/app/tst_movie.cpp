// Movies of a view (issue 36): strata --export-movie writes MP4 (H.264), WebM (VP9) and GIF, read
// back here with libavformat: the codec, the frame count, size and rate, the MP4's index first,
// and each frame against the PNG export of the same step. A GIF's one palette keeps what does
// not change between steps (the colour bar, the axes) in the same colours in every frame.
// A stopped or failed movie leaves no file.
#include <QtTest/QtTest>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <cmath>
#include <csignal>
#include <limits>
#include <sys/resource.h>
#include <unordered_map>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

#include "export_view.h"
#include "main_window.h"
#include "movie_writer.h"
#include "strata/core/error.h"
#include "strata/io/netcdf.h"
#include "strata_process.h"
#include "window_fixture.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kSample = QStringLiteral(STRATA_SOURCE_DIR "/resources/sample/tas_rectilinear_grid_2D.nc");

// A picture's three planes as yuv420p holds them (chroma at half the size each way).
struct Planes {
    int width = 0, height = 0;
    std::vector<std::uint8_t> plane[3];
};

// `data` (of `format`) converted to yuv420p with `flags`, as libswscale does it.
Planes toYuv420p(const std::uint8_t* const data[], const int linesize[], AVPixelFormat format, int width,
                 int height, int flags) {
    Planes p;
    p.width = width;
    p.height = height;
    p.plane[0].resize(std::size_t(width) * height);
    p.plane[1].resize(std::size_t(width / 2) * (height / 2));
    p.plane[2].resize(p.plane[1].size());
    SwsContext* sws = sws_getContext(width, height, format, width, height, AV_PIX_FMT_YUV420P, flags, nullptr,
                                     nullptr, nullptr);
    std::uint8_t* dst[3] = {p.plane[0].data(), p.plane[1].data(), p.plane[2].data()};
    const int stride[3] = {width, width / 2, width / 2};
    sws_scale(sws, data, linesize, 0, height, dst, stride);
    sws_freeContext(sws);
    return p;
}

struct Decoded {
    QString codec, error;
    int width = 0, height = 0;
    double fps = 0;
    QList<QImage> frames; // as 32-bit RGB
    QList<Planes> planes; // as decoded, in yuv420p (MP4 and WebM)
};

// Every frame of the file's video stream.
Decoded decode(const QString& path) {
    Decoded d;
    AVFormatContext* fmt = nullptr;
    if (avformat_open_input(&fmt, path.toUtf8().constData(), nullptr, nullptr) < 0) {
        d.error = "cannot open " + path;
        return d;
    }
    avformat_find_stream_info(fmt, nullptr);
    const AVCodec* codec = nullptr;
    const int si = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (si < 0 || !codec) {
        d.error = "no video stream in " + path;
        avformat_close_input(&fmt);
        return d;
    }
    AVStream* st = fmt->streams[si];
    d.codec = codec->name;
    d.fps = av_q2d(st->avg_frame_rate.num ? st->avg_frame_rate : st->r_frame_rate);
    AVCodecContext* ctx = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(ctx, st->codecpar);
    avcodec_open2(ctx, codec, nullptr);
    d.width = ctx->width;
    d.height = ctx->height;
    AVPacket* pkt = av_packet_alloc();
    AVFrame* f = av_frame_alloc();
    auto drain = [&] {
        while (avcodec_receive_frame(ctx, f) == 0) {
            QImage img(f->width, f->height, QImage::Format_RGB32);
            SwsContext* sws =
                sws_getContext(f->width, f->height, AVPixelFormat(f->format), f->width, f->height,
                               AV_PIX_FMT_BGRA, SWS_POINT | SWS_ACCURATE_RND, nullptr, nullptr, nullptr);
            std::uint8_t* dst[1] = {img.bits()};
            const int stride[1] = {int(img.bytesPerLine())};
            sws_scale(sws, f->data, f->linesize, 0, f->height, dst, stride);
            sws_freeContext(sws);
            d.frames.append(img);
            if (f->format == AV_PIX_FMT_YUV420P)
                d.planes.append(
                    toYuv420p(f->data, f->linesize, AV_PIX_FMT_YUV420P, f->width, f->height, SWS_POINT));
        }
    };
    while (av_read_frame(fmt, pkt) >= 0) {
        if (pkt->stream_index == si) {
            avcodec_send_packet(ctx, pkt);
            drain();
        }
        av_packet_unref(pkt);
    }
    avcodec_send_packet(ctx, nullptr);
    drain();
    av_frame_free(&f);
    av_packet_free(&pkt);
    avcodec_free_context(&ctx);
    avformat_close_input(&fmt);
    return d;
}

// The mean absolute difference of two images' channels over `a`'s size (b may be padded), or
// over its first `rows` rows.
double meanDifference(const QImage& a, const QImage& b, int rows = -1) {
    double sum = 0;
    const int height = rows < 0 ? a.height() : rows;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            sum +=
                std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q));
        }
    return sum / (3.0 * a.width() * height);
}

// The peak signal-to-noise ratio, in dB, of the mean squared difference `mse`.
double psnrOf(double mse) {
    return mse == 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(255.0 * 255.0 / mse);
}

// PSNR of `b` (maybe padded) against `a`, over `a`'s size and all three channels.
double psnr(const QImage& a, const QImage& b) {
    double sum = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            const int dr = qRed(p) - qRed(q), dg = qGreen(p) - qGreen(q), db = qBlue(p) - qBlue(q);
            sum += dr * dr + dg * dg + db * db;
        }
    return psnrOf(sum / (3.0 * a.width() * a.height()));
}

// The worst of the three planes' PSNR of `b` (maybe padded) against `a`, over `a`'s size.
double planesPsnr(const Planes& a, const Planes& b) {
    double worst = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 3; ++k) {
        const int w = k == 0 ? a.width : a.width / 2, h = k == 0 ? a.height : a.height / 2;
        const int bw = k == 0 ? b.width : b.width / 2;
        double sum = 0;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const int d =
                    int(a.plane[k][std::size_t(y) * w + x]) - int(b.plane[k][std::size_t(y) * bw + x]);
                sum += d * d;
            }
        worst = std::min(worst, psnrOf(sum / (double(w) * h)));
    }
    return worst;
}

// The PNG as the movie's encoder is given it: padded to even by repeating its last column and
// row, converted to yuv420p as MovieWriter converts it.
Planes encoderInput(const QImage& png) {
    const int w = png.width() + png.width() % 2, h = png.height() + png.height() % 2;
    QImage even(w, h, QImage::Format_RGB32);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            even.setPixel(x, y, png.pixel(std::min(x, png.width() - 1), std::min(y, png.height() - 1)));
    const std::uint8_t* src[1] = {even.constBits()};
    const int stride[1] = {int(even.bytesPerLine())};
    return toYuv420p(src, stride, AV_PIX_FMT_BGRA, w, h, SWS_BICUBIC | SWS_ACCURATE_RND);
}

} // namespace

class TestMovie : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (qEnvironmentVariableIsEmpty("DISPLAY")) QSKIP("needs an X display (run-tests.sh starts Xvfb)");
    }

    void eachFormatShowsTheViewAsThePngDoes_data() {
        QTest::addColumn<QString>("ext");
        QTest::addColumn<QString>("codec");
        QTest::addColumn<QStringList>("view"); // the view's options, for the movie and the PNGs alike
        QTest::newRow("mp4") << "mp4"
                             << "h264" << QStringList{};
        QTest::newRow("webm") << "webm"
                              << "vp9" << QStringList{};
        QTest::newRow("gif") << "gif"
                             << "gif" << QStringList{};
        // A map with isolines: the projection, the coasts and the contours drawn into each frame
        // as into the PNG (the GIF's pixels exactly the palette's colours for the PNG's).
        QTest::newRow("gif, Robinson, contours")
            << "gif"
            << "gif" << QStringList{"--projection", "Robinson", "--contours", "6"};
    }
    void eachFormatShowsTheViewAsThePngDoes() {
        QFETCH(QString, ext);
        QFETCH(QString, codec);
        QFETCH(QStringList, view);
        QTemporaryDir dir;
        const QString movie = dir.filePath("tas." + ext);
        // An odd size: MP4 and WebM pad it to even (yuv420p), a GIF keeps it.
        const stratatest::Run r =
            stratatest::runStrata(QStringList{kSample, "--export-movie", movie, "--animate", "time",
                                              "--frames", "1:12:3", "--fps", "4", "--size", "641x361"} +
                                  view);
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("4 frames"), qPrintable(r.err));
        if (ext == "mp4") // the encoder said: NVIDIA's where it opens, else libx264 and why not NVENC
            QVERIFY2(r.err.contains(", h264_nvenc (") ||
                         (r.err.contains(", libx264 (") && r.err.contains("strata: h264_nvenc not used: ")),
                     qPrintable(r.err));
        const Decoded d = decode(movie);
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QCOMPARE(d.codec, codec);
        QCOMPARE(d.frames.size(), 4);
        QCOMPARE(QSize(d.width, d.height), ext == "gif" ? QSize(641, 361) : QSize(642, 362));
        QVERIFY2(std::abs(d.fps - 4.0) < 1e-6, qPrintable(QString::number(d.fps)));
        if (ext == "mp4") { // +faststart: the index before the data, playable before it is all read
            QFile f(movie);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            QVERIFY(bytes.indexOf("moov") >= 0 && bytes.indexOf("moov") < bytes.indexOf("mdat"));
        }
        // Each frame is the PNG export of its step (1, 4, 7, 10): within H.264's and VP9's loss
        // (38 dB), and exactly for a GIF, each pixel the palette's colour for the PNG's.
        QList<QImage> pngs;
        for (int step : {1, 4, 7, 10}) {
            const QString png = dir.filePath(QString("step%1.png").arg(step));
            const stratatest::Run p =
                stratatest::runStrata(QStringList{kSample, "--isel", QString("time=%1").arg(step),
                                                  "--export-png", png, "--size", "641x361"} +
                                      view);
            QVERIFY2(p.status == 0, qPrintable(p.err));
            pngs.append(QImage(png).convertToFormat(QImage::Format_RGB32));
        }
        if (ext == "gif") {
            // The palette the movie's frames make (every pixel of the four counted), and each
            // frame's every pixel that palette's colour for the PNG's pixel.
            std::unordered_map<QRgb, std::uint64_t> histogram;
            for (const QImage& png : pngs)
                for (int y = 0; y < png.height(); ++y)
                    for (int x = 0; x < png.width(); ++x) ++histogram[png.pixel(x, y) | 0xff000000u];
            qInfo("gif: %zu colours in the four frames", histogram.size());
            const MoviePalette palette = MoviePalette::from(histogram);
            for (int i = 0; i < 4; ++i)
                for (int y = 0; y < 361; ++y)
                    for (int x = 0; x < 641; ++x) {
                        const QRgb want =
                            palette.colours()[palette.indexOf(pngs[i].pixel(x, y))] | 0xff000000u;
                        const QRgb got = d.frames[i].pixel(x, y) | 0xff000000u;
                        if (got != want)
                            QFAIL(qPrintable(QString("frame %1 (%2, %3): %4, the palette says %5")
                                                 .arg(i)
                                                 .arg(x)
                                                 .arg(y)
                                                 .arg(got, 8, 16)
                                                 .arg(want, 8, 16)));
                    }
        }
        // H.264 and VP9 are given yuv420p, half the colour's resolution each way: on these pictures
        // (sharp text and lines over colour) that alone keeps RGB within about 33 dB of the PNG,
        // even losslessly encoded. The codec's loss is measured where it is made, each plane
        // against the PNG as the encoder was given it; a GIF's, in RGB.
        if (ext != "gif") QCOMPARE(d.planes.size(), 4);
        for (int i = 0; i < 4; ++i) {
            const double db =
                ext == "gif" ? psnr(pngs[i], d.frames[i]) : planesPsnr(encoderInput(pngs[i]), d.planes[i]);
            const double dbBefore = i == 0         ? 0.0
                                    : ext == "gif" ? psnr(pngs[i - 1], d.frames[i])
                                                   : planesPsnr(encoderInput(pngs[i - 1]), d.planes[i]);
            qInfo("%s frame %d: %.1f dB against its PNG (RGB: %.1f dB), %.1f dB against the step before's",
                  qPrintable(ext), i, db, psnr(pngs[i], d.frames[i]), dbBefore);
            QVERIFY2(db >= 38, qPrintable(QString("frame %1: %2 dB").arg(i).arg(db)));
            QVERIFY2(psnr(pngs[i], d.frames[i]) >= 30, // as a player shows it: no colour gone astray
                     qPrintable(QString("frame %1: %2 dB in RGB").arg(i).arg(psnr(pngs[i], d.frames[i]))));
            if (i > 0) { // and not the step before it: each frame is its own step, titled with its date
                QVERIFY2(dbBefore < db, qPrintable(QString("frame %1 is closer to the step before").arg(i)));
                const double title = meanDifference(pngs[i], d.frames[i], 20);
                const double before = meanDifference(pngs[i - 1], d.frames[i], 20);
                QVERIFY2(title < before, qPrintable(QString("frame %1's title: %2, the step before's: %3")
                                                        .arg(i)
                                                        .arg(title)
                                                        .arg(before)));
            }
        }
        if (ext != "gif") return;
        // One palette: every pixel that is the same in the four PNGs (the colour bar, the axes,
        // the coasts) is one colour in every frame of the GIF.
        int same = 0;
        for (int y = 0; y < 361; ++y)
            for (int x = 0; x < 641; ++x) {
                const QRgb c = pngs[0].pixel(x, y);
                if (pngs[1].pixel(x, y) != c || pngs[2].pixel(x, y) != c || pngs[3].pixel(x, y) != c)
                    continue;
                ++same;
                for (int i = 1; i < 4; ++i)
                    if (d.frames[i].pixel(x, y) != d.frames[0].pixel(x, y))
                        QFAIL(
                            qPrintable(QString("(%1, %2) changes colour in frame %3").arg(x).arg(y).arg(i)));
            }
        QVERIFY(same > 641 * 361 / 4);
    }

    void badRequestsSayWhyAndLeaveNothing_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no --animate") << QStringList{"--export-movie", "m.mp4"} << "needs --animate DIM";
        QTest::newRow("a dim on an axis") << QStringList{"--export-movie", "m.mp4", "--animate", "lat"}
                                          << "is not a sliced dim of tas (those are: time)";
        QTest::newRow("beyond the dim")
            << QStringList{"--export-movie", "m.gif", "--animate", "time", "--frames", "10:20"}
            << "are beyond time's 12 steps";
        QTest::newRow("no format") << QStringList{"--export-movie", "m.avi", "--animate", "time"}
                                   << "no movie format (.mp4, .webm or .gif)";
        QTest::newRow("bad frames") << QStringList{"--export-movie", "m.mp4",    "--animate",
                                                   "time",           "--frames", "5:2"}
                                    << "--frames takes START:STOP:STEP";
        QTest::newRow("bad fps") << QStringList{"--export-movie", "m.mp4", "--animate", "time", "--fps", "0"}
                                 << "--fps takes frames per second";
    }
    void badRequestsSayWhyAndLeaveNothing() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        for (QString& a : args)
            if (a.startsWith("m.")) a = dir.filePath(a);
        const stratatest::Run r = stratatest::runStrata(QStringList{kSample} + args);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    // A disk that fills while the movie is written: a clear error naming the movie, and no file
    // left (not even the temporary one). Simulated two ways: a file-size limit on the process
    // (every write past it fails, EFBIG) and, where this user may mount one, a 64 KiB tmpfs
    // (ENOSPC).
    void aFullDiskSaysSoAndLeavesNothing_data() {
        QTest::addColumn<QString>("how");
        QTest::newRow("file size limit") << "rlimit";
        QTest::newRow("full tmpfs") << "tmpfs";
    }
    void aFullDiskSaysSoAndLeavesNothing() {
        QFETCH(QString, how);
        QTemporaryDir dir;
        QString folder = dir.path();
        bool mounted = false;
        if (how == "tmpfs") {
            folder = dir.filePath("small");
            QVERIFY(QDir().mkpath(folder));
            mounted = QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=64k", "tmpfs", folder}) == 0;
            if (!mounted) QSKIP("this user cannot mount a tmpfs (the file size limit row covers it)");
        }
        const QString movie = folder + "/full.mp4";
        QProcess p;
        p.setProcessEnvironment(stratatest::strataEnvironment());
        if (how == "rlimit")
            p.setChildProcessModifier([] {
                ::signal(SIGXFSZ, SIG_IGN); // the write fails (EFBIG) instead of ending the process
                const rlimit limit{64 * 1024, 64 * 1024};
                ::setrlimit(RLIMIT_FSIZE, &limit);
            });
        p.start(STRATA_APP_BINARY,
                {kSample, "--export-movie", movie, "--animate", "time", "--size", "1280x960"});
        const bool finished = p.waitForFinished(120000);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        const QStringList left = QDir(folder).entryList(QDir::Files | QDir::Hidden);
        if (mounted) QProcess::execute("umount", {folder});
        QVERIFY(finished);
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() != 0, qPrintable(err));
        QVERIFY2(err.contains("--export-movie " + movie + ": "), qPrintable(err));
        QVERIFY2(err.contains(how == "rlimit" ? "File too large" : "No space left on device"),
                 qPrintable(err));
        QVERIFY2(left.isEmpty(), qPrintable(left.join(", ")));
    }

    // A dim of one step has nothing to animate; a folder that cannot hold the movie (here a path
    // through a file: not a directory, whoever runs the test) is named. Neither leaves a file.
    void oneStepAndAFolderThatIsNotOneAreRefused() {
        QTemporaryDir dir;
        const stratatest::Run one =
            stratatest::runStrata({QStringLiteral(STRATA_SOURCE_DIR "/tests/data/lambert_2d.nc"),
                                   "--export-movie", dir.filePath("one.mp4"), "--animate", "time"});
        QCOMPARE(one.status, 2);
        QVERIFY2(one.err.contains("--animate time has one step, so there is nothing to animate"),
                 qPrintable(one.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
        QFile plain(dir.filePath("plain"));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        const QString through = dir.filePath("plain/m.gif");
        const stratatest::Run bad = stratatest::runStrata(
            {kSample, "--export-movie", through, "--animate", "time", "--size", "64x48"});
        QVERIFY(bad.status != 0);
        QVERIFY2(bad.err.contains(through) && bad.err.contains("Not a directory"), qPrintable(bad.err));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"plain"});
    }

    // Stopped through its progress, a movie throws CancelledError and leaves no file, not even
    // its temporary one; told each frame, of the total.
    void aStoppedMovieLeavesNothing() {
        QTemporaryDir dir;
        OpenNotes notes;
        const Dataset ds = openDataset(kSample.toStdString(), notes);
        ViewSpec view;
        view.variable = "tas";
        view.xDim = "lon";
        view.yDim = "lat";
        QList<QPair<int, int>> told;
        MovieExport movie{
            dir.filePath("stopped.mp4").toStdString(), "time", 0, -1, 2, 10, [&](int done, int total) {
                told.append({done, total});
                return done < 3;
            }};
        ExportOptions options;
        options.width = 160;
        options.height = 120;
        bool cancelled = false;
        try {
            exportMovie(ds, view, movie, options);
        } catch (const CancelledError& e) {
            cancelled = QString(e.what()).contains("stopped at frame 3 of 6");
        }
        QVERIFY(cancelled);
        QCOMPARE(told, (QList<QPair<int, int>>{{1, 6}, {2, 6}, {3, 6}}));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    // The window: File ▸ Export Animation…'s first offer (the active slider's dim, the image
    // view's size), a movie written with the status bar's bar at "frame i / n", and Cancel, from
    // the bar's button mid-way, leaving no file.
    void theWindowWritesAMovieAndCancelsOne() {
        auto w = test::makeTestWindow("tst_movie");
        QVERIFY(test::openAndShow(*w, kSample));
        MainWindow::MovieChoice c = w->defaultMovieChoice();
        QCOMPARE(c.dim, QString("time"));
        QCOMPARE(c.size, w->imageView()->size());
        c.size = QSize(200, 150);
        c.step = 3;
        QTemporaryDir dir;
        QStringList bars;
        auto record = connect(w.get(), &MainWindow::movieFrameWritten, [&](int, int) {
            if (auto* bar = w->findChild<QProgressBar*>("movieProgress")) bars << bar->text();
        });
        QVERIFY(w->exportMovie(dir.filePath("window.gif"), c));
        QCOMPARE(bars, (QStringList{"frame 1 / 4", "frame 2 / 4", "frame 3 / 4", "frame 4 / 4"}));
        const Decoded d = decode(dir.filePath("window.gif"));
        QCOMPARE(d.frames.size(), 4);
        QCOMPARE(QSize(d.width, d.height), QSize(200, 150));
        QVERIFY(!w->exportingMovie());
        QTRY_VERIFY(!w->findChild<QProgressBar*>("movieProgress"));

        disconnect(record);
        connect(w.get(), &MainWindow::movieFrameWritten, [&](int done, int) {
            if (done == 2) QTest::mouseClick(w->findChild<QPushButton*>("movieCancel"), Qt::LeftButton);
        });
        QVERIFY(!w->exportMovie(dir.filePath("stopped.mp4"), c));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"window.gif"});
        QVERIFY2(w->statusBar()->currentMessage().contains("cancelled"),
                 qPrintable(w->statusBar()->currentMessage()));
    }

    // A GIF's palette: the colours themselves when there are 256 or fewer; else 256 of them, each
    // colour mapped to one near it.
    void paletteOfAHistogram() {
        std::unordered_map<QRgb, std::uint64_t> few;
        for (int i = 0; i < 200; ++i) few[qRgb(i, 255 - i, (i * 7) % 256)] = std::uint64_t(i + 1);
        const MoviePalette exact = MoviePalette::from(few);
        QCOMPARE(exact.colours().size(), std::size_t(200));
        for (const auto& [c, n] : few) QCOMPARE(exact.colours()[exact.indexOf(c)] & 0xffffffu, c & 0xffffffu);

        std::unordered_map<QRgb, std::uint64_t> many;
        for (int r = 0; r < 256; r += 8)
            for (int g = 0; g < 256; g += 8)
                for (int b = 0; b < 256; b += 32) many[qRgb(r, g, b)] = 1;
        const MoviePalette cut = MoviePalette::from(many);
        QCOMPARE(cut.colours().size(), std::size_t(256));
        int worst = 0;
        for (const auto& [c, n] : many) {
            const QRgb p = cut.colours()[cut.indexOf(c)];
            worst = std::max({worst, std::abs(qRed(p) - qRed(c)), std::abs(qGreen(p) - qGreen(c)),
                              std::abs(qBlue(p) - qBlue(c))});
        }
        QVERIFY2(worst <= 40, qPrintable(QString::number(worst))); // 8192 colours in 256 boxes
    }
};

QTEST_MAIN(TestMovie)
#include "tst_movie.moc"
