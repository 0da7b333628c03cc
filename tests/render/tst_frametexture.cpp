// FrameTexture in a headless EGL context (no window system, no VTK, no Qt GUI): the texture
// holds exactly the CPU colour map of the frame, on every path — host frames, device frames
// through CUDA-GL interop (no byte to the host), and device frames with interop turned off
// (the RGBA crosses once, counted). Also times a 1440 × 721 frame from request to a finished
// GL texture, one at a time and pipelined. The cuda rows skip where no device is present.
#include "gpu_skip.h"
#include <QtTest/QtTest>

#include <GL/gl.h>
#include <GL/glext.h>
#include <algorithm>
#include <chrono>
#include <cmath>

#include "egl_context.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "strata/render/colormaps.h"
#include "strata/render/frame_texture.h"

using namespace strata;

namespace {

constexpr std::int64_t kH = 721, kW = 1440;

// A smooth field with NaN on a sparse lattice and a few values beyond the range.
DataArray field(std::int64_t h, std::int64_t w, double phase) {
    std::vector<float> v(static_cast<std::size_t>(h * w));
    for (std::int64_t j = 0; j < h; ++j)
        for (std::int64_t i = 0; i < w; ++i) {
            float x = static_cast<float>(std::sin(0.01 * i + phase) * std::cos(0.013 * j));
            if ((i * 7 + j * 13) % 97 == 0) x = NAN;
            if ((i + j) % 1009 == 0) x = 3.0f;
            v[static_cast<std::size_t>(j * w + i)] = x;
        }
    return DataArray::fromHost("f", {"lat", "lon"}, {h, w}, v);
}

std::vector<std::uint8_t> readTexture(const FrameTexture& t) {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(t.width()) * t.height() * 4);
    glBindTexture(GL_TEXTURE_2D, t.texture());
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out.data());
    glBindTexture(GL_TEXTURE_2D, 0);
    return out;
}

double medianMicros(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

class TestFrameTexture : public QObject {
    Q_OBJECT
    std::unique_ptr<test::EglContext> gl_;
    const Rgba8 nan_{255, 0, 255, 255};

    bool deviceRow(const QString& where) {
        if (where == "host") return false;
        if (cudaDeviceCount() == 0) return false;
        return true;
    }

private slots:
    void initTestCase() {
        gl_ = std::make_unique<test::EglContext>(0);
        if (!gl_->ok())
            QFAIL(qPrintable("no headless GL context: " + QString::fromStdString(gl_->problem())));
        qInfo("GL: %s", gl_->description().c_str());
        qInfo("compute: %s (%s)", computeInfo().name.c_str(), computeInfo().reason.c_str());
    }

    void matchesCpuColormap_data() {
        QTest::addColumn<QString>("where"); // host | cuda
        QTest::addColumn<bool>("allowInterop");
        QTest::addColumn<bool>("deviceRange"); // range read on the device from minmax()
        QTest::addColumn<int>("expectedPath");
        QTest::newRow("host fixed range") << "host" << true << false << int(FramePath::HostUpload);
        QTest::newRow("host frame range") << "host" << true << true << int(FramePath::HostUpload);
        QTest::newRow("cuda interop fixed range") << "cuda" << true << false << int(FramePath::Interop);
        QTest::newRow("cuda interop device range") << "cuda" << true << true << int(FramePath::Interop);
        QTest::newRow("cuda no interop") << "cuda" << false << false << int(FramePath::HostUpload);
    }
    void matchesCpuColormap() {
        QFETCH(QString, where);
        QFETCH(bool, allowInterop);
        QFETCH(bool, deviceRange);
        QFETCH(int, expectedPath);
        if (where == "cuda" && !deviceRow(where)) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Device dev = where == "cuda" ? Device::cuda(0) : Device::host();
        const Stream stream = defaultStream(dev);
        const auto table = colormapTable("viridis");
        DataArray hostFrame = field(kH, kW, 0.3);
        const auto [lo, hi] = deviceRange ? minmaxValues(hostFrame) : std::pair<double, double>{-0.8, 0.9};
        DataArray hostLut = colormapLut(table, Device::host(), Stream::host());
        std::vector<std::uint8_t> want =
            colormap(hostFrame, hostLut, lo, hi, nan_, Stream::host()).values<std::uint8_t>();

        DataArray frame = dev.isHost() ? hostFrame : hostFrame.asDevice(dev, stream);
        DataArray lut = colormapLut(table, dev, stream);
        DataArray range;
        if (deviceRange) range = minmax(frame, stream);
        stream.synchronize();

        FrameTexture tex(FrameTexture::Options{allowInterop});
        const auto before = transferCounters();
        tex.update(frame, lut, -0.8, 0.9, deviceRange ? &range : nullptr, nan_);
        glFinish();
        const TransferCounters moved = transferredSince(before);
        qInfo("path: %s — %s", std::string(name(tex.path().path)).c_str(), tex.path().reason.c_str());
        QCOMPARE(int(tex.path().path), expectedPath);
        QCOMPARE(tex.width(), int(kW));
        QCOMPARE(tex.height(), int(kH));
        if (tex.path().path == FramePath::Interop) QCOMPARE(moved.deviceToHost, 0u); // nothing crossed
        if (dev.isCuda() && !allowInterop) QCOMPARE(moved.deviceToHost, std::uint64_t(kW * kH * 4));
        QCOMPARE(moved.hostToDevice, 0u);
        QCOMPARE(glGetError(), GLenum(GL_NO_ERROR));

        std::vector<std::uint8_t> got = readTexture(tex);
        QCOMPARE(got.size(), want.size());
        std::size_t bad = 0;
        for (std::size_t i = 0; i < got.size(); ++i) bad += got[i] != want[i];
        QVERIFY2(
            bad == 0,
            qPrintable(QString("%1 of %2 bytes differ from the CPU colour map").arg(bad).arg(got.size())));
        tex.release();
    }

    // The registration is made once and reused; a new frame size re-creates it.
    void framesAfterFrames_data() {
        QTest::addColumn<QString>("where");
        QTest::newRow("host") << "host";
        QTest::newRow("cuda") << "cuda";
    }
    void framesAfterFrames() {
        QFETCH(QString, where);
        if (where == "cuda" && !deviceRow(where)) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Device dev = where == "cuda" ? Device::cuda(0) : Device::host();
        const Stream stream = defaultStream(dev);
        const auto table = colormapTable("magma", true);
        DataArray hostLut = colormapLut(table, Device::host(), Stream::host());
        DataArray lut = colormapLut(table, dev, stream);
        FrameTexture tex;
        // Registrations after each frame: the first frame registers, the second (same size)
        // reuses it, a new size registers anew. The host path registers nothing.
        const std::vector<int> registered = dev.isCuda() ? std::vector{1, 1, 2} : std::vector{0, 0, 0};
        int k = 0;
        for (auto [h, w, phase] :
             {std::tuple{kH, kW, 0.0}, std::tuple{kH, kW, 1.0}, std::tuple{100l, 37l, 2.0}}) {
            DataArray hf = field(h, w, phase);
            DataArray f = dev.isHost() ? hf : hf.asDevice(dev, stream);
            const auto before = transferCounters();
            tex.update(f, lut, -1, 1, nullptr, nan_);
            QCOMPARE(int(tex.path().path), int(dev.isCuda() ? FramePath::Interop : FramePath::HostUpload));
            QCOMPARE(transferredSince(before).deviceToHost,
                     0u); // interop: nothing crossed; host: nothing on a device
            QCOMPARE(tex.registrations(), registered[std::size_t(k++)]);
            auto want = colormap(hf, hostLut, -1, 1, nan_, Stream::host()).values<std::uint8_t>();
            QVERIFY(readTexture(tex) == want);
        }
        tex.release();
        QCOMPARE(tex.texture(), 0u);
    }

    // From "new frame requested" to a finished texture (glFinish), one frame at a time, and
    // frames queued back to back (one finish at the end): the scrubbing rate.
    void timing_data() {
        QTest::addColumn<QString>("where");
        QTest::addColumn<bool>("allowInterop");
        QTest::newRow("host") << "host" << true;
        QTest::newRow("cuda interop") << "cuda" << true;
        QTest::newRow("cuda no interop") << "cuda" << false;
    }
    void timing() {
        QFETCH(QString, where);
        QFETCH(bool, allowInterop);
        if (where == "cuda" && !deviceRow(where)) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Device dev = where == "cuda" ? Device::cuda(0) : Device::host();
        const Stream stream = defaultStream(dev);
        DataArray hf = field(kH, kW, 0.5);
        DataArray f = dev.isHost() ? hf : hf.asDevice(dev, stream);
        DataArray lut = colormapLut(colormapTable("viridis"), dev, stream);
        DataArray range = minmax(f, stream);
        stream.synchronize();
        FrameTexture tex(FrameTexture::Options{allowInterop});
        const int frames = dev.isHost() ? 30 : 300;
        using clock = std::chrono::steady_clock;
        auto frame = [&] { tex.update(f, lut, 0, 1, &range, nan_); };
        for (int i = 0; i < 5; ++i) frame(); // warm up (registration, first map)
        glFinish();
        std::vector<double> latency;
        const auto before = transferCounters();
        for (int i = 0; i < frames; ++i) {
            auto t0 = clock::now();
            frame();
            glFinish();
            latency.push_back(std::chrono::duration<double, std::micro>(clock::now() - t0).count());
        }
        const auto moved = transferredSince(before);
        auto t0 = clock::now();
        for (int i = 0; i < frames; ++i) frame();
        glFinish();
        const double pipelined =
            std::chrono::duration<double, std::micro>(clock::now() - t0).count() / frames;
        qInfo("TIMING %s %s, 1440x721: latency median %.1f us (min %.1f), pipelined %.1f us/frame; "
              "device->host %.1f bytes/frame",
              qPrintable(where), std::string(name(tex.path().path)).c_str(), medianMicros(latency),
              *std::min_element(latency.begin(), latency.end()), pipelined,
              double(moved.deviceToHost) / frames);
        // What the timing is of: the path the row asks for, and what crossed to the host on it.
        const FramePath path = dev.isCuda() && allowInterop ? FramePath::Interop : FramePath::HostUpload;
        QCOMPARE(int(tex.path().path), int(path));
        QCOMPARE(moved.deviceToHost,
                 dev.isCuda() && !allowInterop ? std::uint64_t(kW * kH * 4) * frames : 0u);
        QCOMPARE(tex.registrations(), path == FramePath::Interop ? 1 : 0); // once, for all frames
        QCOMPARE(int(latency.size()), frames);
        tex.release();
    }

    void cleanupTestCase() { gl_.reset(); }
};

QTEST_GUILESS_MAIN(TestFrameTexture)
#include "tst_frametexture.moc"
