#include "strata/io/csv.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "strata/core/atomic_file.h"
#include "strata/core/error.h"
#include "strata/core/format.h"
#include "strata/core/transfer.h"

namespace strata::io {
namespace {

// RFC 4180: quote a field holding a comma, a quote or a line break.
std::string field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// The label column of dim `dim` at position i: its index coordinate's stored value, or i.
std::string label(const DataArray& a, const std::string& dim, std::int64_t i) {
    const Coordinate* c = a.coords().find(dim);
    if (c && c->isIndex()) return c->text(i);
    return std::to_string(i);
}

// A column's name in the header, with its units when `header` asks for them and it has any.
std::string columnName(const std::string& name, const Attributes* attrs, bool time, CsvHeader header) {
    if (header == CsvHeader::Names || !attrs || time) return field(name);
    const auto units = attrs->text("units");
    return field(units && !units->empty() ? name + " [" + *units + "]" : name);
}

std::string columnName(const Coordinate& c, CsvHeader header) {
    return columnName(c.name, &c.attrs, c.time.has_value(), header);
}

template <class T> std::string valueText(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(v)) return {};
    }
    if constexpr (std::is_same_v<T, float>)
        return formatNumber(v);
    else if constexpr (std::is_same_v<T, double>)
        return formatNumber(v);
    else if constexpr (std::is_signed_v<T>)
        return formatNumber(std::int64_t(v));
    else
        return formatNumber(std::uint64_t(v));
}

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

} // namespace

CsvResult writeCsv(const DataArray& frame, const std::string& path,
                   const std::vector<std::string>& protectedFiles, CsvHeader headerStyle) {
    STRATA_EXPECTS(frame.ndim() == 1 || frame.ndim() == 2, ValueError,
                   "CSV export takes a frame (2 dims) or a line (1 dim); '" + frame.name() + "' has " +
                       std::to_string(frame.ndim()));
    AtomicFile file(path, protectedFiles);
    const TransferCounters before = transferCounters();
    const DataArray host = frame.asHost();
    CsvResult result;
    result.bytesFromDevice = transferredSince(before).deviceToHost;

    std::unique_ptr<std::FILE, FileCloser> out(std::fopen(file.tempPath().c_str(), "w"));
    STRATA_EXPECTS(out, IoError, "cannot write " + path + ": " + std::strerror(errno));
    static thread_local char buffer[1 << 16];
    std::setvbuf(out.get(), buffer, _IOFBF, sizeof buffer);

    const std::string valueName = frame.name().empty() ? std::string("value") : frame.name();
    // Coordinates over the frame's dims (a 2-D frame's in either order; a 1-D frame's along its
    // dim, as a HEALPix frame's cell centres), then the scalar ones a slice
    // left (the sliced dims' values: the same in every row), as xarray's to_dataframe() has them.
    std::vector<const Coordinate*> aux, transposed;
    std::string constants;
    std::string header;
    for (const auto& d : frame.dims()) {
        const Coordinate* c = frame.coords().find(d);
        header += (c && c->isIndex() ? columnName(*c, headerStyle) : field(d)) + ",";
    }
    const std::vector<std::string> reversed(frame.dims().rbegin(), frame.dims().rend());
    for (const auto& c :
         frame.coords()) { // a 1-D frame's coordinates along its dim too (HEALPix cells' centres)
        if (c.isIndex() || frame.ndim() > 2) continue;
        if (c.dims == frame.dims())
            aux.push_back(&c);
        else if (c.dims == reversed)
            transposed.push_back(&c);
    }
    for (const auto* c : aux) header += columnName(*c, headerStyle) + ",";
    for (const auto* c : transposed) header += columnName(*c, headerStyle) + ",";
    for (const auto& c : frame.coords())
        if (c.dims.empty() && c.values.size() == 1) {
            header += columnName(c, headerStyle) + ",";
            constants += field(c.text(0)) + ",";
        }
    header += columnName(valueName, &frame.attrs(), false, headerStyle) + "\n";
    std::fputs(header.c_str(), out.get());

    const std::int64_t rows = frame.ndim() == 2 ? frame.shape()[0] : 1;
    const std::int64_t cols = frame.shape().back();
    visitNumeric(host.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const std::vector<T> values = host.values<T>();
        std::string line;
        for (std::int64_t r = 0; r < rows; ++r) {
            const std::string rowLabel = frame.ndim() == 2 ? field(label(host, host.dims()[0], r)) + "," : "";
            for (std::int64_t c = 0; c < cols; ++c) {
                const std::int64_t flat = r * cols + c;
                line = rowLabel;
                line += field(label(host, host.dims().back(), c));
                line += ',';
                for (const auto* a : aux) {
                    line += a->text(flat);
                    line += ',';
                }
                for (const auto* a : transposed) {
                    line += a->text(c * rows + r);
                    line += ',';
                }
                line += constants;
                line += valueText(values[std::size_t(flat)]);
                line += '\n';
                std::fputs(line.c_str(), out.get());
            }
        }
    });
    result.rows = rows * cols;
    const bool failed = std::ferror(out.get()) != 0;
    const int closeStatus = std::fclose(out.release());
    STRATA_EXPECTS(!failed && closeStatus == 0, IoError,
                   "cannot write " + path + ": " + std::strerror(errno));
    file.commit();
    return result;
}

} // namespace strata::io
