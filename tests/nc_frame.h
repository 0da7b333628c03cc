#pragma once
// An oracle for a whole frame, apart from Strata: a variable read with netCDF-C, decoded as the
// CF conventions say (fill and missing values, the valid range, scale and offset), sliced and
// reduced by plain loops in double precision. The window and command-line tests compare what
// Strata shows or writes with it.
#include <netcdf.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nctest {

// Values over named dims, C order.
struct NdValues {
    std::vector<std::string> dims;
    std::vector<std::size_t> shape;
    std::vector<double> values;
};

namespace detail {

inline std::vector<double> numbersOf(int nc, int var, const char* name) {
    std::size_t len = 0;
    if (nc_inq_attlen(nc, var, name, &len) != NC_NOERR || len == 0) return {};
    nc_type type = NC_NAT;
    if (nc_inq_atttype(nc, var, name, &type) != NC_NOERR || type == NC_CHAR || type == NC_STRING) return {};
    std::vector<double> v(len);
    if (nc_get_att_double(nc, var, name, v.data()) != NC_NOERR) return {};
    return v;
}

// The stored value of a fill given in double, as the stored type holds it (a float fill of
// 1e20 is 100000002004087734272 once stored).
inline double asStored(nc_type type, double v) { return type == NC_FLOAT ? double(float(v)) : v; }

} // namespace detail

// Every value of `var` in `path`, decoded: _FillValue and missing_value become NaN, and so do
// values outside valid_min/valid_max/valid_range; then value * scale_factor + add_offset.
// nullopt when the file or variable cannot be read.
inline std::optional<NdValues> readDecoded(const std::string& path, const std::string& var) {
    int nc = 0, id = 0, ndims = 0;
    if (nc_open(path.c_str(), NC_NOWRITE, &nc) != NC_NOERR) return std::nullopt;
    NdValues out;
    int dimIds[NC_MAX_VAR_DIMS];
    nc_type type = NC_NAT;
    bool ok = nc_inq_varid(nc, var.c_str(), &id) == NC_NOERR && nc_inq_varndims(nc, id, &ndims) == NC_NOERR &&
              nc_inq_vardimid(nc, id, dimIds) == NC_NOERR && nc_inq_vartype(nc, id, &type) == NC_NOERR;
    std::size_t n = 1;
    for (int d = 0; ok && d < ndims; ++d) {
        char name[NC_MAX_NAME + 1] = {};
        std::size_t len = 0;
        ok = nc_inq_dim(nc, dimIds[d], name, &len) == NC_NOERR;
        out.dims.emplace_back(name);
        out.shape.push_back(len);
        n *= len;
    }
    out.values.resize(n);
    ok = ok && nc_get_var_double(nc, id, out.values.data()) == NC_NOERR;
    std::vector<double> fills = detail::numbersOf(nc, id, "_FillValue");
    for (double m : detail::numbersOf(nc, id, "missing_value")) fills.push_back(m);
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    if (const auto r = detail::numbersOf(nc, id, "valid_range"); r.size() == 2) {
        lo = r[0];
        hi = r[1];
    }
    if (const auto r = detail::numbersOf(nc, id, "valid_min"); r.size() == 1) lo = r[0];
    if (const auto r = detail::numbersOf(nc, id, "valid_max"); r.size() == 1) hi = r[0];
    const auto scale = detail::numbersOf(nc, id, "scale_factor");
    const auto offset = detail::numbersOf(nc, id, "add_offset");
    nc_close(nc);
    if (!ok) return std::nullopt;
    for (double& v : out.values) {
        bool fill = !(v >= lo && v <= hi);
        for (double f : fills) fill = fill || v == detail::asStored(type, f);
        if (fill) {
            v = std::nan("");
            continue;
        }
        if (scale.size() == 1) v *= scale[0];
        if (offset.size() == 1) v += offset[0];
    }
    return out;
}

// `a` without its dim `axis`: the dims and shape left (values empty), with the sizes of the
// dims before it (`outer`) and after it (`inner`).
inline NdValues without(const NdValues& a, std::size_t axis, std::size_t& outer, std::size_t& inner) {
    NdValues out;
    outer = inner = 1;
    for (std::size_t d = 0; d < a.dims.size(); ++d) {
        if (d < axis) outer *= a.shape[d];
        if (d > axis) inner *= a.shape[d];
        if (d != axis) {
            out.dims.push_back(a.dims[d]);
            out.shape.push_back(a.shape[d]);
        }
    }
    return out;
}

// `a` at index `at` along `dim` (the dim removed).
inline NdValues sliced(const NdValues& a, std::size_t axis, std::size_t at) {
    std::size_t outer = 1, inner = 1;
    NdValues out = without(a, axis, outer, inner);
    out.values.resize(outer * inner);
    for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t i = 0; i < inner; ++i)
            out.values[o * inner + i] = a.values[(o * a.shape[axis] + at) * inner + i];
    return out;
}

// `a` reduced along `axis` by `op` (sum, mean, min, max, std, var with ddof 0, count, argmin,
// argmax), skipping NaN as xarray's skipna does: NaN where nothing is left (a sum of nothing is
// 0, a count 0); argmin/argmax give the first index of the extreme.
inline NdValues reduced(const NdValues& a, std::size_t axis, const std::string& op) {
    std::size_t outer = 1, inner = 1;
    NdValues out = without(a, axis, outer, inner);
    const std::size_t len = a.shape[axis];
    out.values.resize(outer * inner);
    for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t i = 0; i < inner; ++i) {
            std::vector<double> v;
            std::vector<std::size_t> at;
            for (std::size_t k = 0; k < len; ++k) {
                const double x = a.values[(o * len + k) * inner + i];
                if (std::isnan(x)) continue;
                v.push_back(x);
                at.push_back(k);
            }
            double r = std::nan("");
            if (op == "count") {
                r = double(v.size());
            } else if (op == "sum") {
                r = 0;
                for (double x : v) r += x;
            } else if (!v.empty()) {
                double sum = 0;
                for (double x : v) sum += x;
                const double mean = sum / double(v.size());
                double ss = 0;
                for (double x : v) ss += (x - mean) * (x - mean);
                const auto lo = std::min_element(v.begin(), v.end()),
                           hi = std::max_element(v.begin(), v.end());
                if (op == "mean")
                    r = mean;
                else if (op == "min")
                    r = *lo;
                else if (op == "max")
                    r = *hi;
                else if (op == "var")
                    r = ss / double(v.size());
                else if (op == "std")
                    r = std::sqrt(ss / double(v.size()));
                else if (op == "argmin")
                    r = double(at[std::size_t(lo - v.begin())]);
                else if (op == "argmax")
                    r = double(at[std::size_t(hi - v.begin())]);
            }
            out.values[o * inner + i] = r;
        }
    return out;
}

// `a` with its dims in `order` (each of a's dims once).
inline NdValues transposed(const NdValues& a, const std::vector<std::string>& order) {
    std::vector<std::size_t> perm;
    for (const std::string& d : order)
        perm.push_back(std::size_t(std::find(a.dims.begin(), a.dims.end(), d) - a.dims.begin()));
    NdValues out;
    for (std::size_t p : perm) {
        out.dims.push_back(a.dims[p]);
        out.shape.push_back(a.shape[p]);
    }
    std::vector<std::size_t> stride(a.dims.size(), 1);
    for (std::size_t d = a.dims.size(); d-- > 1;) stride[d - 1] = stride[d] * a.shape[d];
    out.values.resize(a.values.size());
    std::vector<std::size_t> idx(perm.size(), 0);
    for (std::size_t flat = 0; flat < out.values.size(); ++flat) {
        std::size_t src = 0;
        for (std::size_t d = 0; d < perm.size(); ++d) src += idx[d] * stride[perm[d]];
        out.values[flat] = a.values[src];
        for (std::size_t d = perm.size(); d-- > 0;) {
            if (++idx[d] < out.shape[d]) break;
            idx[d] = 0;
        }
    }
    return out;
}

// `a` averaged over `dims` together, skipping NaN, each value weighted by the cosine of its
// latitude: `latDeg` along `latDim`, one of `dims`. The other dims keep their order.
inline NdValues areaMean(const NdValues& a, const std::vector<std::string>& dims, const std::string& latDim,
                         const std::vector<double>& latDeg) {
    std::vector<std::string> order;
    for (const std::string& d : a.dims)
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) order.push_back(d);
    NdValues out;
    out.dims = order;
    for (const std::string& d : order)
        out.shape.push_back(
            a.shape[std::size_t(std::find(a.dims.begin(), a.dims.end(), d) - a.dims.begin())]);
    order.insert(order.end(), dims.begin(), dims.end());
    const NdValues t = transposed(a, order);
    std::size_t inner = 1, latStride = 1, latLen = 0;
    for (std::size_t d = t.dims.size(); d-- > out.dims.size();) {
        if (t.dims[d] == latDim) {
            latStride = inner;
            latLen = t.shape[d];
        }
        inner *= t.shape[d];
    }
    out.values.resize(t.values.size() / inner);
    for (std::size_t o = 0; o < out.values.size(); ++o) {
        double s = 0, sw = 0;
        for (std::size_t k = 0; k < inner; ++k) {
            const double x = t.values[o * inner + k];
            if (std::isnan(x)) continue;
            const double w = std::cos(latDeg[(k / latStride) % latLen] * M_PI / 180);
            s += w * x;
            sw += w;
        }
        out.values[o] = sw > 0 ? s / sw : std::nan("");
    }
    return out;
}

// Whether `var` in `path` has the attribute `name`.
inline bool hasAttribute(const std::string& path, const std::string& var, const char* name) {
    int nc = 0, id = 0;
    if (nc_open(path.c_str(), NC_NOWRITE, &nc) != NC_NOERR) return false;
    const bool has = nc_inq_varid(nc, var.c_str(), &id) == NC_NOERR &&
                     nc_inq_att(nc, id, name, nullptr, nullptr) == NC_NOERR;
    nc_close(nc);
    return has;
}

// A variable's values as netCDF-C gives them, in double (a coordinate: no decoding).
inline std::vector<double> readPlain(const std::string& path, const std::string& var) {
    int nc = 0, id = 0, ndims = 0;
    std::vector<double> out;
    if (nc_open(path.c_str(), NC_NOWRITE, &nc) != NC_NOERR) return out;
    int dimIds[NC_MAX_VAR_DIMS];
    std::size_t n = 1;
    bool ok = nc_inq_varid(nc, var.c_str(), &id) == NC_NOERR && nc_inq_varndims(nc, id, &ndims) == NC_NOERR &&
              nc_inq_vardimid(nc, id, dimIds) == NC_NOERR;
    for (int d = 0; ok && d < ndims; ++d) {
        std::size_t len = 0;
        ok = nc_inq_dimlen(nc, dimIds[d], &len) == NC_NOERR;
        n *= len;
    }
    if (ok) {
        out.resize(n);
        if (nc_get_var_double(nc, id, out.data()) != NC_NOERR) out.clear();
    }
    nc_close(nc);
    return out;
}

// The frame of `var`: each dim in `indices` sliced at its index (every other dim that is not
// shown or reduced at 0), the reductions applied in their order, dims (y, x), or (x) when y is
// empty. `areaWeighted`: the mean reductions are one mean over their dims together, where the
// first of them is, weighted by the cosine of latitude (the coordinate variable of the dim named
// "lat" or "latitude" among them). nullopt when the file cannot be read, a dim is not the
// variable's, or area weights are asked for without such a latitude or with cell_measures.
inline std::optional<NdValues> frameOf(const std::string& path, const std::string& var,
                                       const std::string& xDim, const std::string& yDim,
                                       const std::vector<std::pair<std::string, std::int64_t>>& indices,
                                       const std::vector<std::pair<std::string, std::string>>& reductions,
                                       bool areaWeighted = false) {
    std::optional<NdValues> a = readDecoded(path, var);
    if (!a) return std::nullopt;
    auto axisOf = [&](const std::string& d) -> std::optional<std::size_t> {
        const auto it = std::find(a->dims.begin(), a->dims.end(), d);
        if (it == a->dims.end()) return std::nullopt;
        return std::size_t(it - a->dims.begin());
    };
    auto kept = [&](const std::string& d) {
        if (d == xDim || d == yDim) return true;
        for (const auto& r : reductions)
            if (r.first == d) return true;
        return false;
    };
    for (const std::string& d : std::vector<std::string>(a->dims)) {
        if (kept(d)) continue;
        std::int64_t at = 0;
        for (const auto& [name, i] : indices)
            if (name == d) at = i;
        const auto axis = axisOf(d);
        if (at < 0 || std::size_t(at) >= a->shape[*axis]) return std::nullopt;
        *a = sliced(*a, *axis, std::size_t(at));
    }
    std::vector<std::string> meanDims;
    std::string latDim;
    for (const auto& [d, op] : reductions)
        if (areaWeighted && op == "mean") {
            meanDims.push_back(d);
            if (d == "lat" || d == "latitude") latDim = d;
        }
    if (areaWeighted && (latDim.empty() || hasAttribute(path, var, "cell_measures"))) return std::nullopt;
    for (const auto& [d, op] : reductions) {
        const auto axis = axisOf(d);
        if (!axis) {
            if (std::find(meanDims.begin(), meanDims.end(), d) != meanDims.end()) continue; // done
            return std::nullopt;
        }
        if (!meanDims.empty() && op == "mean") {
            const std::vector<double> lat = readPlain(path, latDim);
            if (lat.size() != a->shape[*axisOf(latDim)]) return std::nullopt;
            *a = areaMean(*a, meanDims, latDim, lat);
            continue;
        }
        *a = reduced(*a, *axis, op);
    }
    std::vector<std::string> order{xDim};
    if (!yDim.empty()) order.insert(order.begin(), yDim);
    if (order.size() != a->dims.size()) return std::nullopt;
    for (const std::string& d : order)
        if (!axisOf(d)) return std::nullopt;
    return transposed(*a, order);
}

} // namespace nctest
