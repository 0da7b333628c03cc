// Zarr stores served over HTTP by a local server (tests/io/zarr_http_server.py), read through
// libcurl: the same values as the local store (whose values tst_zarr checks against zarr and
// xarray), 404 as the fill value, retries after dropped connections and 503s, reused
// connections, a bearer token sent and never shown, slow answers, Cancel (every read, and a
// load's or an open's own cancel flag: the window's Cancel buttons); retries that run out,
// 429 retried and 403 not, a stalled transfer under STRATA_HTTP_TIMEOUT, a URL's credentials
// kept out of messages, a chunk larger than it may be.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <thread>

#include "strata/core/cancel.h"
#include "strata/core/error.h"
#include "strata/core/residency.h"
#include "strata/core/streaming.h"
#include "strata/io/multifile.h"
#include "strata/io/netcdf.h"
#include "strata/io/zarr.h"

using namespace strata;

namespace {

std::vector<unsigned char> readWhole(const Variable& v) {
    std::vector<unsigned char> out(std::size_t(v.size()) * sizeOf(v.encoding().packed));
    const std::vector<std::int64_t> zero(v.shape().size(), 0), one(v.shape().size(), 1);
    v.source()->read(zero, v.shape(), one, out.data());
    return out;
}

std::vector<unsigned char> fileBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    return {b.begin(), b.end()};
}

} // namespace

class TestZarrHttp : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::vector<std::unique_ptr<QProcess>> servers_;
    QString log_;

    // Starts a server over the stores with `options`; returns the stores' base URL.
    QString serve(const QStringList& options = {}) {
        log_ = dir_.path() + "/log" + QString::number(servers_.size()) + ".txt";
        auto p = std::make_unique<QProcess>();
        p->start("/usr/bin/python3", QStringList{QString(STRATA_SOURCE_DIR) + "/tests/io/zarr_http_server.py",
                                                 dir_.path(), log_} +
                                         options);
        if (!p->waitForStarted(30000)) return {};
        while (!p->canReadLine())
            if (!p->waitForReadyRead(30000)) return {};
        const QString port = QString::fromUtf8(p->readLine()).trimmed();
        servers_.push_back(std::move(p));
        return "http://127.0.0.1:" + port;
    }
    QStringList logLines() const {
        QFile f(log_);
        if (!f.open(QIODevice::ReadOnly)) return {};
        return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    }

    // Chunk requests the server received (held with --hold), and answers it sent in full.
    QStringList chunkRequests() const {
        QStringList out;
        for (const QString& l : logLines())
            if (!l.startsWith("done ") && !l.contains("/.z")) out << l;
        return out;
    }
    QStringList doneLines() const {
        QStringList out;
        for (const QString& l : logLines())
            if (l.startsWith("done ")) out << l;
        return out;
    }
    // Runs `work` on a thread, cancels `cancel` once the server has logged a request (a chunk's,
    // when `chunks`), and says how `work` ended: "done", "cancelled: <message>" or the error.
    std::string cancelledOnceAsked(const CancelToken& cancel, const std::function<void()>& work,
                                   bool chunks) {
        std::string outcome;
        std::thread worker([&] {
            try {
                work();
                outcome = "done";
            } catch (const CancelledError& e) {
                outcome = std::string("cancelled: ") + e.what();
            } catch (const std::exception& e) {
                outcome = e.what();
            }
        });
        const bool asked = QTest::qWaitFor(
            [&] { return chunks ? !chunkRequests().isEmpty() : !logLines().isEmpty(); }, 60000);
        cancel.cancel();
        worker.join();
        return asked ? outcome : "no request came: " + outcome;
    }
    // While the file exists, a --hold server holds every chunk's answer.
    bool hold(bool on) {
        QFile f(dir_.path() + "/HOLD");
        if (!on) return f.remove() || !f.exists();
        return f.open(QIODevice::WriteOnly);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QProcess py;
        py.start("/usr/bin/python3", {QString(STRATA_SOURCE_DIR) + "/tests/io/zarr_stores.py", dir_.path()});
        QVERIFY(py.waitForFinished(240000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    }
    void cleanupTestCase() {
        for (auto& p : servers_) {
            p->kill();
            p->waitForFinished(10000);
        }
    }

    // A consolidated store (xarray's to_zarr) reads over HTTP as it reads from its directory.
    void consolidatedStoreAsLocal() {
        const QString base = serve();
        QVERIFY(!base.isEmpty());
        const std::string url = (base + "/cf.zarr").toStdString();
        QVERIFY(looksLikeZarr(url));
        const Dataset remote = openDataset(url);
        const Dataset local = openDataset((dir_.path() + "/cf.zarr").toStdString());
        QCOMPARE(remote.path, url);
        QCOMPARE(remote.format, std::string("Zarr v2"));
        for (const char* name : {"temp", "packed"}) {
            const auto a = remote[name].load(Device::host(), Stream::host()).values<double>();
            const auto b = local[name].load(Device::host(), Stream::host()).values<double>();
            QCOMPARE(a.size(), b.size());
            QVERIFY(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
        }
        QCOMPARE(remote.coords.find("time")->time->dates, local.coords.find("time")->time->dates);
        QCOMPARE(remote.findGroup("/ocean")["depth"].load(Device::host(), Stream::host()).values<double>(),
                 (std::vector<double>{5, 10, 20}));
    }

    // 404 on a chunk: the fill value; the chunk was asked for.
    void missingChunkIsFill() {
        const QString base = serve();
        const Dataset ds = openDataset((base + "/fill_number.zarr").toStdString());
        QVERIFY(readWhole(*ds.findVariable("fill_number")) == fileBytes(dir_.path() + "/fill_number.bin"));
        QVERIFY(logLines().filter(" /fill_number.zarr/1.1 ").size() == 1);
    }

    // Every GET dropped once and answered 503 once before it is served: the values arrive.
    void retriesAfterDropsAnd503() {
        const QString base = serve({"--flaky"});
        const Dataset ds = openDataset((base + "/codec_zstd.zarr").toStdString());
        QVERIFY(readWhole(*ds.findVariable("codec_zstd")) == fileBytes(dir_.path() + "/codec_zstd.bin"));
        QCOMPARE(logLines().filter(" /codec_zstd.zarr/2.2 ").size(), 3);
        QCOMPARE(logLines().filter(" /codec_zstd.zarr/0.0 ").size(), 3);
    }

    // Connections are kept open between GETs.
    void connectionsReused() {
        const QString base = serve();
        const Dataset ds = openDataset((base + "/codec_none.zarr").toStdString());
        QVERIFY(readWhole(*ds.findVariable("codec_none")) == fileBytes(dir_.path() + "/codec_none.bin"));
        QSet<QString> ports;
        const QStringList lines = logLines();
        for (const QString& l : lines) ports.insert(l.section(' ', 0, 0));
        QVERIFY2(lines.size() >= 11 && ports.size() < lines.size() / 2,
                 qPrintable(QString("%1 requests over %2 connections").arg(lines.size()).arg(ports.size())));
    }

    // A token from the environment is sent, and shown nowhere.
    void tokenSentNeverShown() {
        const QByteArray secret = "s3cr3t-t0ken-value";
        const QString base = serve({"--token", secret});
        const std::string url = (base + "/codec_lz4.zarr").toStdString();
        qunsetenv("STRATA_HTTP_TOKEN");
        QString message;
        try {
            (void)openDataset(url);
        } catch (const NetcdfError& e) {
            message = e.what();
        }
        QVERIFY2(message.contains("HTTP 401") && message.contains(QString::fromStdString(url)),
                 qPrintable(message));
        // A 401 is an answer, not a failure to get one: each key was asked once, not again.
        QStringList asked;
        for (const QString& l : logLines()) asked << l.section(' ', 1, 1);
        QVERIFY(!asked.isEmpty());
        QCOMPARE(QSet<QString>(asked.begin(), asked.end()).size(), asked.size());
        qputenv("STRATA_HTTP_TOKEN", "wrong-" + secret);
        message.clear();
        try {
            (void)openDataset(url);
        } catch (const NetcdfError& e) {
            message = e.what();
        }
        QVERIFY2(message.contains("HTTP 401") && !message.contains(secret), qPrintable(message));
        qputenv("STRATA_HTTP_TOKEN", secret);
        OpenNotes notes;
        const Dataset ds = openDataset(url, notes);
        QVERIFY(readWhole(*ds.findVariable("codec_lz4")) == fileBytes(dir_.path() + "/codec_lz4.bin"));
        for (const auto& line : notes.lines) QVERIFY(line.find(secret.toStdString()) == std::string::npos);
        QVERIFY(ds.findVariable("codec_lz4")->source()->describe().find(secret.toStdString()) ==
                std::string::npos);
        qunsetenv("STRATA_HTTP_TOKEN");
        QVERIFY(logLines().filter(" yes").size() > 0);
    }

    // Slow answers are waited for.
    void slowAnswers() {
        const QString base = serve({"--slow", "0.2"});
        const Dataset ds = openDataset((base + "/fill_int.zarr").toStdString());
        QVERIFY(readWhole(*ds.findVariable("fill_int")) == fileBytes(dir_.path() + "/fill_int.bin"));
    }

    // A store that is a group without consolidated metadata cannot be listed over HTTP: a note.
    void unlistedGroupIsANote() {
        QDir().mkpath(dir_.path() + "/plain.zarr/a");
        QFile g(dir_.path() + "/plain.zarr/.zgroup");
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(R"({"zarr_format": 2})");
        g.close();
        const QString base = serve();
        OpenNotes notes;
        const Dataset ds = openZarr((base + "/plain.zarr").toStdString(), notes);
        QVERIFY(ds.variables.empty());
        QVERIFY(!notes.lines.empty() && notes.lines[0].find("cannot be listed") != std::string::npos);
    }

    // The error a whole read of `variable` in the store at `url` ends with ("" when it reads).
    static QString readError(const std::string& url, const char* variable) {
        try {
            const Dataset ds = openDataset(url);
            (void)readWhole(*ds.findVariable(variable));
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
        return {};
    }
    int requestsFor(const QString& path) const { return logLines().filter(" " + path + " ").size(); }

    // A chunk answered 503 every time: tried five times (0.1 + 0.2 + 0.4 + 0.8 s apart), then
    // an error naming the chunk's URL and the last answer.
    void retriesRunOut() {
        const QString base = serve({"--chunk-status", "503"});
        const QString why = readError((base + "/fill_int.zarr").toStdString(), "fill_int");
        const QRegularExpression named(QRegularExpression::escape(base) +
                                       "/fill_int.zarr/([0-2]): the server answered HTTP 503");
        const QRegularExpressionMatch m = named.match(why);
        QVERIFY2(m.hasMatch(), qPrintable(why));
        QCOMPARE(requestsFor("/fill_int.zarr/" + m.captured(1)), 5);
    }

    // 429 (too many requests) is asked again, and the values arrive; 403 is final at once.
    void tooManyRequestsRetriedForbiddenNot() {
        const QString base = serve({"--chunk-status", "429:2"});
        const Dataset ds = openDataset((base + "/codec_none.zarr").toStdString());
        QVERIFY(readWhole(*ds.findVariable("codec_none")) == fileBytes(dir_.path() + "/codec_none.bin"));
        QCOMPARE(requestsFor("/codec_none.zarr/0.0"), 3);
        const QString forbidden = serve({"--chunk-status", "403"});
        const QString why = readError((forbidden + "/fill_int.zarr").toStdString(), "fill_int");
        QVERIFY2(why.contains("/fill_int.zarr/") && why.contains("HTTP 403"), qPrintable(why));
        for (const char* chunk : {"/fill_int.zarr/0", "/fill_int.zarr/1", "/fill_int.zarr/2"})
            QVERIFY2(requestsFor(chunk) <= 1, chunk);
    }

    // A transfer that stops sending (headers and half the body, then 60 s of nothing) is given up
    // once it has sent less than a byte a second for STRATA_HTTP_TIMEOUT seconds (libcurl
    // averages over its last 5 s or so: about 7 s here), and asked again: the second answer is
    // whole, and the one chunk's values arrive long before the stall would end.
    void stalledTransferTimesOut() {
        const QString base = serve({"--stall", "60:1"});
        qputenv("STRATA_HTTP_TIMEOUT", "1");
        const auto start = std::chrono::steady_clock::now();
        const Dataset ds = openDataset((base + "/scalar.zarr").toStdString());
        const bool same = readWhole(*ds.findVariable("scalar")) == fileBytes(dir_.path() + "/scalar.bin");
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        qunsetenv("STRATA_HTTP_TIMEOUT");
        QVERIFY(same);
        QVERIFY2(seconds < 30, qPrintable(QString("%1 s").arg(seconds)));
        QCOMPARE(requestsFor("/scalar.zarr/0"), 2);
    }

    // user:password@ in a URL reaches the server but no message, name or description.
    void credentialsStayOutOfMessages() {
        const QString base = serve({"--token", "only-this"});
        const QString port = base.section(':', 2);
        const QString url = "http://alice:pa55w0rd@127.0.0.1:" + port + "/codec_lz4.zarr";
        QString why;
        try {
            (void)openDataset(url.toStdString());
        } catch (const NetcdfError& e) {
            why = e.what();
        }
        QVERIFY2(why.contains("HTTP 401") && why.contains("http://127.0.0.1:" + port + "/codec_lz4.zarr"),
                 qPrintable(why));
        QVERIFY2(!why.contains("pa55w0rd") && !why.contains("alice"), qPrintable(why));
        const QString plain = serve();
        const QString good = "http://alice:pa55w0rd@127.0.0.1:" + plain.section(':', 2) + "/codec_lz4.zarr";
        const Dataset ds = openDataset(good.toStdString());
        const std::string described = ds.findVariable("codec_lz4")->source()->describe();
        QVERIFY2(described.find("pa55w0rd") == std::string::npos, described.c_str());
        QVERIFY(readWhole(*ds.findVariable("codec_lz4")) == fileBytes(dir_.path() + "/codec_lz4.bin"));
    }

    // A chunk far larger than its array's chunks can be compressed to (3 MiB for 120 bytes) is
    // refused while it arrives, naming the key and the limit.
    void oversizeChunkIsRefused() {
        const QString store = dir_.path() + "/oversize.zarr";
        QVERIFY(QDir().mkpath(store));
        for (const char* key : {".zarray", ".zattrs"})
            if (QFile::exists(dir_.path() + "/codec_none.zarr/" + key))
                QVERIFY(QFile::copy(dir_.path() + "/codec_none.zarr/" + key, store + "/" + key));
        QFile big(store + "/0.0");
        QVERIFY(big.open(QIODevice::WriteOnly));
        big.write(QByteArray(3 << 20, '\0'));
        big.close();
        const QString base = serve();
        QString why;
        try {
            const Dataset ds = openDataset((base + "/oversize.zarr").toStdString());
            (void)readWhole(*ds.findVariable("oversize"));
        } catch (const std::exception& e) {
            why = e.what();
        }
        QVERIFY2(why.contains("key '0.0' holds more than the") && why.contains("it may hold"),
                 qPrintable(why));
    }

    // A token made the reading thread's stops a read waiting on a transfer.
    void cancelStopsATransfer() {
        const QString base = serve({"--slow", "20"});
        const CancelToken cancel;
        const std::string outcome = cancelledOnceAsked(
            cancel,
            [&] {
                const CancelScope scope(cancel);
                OpenNotes notes;
                const Dataset remote = openZarr((base + "/codec_gzip.zarr").toStdString(), notes);
            },
            false);
        QVERIFY2(outcome.rfind("cancelled: ", 0) == 0, outcome.c_str());
    }

    // A load's cancel flag (the window's "Cancel load", the residency's) aborts the chunk
    // transfers the load waits on: it ends cancelled with no chunk sent in full (without the
    // scope it would wait on the held answers), and a load afterwards reads the values.
    void loadCancelAbortsTransfers() {
        QVERIFY(hold(true));
        const QString base = serve({"--hold"});
        QVERIFY(!base.isEmpty());
        const Dataset ds = openDataset((base + "/codec_zstd.zarr").toStdString());
        const DataArray var = ds["codec_zstd"];
        const CancelToken cancel;
        const std::string outcome = cancelledOnceAsked(
            cancel, [&] { loadWhole(var, Device::host(), Stream::host(), {}, cancel); }, true);
        QVERIFY2(outcome.rfind("cancelled: ", 0) == 0, outcome.c_str());
        QVERIFY2(doneLines().isEmpty(), qPrintable(doneLines().join("; ")));
        QVERIFY(hold(false));
        const DataArray again = loadWhole(var, Device::host(), Stream::host(), {}, CancelToken());
        QVERIFY(again.isLoaded());
        const Variable& v = again.variable();
        const auto* p = static_cast<const unsigned char*>(v.buffer()->data());
        const std::vector<unsigned char> got(p, p + v.nbytes());
        QVERIFY(got == fileBytes(dir_.path() + "/codec_zstd.bin"));
    }

    // A streamed reduction's token reaches the reads of its slabs, made on other threads: it ends
    // with CancelledError and no chunk sent in full (without the token there, it would wait on
    // the held answers).
    void streamedReductionCancelAbortsTransfers() {
        QVERIFY(hold(true));
        const QString base = serve({"--hold"});
        QVERIFY(!base.isEmpty());
        const Dataset ds = openDataset((base + "/codec_zstd.zarr").toStdString());
        const DataArray var = ds["codec_zstd"];
        const CancelToken cancel;
        const std::string outcome = cancelledOnceAsked(
            cancel,
            [&] {
                reduceStreamed(var, var.dims()[0], ReduceOp::Mean, Device::host(), Stream::host(),
                               std::size_t(1) << 10, cancel);
            },
            true);
        QVERIFY2(outcome.rfind("cancelled: ", 0) == 0, outcome.c_str());
        QVERIFY2(doneLines().isEmpty(), qPrintable(doneLines().join("; ")));
        QVERIFY(hold(false));
    }

    // The residency's cancel: the key goes back to None at once, and its loader, joined by the
    // residency's destructor, ends without waiting on the held answers.
    void residencyCancelAbortsTransfers() {
        QVERIFY(hold(true));
        const QString base = serve({"--hold"});
        QVERIFY(!base.isEmpty());
        const Dataset ds = openDataset((base + "/codec_lz4.zarr").toStdString());
        {
            Residency residency(std::size_t(1) << 30);
            residency.request("codec_lz4", ds["codec_lz4"], Device::host());
            QTRY_VERIFY_WITH_TIMEOUT(!chunkRequests().isEmpty(), 60000);
            QCOMPARE(residency.status("codec_lz4").state, Residence::Loading);
            residency.cancel("codec_lz4");
            QCOMPARE(residency.status("codec_lz4").state, Residence::None);
        } // waits for the loader
        QVERIFY2(doneLines().isEmpty(), qPrintable(doneLines().join("; ")));
        QVERIFY(hold(false));
    }

    // An open's token (the window's Cancel while opening) stops the metadata's transfer: the
    // open, as the window makes it, throws CancelledError naming the store.
    void openCancelStopsTheOpen() {
        const QString base = serve({"--slow", "600"});
        QVERIFY(!base.isEmpty());
        io::MultiOpenOptions options;
        const std::string outcome = cancelledOnceAsked(
            options.cancel,
            [&] {
                OpenNotes notes;
                openPaths({(base + "/codec_lz4.zarr").toStdString()}, notes, options);
            },
            false);
        QVERIFY2(outcome.rfind("cancelled: ", 0) == 0 && outcome.find("codec_lz4.zarr") != std::string::npos,
                 outcome.c_str());
    }
};

QTEST_GUILESS_MAIN(TestZarrHttp)
#include "tst_zarr_http.moc"
