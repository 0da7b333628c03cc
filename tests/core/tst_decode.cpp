// decodeCf(): CF masking on the packed values (fill values, valid_min/valid_max → NaN) then
// packed · scale + offset in double, cast to the decoded type — hand-computed cases, every
// packed type against a plain-loop reference, long inputs, and the checks. The cuda row
// decodes packed values already on the GPU and compares with the CPU.
#include "../../core/src/decode.h"
#include "test_util.h"

using namespace strata;
using test::Backend;

namespace {

// The packed values as typed bytes on the host.
Buffer packedBuffer(DType t, const std::vector<double>& v) {
    Buffer b(v.size() * sizeOf(t), Device::host(), Stream::host());
    visitNumeric(t, [&](auto tag) {
        using T = decltype(tag);
        T* p = static_cast<T*>(b.data());
        for (std::size_t i = 0; i < v.size(); ++i) p[i] = static_cast<T>(v[i]);
    });
    return b;
}

ArrayView flatView(const void* data, DType t, std::int64_t n) {
    ArrayView a;
    a.data = data;
    a.dtype = t;
    a.ndim = 1;
    a.shape[0] = n;
    a.strides[0] = 1;
    return a;
}

// Decodes on the backend (packed values moved there first); the decoded values on the host.
std::vector<double> decodeOn(const Backend& b, const std::vector<double>& packed, const CfEncoding& enc) {
    const Buffer host = packedBuffer(enc.packed, packed);
    const Device d = b.cuda ? Device::cuda(0) : Device::host();
    const Stream s = b.cuda ? defaultStream(d) : Stream::host();
    const Buffer there = b.cuda ? host.copyTo(d, s) : Buffer();
    const Buffer& src = b.cuda ? there : host;
    const auto once = [&](int pattern) {
        detail::setPoisonPattern(pattern);
        Buffer out =
            detail::decodeCf(flatView(src.data(), enc.packed, std::int64_t(packed.size())), enc, d, s);
        detail::setPoisonPattern(-1);
        Buffer back = b.cuda ? out.copyTo(Device::host(), s) : std::move(out);
        s.synchronize();
        return back;
    };
    const Buffer first = once(0xA5), second = once(0x5A);
    const bool same =
        first.size() == second.size() && std::memcmp(first.data(), second.data(), first.size()) == 0;
    if (!same) return {};
    std::vector<double> out;
    visitNumeric(enc.decoded, [&](auto tag) {
        using D = decltype(tag);
        const D* p = static_cast<const D*>(first.data());
        for (std::size_t i = 0; i < packed.size(); ++i) out.push_back(double(p[i]));
    });
    return out;
}

// The reference: mask on the packed value, then unpack in double, then round to float32 when
// that is the decoded type.
std::vector<double> reference(const std::vector<double>& packed, const CfEncoding& enc) {
    std::vector<double> out;
    for (double v : packed) {
        bool masked = false;
        for (double f : enc.fillValues) masked = masked || v == f;
        if (enc.validMin && v < *enc.validMin) masked = true;
        if (enc.validMax && v > *enc.validMax) masked = true;
        double d = masked ? NAN : v * enc.scale + enc.offset;
        if (enc.decoded == DType::Float32) d = double(float(d));
        out.push_back(d);
    }
    return out;
}

CfEncoding encoding(DType packed, DType decoded) {
    CfEncoding e;
    e.packed = packed;
    e.decoded = decoded;
    return e;
}

bool matches(const Backend& b, const std::vector<double>& got, const std::vector<double>& expected,
             DType decoded) {
    // The CUDA compiler may fuse the multiply-add: one rounding fewer.
    const double tol = b.cuda ? (decoded == DType::Float32 ? 1.2e-7 : 2.3e-16) : 0;
    return test::allClose(got, expected, tol, 0, "decoded");
}

} // namespace

class TestDecode : public QObject {
    Q_OBJECT

private slots:
    void handComputed_data() { STRATA_BACKEND_ROWS(); }
    void handComputed() {
        STRATA_BACKEND(b);
        const double nan = std::nan("");
        // int16 · 0.01 + 273.15, fill −32767, valid range [−30000, 30000].
        CfEncoding e = encoding(DType::Int16, DType::Float32);
        e.scale = 0.01;
        e.offset = 273.15;
        e.scaled = true;
        e.fillValues = {-32767};
        e.validMin = -30000;
        e.validMax = 30000;
        const auto got = decodeOn(b, {0, 100, -32767, -30001, 30000, -2715}, e);
        const auto k = [](double v) { return double(float(v * 0.01 + 273.15)); };
        QVERIFY(matches(b, got, {k(0), k(100), nan, nan, k(30000), k(-2715)}, DType::Float32));
        // uint8 with two missing values, decoded to float32 without scaling.
        CfEncoding m = encoding(DType::UInt8, DType::Float32);
        m.fillValues = {254, 255};
        QVERIFY(matches(b, decodeOn(b, {0, 254, 7, 255}, m), {0, nan, 7, nan}, DType::Float32));
        // float packed: NaN stays NaN, the fill (given as a double attribute) masks.
        CfEncoding f = encoding(DType::Float32, DType::Float64);
        f.fillValues = {1e20};
        f.scale = 2;
        f.scaled = true;
        QVERIFY(matches(b, decodeOn(b, {1.5, nan, 1e20, -3}, f), {3, nan, nan, -6}, DType::Float64));
        // A plain type change keeps integers exactly (no detour through double).
        CfEncoding i = encoding(DType::Int32, DType::Int64);
        QCOMPARE(decodeOn(b, {-7, 2147483647}, i), std::vector<double>({-7, 2147483647}));
    }

    void everyPackedType_data() { STRATA_BACKEND_ROWS(); }
    void everyPackedType() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(17);
        for (DType t : test::kNumeric)
            for (DType d : {DType::Float32, DType::Float64}) {
                std::vector<double> packed = test::randomValues(rng, t, 100003, 0.02);
                CfEncoding e = encoding(t, d);
                e.scale = 0.5;
                e.offset = -3;
                e.scaled = true;
                e.fillValues = {packed[5], packed[77]};
                e.validMax = isFloating(t) ? 300.0 : 90.0;
                const auto got = decodeOn(b, packed, e);
                QVERIFY2(matches(b, got, reference(packed, e), d),
                         qPrintable(test::str(name(t)) + " -> " + test::str(name(d))));
            }
    }

    void errors_data() { STRATA_BACKEND_ROWS(); }
    void errors() {
        STRATA_BACKEND(b);
        // The packed values where the row decodes: on the GPU for the cuda row.
        const Device d = b.cuda ? Device::cuda(0) : Device::host();
        const Stream s = b.cuda ? defaultStream(d) : Stream::host();
        const Buffer host = packedBuffer(DType::Int16, {1, 2});
        const Buffer there = b.cuda ? host.copyTo(d, s) : Buffer();
        const Buffer& src = b.cuda ? there : host;
        QVERIFY(src.device() == d);
        const ArrayView v = flatView(src.data(), DType::Int16, 2);
        CfEncoding bad = encoding(DType::Int16, DType::Float32);
        bad.problem = "scale_factor is text";
        QVERIFY_THROWS_EXCEPTION(DecodeError, detail::decodeCf(v, bad, d, s));
        CfEncoding toInt = encoding(DType::Int16, DType::Int32);
        toInt.fillValues = {1};
        QVERIFY_THROWS_EXCEPTION(DecodeError, detail::decodeCf(v, toInt, d, s));
        CfEncoding mismatch = encoding(DType::Int32, DType::Float32);
        QVERIFY_THROWS_EXCEPTION(ValueError, detail::decodeCf(v, mismatch, d, s));
    }
};

QTEST_APPLESS_MAIN(TestDecode)
#include "tst_decode.moc"
