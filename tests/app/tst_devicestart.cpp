// FrameService while the compute device is not known yet (a GPU's driver starting, a quarter of
// a second after launch): frames come from the host at once, and once the device is known as a
// GPU they leave the cache, so that the view asked for again comes from the device. Real netCDF
// data (tests/data/hgt.nc, HGT(time=21, lat, lon)); values against the core's own host frame.
#include <QSignalSpy>
#include <QtTest>

#include <memory>
#include <optional>

#include "../gpu_skip.h"
#include "frame_service.h"
#include "frame_service_checks.h"
#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"

using namespace strata;
using namespace strata::app;

namespace {

// A probe the test moves: nullopt ("not known yet, a GPU likely") until `known` is set.
struct MovableProbe {
    std::shared_ptr<std::optional<Device>> known = std::make_shared<std::optional<Device>>();
    FrameService::DeviceProbe probe() const {
        return [k = known] { return *k; };
    }
};

// `service` showing `ds`, its device not known until `probe` says, computing nothing ahead.
void start(FrameService& service, const MovableProbe& probe, std::shared_ptr<const Dataset> ds) {
    service.setDeviceProbe(probe.probe());
    service.setPrefetch(0, 0);
    service.setDataset(std::move(ds));
}

} // namespace

class TestDeviceStart : public QObject {
    Q_OBJECT
    std::shared_ptr<const Dataset> ds_;

private slots:
    void initTestCase() { ds_ = std::make_shared<Dataset>(io::openDataset(kHgt.toStdString())); }

    void framesComeFromTheHostUntilTheDeviceIsKnown() {
        FrameService service;
        MovableProbe probe;
        start(service, probe, ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        const Result r = waitFor(ready, service.requestFrame(specAt(*ds_, 3)));
        QVERIFY(r && r->error.isEmpty());
        QVERIFY(r->beforeDevice);
        QVERIFY(r->frame.device().isHost());
        QVERIFY(r->coloured); // coloured on the worker, as a host frame is: the view only uploads
        QVERIFY(sameValues(r->frame, expected(*ds_, specAt(*ds_, 3))));
        // Still not known: nothing to do yet.
        QVERIFY(!service.deviceDecided());
        QCOMPARE(service.cachedFrames(), std::size_t(1));
        // Known as the host: the host's frames are the device's; they stay, and answer.
        *probe.known = Device::host();
        QVERIFY(!service.deviceDecided());
        QCOMPARE(service.cachedFrames(), std::size_t(1));
        const Result again = waitFor(ready, service.requestFrame(specAt(*ds_, 3)));
        QVERIFY(again && again->fromCache);
        // A frame asked for once the device is known is not "before" it.
        const Result next = waitFor(ready, service.requestFrame(specAt(*ds_, 4)));
        QVERIFY(next && next->error.isEmpty() && !next->beforeDevice);
        QVERIFY(sameValues(next->frame, expected(*ds_, specAt(*ds_, 4))));
    }

    void theDevicesFramesFollowOnceItIsAGpu() {
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        FrameService service;
        MovableProbe probe;
        start(service, probe, ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        const Result first = waitFor(ready, service.requestFrame(specAt(*ds_, 7)));
        QVERIFY(first && first->error.isEmpty() && first->beforeDevice);
        QVERIFY(first->frame.device().isHost());
        QCOMPARE(service.cachedFrames(), std::size_t(1));
        *probe.known = Device::cuda(0);
        QVERIFY(service.deviceDecided()); // the host's frames go: the view is to be asked again
        QCOMPARE(service.cachedFrames(), std::size_t(0));
        QVERIFY(!service.deviceDecided()); // once
        const Result onDevice = waitFor(ready, service.requestFrame(specAt(*ds_, 7)));
        QVERIFY(onDevice && onDevice->error.isEmpty());
        QVERIFY(!onDevice->fromCache && !onDevice->beforeDevice);
        QVERIFY(!onDevice->frame.device().isHost());
        QVERIFY(!onDevice->coloured); // coloured by the view on the device, into GL's buffer
        QVERIFY(sameValues(onDevice->frame, first->frame));
    }
};

QTEST_GUILESS_MAIN(TestDeviceStart)
#include "tst_devicestart.moc"
