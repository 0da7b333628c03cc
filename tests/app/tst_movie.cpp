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

struct Decoded {
    QString codec, error;
    int width = 0, height = 0;
    double fps = 0;
    QList<QImage> frames;
};

// Every frame of the file's video stream, as 32-bit RGB.
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
        QTest::addColumn<double>("tolerance"); // mean difference from the PNG, of 255
        QTest::newRow("mp4") << "mp4"
                             << "h264" << 3.0;
        QTest::newRow("webm") << "webm"
                              << "vp9" << 3.0;
        QTest::newRow("gif") << "gif"
                             << "gif" << 0.2;
    }
    void eachFormatShowsTheViewAsThePngDoes() {
        QFETCH(QString, ext);
        QFETCH(QString, codec);
        QFETCH(double, tolerance);
        QTemporaryDir dir;
        const QString movie = dir.filePath("tas." + ext);
        // An odd size: MP4 and WebM pad it to even (yuv420p), a GIF keeps it.
        const stratatest::Run r =
            stratatest::runStrata({kSample, "--export-movie", movie, "--animate", "time", "--frames",
                                   "1:12:3", "--fps", "4", "--size", "641x361"});
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
        // Each frame is the PNG export of its step (1, 4, 7, 10), within the codec's loss.
        QList<QImage> pngs;
        for (int step : {1, 4, 7, 10}) {
            const QString png = dir.filePath(QString("step%1.png").arg(step));
            const stratatest::Run p = stratatest::runStrata(
                {kSample, "--isel", QString("time=%1").arg(step), "--export-png", png, "--size", "641x361"});
            QVERIFY2(p.status == 0, qPrintable(p.err));
            pngs.append(QImage(png).convertToFormat(QImage::Format_RGB32));
        }
        for (int i = 0; i < 4; ++i) {
            const double diff = meanDifference(pngs[i], d.frames[i]);
            qInfo("%s frame %d: %.2f from its PNG, %.2f from the step before's", qPrintable(ext), i, diff,
                  i > 0 ? meanDifference(pngs[i - 1], d.frames[i]) : -1.0);
            QVERIFY2(diff < tolerance, qPrintable(QString("frame %1: %2").arg(i).arg(diff)));
            if (i > 0) { // and not the step before it: each frame is its own step, titled with its date
                QVERIFY2(meanDifference(pngs[i - 1], d.frames[i]) > diff,
                         qPrintable(QString("frame %1 is closer to the step before").arg(i)));
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
