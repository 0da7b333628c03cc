#include "zarr_meta.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "strata/core/array_view.h"
#include "strata/core/error.h"
#include "zarr_json.h"

namespace strata::io::detail {

using nlohmann::json;

[[noreturn]] void fail(const std::string& context, const std::string& problem) {
    STRATA_FAIL(NetcdfError, context + ": " + problem);
}

namespace {

// Bare NaN / Infinity / -Infinity (Python's json writes them) become marker strings.
std::string quoteNonFinite(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        auto word = [&](const char* w) { return text.compare(i, std::strlen(w), w) == 0; };
        if (c == '"') {
            inString = true;
            out += c;
        } else if (word("NaN")) {
            out += "\"\\u0001NaN\"";
            i += 2;
        } else if (word("-Infinity")) {
            out += "\"\\u0001-Infinity\"";
            i += 8;
        } else if (word("Infinity")) {
            out += "\"\\u0001Infinity\"";
            i += 7;
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

std::optional<double> nonFinite(const std::string& s) {
    if (s == kJsonNaN || s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == kJsonInf || s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == kJsonNegInf || s == "-Infinity") return -std::numeric_limits<double>::infinity();
    return std::nullopt;
}

std::string shortDump(const json& j) {
    std::string s = j.dump(-1, ' ', true, json::error_handler_t::replace);
    return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

const json& member(const json& obj, const char* key, const std::string& context) {
    if (!obj.is_object() || !obj.contains(key))
        fail(context, std::string("its metadata has no '") + key + "'");
    return obj.at(key);
}

std::int64_t asInt(const json& j, const std::string& what, const std::string& context) {
    if (j.is_number_unsigned()) {
        if (j.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            fail(context, what + " " + shortDump(j) + " is too large");
        return std::int64_t(j.get<std::uint64_t>());
    }
    if (j.is_number_integer()) return j.get<std::int64_t>();
    fail(context, what + " is " + shortDump(j) + ", not an integer");
}

std::vector<std::int64_t> intList(const json& j, const std::string& what, const std::string& context) {
    if (!j.is_array()) fail(context, what + " is " + shortDump(j) + ", not a list of integers");
    std::vector<std::int64_t> out;
    for (const json& e : j) out.push_back(asInt(e, what + " entry", context));
    return out;
}

namespace {

struct NumpyType {
    DType dtype;
    bool big;
};

// "<f4", ">i2", "|u1", "|b1" (bool reads as uint8); nullopt for the rest.
std::optional<NumpyType> numpyType(const std::string& s) {
    if (s.size() < 3) return std::nullopt;
    const char order = s[0];
    if (order != '<' && order != '>' && order != '|' && order != '=') return std::nullopt;
    const char kind = s[1];
    const std::string size = s.substr(2);
    const bool big = order == '>';
    static const struct {
        char kind;
        const char* size;
        DType dtype;
    } known[] = {{'i', "1", DType::Int8},    {'u', "1", DType::UInt8},  {'b', "1", DType::UInt8},
                 {'i', "2", DType::Int16},   {'u', "2", DType::UInt16}, {'i', "4", DType::Int32},
                 {'u', "4", DType::UInt32},  {'i', "8", DType::Int64},  {'u', "8", DType::UInt64},
                 {'f', "4", DType::Float32}, {'f', "8", DType::Float64}};
    for (const auto& k : known)
        if (k.kind == kind && size == k.size) return NumpyType{k.dtype, big};
    return std::nullopt;
}

} // namespace

std::optional<DType> v3Type(const std::string& s) {
    static const std::pair<const char*, DType> known[] = {
        {"bool", DType::UInt8},      {"int8", DType::Int8},      {"uint8", DType::UInt8},
        {"int16", DType::Int16},     {"uint16", DType::UInt16},  {"int32", DType::Int32},
        {"uint32", DType::UInt32},   {"int64", DType::Int64},    {"uint64", DType::UInt64},
        {"float32", DType::Float32}, {"float64", DType::Float64}};
    for (const auto& [n, t] : known)
        if (s == n) return t;
    return std::nullopt;
}

namespace {

NumpyType filterType(const json& config, const char* key, const std::string& context,
                     const std::string& codec) {
    const json& j = member(config, key, context + ": codec '" + codec + "'");
    const auto t = j.is_string() ? numpyType(j.get<std::string>()) : std::nullopt;
    if (!t)
        fail(context,
             "codec '" + codec + "': " + key + " " + shortDump(j) + " is not a numeric type Strata reads");
    return *t;
}

} // namespace

std::vector<unsigned char> fillBytes(const json& j, DType dtype, std::optional<double>& number,
                                     const std::string& context) {
    std::vector<unsigned char> out(sizeOf(dtype));
    if (j.is_string() && j.get<std::string>().rfind("0x", 0) == 0) { // v3: the bits, big-endian hex
        const std::string hex = j.get<std::string>().substr(2);
        if (hex.size() != 2 * out.size())
            fail(context, "fill_value " + shortDump(j) + " has the wrong length");
        std::uint64_t bits = 0;
        for (char c : hex) {
            const int d = std::isdigit((unsigned char)c) ? c - '0'
                          : (c >= 'a' && c <= 'f')       ? c - 'a' + 10
                          : (c >= 'A' && c <= 'F')       ? c - 'A' + 10
                                                         : -1;
            if (d < 0) fail(context, "fill_value " + shortDump(j) + " is not hexadecimal");
            bits = bits << 4 | std::uint64_t(d);
        }
        std::memcpy(out.data(), &bits, out.size()); // little-endian machine: low bytes first
        visitNumeric(dtype, [&](auto tag) {
            using T = decltype(tag);
            T v;
            std::memcpy(&v, out.data(), sizeof v);
            number = double(v);
        });
        return out;
    }
    double d = 0;
    bool exactInt = false;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    if (j.is_boolean()) {
        exactInt = true;
        i = j.get<bool>();
        u = std::uint64_t(i);
        d = double(i);
    } else if (j.is_number_unsigned()) {
        exactInt = true;
        u = j.get<std::uint64_t>();
        i = std::int64_t(u);
        d = double(u);
    } else if (j.is_number_integer()) {
        exactInt = true;
        i = j.get<std::int64_t>();
        u = std::uint64_t(i);
        d = double(i);
    } else if (j.is_number_float()) {
        d = j.get<double>();
    } else if (j.is_string() && nonFinite(j.get<std::string>())) {
        d = *nonFinite(j.get<std::string>());
    } else {
        fail(context, "fill_value " + shortDump(j) + " is not a number");
    }
    visitNumeric(dtype, [&](auto tag) {
        using T = decltype(tag);
        T v{};
        if constexpr (std::is_floating_point_v<T>) {
            v = exactInt ? T(i) : T(d);
            if (exactInt && j.is_number_unsigned()) v = T(u);
        } else {
            if (!exactInt) {
                if (!(d == std::floor(d)) || d < double(std::numeric_limits<T>::lowest()) ||
                    d > double(std::numeric_limits<T>::max()))
                    fail(context, "fill_value " + shortDump(j) + " is not a " + std::string(name(dtype)));
                v = T(d);
            } else if constexpr (std::is_signed_v<T>) {
                if ((j.is_number_unsigned() && u > std::uint64_t(std::numeric_limits<T>::max())) ||
                    i < std::int64_t(std::numeric_limits<T>::lowest()) ||
                    i > std::int64_t(std::numeric_limits<T>::max()))
                    fail(context, "fill_value " + shortDump(j) + " is outside " + std::string(name(dtype)));
                v = T(i);
            } else {
                if ((!j.is_number_unsigned() && !j.is_boolean() && i < 0) ||
                    u > std::uint64_t(std::numeric_limits<T>::max()))
                    fail(context, "fill_value " + shortDump(j) + " is outside " + std::string(name(dtype)));
                v = T(u);
            }
        }
        std::memcpy(out.data(), &v, sizeof v);
        number = double(v);
    });
    return out;
}

namespace {

ZarrByteCodec v2Codec(const json& c, const std::string& context) {
    if (!c.is_object() || !c.contains("id") || !c["id"].is_string())
        fail(context, "a codec without an 'id': " + shortDump(c));
    ZarrByteCodec k;
    k.name = c["id"].get<std::string>();
    const std::string& id = k.name;
    using K = ZarrByteCodec::Kind;
    if (id == "blosc")
        k.kind = K::Blosc;
    else if (id == "zstd")
        k.kind = K::Zstd;
    else if (id == "zlib")
        k.kind = K::Zlib;
    else if (id == "gzip")
        k.kind = K::Gzip;
    else if (id == "lz4")
        k.kind = K::Lz4;
    else if (id == "crc32c")
        k.kind = K::Crc32c;
    else if (id == "shuffle") {
        k.kind = K::Shuffle;
        k.elementSize = int(asInt(member(c, "elementsize", context), "shuffle's elementsize", context));
        if (k.elementSize < 1 || k.elementSize > 64) fail(context, "shuffle's elementsize is out of range");
    } else if (id == "delta" || id == "fixedscaleoffset" || id == "astype" || id == "quantize" ||
               id == "bitround") {
        k.kind = id == "delta" ? K::Delta : id == "fixedscaleoffset" ? K::FixedScaleOffset : K::AsType;
        if (id == "bitround") { // decoding is nothing: the values are stored as they are
            k.kind = K::AsType;
            k.dtype = k.astype = DType::UInt8; // marks "no change" (element sizes are equal)
            k.name = "bitround";
            return k;
        }
        const char* decodedKey = id == "astype" ? "decode_dtype" : "dtype";
        const char* encodedKey = id == "astype" ? "encode_dtype" : "astype";
        const NumpyType d = filterType(c, decodedKey, context, id);
        const NumpyType e = c.contains(encodedKey) ? filterType(c, encodedKey, context, id) : d;
        k.dtype = d.dtype, k.dtypeBig = d.big, k.astype = e.dtype, k.astypeBig = e.big;
        if (id == "fixedscaleoffset") {
            const json &s = member(c, "scale", context), &o = member(c, "offset", context);
            if (!s.is_number() || !o.is_number())
                fail(context, "fixedscaleoffset's scale and offset must be numbers");
            k.scale = s.get<double>(), k.offset = o.get<double>();
            if (!isFloating(k.dtype)) fail(context, "fixedscaleoffset to integers is not supported");
        }
        if ((id == "quantize" || id == "astype") && !(isNumeric(k.dtype) && isNumeric(k.astype)))
            fail(context, id + ": types not supported");
    } else {
        k.name = id;
        k.kind = K::AsType;
        k.dtype = DType::Char; // marks "unsupported": the reader says so when asked for values
    }
    return k;
}

} // namespace

void checkShapes(ZarrArrayMeta& m, const std::string& context) {
    if (m.shape.size() > std::size_t(kMaxDims))
        fail(context,
             std::to_string(m.shape.size()) + " dims; Strata reads at most " + std::to_string(kMaxDims));
    if (m.chunk.size() != m.shape.size())
        fail(context, "its chunks have " + std::to_string(m.chunk.size()) + " dims, its shape " +
                          std::to_string(m.shape.size()));
    std::int64_t elements = 1;
    for (std::size_t i = 0; i < m.shape.size(); ++i) {
        if (m.shape[i] < 0)
            fail(context, "its shape has a negative length (" + std::to_string(m.shape[i]) + ")");
        if (m.chunk[i] < 1)
            fail(context, "its chunk shape has a length below 1 (" + std::to_string(m.chunk[i]) + ")");
        std::int64_t bytes = 0;
        if (__builtin_mul_overflow(elements, m.shape[i], &elements) ||
            __builtin_mul_overflow(elements, std::int64_t(sizeOf(m.dtype)), &bytes))
            fail(context, "its declared shape overflows 64 bits");
    }
    std::uint64_t chunkBytes = sizeOf(m.dtype);
    for (std::int64_t c : m.chunk)
        if (c > std::int64_t(kMaxChunkBytes) || (chunkBytes *= std::uint64_t(c)) > kMaxChunkBytes)
            fail(context, "its chunks are larger than the " + std::to_string(kMaxChunkBytes >> 20) +
                              " MiB Strata decodes at once");
}

std::uint64_t ZarrArrayMeta::chunkBytes() const {
    std::uint64_t n = sizeOf(dtype);
    for (std::int64_t c : chunk) n *= std::uint64_t(c);
    return n;
}

std::shared_ptr<const JsonDoc> parseJson(const std::string& text, const std::string& context) {
    auto doc = std::make_shared<JsonDoc>();
    try {
        doc->json = json::parse(quoteNonFinite(text));
    } catch (const json::exception& e) {
        std::string what = e.what();
        if (auto at = what.find("] "); at != std::string::npos) what = what.substr(at + 2);
        fail(context, "malformed JSON (" + what + ")");
    }
    return doc;
}

Attributes parseAttributes(const JsonDoc* doc, const std::string& context) {
    Attributes out;
    if (!doc || doc->json.is_null()) return out;
    if (!doc->json.is_object())
        fail(context, "its attributes are " + shortDump(doc->json) + ", not an object");
    for (const auto& [key, v] : doc->json.items()) {
        Attribute a;
        a.name = key;
        const bool list = v.is_array();
        const json one = list ? v : json::array({v});
        const bool allInt = std::all_of(
            one.begin(), one.end(), [](const json& e) { return e.is_number_integer() || e.is_boolean(); });
        const bool allNum = std::all_of(one.begin(), one.end(), [](const json& e) { // bare NaN: a marker
            return e.is_number() || e.is_boolean() ||
                   (e.is_string() && e.get<std::string>().rfind('\x01', 0) == 0 &&
                    nonFinite(e.get<std::string>()));
        });
        const bool allText = std::all_of(one.begin(), one.end(), [](const json& e) { return e.is_string(); });
        if (v.is_null()) continue;
        if (!one.empty() && allInt) {
            std::vector<std::int64_t> vals;
            for (const json& e : one)
                vals.push_back(e.is_boolean()           ? e.get<bool>()
                               : e.is_number_unsigned() ? std::int64_t(e.get<std::uint64_t>())
                                                        : e.get<std::int64_t>());
            a.type = DType::Int64;
            a.value = std::move(vals);
        } else if (!one.empty() && allNum) {
            std::vector<double> vals;
            for (const json& e : one)
                vals.push_back(e.is_string()    ? *nonFinite(e.get<std::string>())
                               : e.is_boolean() ? double(e.get<bool>())
                                                : e.get<double>());
            a.type = DType::Float64;
            a.value = std::move(vals);
        } else if (!list && v.is_string()) {
            a.type = DType::Char;
            a.value = v.get<std::string>();
        } else if (list && allText) {
            std::string text;
            for (std::size_t k = 0; k < v.size(); ++k) text += (k ? ", " : "") + v[k].get<std::string>();
            a.type = DType::String;
            a.value = std::move(text);
        } else {
            a.type = DType::Char;
            a.value = v.dump(-1, ' ', false, json::error_handler_t::replace);
        }
        out.set(std::move(a));
    }
    return out;
}

ZarrArrayMeta parseArrayV2(const JsonDoc& zarray, const JsonDoc* zattrs, const std::string& context) {
    const json& j = zarray.json;
    if (!j.is_object()) fail(context, ".zarray is " + shortDump(j) + ", not an object");
    ZarrArrayMeta m;
    m.format = 2;
    if (j.contains("zarr_format") &&
        !(j["zarr_format"].is_number_integer() && j["zarr_format"].get<int>() == 2))
        fail(context, "zarr_format " + shortDump(j["zarr_format"]) + " in .zarray (2 expected)");
    m.shape = intList(member(j, "shape", context), "shape", context);
    m.chunk = intList(member(j, "chunks", context), "chunks", context);
    const json& dt = member(j, "dtype", context);
    const auto t = dt.is_string() ? numpyType(dt.get<std::string>()) : std::nullopt;
    if (t) {
        m.dtype = t->dtype;
        m.codecs.bigEndian = t->big;
    } else {
        m.unsupportedType = shortDump(dt);
        m.dtype = DType::UInt8;
    }
    checkShapes(m, context);
    const json order = j.value("order", json("C"));
    if (order == "F") {
        for (int i = int(m.shape.size()) - 1; i >= 0; --i) m.codecs.order.push_back(i);
    } else if (order != "C") {
        fail(context, "order " + shortDump(order) + " (C or F expected)");
    }
    if (j.contains("dimension_separator")) {
        const json& s = j["dimension_separator"];
        if (s == ".")
            m.separator = '.';
        else if (s == "/")
            m.separator = '/';
        else
            fail(context, "dimension_separator " + shortDump(s) + " ('.' or '/' expected)");
    }
    if (const json f = j.value("fill_value", json()); !f.is_null() && !m.unsupportedType)
        m.fill = fillBytes(f, m.dtype, m.fillNumber, context);
    if (j.contains("filters") && !j["filters"].is_null()) {
        if (!j["filters"].is_array()) fail(context, "filters is " + shortDump(j["filters"]) + ", not a list");
        for (const json& f : j["filters"]) m.codecs.bytes.push_back(v2Codec(f, context));
    }
    if (j.contains("compressor") && !j["compressor"].is_null())
        m.codecs.bytes.push_back(v2Codec(j["compressor"], context));
    m.attrs = parseAttributes(zattrs, context);
    if (m.attrs.contains("_ARRAY_DIMENSIONS")) {
        const json& d = zattrs->json["_ARRAY_DIMENSIONS"];
        if (!d.is_array() || d.size() != m.shape.size() ||
            !std::all_of(d.begin(), d.end(), [](const json& e) { return e.is_string(); }))
            fail(context, "_ARRAY_DIMENSIONS " + shortDump(d) + " does not name its " +
                              std::to_string(m.shape.size()) + " dims");
        for (const json& e : d) m.dims.push_back(e.get<std::string>());
        m.attrs.erase("_ARRAY_DIMENSIONS");
    }
    return m;
}

} // namespace strata::io::detail
