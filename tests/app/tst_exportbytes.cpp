// "The bytes counted equal the bytes exported": an export brings over from the device exactly
// what it writes, and says so. For a frame computed on the host that is nothing; for CSV of a
// frame on a GPU it is the frame's own bytes; for a PNG it is what the renderer read back (the
// RGBA image without CUDA-GL interop, nothing with it; a line plot's values). Rows cpu and cuda;
// the cuda rows skip without a CUDA device. On the GPU machine, where the test data and the
// binary lie elsewhere, STRATA_TEST_DATA and STRATA_APP_BINARY in the environment say where.
// Run there (NVIDIA H200, 2026-12-02, a build with STRATA_GUI off): every cpu and cuda row
// passed; the PNG checks of the cuda row need a build with the render layer and X, not run there.
#include "gpu_skip.h"
#include <QtTest>

#include "app/strata_process.h"

#include <cmath>

#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "strata/io/csv.h"
#include "strata/io/netcdf.h"
#include "view_spec.h"

#if __has_include("strata/render/image_export.h")
#define STRATA_TEST_PNG 1 // this build has the render layer: the binary writes PNGs
#include <QImage>
#else
#define STRATA_TEST_PNG 0
#endif

using namespace strata;
using strata::app::ViewSpec;

namespace {

QString dataDir() { return qEnvironmentVariable("STRATA_TEST_DATA", STRATA_TEST_DATA); }
QString sample() { return dataDir() + "/tas_rectilinear_grid_2D.nc"; }
QString binary() { return qEnvironmentVariable("STRATA_APP_BINARY", STRATA_APP_BINARY); }

bool noDeviceFor(const QString& backend) { return backend == "cuda" && cudaDeviceCount() == 0; }

struct Run {
    int status = -1;
    QString err;
};

Run runStrata(const QString& backend, const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (backend == "cpu")
        env.insert("STRATA_CPU", "1");
    else
        env.remove("STRATA_CPU");
    p.setProcessEnvironment(env);
    p.start(binary(), args);
    if (!p.waitForFinished(120000)) return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
}

// From "strata: wrote PATH: ..., N bytes copied device→host (WHY)": N and WHY; -1 when absent.
std::pair<qint64, QString> reportedBytes(const QString& err, const QString& path) {
    const QRegularExpression re("^strata: wrote " + QRegularExpression::escape(path) +
                                    ": .*, (\\d+) bytes copied device→host \\((.*)\\)$",
                                QRegularExpression::MultilineOption);
    const auto m = re.match(err);
    if (!m.hasMatch()) return {-1, {}};
    return {m.captured(1).toLongLong(), m.captured(2)};
}

using stratatest::readCsv;

} // namespace

Q_DECLARE_METATYPE(ViewSpec)

class TestExportBytes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    // writeCsv of a frame computed on the backend: the count is the frame's bytes on a GPU and
    // 0 on the host, every byte moved while writing is in it, and the numbers are the host's.
    void csvMovesExactlyTheFrame_data() {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<ViewSpec>("spec");
        ViewSpec frame;
        frame.variable = "tas";
        frame.xDim = "lon";
        frame.yDim = "lat";
        frame.indices = {{"time", 4}};
        ViewSpec line;
        line.variable = "tas";
        line.xDim = "time";
        line.indices = {{"lat", 10}, {"lon", 20}};
        ViewSpec zonalMean;
        zonalMean.variable = "tas";
        zonalMean.xDim = "lat";
        zonalMean.yDim = "time";
        zonalMean.reductions = {{"lon", ReduceOp::Mean}};
        ViewSpec spread = frame;
        spread.indices.clear();
        spread.reductions = {{"time", ReduceOp::Std}};
        for (const char* backend : {"cpu", "cuda"}) {
            const QString b(backend);
            QTest::newRow(qPrintable(b + " frame")) << b << frame;
            QTest::newRow(qPrintable(b + " line")) << b << line;
            QTest::newRow(qPrintable(b + " zonal mean")) << b << zonalMean;
            QTest::newRow(qPrintable(b + " std over time")) << b << spread;
        }
    }
    void csvMovesExactlyTheFrame() {
        QFETCH(QString, backend);
        QFETCH(ViewSpec, spec);
        if (noDeviceFor(backend)) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Device device = backend == "cuda" ? Device::cuda(0) : Device::host();
        const Stream stream = device.isHost() ? Stream::host() : defaultStream(device);
        const DataArray var = openDataset(sample().toStdString())["tas"];
        const DataArray frame = computeView(var, spec, device, stream);
        QCOMPARE(frame.device(), device);

        const QString path = dir_.filePath("frame.csv");
        const TransferCounters before = transferCounters();
        const io::CsvResult r = writeCsv(frame, path.toStdString());
        const std::uint64_t moved = transferredSince(before).deviceToHost;
        const std::uint64_t frameBytes = std::uint64_t(frame.size()) * sizeOf(frame.dtype());
        QCOMPARE(r.bytesFromDevice, device.isHost() ? std::uint64_t(0) : frameBytes);
        QCOMPARE(moved, r.bytesFromDevice);
        QCOMPARE(r.rows, frame.size());

        // The same numbers as the view computed on the host: byte for byte for slices; for
        // reductions (summed in another order on a GPU) to float precision.
        const QString hostPath = dir_.filePath("host.csv");
        writeCsv(computeView(var, spec, Device::host(), Stream::host()), hostPath.toStdString());
        const auto rows = readCsv(path), hostRows = readCsv(hostPath);
        QCOMPARE(rows.size(), int(frame.size()) + 1);
        QCOMPARE(rows.size(), hostRows.size());
        QCOMPARE(rows[0], hostRows[0]);
        for (int i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i].mid(0, rows[i].size() - 1), hostRows[i].mid(0, hostRows[i].size() - 1));
            const double a = rows[i].back().toDouble(), b = hostRows[i].back().toDouble();
            if (spec.reductions.empty())
                QCOMPARE(rows[i].back(), hostRows[i].back());
            else
                QVERIFY2(std::fabs(a - b) <= 1e-5 * std::max(1.0, std::fabs(b)),
                         qPrintable(QString("row %1: %2, the host %3").arg(i).arg(a).arg(b)));
        }
    }

    // The binary's --verbose count, for CSV and PNG of one frame and of one line.
    void executableReportsTheBytes_data() {
        QTest::addColumn<QString>("backend");
        QTest::newRow("cpu") << "cpu";
        QTest::newRow("cuda") << "cuda";
    }
    void executableReportsTheBytes() {
        QFETCH(QString, backend);
        if (noDeviceFor(backend)) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const bool host = backend == "cpu";
        const QString csv = dir_.filePath("f.csv"), lineCsv = dir_.filePath("l.csv");
        QStringList frameArgs{sample(), "--isel", "time=2", "--range", "250,310", "--export-csv", csv, "-v"};
        QStringList lineArgs{sample(), "--x",    "time",         "--isel", "lat=10",
                             "--isel", "lon=20", "--export-csv", lineCsv,  "-v"};
        const QString png = dir_.filePath("f.png"), linePng = dir_.filePath("l.png");
        if (STRATA_TEST_PNG) {
            frameArgs << "--size"
                      << "640x400"
                      << "--export-png" << png;
            lineArgs << "--size"
                     << "640x400"
                     << "--export-png" << linePng;
        }
        const Run frame = runStrata(backend, frameArgs), line = runStrata(backend, lineArgs);
        QVERIFY2(frame.status == 0, qPrintable(frame.err));
        QVERIFY2(line.status == 0, qPrintable(line.err));
        QVERIFY2(frame.err.contains(host ? "computing on CPU" : "computing on "), qPrintable(frame.err));

        const QString hostWhy = "the frame is on the host: nothing to copy";
        const qint64 frameBytes = 96 * 192 * 4, lineBytes = 12 * 4; // float32 tas
        auto [csvBytes, csvWhy] = reportedBytes(frame.err, csv);
        auto [lineCsvBytes, lineCsvWhy] = reportedBytes(line.err, lineCsv);
        if (host) {
            QCOMPARE(csvBytes, 0);
            QCOMPARE(csvWhy, hostWhy);
            QCOMPARE(lineCsvBytes, 0);
        } else {
            QCOMPARE(csvBytes, frameBytes);
            QVERIFY2(csvWhy.startsWith("from cuda:0"), qPrintable(csvWhy));
            QCOMPARE(lineCsvBytes, lineBytes);
        }
        if (!STRATA_TEST_PNG) QSKIP("CSV checked; this build has no render layer, so no PNG");
        auto [pngBytes, pngWhy] = reportedBytes(frame.err, png);
        auto [linePngBytes, linePngWhy] = reportedBytes(line.err, linePng);
        if (host) {
            QCOMPARE(pngBytes, 0);
            QCOMPARE(pngWhy, hostWhy);
            QCOMPARE(linePngBytes, 0);
        } else {
            // The frame's extremes and count of values, worked out on the device (16 + 8 bytes:
            // the colour bar's triangles and missing swatch, as the host's); and the RGBA frame
            // read back for the texture where the X server's GL is not the GPU's (Xvfb with
            // Mesa: no CUDA-GL interop), nothing where it is. Which of the two is the machine's
            // to say, not the binary's: the GPU run sets STRATA_EXPECT_INTEROP=1 on an X server
            // whose GL is NVIDIA's. The line: its 12 values.
            const bool interop = qEnvironmentVariable("STRATA_EXPECT_INTEROP") == "1";
            QCOMPARE(pngBytes, (interop ? 0 : 96 * 192 * 4) + 24);
            QCOMPARE(linePngBytes, lineBytes);
#if STRATA_TEST_PNG
            // The pictures themselves: pixel for pixel the host path's, exported with the same
            // arguments by the CPU backend (same colour map, same range, same GL).
            for (const auto& [args, devicePng] : {std::pair{frameArgs, png}, std::pair {
                                                      lineArgs,
                                                      linePng
                                                  }}) {
                const QString hostPng = dir_.filePath("host.png");
                QStringList hostArgs = args;
                hostArgs[hostArgs.indexOf("--export-png") + 1] = hostPng;
                const Run onHost = runStrata("cpu", hostArgs);
                QVERIFY2(onHost.status == 0, qPrintable(onHost.err));
                const QImage a = QImage(devicePng).convertToFormat(QImage::Format_RGBA8888),
                             b = QImage(hostPng).convertToFormat(QImage::Format_RGBA8888);
                QCOMPARE(a.size(), QSize(640, 400));
                QCOMPARE(b.size(), a.size());
                long differing = 0;
                QString first;
                for (int y = 0; y < a.height(); ++y)
                    for (int x = 0; x < a.width(); ++x)
                        if (a.pixel(x, y) != b.pixel(x, y) && differing++ == 0)
                            first = QString("(%1, %2): %3 on the device, %4 on the host")
                                        .arg(x)
                                        .arg(y)
                                        .arg(a.pixel(x, y), 8, 16)
                                        .arg(b.pixel(x, y), 8, 16);
                QVERIFY2(
                    differing == 0,
                    qPrintable(
                        QString("%1: %2 pixels differ, first %3").arg(devicePng).arg(differing).arg(first)));
            }
#endif
        }
    }

    // A movie moves each frame's bytes once, as a PNG of that frame does, and nothing else: 4
    // frames, 4 times the PNG's count. Its GIF is byte for byte the host's (the same pictures,
    // the same palette).
    void movieMovesEachFrameOnce_data() { executableReportsTheBytes_data(); }
    void movieMovesEachFrameOnce() {
        QFETCH(QString, backend);
        if (noDeviceFor(backend)) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        if (!STRATA_TEST_PNG) QSKIP("this build has no render layer, so no movie");
        const QString gif = dir_.filePath(backend + ".gif");
        auto args = [&](const QString& out) {
            return QStringList{sample(), "--range",   "250,310", "--size",   "640x400", "--export-movie",
                               out,      "--animate", "time",    "--frames", "0:12:3",  "-v"};
        };
        const Run r = runStrata(backend, args(gif));
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QRegularExpression re("^strata: wrote " + QRegularExpression::escape(gif) +
                                        ": 4 frames, 640x400, gif \\((\\d+) bytes copied device→host\\)$",
                                    QRegularExpression::MultilineOption);
        const auto m = re.match(r.err);
        QVERIFY2(m.hasMatch(), qPrintable(r.err));
        const qint64 moved = m.captured(1).toLongLong();
        if (backend == "cpu") {
            QCOMPARE(moved, 0);
            return;
        }
        const bool interop = qEnvironmentVariable("STRATA_EXPECT_INTEROP") == "1";
        QCOMPARE(moved, 4 * ((interop ? 0 : 96 * 192 * 4) + 24)); // as executableReportsTheBytes' PNG
        const QString hostGif = dir_.filePath("host.gif");
        const Run onHost = runStrata("cpu", args(hostGif));
        QVERIFY2(onHost.status == 0, qPrintable(onHost.err));
        QFile a(gif), b(hostGif);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY2(a.readAll() == b.readAll(), "the device's GIF is not the host's");
    }
};

QTEST_GUILESS_MAIN(TestExportBytes)
#include "tst_exportbytes.moc"
