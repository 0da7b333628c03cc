// OPeNDAP: a URL that is not a Zarr store goes to netCDF-C's DAP2 client. A tiny DAP2 server
// in the test's own Python (tests/io/dap2_server.py: .dds, .das and .dods with hyperslab
// constraints) serves one dataset built with NumPy; the values it is meant to hold are the
// oracle. Strata opens http://127.0.0.1:PORT/fixture, reads whole and strided values equal to
// the fixture's, decodes the CF times, and names the URL when the server or the path is wrong.
// DAP4, authentication and big arrays are not tested (README).
#include <QtTest>

#include <cstring>

#include "strata/core/error.h"
#include "strata/core/ops.h"
#include "strata/io/multifile.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

std::vector<unsigned char> bytesOf(const DataArray& loaded) {
    const Variable& v = loaded.variable();
    const auto* p =
        static_cast<const unsigned char*>(v.buffer()->data()) + std::size_t(v.offset()) * sizeOf(v.dtype());
    return {p, p + v.nbytes()};
}

} // namespace

class TestOpendap : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QProcess server_;
    QString base_;

    std::vector<unsigned char> expected(const char* name) const {
        QFile f(dir_.path() + "/" + name + ".bin");
        if (!f.open(QIODevice::ReadOnly)) return {};
        const QByteArray b = f.readAll();
        return {b.begin(), b.end()};
    }
    QStringList requests() const {
        QFile f(dir_.path() + "/requests.txt");
        if (!f.open(QIODevice::ReadOnly)) return {};
        return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        server_.start("/usr/bin/python3",
                      {QString(STRATA_SOURCE_DIR) + "/tests/io/dap2_server.py", dir_.path()});
        QVERIFY(server_.waitForStarted(30000));
        while (!server_.canReadLine())
            QVERIFY2(server_.waitForReadyRead(60000), server_.readAllStandardError().constData());
        base_ = "http://127.0.0.1:" + QString::fromUtf8(server_.readLine()).trimmed();
    }
    void cleanupTestCase() {
        server_.kill();
        server_.waitForFinished(10000);
    }

    // Opened the way the window and the command line open a path (isolated check included).
    void opensThroughDap2() {
        const std::string url = (base_ + "/fixture").toStdString();
        OpenNotes notes;
        const Dataset ds = io::openPaths({url}, notes);
        QCOMPARE(ds.format, std::string("OPeNDAP (DAP2)"));
        const Variable* temp = ds.findVariable("temp");
        QVERIFY(temp);
        QCOMPARE(temp->dims(), (std::vector<std::string>{"time", "lat", "lon"}));
        QCOMPARE(temp->shape(), (std::vector<std::int64_t>{3, 4, 5}));
        QCOMPARE(ds["temp"].attrs().text("units").value_or(""), std::string("K"));
        QVERIFY(bytesOf(ds["temp"].load(Device::host(), Stream::host())) == expected("temp"));
        QVERIFY(bytesOf(ds["count"].load(Device::host(), Stream::host())) == expected("count"));
        // days since 2000-01-01: 0, 31, 59 are 1 January, 1 February and 29 February 2000.
        const auto& dates = ds.coords.find("time")->time->dates;
        QCOMPARE(dates.size(), std::size_t(3));
        QCOMPARE((std::vector<int>{dates[1].year, dates[1].month, dates[1].day}),
                 (std::vector<int>{2000, 2, 1}));
        QCOMPARE((std::vector<int>{dates[2].year, dates[2].month, dates[2].day}),
                 (std::vector<int>{2000, 2, 29}));
    }

    // A strided part: the values the fixture holds there.
    void stridedRead() {
        const Dataset ds = openDataset((base_ + "/fixture").toStdString());
        const DataArray part =
            ds["temp"].isel({Indexer{"time", Slice{0, 3, 2}}, Indexer{"lon", Slice{1, 5, 2}}});
        const std::vector<unsigned char> all = expected("temp");
        std::vector<unsigned char> want;
        for (int t : {0, 2})
            for (int y = 0; y < 4; ++y)
                for (int x : {1, 3}) {
                    const std::size_t at = std::size_t((t * 4 + y) * 5 + x) * 4;
                    want.insert(want.end(), all.begin() + std::ptrdiff_t(at),
                                all.begin() + std::ptrdiff_t(at + 4));
                }
        QVERIFY(bytesOf(contiguous(part.load(Device::host(), Stream::host()), Stream::host())) == want);
        // netCDF-C's DAP2 client fetched the values (a small variable whole, then cut here).
        QVERIFY2(!requests().filter("/fixture.dods").isEmpty(), qPrintable(requests().join("; ")));
    }

    // A path the server does not have (404), and no server at all: errors naming the URL.
    void wrongUrlsNameTheUrl_data() {
        QTest::addColumn<QString>("url");
        QTest::newRow("404") << "/missing";
        QTest::newRow("no server") << "http://127.0.0.1:1/fixture";
    }
    void wrongUrlsNameTheUrl() {
        QFETCH(QString, url);
        const std::string u = (url.startsWith("/") ? base_ + url : url).toStdString();
        try {
            OpenNotes notes;
            io::openPaths({u}, notes);
            QFAIL("opened");
        } catch (const NetcdfError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("'" + u + "'") != std::string::npos &&
                         what.find("OPeNDAP") != std::string::npos,
                     what.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestOpendap)
#include "tst_opendap.moc"
