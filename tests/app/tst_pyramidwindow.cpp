// A HEALPix pyramid in the window, under Xvfb (issue 37): tests/data/healpix_pyramid's store of a
// group a zoom (tas at zooms 0–4, each coarser zoom the mean of its children) opens as one
// variable. Its frame is computed at the zoom whose cells are no wider than a pixel (here from
// the plate carrée map's metres and the plot's pixels, apart from the code's 5 × 5 places),
// and the values shown are that zoom's store's, read alone. A wheel zoom asks for the finer zoom
// and lets the coarser one go from memory; a narrower window asks for a coarser one; the probe
// and the CSV export give the cells of the zoom on the screen.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QWheelEvent>
#include <QtTest>
#include <cmath>
#include <numbers>

#include "dataset_panel.h"
#include "main_window.h"
#include "strata/core/healpix.h"
#include "strata/core/healpix_pyramid.h"
#include "strata/io/multifile.h"
#include "strata/render/projection.h"
#include "window_fixture.h"

using namespace strata;
using namespace strata::app;

namespace {

const std::string kDir = STRATA_TEST_DATA "/healpix_pyramid";

// tas at `zoom`, step `t`, read from that zoom's own store.
std::vector<double> zoomValues(int zoom, std::int64_t t) {
    io::OpenNotes notes;
    const Dataset ds = io::openPaths({kDir + "/tas_z" + std::to_string(zoom) + ".zarr"}, notes);
    const std::vector<double> all = ds["tas"].load(Device::host(), Stream::host()).values<double>();
    const std::size_t n = all.size() / 3;
    return {all.begin() + std::ptrdiff_t(t * std::int64_t(n)),
            all.begin() + std::ptrdiff_t((t + 1) * std::int64_t(n))};
}

bool sameValues(const std::vector<double>& a, const std::vector<double>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); });
}

// The zoom for a plate carrée window shown over `plot`: a pixel's arc where the map is, the map's
// metres spanning 360° across and 180° up (the larger of the two steps: the view widens the
// window to keep its pixels square); the coarsest zoom of 0–4 whose cells, sqrt(4π / 12) / nside
// wide, fit in it.
// nullopt when the arc lies within 3 % of a zoom's cell width (either zoom is right there).
std::optional<int> expectedZoom(const ViewWindow& w, const PixelRect& plot) {
    const MapExtent map = Projection::byName("PlateCarree").extent();
    const double right = (w.x1 - w.x0) / plot.width() * 2 * std::numbers::pi / map.width();
    const double up = (w.y1 - w.y0) / plot.height() * std::numbers::pi / map.height();
    const double arc = std::max(right, up); // the view keeps its pixels square: the wider step
    for (int z = 0; z <= 4; ++z) {
        const double cell = std::sqrt(4 * std::numbers::pi / 12) / double(1 << z);
        if (std::fabs(cell / arc - 1) < 0.03) return std::nullopt;
        if (cell <= arc) return z;
    }
    return 4;
}

} // namespace

class TestPyramidWindow : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;

    // Until the frame of the view is on the screen and nothing more is computed.
    bool settle() {
        for (int i = 0; i < 400; ++i) {
            QTest::qWait(25);
            if (!w_->frameService()->busy() && w_->shownFrame().ndim() > 0 &&
                w_->askedZoom() == w_->shownZoom())
                return true;
        }
        return false;
    }

    // The frame shown is zoom shownZoom()'s, step 0, as its own store holds it.
    QString notTheShownZoom() {
        const int z = w_->shownZoom();
        if (z < 0) return "no zoom shown";
        const DataArray& f = w_->shownFrame();
        if (f.ndim() != 1 || f.size() != 12 * (std::int64_t(1) << (2 * z)))
            return QString("a frame of %1 values at zoom %2").arg(f.size()).arg(z);
        if (!sameValues(f.asHost().values<double>(), zoomValues(z, 0)))
            return QString("not zoom %1's values").arg(z);
        return {};
    }

private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_pyramidwindow");
        QVERIFY(w_->isVisible());
    }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    void thePyramidsZoomFollowsThePixels() {
        QVERIFY(test::openAndShow(*w_, QString::fromStdString(kDir + "/tas_pyramid.zarr")));
        // The panel lists tas once at the root, saying it follows the view's zoom.
        QTreeWidgetItem* listed = w_->datasetPanel()->itemOf("tas");
        QVERIFY(listed);
        QVERIFY2(listed->toolTip(0).contains("HEALPix pyramid, zoom 0\u20134"),
                 qPrintable(listed->toolTip(0)));
        ViewSpec v = w_->view();
        v.variable = "tas";
        v.xDim = "cell";
        v.yDim.clear();
        v.indices = {{"time", 0}};
        w_->applyView(v);
        QVERIFY(settle());
        ImageView* image = w_->imageView();
        const PixelRect plot = image->layout().plot;
        QVERIFY(plot.width() > 100);
        // Far out, the window's pixels square: a pixel 0.75 rad of the sphere, zoom 1 (cells
        // 0.51 rad wide; zoom 0's are 1.02).
        const MapExtent map = Projection::byName("PlateCarree").extent();
        const double cx = (map.x0 + map.x1) / 2, cy = (map.y0 + map.y1) / 2;
        const double width = map.width() * 0.75 * plot.width() / (2 * std::numbers::pi),
                     height = width * plot.height() / plot.width();
        ViewSpec far = w_->view();
        far.window = ViewWindow{cx - width / 2, cx + width / 2, cy - height / 2, cy + height / 2};
        w_->applyView(far);
        QVERIFY(settle());
        const std::optional<int> farZoom = expectedZoom(*w_->view().window, image->layout().plot);
        QVERIFY(farZoom);
        QCOMPARE(*farZoom, 1);
        QCOMPARE(w_->shownZoom(), *farZoom);
        QString why = notTheShownZoom();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(image->settings().window == w_->view().window);
        const std::string coarse = "/z" + std::to_string(*farZoom) + "/tas";
        QTRY_VERIFY(w_->frameService()->residency(coarse).state != Residence::None); // loaded as it is shown

        // The wheel, at the plot's centre (the map's), zooms in 1.25^20 times: the finest zoom, asked for by
        // the view itself; the coarse one leaves memory.
        const ViewLayout& l = image->layout(); // device pixels, from the bottom
        const QPointF centre((l.plot.x0 + l.plot.x1) / 2 / l.scale,
                             (l.height - (l.plot.y0 + l.plot.y1) / 2) / l.scale);
        QWheelEvent wheel(centre, image->mapToGlobal(centre), QPoint(), QPoint(0, 120 * 20), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(image, &wheel);
        QVERIFY(settle());
        const std::optional<int> nearZoom = expectedZoom(*w_->view().window, image->layout().plot);
        QVERIFY(nearZoom);
        QCOMPARE(w_->shownZoom(), *nearZoom);
        QVERIFY(*nearZoom > *farZoom);
        const ViewSpec near = w_->view();
        why = notTheShownZoom();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(w_->frameService()->residency(coarse).state, Residence::None);

        // Far out again, then the window made narrower: the plot's pixels each span more of the
        // sphere (over a radian), and the view asks for zoom 0, whose cells fit them, on the
        // paint after the resize.
        w_->applyView(far);
        QVERIFY(settle());
        QCOMPARE(w_->shownZoom(), *farZoom);
        const double before = image->layout().plot.width();
        w_->resize(w_->width() - int(before * 0.6 / image->layout().scale), w_->height());
        QTRY_VERIFY(image->layout().plot.width() < before * 0.75); // 0.75 rad a pixel becomes 1 or more
        QVERIFY(settle());
        const std::optional<int> narrowZoom = expectedZoom(*w_->view().window, image->layout().plot);
        QVERIFY(narrowZoom);
        QCOMPARE(*narrowZoom, 0);
        QCOMPARE(w_->shownZoom(), *narrowZoom);
        why = notTheShownZoom();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        w_->resize(1300, 850);
        w_->applyView(near);
        QVERIFY(settle());
        QCOMPARE(w_->shownZoom(), *nearZoom);

        // The probe names a cell of the zoom shown.
        const QPoint at = centre.toPoint() + QPoint(9, -4);
        const Pick pick = image->pickAt(at);
        QVERIFY(pick.inside);
        QCOMPARE(pick.column,
                 healpix::cellOf(std::int64_t(1) << *nearZoom, healpix::Order::Nest, pick.x, pick.y));

        // The CSV export: the cells of the zoom on the screen.
        QTemporaryDir dir;
        const QString csv = dir.filePath("pyramid.csv");
        QVERIFY(w_->exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        int rows = 0;
        while (!f.atEnd()) rows += !f.readLine().trimmed().isEmpty();
        QCOMPARE(rows, 1 + 12 * (1 << (2 * *nearZoom)));

        // A view that is no map (the mean over the cells at each step) has no pixels on the
        // sphere: it keeps the zoom on the screen, its values the mean of that zoom's cells.
        ViewSpec series = w_->view();
        series.xDim = "time";
        series.yDim.clear();
        series.indices.clear();
        series.reductions = {{"cell", ReduceOp::Mean}};
        series.window.reset();
        w_->applyView(series);
        QVERIFY(settle());
        QCOMPARE(w_->shownZoom(), *nearZoom);
        const std::vector<double> means = w_->shownFrame().asHost().values<double>();
        QCOMPARE(means.size(), std::size_t(3));
        for (std::int64_t t = 0; t < 3; ++t) {
            double sum = 0;
            int n = 0;
            for (double v : zoomValues(*nearZoom, t))
                if (!std::isnan(v)) sum += v, ++n;
            QVERIFY2(std::fabs(means[std::size_t(t)] - sum / n) < 1e-3,
                     qPrintable(
                         QString("step %1: %2, expected %3").arg(t).arg(means[std::size_t(t)]).arg(sum / n)));
        }
        // Where no zoom is on the screen (an export), such a view takes the coarsest, never the
        // finest's whole record unasked; a map takes the zoom its pixels ask.
        const std::optional<healpix::Pyramid> p = pyramidOfDataset(*w_->dataset());
        QVERIFY(p);
        QCOMPARE(QString::fromStdString(p->dim), QString("cell"));
        QCOMPARE(atPyramidZoom(&*p, series, 1024, 768).zoom, 0);
        QCOMPARE(QString::fromStdString(atPyramidZoom(&*p, series, 1024, 768).spec.variable),
                 QString("/z0/tas"));
        QCOMPARE(atPyramidZoom(&*p, series, 1024, 768, 3).zoom, 3);
        ViewSpec whole = series;
        whole.xDim = "cell";
        whole.reductions.clear();
        whole.indices = {{"time", 0}};
        QCOMPARE(atPyramidZoom(&*p, whole, 1024, 768, 1).zoom, 4); // a pixel of a whole map: the finest here
    }
};

QTEST_MAIN(TestPyramidWindow)
#include "tst_pyramidwindow.moc"
