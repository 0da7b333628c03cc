// placeChunks(): inflated chunks (shuffled or not, byte-swapped or not) scattered into a
// region, against a reference that follows the definition element by element: every element
// size, 0 to 4 dims, edge chunks, regions that cut through chunks, chunks not stored (fill),
// chunks left out (their elements keep the sentinel bytes dst held), chunks in random order
// and at unaligned offsets. The cuda row places on the GPU and must match the CPU byte for byte.
#include <algorithm>
#include <numeric>

#include "strata/core/buffer.h"
#include "strata/core/chunks.h"
#include "test_util.h"

using namespace strata;
using test::Backend;

namespace {

using Bytes = std::vector<unsigned char>;

// A placement to make: the grid, the variable's shape, the refs, their bytes and dst before.
struct Case {
    ChunkGrid grid;
    std::vector<std::int64_t> dims;
    std::vector<ChunkRef> refs;
    Bytes batch, fill, dst;
    QString text;
};

Bytes randomBytes(std::mt19937_64& rng, std::size_t n) {
    std::uniform_int_distribution<int> byte(0, 255);
    Bytes b(n);
    for (auto& x : b) x = static_cast<unsigned char>(byte(rng));
    return b;
}

std::int64_t chunkElements(const ChunkGrid& g) {
    std::int64_t n = 1;
    for (int d = 0; d < g.ndim; ++d) n *= g.chunk[d];
    return n;
}

std::int64_t regionElements(const ChunkGrid& g) {
    std::int64_t n = 1;
    for (int d = 0; d < g.ndim; ++d) n *= g.shape[d];
    return n;
}

// The definition, one element at a time: chunk element c (C order within the chunk) is
// variable element start + c; its byte k is batch[offset + k * N + c] when shuffled, else
// batch[offset + c * E + k], and lands at byte E - 1 - k of its element when swapped, else k.
Bytes reference(const Case& c) {
    const ChunkGrid& g = c.grid;
    const std::int64_t n = chunkElements(g), e = g.elemSize;
    Bytes out = c.dst;
    for (const ChunkRef& r : c.refs) {
        const bool stored = r.offset != ChunkRef::kNotStored;
        for (std::int64_t i = 0; i < n; ++i) {
            std::int64_t rest = i, at = 0, stride = 1;
            bool inside = true;
            for (int d = g.ndim - 1; d >= 0; --d) {
                const std::int64_t v = r.start[d] + rest % g.chunk[d];
                rest /= g.chunk[d];
                inside = inside && v >= g.origin[d] && v < g.origin[d] + g.shape[d];
                at += (v - g.origin[d]) * stride;
                stride *= g.shape[d];
            }
            if (!inside) continue;
            for (std::int64_t k = 0; k < e; ++k) {
                const std::size_t to = static_cast<std::size_t>(at * e + (stored && g.swap ? e - 1 - k : k));
                if (!stored)
                    out[to] = c.fill[static_cast<std::size_t>(k)];
                else if (g.shuffled)
                    out[to] = c.batch[static_cast<std::size_t>(r.offset + k * n + i)];
                else
                    out[to] = c.batch[static_cast<std::size_t>(r.offset + i * e + k)];
            }
        }
    }
    return out;
}

Buffer onDevice(const Bytes& b, Device d, Stream s) {
    Buffer host(b.size(), Device::host(), Stream::host());
    std::memcpy(host.data(), b.data(), b.size());
    return host.copyTo(d, s);
}

// dst after placing on the backend.
Bytes place(const Backend& b, const Case& c) {
    if (!b.cuda) {
        Bytes dst = c.dst;
        placeChunks(c.grid, c.batch.data(), c.refs, c.fill.data(), dst.data(), Device::host(),
                    Stream::host());
        return dst;
    }
    const Device d = Device::cuda(0);
    const Stream s = defaultStream(d);
    const Buffer batch = onDevice(c.batch, d, s);
    Buffer dst = onDevice(c.dst, d, s);
    placeChunks(c.grid, batch.data(), c.refs, c.fill.data(), dst.data(), d, s);
    const Buffer back = dst.copyTo(Device::host(), s);
    const auto* p = static_cast<const unsigned char*>(back.data());
    return Bytes(p, p + back.size());
}

bool sameBytes(const Bytes& got, const Bytes& want, int elemSize, const QString& what) {
    if (got.size() != want.size()) {
        qWarning().noquote() << what << ": size" << got.size() << "expected" << want.size();
        return false;
    }
    const auto diff = std::mismatch(got.begin(), got.end(), want.begin());
    if (diff.first == got.end()) return true;
    const auto at = diff.first - got.begin();
    qWarning().noquote() << what << ": element" << at / elemSize << "byte" << at % elemSize << "got"
                         << int(*diff.first) << "expected" << int(*diff.second);
    return false;
}

// Places on the backend and checks against the reference (and, on the GPU, against the CPU).
bool placesCorrectly(const Backend& b, const Case& c) {
    const Bytes want = reference(c);
    if (!sameBytes(place(Backend{false}, c), want, c.grid.elemSize, "cpu, " + c.text)) return false;
    return !b.cuda || sameBytes(place(b, c), want, c.grid.elemSize, "cuda, " + c.text);
}

QString describe(const Case& c) {
    const auto list = [&](const std::int64_t* v) {
        QStringList s;
        for (int d = 0; d < c.grid.ndim; ++d) s << QString::number(v[d]);
        return "(" + s.join(",") + ")";
    };
    QStringList dims;
    for (auto x : c.dims) dims << QString::number(x);
    return QString("E=%1%2%3 variable (%4) chunk %5 region %6+%7, %8 refs")
        .arg(c.grid.elemSize)
        .arg(c.grid.shuffled ? " shuffled" : "")
        .arg(c.grid.swap ? " swapped" : "")
        .arg(dims.join(","))
        .arg(list(c.grid.chunk), list(c.grid.origin), list(c.grid.shape))
        .arg(c.refs.size());
}

// Refs for every chunk of the variable's lattice but those `keep` rejects, in random order;
// a share `notStored` of them not stored; the rest laid out in the batch in another random
// order, with `pad` bytes before the first and between chunks. dst: random sentinel bytes.
void addChunks(std::mt19937_64& rng, Case& c, double notStored, double dropped, std::int64_t pad) {
    const ChunkGrid& g = c.grid;
    std::int64_t lattice[kMaxDims] = {}, count = 1;
    for (int d = 0; d < g.ndim; ++d) {
        lattice[d] = (c.dims[static_cast<std::size_t>(d)] + g.chunk[d] - 1) / g.chunk[d];
        count *= lattice[d];
    }
    std::uniform_real_distribution<double> u(0, 1);
    for (std::int64_t i = 0; i < count; ++i) {
        if (u(rng) < dropped) continue;
        ChunkRef r;
        for (std::int64_t rest = i, d = g.ndim - 1; d >= 0; --d) {
            r.start[d] = rest % lattice[d] * g.chunk[d];
            rest /= lattice[d];
        }
        r.offset = u(rng) < notStored ? ChunkRef::kNotStored : 0;
        c.refs.push_back(r);
    }
    std::shuffle(c.refs.begin(), c.refs.end(), rng);
    std::vector<ChunkRef*> stored;
    for (auto& r : c.refs)
        if (r.offset != ChunkRef::kNotStored) stored.push_back(&r);
    std::shuffle(stored.begin(), stored.end(), rng);
    const std::int64_t bytes = chunkElements(g) * g.elemSize;
    for (std::size_t i = 0; i < stored.size(); ++i)
        stored[i]->offset = static_cast<std::uint64_t>(pad + std::int64_t(i) * (bytes + pad));
    c.batch =
        randomBytes(rng, static_cast<std::size_t>(pad + std::int64_t(stored.size()) * (bytes + pad) + 1));
    c.fill = randomBytes(rng, static_cast<std::size_t>(g.elemSize));
    c.dst = randomBytes(rng, static_cast<std::size_t>(regionElements(g) * g.elemSize));
    c.text = describe(c);
}

// A variable of `ndim` dims with random lengths, chunk lengths that mostly do not divide
// them (some longer than the dim, some the whole dim), and a random region inside it.
Case randomCase(std::mt19937_64& rng, int ndim, int elemSize, bool shuffled, bool swap) {
    Case c;
    c.grid.ndim = ndim;
    c.grid.elemSize = elemSize;
    c.grid.shuffled = shuffled;
    c.grid.swap = swap;
    const auto pick = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    for (int d = 0; d < ndim; ++d) {
        const std::int64_t len = pick(1, ndim >= 3 ? 9 : 23);
        c.dims.push_back(len);
        const std::int64_t kind = pick(0, 5);
        c.grid.chunk[d] = kind == 0   ? len
                          : kind == 1 ? len + pick(1, 3)
                                      : pick(1, std::max<std::int64_t>(1, len - 1));
        const bool whole = pick(0, 3) == 0;
        c.grid.origin[d] = whole ? 0 : pick(0, len - 1);
        c.grid.shape[d] = whole ? len : pick(1, len - c.grid.origin[d]);
    }
    addChunks(rng, c, 0.15, 0.1, pick(0, 1) ? 0 : pick(1, 7));
    return c;
}

ChunkGrid validGrid() {
    ChunkGrid g;
    g.ndim = 2;
    g.shape[0] = 4;
    g.shape[1] = 6;
    g.chunk[0] = 2;
    g.chunk[1] = 4;
    return g;
}

void placeHost(const ChunkGrid& g, std::span<const ChunkRef> refs) {
    Bytes batch(1024), fill(8), dst(1024);
    placeChunks(g, batch.data(), refs, fill.data(), dst.data(), Device::host(), Stream::host());
}

} // namespace

class TestChunks : public QObject {
    Q_OBJECT

private slots:
    // Two 16-bit chunks of 3, shuffled and swapped, into elements 2..5 of a 1-D variable.
    void handComputed_data() { STRATA_BACKEND_ROWS(); }
    void handComputed() {
        STRATA_BACKEND(b);
        Case c;
        c.grid.ndim = 1;
        c.grid.elemSize = 2;
        c.grid.shuffled = true;
        c.grid.swap = true;
        c.grid.chunk[0] = 3;
        c.grid.origin[0] = 2;
        c.grid.shape[0] = 4;
        // Chunk 0..2 at offset 6: planes {a0 a1 a2} {b0 b1 b2}; chunk 3..5 at offset 0.
        c.batch = {0x10, 0x11, 0x12, 0x20, 0x21, 0x22, 0xa0, 0xa1, 0xa2, 0xb0, 0xb1, 0xb2};
        ChunkRef first, second;
        first.start[0] = 0;
        first.offset = 6;
        second.start[0] = 3;
        second.offset = 0;
        c.refs = {second, first};
        c.fill = {0, 0};
        c.dst = Bytes(8, 0xee);
        c.text = "hand-computed";
        // Element 2 (the first chunk's last): bytes a2 b2, swapped: b2 a2. Elements 3..5: the
        // second chunk's, each (b_i, a_i) swapped to (0x2i, 0x1i).
        const Bytes want = {0xb2, 0xa2, 0x20, 0x10, 0x21, 0x11, 0x22, 0x12};
        QCOMPARE(reference(c), want);
        QVERIFY(placesCorrectly(b, c));
        // Not stored: the fill's bytes as given (host order, never swapped); a ref left out
        // leaves dst alone.
        c.refs = {first};
        c.refs[0].offset = ChunkRef::kNotStored;
        c.fill = {0x01, 0x02};
        QCOMPARE(reference(c), Bytes({0x01, 0x02, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee}));
        QVERIFY(placesCorrectly(b, c));
    }

    // Every element size, shuffled or not, swapped or not, 0 to 4 dims, on random layouts.
    void everyLayout_data() { STRATA_BACKEND_ROWS(); }
    void everyLayout() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(2026);
        for (int ndim = 0; ndim <= 4; ++ndim)
            for (int elemSize : {1, 2, 4, 8})
                for (bool shuffled : {false, true})
                    for (bool swap : {false, true})
                        for (int rep = 0; rep < (ndim == 0 ? 3 : 12); ++rep) {
                            const Case c = randomCase(rng, ndim, elemSize, shuffled, swap);
                            QVERIFY2(placesCorrectly(b, c), qPrintable(c.text));
                        }
    }

    // Rows r0..r1 of dim 0 of a larger 3-D variable: the chunks at both ends straddle the
    // region, and there are enough of them to spread over threads (and GPU blocks).
    void rowsOfDim0_data() { STRATA_BACKEND_ROWS(); }
    void rowsOfDim0() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(7);
        for (int elemSize : {2, 4, 8})
            for (bool shuffled : {false, true}) {
                Case c;
                c.grid.ndim = 3;
                c.grid.elemSize = elemSize;
                c.grid.shuffled = shuffled;
                c.grid.swap = elemSize == 8;
                c.dims = {61, 45, 70};
                const std::int64_t chunk[3] = {10, 16, 24};
                for (int d = 0; d < 3; ++d) {
                    c.grid.chunk[d] = chunk[d];
                    c.grid.shape[d] = c.dims[static_cast<std::size_t>(d)];
                }
                c.grid.origin[0] = 13;
                c.grid.shape[0] = 44 - 13;
                addChunks(rng, c, 0.05, 0.0, 0);
                QVERIFY2(placesCorrectly(b, c), qPrintable(c.text));
            }
    }

    // A few chunks, each larger than the region's share of a thread: the host cuts each
    // chunk's rows across threads; the GPU spreads each over many blocks.
    void fewLargeChunks_data() { STRATA_BACKEND_ROWS(); }
    void fewLargeChunks() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(11);
        Case c;
        c.grid.ndim = 2;
        c.grid.elemSize = 4;
        c.grid.shuffled = true;
        c.dims = {700, 900};
        c.grid.chunk[0] = 512;
        c.grid.chunk[1] = 1024;
        c.grid.origin[0] = 9;
        c.grid.origin[1] = 3;
        c.grid.shape[0] = 680;
        c.grid.shape[1] = 890;
        addChunks(rng, c, 0.0, 0.0, 4);
        QVERIFY2(placesCorrectly(b, c), qPrintable(c.text));
    }

    // Chunks that span the trailing dims whole, so that their rows run on in memory (the
    // placement may walk them as fewer dims); and one dim whole between two that are not.
    void wholeTrailingDims_data() { STRATA_BACKEND_ROWS(); }
    void wholeTrailingDims() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(5);
        const std::vector<std::vector<std::int64_t>> chunks = {{3, 30, 40}, {3, 7, 40}, {4, 30, 9}};
        for (const auto& chunk : chunks) {
            Case c;
            c.grid.ndim = 3;
            c.grid.elemSize = 4;
            c.grid.swap = true;
            c.dims = {20, 30, 40};
            for (int d = 0; d < 3; ++d) {
                c.grid.chunk[d] = chunk[static_cast<std::size_t>(d)];
                c.grid.shape[d] = c.dims[static_cast<std::size_t>(d)];
            }
            c.grid.origin[0] = 4;
            c.grid.shape[0] = 13;
            addChunks(rng, c, 0.2, 0.1, 0);
            QVERIFY2(placesCorrectly(b, c), qPrintable(c.text));
        }
    }

    // A scalar: one element, from its chunk or the fill; no refs leave it alone.
    void scalar_data() { STRATA_BACKEND_ROWS(); }
    void scalar() {
        STRATA_BACKEND(b);
        Case c;
        c.grid.ndim = 0;
        c.grid.elemSize = 4;
        c.grid.swap = true;
        c.batch = {9, 1, 2, 3, 4};
        c.fill = {5, 6, 7, 8};
        c.dst = {0xee, 0xee, 0xee, 0xee};
        ChunkRef r;
        r.offset = 1;
        c.refs = {r};
        c.text = "scalar";
        QVERIFY(placesCorrectly(b, c));
        QCOMPARE(reference(c), Bytes({4, 3, 2, 1}));
        c.refs[0].offset = ChunkRef::kNotStored;
        QVERIFY(placesCorrectly(b, c));
        QCOMPARE(reference(c), Bytes({5, 6, 7, 8}));
        c.refs.clear();
        QVERIFY(placesCorrectly(b, c));
        QCOMPARE(place(b, c), c.dst);
    }

    void invalidGrids() {
        ChunkRef origin;
        origin.offset = 0;
        const std::vector<ChunkRef> one = {origin};
        QVERIFY_THROWS_NO_EXCEPTION(placeHost(validGrid(), one));
        const auto broken = [](auto change) {
            ChunkGrid g = validGrid();
            change(g);
            return g;
        };
        QVERIFY_THROWS_EXCEPTION(ValueError, placeHost(broken([](ChunkGrid& g) { g.ndim = -1; }), one));
        QVERIFY_THROWS_EXCEPTION(ValueError,
                                 placeHost(broken([](ChunkGrid& g) { g.ndim = kMaxDims + 1; }), one));
        QVERIFY_THROWS_EXCEPTION(ValueError, placeHost(broken([](ChunkGrid& g) { g.chunk[1] = 0; }), one));
        QVERIFY_THROWS_EXCEPTION(ValueError, placeHost(broken([](ChunkGrid& g) { g.chunk[0] = -2; }), one));
        QVERIFY_THROWS_EXCEPTION(ValueError, placeHost(broken([](ChunkGrid& g) { g.shape[0] = -1; }), one));
        QVERIFY_THROWS_EXCEPTION(ValueError, placeHost(broken([](ChunkGrid& g) { g.origin[1] = -1; }), one));
        for (int size : {0, 3, 5, 16})
            QVERIFY_THROWS_EXCEPTION(ValueError,
                                     placeHost(broken([&](ChunkGrid& g) { g.elemSize = size; }), one));
        QVERIFY_THROWS_EXCEPTION(ValueError, placeHost(broken([](ChunkGrid& g) {
                                                           g.chunk[0] = std::int64_t(1) << 20;
                                                           g.chunk[1] = std::int64_t(1) << 20;
                                                       }),
                                                       one));
        // Refs off the chunk lattice, also ones that miss the region.
        for (std::int64_t start : {1, 3, -2, -4, 400002}) {
            ChunkRef r = origin;
            r.start[1] = start;
            QVERIFY_THROWS_EXCEPTION(ValueError, placeHost(validGrid(), std::vector<ChunkRef>{origin, r}));
        }
        // Missing inputs that a chunk in the region needs.
        ChunkRef notStored;
        Bytes buffer(1024);
        QVERIFY_THROWS_EXCEPTION(ValueError,
                                 placeChunks(validGrid(), buffer.data(), std::span(&notStored, 1), nullptr,
                                             buffer.data(), Device::host(), Stream::host()));
        QVERIFY_THROWS_EXCEPTION(ValueError, placeChunks(validGrid(), nullptr, one, buffer.data(),
                                                         buffer.data(), Device::host(), Stream::host()));
        QVERIFY_THROWS_EXCEPTION(ValueError, placeChunks(validGrid(), buffer.data(), one, buffer.data(),
                                                         nullptr, Device::host(), Stream::host()));
        // A CUDA device with a stream of another device.
        QVERIFY_THROWS_EXCEPTION(ValueError, placeChunks(validGrid(), buffer.data(), one, buffer.data(),
                                                         buffer.data(), Device::cuda(0), Stream::host()));
    }
};

QTEST_APPLESS_MAIN(TestChunks)
#include "tst_chunks.moc"
