#include "nc_meta.h"

#include <netcdf.h>

#include <vector>

#include "nc_call.h"
#include "strata/core/error.h"

namespace strata::io::detail {

std::optional<DType> dtypeOfNc(int t) {
    switch (t) {
    case NC_BYTE:
        return DType::Int8;
    case NC_UBYTE:
        return DType::UInt8;
    case NC_SHORT:
        return DType::Int16;
    case NC_USHORT:
        return DType::UInt16;
    case NC_INT:
        return DType::Int32;
    case NC_UINT:
        return DType::UInt32;
    case NC_INT64:
        return DType::Int64;
    case NC_UINT64:
        return DType::UInt64;
    case NC_FLOAT:
        return DType::Float32;
    case NC_DOUBLE:
        return DType::Float64;
    case NC_CHAR:
        return DType::Char;
    case NC_STRING:
        return DType::String;
    default:
        return std::nullopt;
    }
}

std::string formatName(int f) {
    switch (f) {
    case NC_FORMAT_CLASSIC:
        return "classic";
    case NC_FORMAT_64BIT_OFFSET:
        return "64-bit offset";
    case NC_FORMAT_CDF5:
        return "CDF-5";
    case NC_FORMAT_NETCDF4:
        return "netCDF-4";
    case NC_FORMAT_NETCDF4_CLASSIC:
        return "netCDF-4 classic model";
    default:
        return "unknown format " + std::to_string(f);
    }
}

namespace {

// Attributes are metadata, read whole at open: more values than this is a damaged or hostile file.
constexpr std::size_t kMaxAttributeValues = std::size_t(1) << 26;

template <class Stored, class Kept>
std::vector<Kept> readNumbers(int ncid, int varid, const char* name, std::size_t len,
                              const std::string& context) {
    std::vector<Stored> raw(len);
    if (len) check(nc_get_att(ncid, varid, name, raw.data()), context + ": attribute '" + name + "'");
    return std::vector<Kept>(raw.begin(), raw.end());
}

} // namespace

Attributes readAttributes(int ncid, int varid, const std::string& context) {
    Attributes out;
    int natts = 0;
    check(varid == NC_GLOBAL ? nc_inq_natts(ncid, &natts) : nc_inq_varnatts(ncid, varid, &natts),
          context + ": attributes");
    for (int i = 0; i < natts; ++i) {
        char name[NC_MAX_NAME + 1] = {};
        check(nc_inq_attname(ncid, varid, i, name), context + ": attribute " + std::to_string(i));
        nc_type type = 0;
        std::size_t len = 0;
        check(nc_inq_att(ncid, varid, name, &type, &len),
              context + ": attribute '" + std::string(name) + "'");
        const auto dtype = dtypeOfNc(type);
        if (!dtype) continue; // user-defined types have no meaning here
        STRATA_EXPECTS(len <= kMaxAttributeValues, NetcdfError,
                       context + ": attribute '" + std::string(name) + "' has " + std::to_string(len) +
                           " values, more than Strata reads (" + std::to_string(kMaxAttributeValues) + ")");
        Attribute a;
        a.name = name;
        a.type = *dtype;
        switch (type) {
        case NC_CHAR: {
            std::string text(len, '\0');
            if (len)
                check(nc_get_att_text(ncid, varid, name, text.data()),
                      context + ": attribute '" + a.name + "'");
            while (!text.empty() && text.back() == '\0') text.pop_back();
            a.value = std::move(text);
            break;
        }
        case NC_STRING: {
            std::vector<char*> strings(len, nullptr);
            if (len)
                check(nc_get_att_string(ncid, varid, name, strings.data()),
                      context + ": attribute '" + a.name + "'");
            std::string text;
            for (std::size_t k = 0; k < len; ++k) {
                if (k) text += ", ";
                if (strings[k]) text += strings[k];
            }
            if (len) nc_free_string(len, strings.data());
            a.value = std::move(text);
            break;
        }
        case NC_BYTE:
            a.value = readNumbers<signed char, std::int64_t>(ncid, varid, name, len, context);
            break;
        case NC_SHORT:
            a.value = readNumbers<short, std::int64_t>(ncid, varid, name, len, context);
            break;
        case NC_INT:
            a.value = readNumbers<int, std::int64_t>(ncid, varid, name, len, context);
            break;
        case NC_INT64:
            a.value = readNumbers<long long, std::int64_t>(ncid, varid, name, len, context);
            break;
        case NC_UBYTE:
            a.value = readNumbers<unsigned char, std::uint64_t>(ncid, varid, name, len, context);
            break;
        case NC_USHORT:
            a.value = readNumbers<unsigned short, std::uint64_t>(ncid, varid, name, len, context);
            break;
        case NC_UINT:
            a.value = readNumbers<unsigned int, std::uint64_t>(ncid, varid, name, len, context);
            break;
        case NC_UINT64:
            a.value = readNumbers<unsigned long long, std::uint64_t>(ncid, varid, name, len, context);
            break;
        case NC_FLOAT:
            a.value = readNumbers<float, double>(ncid, varid, name, len, context);
            break;
        default:
            a.value = readNumbers<double, double>(ncid, varid, name, len, context);
            break;
        }
        out.set(std::move(a));
    }
    return out;
}

std::string groupPath(int ncid) {
    std::size_t len = 0;
    check(nc_inq_grpname_full(ncid, &len, nullptr), "group name");
    std::string path(len, '\0');
    check(nc_inq_grpname_full(ncid, &len, path.data()), "group name");
    while (!path.empty() && path.back() == '\0') path.pop_back();
    return path.empty() ? "/" : path;
}

std::string variableLabel(const std::string& group, const std::string& name) {
    return group == "/" ? name : group + "/" + name;
}

} // namespace strata::io::detail
