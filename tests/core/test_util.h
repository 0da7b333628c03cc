#pragma once
// Shared helpers of the operation tests: the cpu/cuda data rows, random arrays with NaN,
// runs under two poison patterns, comparisons, and a reference reducer in plain loops that
// shares no code with the backends.
#include "gpu_skip.h"
#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../../core/src/poison.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"

namespace test {

using namespace strata;

inline const std::vector<DType> kNumeric = {DType::Int8,    DType::UInt8,  DType::Int16, DType::UInt16,
                                            DType::Int32,   DType::UInt32, DType::Int64, DType::UInt64,
                                            DType::Float32, DType::Float64};

inline QString str(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<int>(s.size())); }

inline std::vector<std::string> dimNames(int n) {
    std::vector<std::string> d;
    for (int i = 0; i < n; ++i) {
        std::string name = "d"; // not "d" + to_string(i): GCC 12 warns of a false -Wrestrict there
        name += std::to_string(i);
        d.push_back(std::move(name));
    }
    return d;
}

inline std::int64_t product(const Shape& s) {
    std::int64_t n = 1;
    for (auto x : s) n *= x;
    return n;
}

// Random values as doubles that every numeric type holds exactly: floats ~ N(280, 10) with
// `nanFraction` NaN; integers in [0, 100] (or [-50, 50] for signed types).
inline std::vector<double> randomValues(std::mt19937_64& rng, DType t, std::int64_t n,
                                        double nanFraction = 0.05) {
    std::vector<double> v(static_cast<std::size_t>(n));
    std::uniform_real_distribution<double> u(0, 1);
    std::normal_distribution<double> normal(280.0, 10.0);
    std::uniform_int_distribution<int> ints(isSignedInteger(t) ? -50 : 0, isSignedInteger(t) ? 50 : 100);
    for (auto& x : v) {
        if (isFloating(t)) {
            x = u(rng) < nanFraction ? std::numeric_limits<double>::quiet_NaN() : normal(rng);
            if (t == DType::Float32) x = static_cast<float>(x);
        } else {
            x = ints(rng);
        }
    }
    return v;
}

// A host array of dtype t from double values (converted).
inline DataArray makeArray(DType t, std::vector<std::string> dims, Shape shape,
                           const std::vector<double>& values, std::string name = "x") {
    return visitNumeric(t, [&](auto tag) {
        using T = decltype(tag);
        std::vector<T> typed(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) typed[i] = static_cast<T>(values[i]);
        return DataArray::fromHost(name, std::move(dims), std::move(shape), typed);
    });
}

inline DataArray randomArray(std::mt19937_64& rng, DType t, const Shape& shape, double nanFraction = 0.05) {
    return makeArray(t, dimNames(static_cast<int>(shape.size())), shape,
                     randomValues(rng, t, product(shape), nanFraction));
}

// The raw bytes of a host result, C order (for "identical under both poison patterns").
inline std::vector<unsigned char> bytesOf(const DataArray& hostArray) {
    return visitNumeric(hostArray.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const std::vector<T> v = hostArray.values<T>();
        std::vector<unsigned char> b(v.size() * sizeof(T));
        if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
        return b;
    });
}

// Where an operation runs: the "cpu" and "cuda" data rows. `put` moves an input there.
struct Backend {
    bool cuda = false;
    DataArray put(const DataArray& a) const {
        if (!cuda) return a;
        return a.asDevice(Device::cuda(0), defaultStream(Device::cuda(0)));
    }
};

// Runs `op` twice, with every new buffer filled with 0xA5 and then 0x5A; both results must be
// byte-identical (so every output element was written). Returns the result on the host.
inline DataArray poisoned(const std::function<DataArray()>& op) {
    detail::setPoisonPattern(0xA5);
    DataArray first, second;
    try {
        first = op().asHost();
        detail::setPoisonPattern(0x5A);
        second = op().asHost();
    } catch (...) {
        detail::setPoisonPattern(-1);
        throw;
    }
    detail::setPoisonPattern(-1);
    if (bytesOf(first) != bytesOf(second)) {
        qWarning("result depends on the contents of fresh buffers (an output element is not written)");
        return DataArray();
    }
    return first;
}

// Two doubles agree: both NaN, equal, or |a − e| <= rel·|e| + abs.
inline bool close(double a, double e, double rel, double abs = 0) {
    if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
    if (a == e) return true;
    return std::abs(a - e) <= rel * std::abs(e) + abs;
}

// Compares all values; on the first mismatch prints `what`, the index and both values.
inline bool allClose(const std::vector<double>& actual, const std::vector<double>& expected, double rel,
                     double abs, const QString& what) {
    if (actual.size() != expected.size()) {
        qWarning().noquote() << what << ": size" << actual.size() << "expected" << expected.size();
        return false;
    }
    for (std::size_t i = 0; i < actual.size(); ++i)
        if (!close(actual[i], expected[i], rel, abs)) {
            qWarning().noquote() << what << ": element" << i << "got" << QString::number(actual[i], 'g', 17)
                                 << "expected" << QString::number(expected[i], 'g', 17);
            return false;
        }
    return true;
}

// Tolerance of the cuda rows against the CPU result: exact for integer results, 1e-5 relative
// for float32 results, 1e-12 for float64.
inline double gpuTolerance(DType resultType) {
    if (resultType == DType::Float32) return 1e-5;
    if (resultType == DType::Float64) return 1e-12;
    return 0;
}

// ---- the reference reducer: plain loops over C-order values, two-pass variance ----

struct Reference {
    Shape shape;
    std::vector<double> values;
};

// Groups the elements of `a` (host) by output element; within a group they are in the order
// of the flat index over the reduced dims.
inline std::vector<std::vector<double>> groups(const DataArray& a, const std::vector<std::string>& dims,
                                               Shape& keptShape) {
    const std::vector<double> v = a.values<double>();
    const int nd = a.ndim();
    std::vector<bool> red(static_cast<std::size_t>(nd), false);
    for (const auto& d : dims) red[static_cast<std::size_t>(a.axis(d))] = true;
    keptShape.clear();
    for (int i = 0; i < nd; ++i)
        if (!red[static_cast<std::size_t>(i)]) keptShape.push_back(a.shape()[static_cast<std::size_t>(i)]);
    std::vector<std::vector<double>> g(static_cast<std::size_t>(product(keptShape)));
    std::vector<std::int64_t> idx(static_cast<std::size_t>(nd), 0);
    for (std::size_t n = 0; n < v.size(); ++n) {
        std::int64_t o = 0;
        for (int i = 0; i < nd; ++i)
            if (!red[static_cast<std::size_t>(i)])
                o = o * a.shape()[static_cast<std::size_t>(i)] + idx[static_cast<std::size_t>(i)];
        g[static_cast<std::size_t>(o)].push_back(v[n]);
        for (int i = nd - 1; i >= 0; --i) {
            if (++idx[static_cast<std::size_t>(i)] < a.shape()[static_cast<std::size_t>(i)]) break;
            idx[static_cast<std::size_t>(i)] = 0;
        }
    }
    return g;
}

inline double reduceGroup(const std::vector<double>& x, ReduceOp op) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    double sum = 0, count = 0;
    std::int64_t best = -1;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (std::isnan(x[i])) continue;
        sum += x[i];
        count += 1;
        const bool better =
            best < 0 || (op == ReduceOp::Min || op == ReduceOp::ArgMin ? x[i] < x[best] : x[i] > x[best]);
        if (better) best = static_cast<std::int64_t>(i);
    }
    const double mean = count > 0 ? sum / count : nan;
    double ss = 0;
    for (double xi : x)
        if (!std::isnan(xi)) ss += (xi - mean) * (xi - mean);
    switch (op) {
    case ReduceOp::Sum:
        return sum;
    case ReduceOp::Count:
        return count;
    case ReduceOp::Mean:
        return mean;
    case ReduceOp::Var:
        return count > 0 ? ss / count : nan;
    case ReduceOp::Std:
        return count > 0 ? std::sqrt(ss / count) : nan;
    case ReduceOp::Min:
    case ReduceOp::Max:
        return best < 0 ? nan : x[static_cast<std::size_t>(best)];
    case ReduceOp::ArgMin:
    case ReduceOp::ArgMax:
        return static_cast<double>(best);
    }
    return nan;
}

inline Reference referenceReduce(const DataArray& a, const std::vector<std::string>& dims, ReduceOp op) {
    Reference r;
    for (const auto& g : groups(a, dims, r.shape)) r.values.push_back(reduceGroup(g, op));
    return r;
}

// Σw·x / Σw over the elements where x and w are not NaN; `w` holds a weight for every element
// of `a` (C order).
inline Reference referenceWeighted(const DataArray& a, const std::vector<double>& w,
                                   const std::vector<std::string>& dims) {
    Reference r;
    DataArray wa = makeArray(DType::Float64, a.dims(), a.shape(), w);
    const auto gx = groups(a, dims, r.shape);
    const auto gw = groups(wa, dims, r.shape);
    for (std::size_t o = 0; o < gx.size(); ++o) {
        double s = 0, sw = 0;
        for (std::size_t i = 0; i < gx[o].size(); ++i) {
            if (std::isnan(gx[o][i]) || std::isnan(gw[o][i])) continue;
            s += gw[o][i] * gx[o][i];
            sw += gw[o][i];
        }
        r.values.push_back(sw != 0 ? s / sw : std::numeric_limits<double>::quiet_NaN());
    }
    return r;
}

} // namespace test

// The two data rows every operation test has.
#define STRATA_BACKEND_ROWS()                                                                                \
    do {                                                                                                     \
        QTest::addColumn<bool>("cuda");                                                                      \
        QTest::newRow("cpu") << false;                                                                       \
        QTest::newRow("cuda") << true;                                                                       \
    } while (0)

// Declares `backend` for the current row; the cuda row skips without a CUDA device.
#define STRATA_BACKEND(backend)                                                                              \
    QFETCH(bool, cuda);                                                                                      \
    if (cuda && strata::cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");                   \
    const test::Backend backend { cuda }
