// Damaged GRIB files, made here from tests/data/grib/mixed.grib2 (10 messages) by cutting and
// patching bytes: each damage is named in a note with the file and the message's number, the
// message is left out, and the rest of the file reads as it did. A file with nothing to read,
// and a message whose values ecCodes cannot decode, throw NetcdfError naming the file and the
// message. Nothing crashes.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "note_checks.h"
#include "strata/core/error.h"
#include "strata/io/grib.h"
#include "strata/io/netcdf.h"

using namespace strata;

using nctest::anyNoteHas;

namespace {

using Bytes = std::vector<unsigned char>;

Bytes readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), {});
}

std::uint64_t bigEndian(const unsigned char* p, int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
    return v;
}

void putBigEndian(unsigned char* p, int n, std::uint64_t v) {
    for (int i = n - 1; i >= 0; --i, v >>= 8) p[i] = static_cast<unsigned char>(v & 0xff);
}

// Where each message of a GRIB 2 file starts, and its length (from its own header).
std::vector<std::pair<std::size_t, std::size_t>> messages(const Bytes& b) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t at = 0; at + 16 <= b.size();) {
        const std::size_t length = bigEndian(&b[at + 8], 8);
        out.emplace_back(at, length);
        at += length;
    }
    return out;
}

// The offset of GRIB 2 section `number` in the message at `at`.
std::size_t section(const Bytes& b, std::size_t at, int number) {
    std::size_t p = at + 16;
    while (b[p + 4] != number) p += bigEndian(&b[p], 4);
    return p;
}

QString allNotes(const OpenNotes& notes) {
    QString s;
    for (const auto& l : notes.lines) s += QString::fromStdString(l) + "\n";
    return s;
}

} // namespace

class TestGribBad : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Bytes good_;
    std::vector<std::pair<std::size_t, std::size_t>> at_;

    std::string write(const char* name, const Bytes& b) {
        const std::string path = dir_.filePath(name).toStdString();
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
        return path;
    }

    // The intact file's t2m, t (850/500 hPa) and tp: what a damaged copy must still give where
    // its messages are intact.
    void restReads(const Dataset& ds, const std::string& skippedGroup) {
        const Dataset intact = openDataset(std::string(STRATA_TEST_DATA) + "/grib/mixed.grib2");
        for (const char* g : {"heightAboveGround_instant", "isobaricInhPa_instant", "surface_accum"}) {
            if (g == skippedGroup) continue;
            const Dataset& mine = ds.findGroup(g);
            const Dataset& theirs = intact.findGroup(g);
            for (const std::string& v : theirs.dataVariables()) {
                const auto a = mine[v].asHost().values<double>(), b = theirs[v].asHost().values<double>();
                QCOMPARE(a.size(), b.size());
                for (std::size_t i = 0; i < a.size(); ++i) QVERIFY(a[i] == b[i]);
            }
        }
    }

private slots:
    void initTestCase() {
        if (!io::gribSupported()) QSKIP("built without ecCodes");
        QVERIFY(dir_.isValid());
        good_ = readBytes(std::string(STRATA_TEST_DATA) + "/grib/mixed.grib2");
        at_ = messages(good_);
        QCOMPARE(at_.size(), std::size_t(10)); // 2t, t 850, t 500, t surface, tp; twice
    }

    // Message 4 (t at the surface, step 6) cut to half: the next message starts inside it.
    void truncatedMessage() {
        Bytes b(good_.begin(), good_.begin() + std::ptrdiff_t(at_[3].first + at_[3].second / 2));
        b.insert(b.end(), good_.begin() + std::ptrdiff_t(at_[4].first), good_.end());
        OpenNotes notes;
        const Dataset ds = openDataset(write("cut.grib2", b), notes);
        QVERIFY2(anyNoteHas(notes, {"cut.grib2", "message 4 ", "truncated", "skipped"}),
                 qPrintable(allNotes(notes)));
        restReads(ds, "");
        // The surface t lost step 6: its group's step is 12 alone, a scalar.
        const Dataset& sfc = ds.findGroup("surface_instant");
        QCOMPARE(sfc.findVariable("t")->dims(), (std::vector<std::string>{"latitude", "longitude"}));
        QCOMPARE(sfc.coords.find("step")->values, std::vector<double>{12});
    }

    // The last message cut short at the end of the file.
    void truncatedAtTheEnd() {
        const Bytes b(good_.begin(), good_.end() - 100);
        OpenNotes notes;
        const Dataset ds = openDataset(write("end.grib2", b), notes);
        QVERIFY2(anyNoteHas(notes, {"end.grib2", "message 10 ", "truncated", "the file holds"}),
                 qPrintable(allNotes(notes)));
        QCOMPARE(ds.groups.size(), std::size_t(4));
    }

    // Message 2's length says 8 bytes more, then 8 bytes less, than it has.
    void badLength() {
        for (const int delta : {8, -8}) {
            Bytes b = good_;
            putBigEndian(&b[at_[1].first + 8], 8, at_[1].second + std::uint64_t(std::int64_t(delta)));
            OpenNotes notes;
            const Dataset ds = openDataset(write("length.grib2", b), notes);
            QVERIFY2(anyNoteHas(notes, {"length.grib2", "message 2 ", "bad length", "skipped"}),
                     qPrintable(allNotes(notes)));
            restReads(ds, "isobaricInhPa_instant");
            QVERIFY(anyNoteHas(notes, {"isobaricInhPa_instant/t", "1 of 4 fields", "NaN"}));
        }
    }

    // Message 5 (tp) with a data representation template ecCodes does not know (255).
    void unknownPacking() {
        Bytes b = good_;
        const std::size_t s5 = section(b, at_[4].first, 5);
        putBigEndian(&b[s5 + 9], 2, 255);
        OpenNotes notes;
        const Dataset ds = openDataset(write("packing.grib2", b), notes);
        QVERIFY2(anyNoteHas(notes, {"packing.grib2", "message 5 ", "packing", "skipped"}),
                 qPrintable(allNotes(notes)));
        const Dataset& accum = ds.findGroup("surface_accum");
        QCOMPARE(accum.coords.find("step")->values, std::vector<double>{12});
        QCOMPARE(accum.findVariable("tp")->dims(), (std::vector<std::string>{"latitude", "longitude"}));
    }

    // Message 3's grid says 17 points a row where its values are for 16.
    void gridDisagreesWithValues() {
        Bytes b = good_;
        const std::size_t s3 = section(b, at_[2].first, 3);
        QCOMPARE(bigEndian(&b[s3 + 30], 4), std::uint64_t(16)); // Ni
        putBigEndian(&b[s3 + 30], 4, 17);
        OpenNotes notes;
        const Dataset ds = openDataset(write("shape.grib2", b), notes);
        QVERIFY2(anyNoteHas(notes, {"shape.grib2", "message 3 ", "17 x 9", "144 values", "skipped"}),
                 qPrintable(allNotes(notes)));
        restReads(ds, "isobaricInhPa_instant");
    }

    // Values that ecCodes cannot decode (message 1 says 60 bits a value; its data section holds
    // 16): reading them throws, naming the file and the message; other variables read.
    void valuesThatCannotBeDecoded() {
        Bytes b = good_;
        const std::size_t s5 = section(b, at_[0].first, 5);
        b[s5 + 19] = 60; // bitsPerValue
        OpenNotes notes;
        const Dataset ds = openDataset(write("bits.grib2", b), notes);
        bool named = false;
        if (const Dataset* g = &ds.findGroup("heightAboveGround_instant"); g->findVariable("t2m")) {
            try {
                (*g)["t2m"].asHost();
            } catch (const NetcdfError& e) {
                const std::string what = e.what();
                named = what.find("bits.grib2") != std::string::npos &&
                        what.find("message 1") != std::string::npos;
                QVERIFY2(named, e.what());
            }
        }
        // Either the index saw it (a note) or the read did (the error above).
        QVERIFY2(named || anyNoteHas(notes, {"bits.grib2", "message 1 "}), qPrintable(allNotes(notes)));
        restReads(ds, "heightAboveGround_instant");
    }

    // Nothing to read: an error naming the file and why.
    void nothingToRead() {
        const std::string garbage = write("garbage.grib2", Bytes(1000, 'x'));
        QVERIFY(looksLikeGrib(garbage));
        try {
            openDataset(garbage);
            QFAIL("a file without messages opened");
        } catch (const NetcdfError& e) {
            QVERIFY2(std::string(e.what()).find("garbage.grib2") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("no GRIB message") != std::string::npos, e.what());
        }
        const std::string empty = write("empty.grb", {});
        QVERIFY_THROWS_EXCEPTION(NetcdfError, openDataset(empty));
        Bytes onlyBad(good_.begin(), good_.begin() + 40); // one message's start
        const std::string head = write("head.grib2", onlyBad);
        try {
            openDataset(head);
            QFAIL("a file of one cut message opened");
        } catch (const NetcdfError& e) {
            QVERIFY2(std::string(e.what()).find("message 1 ") != std::string::npos, e.what());
        }
    }

    // Every cut of the file opens or throws a strata::Error; none crashes.
    void everyCutIsSafe() {
        for (std::size_t n = 0; n < good_.size(); n += 97) {
            const std::string path =
                write("cuts.grib2", Bytes(good_.begin(), good_.begin() + std::ptrdiff_t(n)));
            try {
                OpenNotes notes;
                const Dataset ds = openDataset(path, notes);
                for (const std::string& v : ds.dataVariables()) ds[v].asHost();
                for (const Dataset& g : ds.groups)
                    for (const std::string& v : g.dataVariables()) g[v].asHost();
            } catch (const Error&) {
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestGribBad)
#include "tst_grib_bad.moc"
