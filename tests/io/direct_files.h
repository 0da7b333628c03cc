#pragma once
// The files tst_direct_read compares Strata's direct reader against netCDF-C on: every numeric
// type, both byte orders, chunk shapes that do and do not divide the dims, each filter of the
// direct reader's set, chunks never written, contiguous netCDF-4, netCDF-3 in its three
// formats with padded record variables. Written through netCDF-C with random values.
#include <netcdf.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "nc_write.h"

namespace directtest {

struct Dim {
    std::string name;
    std::size_t length = 0; // records written, for the unlimited dim
    bool unlimited = false;
};

enum class Written { All, Part, Nothing };
enum class Storage { Default, Chunked, Contiguous };

struct Var {
    std::string name;
    nc_type type = NC_FLOAT;
    std::vector<std::string> dims;
    Storage storage = Storage::Default; // netCDF-4 only
    std::vector<std::size_t> chunks;    // with Storage::Chunked
    bool shuffle = false;
    int deflate = 0; // level; 0: none
    bool fletcher32 = false;
    bool bigEndian = false;
    std::optional<double> fill; // a _FillValue attribute
    bool noFill = false;        // nc_def_var_fill(NC_NOFILL): unwritten chunks are undefined, not compared
    Written written = Written::All;
    std::size_t records = 0; // records written when the first dim is unlimited (0: the dim's length)
    bool parallel = true;    // the direct reader must take it (readPath() says "parallel")
    bool direct = true;      // with parallel: a whole read must not go through netCDF-C at all
    std::string group;       // "" for the root, else a path such as "g/h" (netCDF-4 only)
};

struct File {
    std::string name;
    int mode = NC_NETCDF4;
    std::vector<Dim> dims;
    std::vector<Var> vars;
};

inline const char* typeName(nc_type t) {
    switch (t) {
    case NC_BYTE:
        return "byte";
    case NC_UBYTE:
        return "ubyte";
    case NC_SHORT:
        return "short";
    case NC_USHORT:
        return "ushort";
    case NC_INT:
        return "int";
    case NC_UINT:
        return "uint";
    case NC_INT64:
        return "int64";
    case NC_UINT64:
        return "uint64";
    case NC_FLOAT:
        return "float";
    case NC_DOUBLE:
        return "double";
    default:
        return "?";
    }
}

inline std::size_t typeSize(nc_type t) {
    switch (t) {
    case NC_BYTE:
    case NC_UBYTE:
        return 1;
    case NC_SHORT:
    case NC_USHORT:
        return 2;
    case NC_INT:
    case NC_UINT:
    case NC_FLOAT:
        return 4;
    default:
        return 8;
    }
}

// Odd dims whose rows hold more than 64 KiB of any type: reads of a few bytes go to netCDF-C even
// in Parallel mode, so the variables read by byte offset are given long rows.
inline const std::vector<Dim>& wideDims() {
    static const std::vector<Dim> d = {{"x1", 70001}, {"x2", 35003}, {"x4", 17501}, {"x8", 8753}};
    return d;
}
inline std::string wide(nc_type t) { return "x" + std::to_string(typeSize(t)); }

inline const std::vector<nc_type>& allTypes() {
    static const std::vector<nc_type> t = {NC_BYTE, NC_UBYTE, NC_SHORT,  NC_USHORT, NC_INT,
                                           NC_UINT, NC_INT64, NC_UINT64, NC_FLOAT,  NC_DOUBLE};
    return t;
}
inline const std::vector<nc_type>& classicTypes() {
    static const std::vector<nc_type> t = {NC_BYTE, NC_SHORT, NC_INT, NC_FLOAT, NC_DOUBLE};
    return t;
}

// Random bits, with NaNs of several kinds (quiet, negative, with a payload) in the floats.
inline std::vector<unsigned char> randomValues(nc_type type, std::size_t n, std::mt19937_64& rng) {
    std::vector<unsigned char> bytes(n * typeSize(type));
    for (std::size_t i = 0; i < bytes.size(); i += 8) {
        const std::uint64_t r = rng();
        std::memcpy(bytes.data() + i, &r, std::min<std::size_t>(8, bytes.size() - i));
    }
    const auto nan = [&](std::size_t i, auto value) {
        std::memcpy(bytes.data() + i * sizeof(value), &value, sizeof(value));
    };
    for (std::size_t i = 0; i < n; ++i) {
        if (rng() % 8 != 0) continue;
        const int kind = int(rng() % 3);
        if (type == NC_FLOAT) {
            const std::uint32_t bits[3] = {0x7fc00000u, 0xffc00000u, 0x7fc0beefu};
            nan(i, bits[kind]);
        } else if (type == NC_DOUBLE) {
            const std::uint64_t bits[3] = {0x7ff8000000000000ull, 0xfff8000000000000ull,
                                           0x7ff800000000beefull};
            nan(i, bits[kind]);
        }
    }
    return bytes;
}

// Defines `file` at `path` and writes its values. Part writes two boxes per variable: the first
// chunk exactly, and one from the middle that covers chunks partly; other chunks stay unwritten.
inline void write(const File& file, const std::string& path, std::mt19937_64& rng) {
    using nctest::ok;
    nctest::Writer w(path, file.mode);
    const bool nc4 = (file.mode & NC_NETCDF4) != 0;
    std::vector<int> dimIds;
    for (const Dim& d : file.dims)
        dimIds.push_back(w.dim(d.name.c_str(), d.unlimited ? NC_UNLIMITED : d.length));
    std::vector<int> varIds, groupIds;
    std::vector<std::pair<std::string, int>> groups = {{"", w.id()}};
    const auto groupOf = [&](const std::string& path) {
        for (const auto& [p, id] : groups)
            if (p == path) return id;
        int parent = w.id();
        std::string sofar;
        for (std::size_t from = 0; from <= path.size();) {
            const std::size_t slash = std::min(path.find('/', from), path.size());
            const std::string name = path.substr(from, slash - from);
            sofar += (sofar.empty() ? "" : "/") + name;
            const auto known =
                std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == sofar; });
            parent = known != groups.end() ? known->second : w.group(name.c_str(), parent);
            if (known == groups.end()) groups.emplace_back(sofar, parent);
            from = slash + 1;
        }
        return parent;
    };
    for (const Var& v : file.vars) {
        std::vector<int> ids;
        for (const std::string& name : v.dims)
            for (std::size_t i = 0; i < file.dims.size(); ++i)
                if (file.dims[i].name == name) ids.push_back(dimIds[i]);
        const int g = groupOf(v.group);
        const int id = w.var(v.name.c_str(), v.type, ids, g);
        varIds.push_back(id);
        groupIds.push_back(g);
        if (nc4) {
            if (v.storage == Storage::Chunked)
                ok(nc_def_var_chunking(g, id, NC_CHUNKED, v.chunks.data()), "chunking");
            if (v.storage == Storage::Contiguous)
                ok(nc_def_var_chunking(g, id, NC_CONTIGUOUS, nullptr), "contiguous");
            if (v.fletcher32) ok(nc_def_var_fletcher32(g, id, NC_FLETCHER32), "fletcher32");
            if (v.shuffle || v.deflate > 0)
                ok(nc_def_var_deflate(g, id, v.shuffle, v.deflate > 0, v.deflate), "deflate");
            if (v.bigEndian) ok(nc_def_var_endian(g, id, NC_ENDIAN_BIG), "endian");
        }
        if (v.fill) ok(nc_put_att_double(g, id, "_FillValue", v.type, 1, &*v.fill), "_FillValue");
        if (v.noFill) ok(nc_def_var_fill(g, id, NC_NOFILL, nullptr), "nofill");
    }
    w.enddef();
    for (std::size_t k = 0; k < file.vars.size(); ++k) {
        const Var& v = file.vars[k];
        std::vector<std::size_t> shape;
        for (const std::string& name : v.dims)
            for (const Dim& d : file.dims)
                if (d.name == name) shape.push_back(d.unlimited && v.records ? v.records : d.length);
        std::vector<std::vector<std::size_t>> boxes; // start, count, start, count, ...
        if (v.written == Written::All) {
            boxes = {std::vector<std::size_t>(shape.size(), 0), shape};
        } else if (v.written == Written::Part) {
            std::vector<std::size_t> s1(shape.size()), c1(shape.size()), s2(shape.size()), c2(shape.size());
            for (std::size_t i = 0; i < shape.size(); ++i) {
                c1[i] = std::min(v.chunks.empty() ? shape[i] / 2 + 1 : v.chunks[i], shape[i]);
                s2[i] = shape[i] / 2;
                c2[i] = std::max<std::size_t>(1, shape[i] / 3);
            }
            boxes = {s1, c1, s2, c2};
        }
        for (std::size_t b = 0; b < boxes.size(); b += 2) {
            std::size_t n = 1;
            for (std::size_t c : boxes[b + 1]) n *= c;
            const std::vector<unsigned char> values = randomValues(v.type, n, rng);
            ok(nc_put_vara(w.id(), varIds[k], boxes[b].data(), boxes[b + 1].data(), values.data()),
               v.name.c_str());
        }
    }
}

// The files of the matrix. Every variable here, but those marked otherwise, is one the direct
// reader must take.
inline std::vector<File> matrixFiles() {
    std::vector<File> files;
    const std::vector<Dim> grid = {{"z", 7}, {"y", 13}, {"x", 29}};
    const std::vector<std::string> zyx = {"z", "y", "x"};
    const std::vector<std::size_t> odd = {3, 5, 8}; // divides none of 7, 13, 29

    // Each type, in each byte order, under each combination of filters.
    for (const bool big : {false, true}) {
        File f{big ? "nc4_be.nc" : "nc4_le.nc", NC_NETCDF4, grid, {}};
        for (std::size_t i = 0; i < allTypes().size(); ++i) {
            const nc_type t = allTypes()[i];
            const int combo = int((i + (big ? 3 : 0)) % 6);
            Var plain{typeName(t), t, zyx, Storage::Chunked, odd};
            plain.shuffle = combo == 1 || combo == 3 || combo == 5;
            plain.deflate = combo == 2 || combo == 3 || combo == 5 ? int(1 + i % 9) : 0;
            plain.fletcher32 = combo >= 4;
            plain.bigEndian = big;
            Var sd{std::string(typeName(t)) + "_sd", t, zyx, Storage::Chunked, odd};
            sd.shuffle = true;
            sd.deflate = int(9 - i % 9);
            sd.bigEndian = big;
            f.vars.push_back(plain);
            f.vars.push_back(sd);
        }
        files.push_back(f);
    }
    { // Every deflate level, with and without shuffle and fletcher32.
        File f{"nc4_deflate.nc", NC_NETCDF4, grid, {}};
        for (int level = 1; level <= 9; ++level) {
            Var v{"level" + std::to_string(level), level % 2 ? NC_FLOAT : NC_DOUBLE, zyx, Storage::Chunked,
                  odd};
            v.deflate = level;
            v.shuffle = level % 2 == 1;
            v.fletcher32 = level % 3 == 0;
            v.bigEndian = level % 4 == 0;
            f.vars.push_back(v);
        }
        Var all{"double_all_be", NC_DOUBLE, zyx, Storage::Chunked, odd};
        all.shuffle = all.fletcher32 = all.bigEndian = true;
        all.deflate = 9;
        f.vars.push_back(all);
        files.push_back(f);
    }
    { // Ranks 0, 1 and 4; chunks of the whole variable, of single rows and of single columns.
        File f{"nc4_shapes.nc", NC_NETCDF4, grid, {}};
        f.dims.insert(f.dims.end(), {{"n", 1000}, {"t", 3}, {"k", 4}, {"j", 5}, {"i", 6}});
        Var line{"line", NC_INT, {"n"}, Storage::Chunked, {77}};
        line.shuffle = true;
        line.deflate = 2;
        Var linePlain{"line_plain", NC_USHORT, {"n"}, Storage::Chunked, {128}};
        Var cube{"cube4", NC_DOUBLE, {"t", "k", "j", "i"}, Storage::Chunked, {2, 3, 2, 4}};
        cube.shuffle = true;
        cube.deflate = 3;
        Var cubeBe{"cube4_be", NC_FLOAT, {"t", "k", "j", "i"}, Storage::Chunked, {1, 4, 5, 6}};
        cubeBe.bigEndian = cubeBe.fletcher32 = true;
        Var whole{"whole", NC_FLOAT, zyx, Storage::Chunked, {7, 13, 29}};
        whole.deflate = 6;
        Var rows{"rows", NC_SHORT, zyx, Storage::Chunked, {1, 1, 29}};
        Var columns{"columns", NC_INT64, zyx, Storage::Chunked, {7, 13, 1}};
        columns.shuffle = true;
        columns.deflate = 1;
        Var scalar{"scalar", NC_DOUBLE, {}};
        scalar.parallel = false; // a single value: either path will do
        f.vars = {line, linePlain, cube, cubeBe, whole, rows, columns, scalar};
        files.push_back(f);
    }
    { // Chunks never written: with a _FillValue, with the default one, in big-endian, no fill.
        File f{"nc4_unwritten.nc", NC_NETCDF4, grid, {}};
        const auto part = [&](const char* name, nc_type t, std::optional<double> fill) {
            Var v{name, t, zyx, Storage::Chunked, odd};
            v.fill = fill;
            v.written = Written::Part;
            return v;
        };
        Var fillPart = part("fill_part", NC_FLOAT, -999.0);
        fillPart.shuffle = true;
        fillPart.deflate = 1;
        Var fillPartBe = part("fill_part_be", NC_DOUBLE, 1e30);
        fillPartBe.bigEndian = true;
        Var defaultPart = part("default_fill_part", NC_INT, std::nullopt);
        Var defaultPartBe = part("default_fill_part_be", NC_USHORT, std::nullopt);
        defaultPartBe.bigEndian = true;
        defaultPartBe.deflate = 4;
        Var int64Part = part("fill_part_f32", NC_INT64, 123456789.0);
        int64Part.fletcher32 = true;
        Var noneWritten = part("fill_none_written", NC_SHORT, 7.0);
        noneWritten.written = Written::Nothing;
        Var defaultNone = part("default_none_written", NC_DOUBLE, std::nullopt);
        defaultNone.written = Written::Nothing;
        defaultNone.deflate = 5;
        Var noFill = part("nofill_part", NC_FLOAT, std::nullopt);
        noFill.noFill = true;
        noFill.parallel = false; // its unwritten values are undefined: left to netCDF-C
        f.vars = {fillPart,  fillPartBe,  defaultPart, defaultPartBe,
                  int64Part, noneWritten, defaultNone, noFill};
        files.push_back(f);
    }
    { // Contiguous netCDF-4, each type, alternating byte orders.
        File f{"nc4_contiguous.nc", NC_NETCDF4, grid, {}};
        f.dims.insert(f.dims.end(), wideDims().begin(), wideDims().end());
        for (std::size_t i = 0; i < allTypes().size(); ++i) {
            const nc_type t = allTypes()[i];
            Var v{typeName(t), t, {"y", wide(t)}, Storage::Contiguous};
            v.bigEndian = i % 2 == 1;
            f.vars.push_back(v);
        }
        Var line{"line_byte", NC_BYTE, {"x1"}, Storage::Contiguous};
        Var small{"small_be", NC_INT, zyx, Storage::Contiguous};
        small.bigEndian = true;
        small.direct = false; // rows of 116 bytes
        Var empty{"contiguous_empty", NC_FLOAT, zyx, Storage::Contiguous};
        empty.fill = 5.0;
        empty.written = Written::Nothing;
        empty.parallel = false; // no storage allocated: either path will do, values must agree
        f.vars.insert(f.vars.end(), {line, small, empty});
        files.push_back(f);
    }
    { // Names: a variable named like a dim it is not the coordinate of (HDF5 stores it under
      // another name, beside the dim's own dataset of the same length), a coordinate variable,
      // variables in nested groups, one named like a root variable.
        File f{"nc4_names.nc", NC_NETCDF4, {{"x", 10}, {"y", 10}, {"z", 7}, {"u", 17001}, {"w", 17001}}, {}};
        Var notCoord{"x", NC_FLOAT, {"y"}, Storage::Contiguous};
        Var notCoordLong{"u", NC_FLOAT, {"w"}, Storage::Contiguous};
        Var notCoordChunked{"z", NC_FLOAT, {"x"}, Storage::Chunked, {4}};
        notCoordChunked.deflate = 1;
        Var coord{"y", NC_DOUBLE, {"y"}, Storage::Contiguous};
        coord.direct = false;
        notCoord.direct = false;
        Var nested{"v", NC_SHORT, {"y", "x"}, Storage::Chunked, {3, 4}};
        nested.group = "g/h";
        nested.deflate = 2;
        Var inGroup{"x", NC_INT, {"x"}, Storage::Chunked, {3}};
        inGroup.group = "g";
        Var root{"v", NC_SHORT, {"y", "x"}, Storage::Chunked, {5, 5}};
        f.vars = {notCoord, notCoordLong, notCoordChunked, coord, nested, inGroup, root};
        files.push_back(f);
    }
    { // netCDF-4 with an unlimited dim; one variable with fewer records than the dim.
        File f{"nc4_unlimited.nc", NC_NETCDF4, {{"time", 11, true}, {"y", 5}, {"x", 7}}, {}};
        Var a{"a", NC_FLOAT, {"time", "y", "x"}, Storage::Chunked, {4, 5, 7}};
        a.shuffle = true;
        a.deflate = 4;
        Var b{"b", NC_SHORT, {"time", "y", "x"}, Storage::Chunked, {3, 2, 7}};
        b.fill = -1.0;
        b.records = 6;
        b.parallel = false; // its dataset is shorter than the dim: left to netCDF-C
        Var c{"c", NC_DOUBLE, {"time", "y", "x"}};
        c.bigEndian = true;
        Var d{"d", NC_UINT, {"time"}, Storage::Chunked, {4}};
        d.records = 9;
        d.parallel = false;
        Var e{"e", NC_DOUBLE, {"time"}}; // netCDF-C's chunk: far longer than the 11 records
        f.vars = {a, b, c, d, e};
        files.push_back(f);
    }
    // No records yet: an unlimited dim of length 0.
    for (const auto& [name, mode] :
         {std::pair{"zero_records_nc4.nc", NC_NETCDF4}, {"zero_records_cdf1.nc", 0}}) {
        Var v{"v", NC_FLOAT, {"time", "x"}, mode ? Storage::Chunked : Storage::Default};
        if (mode) v.chunks = {4, 5};
        v.written = Written::Nothing;
        v.direct = mode != 0; // nothing to read: netCDF-3 leaves that to netCDF-C
        files.push_back(File{name, mode, {{"time", 0, true}, {"x", 5}}, {v}});
    }
    // netCDF-3: fixed variables (odd sizes padded to 4 bytes) and interleaved record variables,
    // long ones read by byte offset between short ones that move where the next begins.
    const std::pair<const char*, int> formats[] = {
        {"classic.nc", 0}, {"offset64.nc", NC_64BIT_OFFSET}, {"cdf5.nc", NC_64BIT_DATA}};
    for (const auto& [name, mode] : formats) {
        File f{name, mode, {{"time", 4, true}, {"y", 3}, {"odd", 3}}, {}};
        f.dims.insert(f.dims.end(), wideDims().begin(), wideDims().end());
        const auto& types = mode == NC_64BIT_DATA ? allTypes() : classicTypes();
        const auto small = [](const char* name, nc_type t, std::vector<std::string> dims) {
            Var v{name, t, std::move(dims)};
            v.direct = false;
            return v;
        };
        for (nc_type t : types) f.vars.push_back(Var{std::string("f_") + typeName(t), t, {"y", wide(t)}});
        f.vars.insert(f.vars.begin() + 1, small("f_short_odd", NC_SHORT, {"odd"}));
        f.vars.insert(f.vars.begin() + 3, small("f_byte_odd", NC_BYTE, {"odd"}));
        Var scalar{"scalar", NC_DOUBLE, {}};
        scalar.parallel = false;
        f.vars.push_back(scalar);
        for (nc_type t : types) f.vars.push_back(Var{std::string("r_") + typeName(t), t, {"time", wide(t)}});
        f.vars.push_back(small("r_short_odd", NC_SHORT, {"time", "odd"}));
        f.vars.push_back(Var{"r_grid", NC_FLOAT, {"time", "y", "x4"}});
        f.vars.push_back(small("r_series", NC_DOUBLE, {"time"}));
        files.push_back(f);
    }
    // A single record variable is not padded: the records are packed end to end.
    Var fixedOdd{"f", NC_SHORT, {"odd"}};
    fixedOdd.direct = false;
    files.push_back(File{"classic_one_record.nc",
                         0,
                         {{"time", 4, true}, {"odd", 3}, {"x1", 70001}},
                         {fixedOdd, Var{"r", NC_BYTE, {"time", "x1"}}}});
    files.push_back(File{"cdf5_one_record.nc",
                         NC_64BIT_DATA,
                         {{"time", 4, true}, {"x2", 35003}},
                         {Var{"r", NC_SHORT, {"time", "x2"}}}});
    return files;
}

} // namespace directtest
