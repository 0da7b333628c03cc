// Zarr v3 array metadata (zarr.json): data type, regular chunk grid, chunk keys, fill value,
// the codec chain (transpose, bytes, sharding_indexed, gzip, zstd, blosc, crc32c) and
// dimension_names.
#include <algorithm>
#include <numeric>

#include "strata/core/array_view.h"
#include "zarr_json.h"

namespace strata::io::detail {
namespace {

using nlohmann::json;

std::string codecName(const json& c, const std::string& context) {
    if (c.is_string()) return c.get<std::string>();
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string())
        fail(context, "a codec without a 'name': " + shortDump(c));
    return c["name"].get<std::string>();
}

json configOf(const json& c) {
    if (c.is_object() && c.contains("configuration") && c["configuration"].is_object())
        return c["configuration"];
    return json::object();
}

std::shared_ptr<const ZarrCodecs> parseCodecs(const json& list, std::size_t ndim,
                                              const std::vector<std::int64_t>& chunk, DType dtype, int depth,
                                              const std::string& context);

std::shared_ptr<const ZarrShard> parseShard(const json& config, std::size_t ndim,
                                            const std::vector<std::int64_t>& shardShape, DType dtype,
                                            int depth, const std::string& context) {
    if (depth > 4) fail(context, "sharding nested more than 4 deep");
    if (ndim == 0) fail(context, "sharding a 0-d array is not supported");
    auto s = std::make_shared<ZarrShard>();
    s->chunk = intList(member(config, "chunk_shape", context), "sharding chunk_shape", context);
    if (s->chunk.size() != ndim) fail(context, "sharding chunk_shape has the wrong number of dims");
    for (std::size_t i = 0; i < ndim; ++i)
        if (s->chunk[i] < 1 || shardShape[i] % s->chunk[i] != 0)
            fail(context, "sharding chunk_shape " + shortDump(config["chunk_shape"]) +
                              " does not divide the shard shape");
    s->inner = parseCodecs(member(config, "codecs", context), ndim, s->chunk, dtype, depth + 1, context);
    const json indexCodecs =
        config.value("index_codecs", json::array({json{{"name", "bytes"}}, json{{"name", "crc32c"}}}));
    std::vector<std::int64_t> indexShape;
    for (std::size_t i = 0; i < ndim; ++i) indexShape.push_back(shardShape[i] / s->chunk[i]);
    indexShape.push_back(2);
    s->index = parseCodecs(indexCodecs, ndim + 1, indexShape, DType::UInt64, depth + 1, context);
    for (const ZarrByteCodec& b : s->index->bytes)
        if (b.kind != ZarrByteCodec::Kind::Crc32c)
            fail(context, "sharding index_codecs may hold only bytes and crc32c (got '" + b.name + "')");
    if (s->index->shard) fail(context, "sharding index_codecs may not shard");
    const json loc = config.value("index_location", json("end"));
    if (loc == "start")
        s->indexAtStart = true;
    else if (loc != "end")
        fail(context, "sharding index_location " + shortDump(loc) + " (start or end expected)");
    return s;
}

std::shared_ptr<const ZarrCodecs> parseCodecs(const json& list, std::size_t ndim,
                                              const std::vector<std::int64_t>& chunk, DType dtype, int depth,
                                              const std::string& context) {
    if (!list.is_array()) fail(context, "codecs is " + shortDump(list) + ", not a list");
    auto out = std::make_shared<ZarrCodecs>();
    bool serialised = false;
    std::vector<int> order(ndim);
    std::iota(order.begin(), order.end(), 0);
    std::vector<std::int64_t> shape = chunk; // the chunk's shape as the next codec sees it
    using K = ZarrByteCodec::Kind;
    for (const json& c : list) {
        const std::string name = codecName(c, context);
        const json config = configOf(c);
        if (name == "transpose") {
            if (serialised) fail(context, "transpose after the array was serialised");
            std::vector<int> t;
            const json o = member(config, "order", context + ": codec 'transpose'");
            if (o == "C") {
                for (std::size_t i = 0; i < ndim; ++i) t.push_back(int(i));
            } else if (o == "F") {
                for (std::size_t i = ndim; i-- > 0;) t.push_back(int(i));
            } else {
                for (std::int64_t v : intList(o, "transpose order", context)) t.push_back(int(v));
            }
            std::vector<int> sorted = t;
            std::sort(sorted.begin(), sorted.end());
            for (std::size_t i = 0; i < sorted.size(); ++i)
                if (sorted.size() != ndim || sorted[i] != int(i))
                    fail(context, "transpose order " + shortDump(o) + " is not a permutation of the dims");
            std::vector<int> composed(ndim);
            std::vector<std::int64_t> next(ndim);
            for (std::size_t i = 0; i < ndim; ++i)
                composed[i] = order[std::size_t(t[i])], next[i] = shape[std::size_t(t[i])];
            order = composed;
            shape = next;
        } else if (name == "bytes" || name == "endian") {
            if (serialised) fail(context, "two array-to-bytes codecs");
            serialised = true;
            const json e = config.value("endian", json("little"));
            if (e == "big")
                out->bigEndian = true;
            else if (e != "little")
                fail(context, "bytes endian " + shortDump(e) + " (little or big expected)");
        } else if (name == "sharding_indexed") {
            if (serialised) fail(context, "two array-to-bytes codecs");
            serialised = true;
            out->shard = parseShard(config, ndim, shape, dtype, depth, context);
        } else {
            if (!serialised)
                fail(context, "codec '" + name + "' before the array was serialised (no bytes codec)");
            ZarrByteCodec b;
            b.name = name;
            if (name == "gzip")
                b.kind = K::Gzip;
            else if (name == "zstd")
                b.kind = K::Zstd;
            else if (name == "blosc")
                b.kind = K::Blosc;
            else if (name == "crc32c")
                b.kind = K::Crc32c;
            else
                b.kind = K::AsType, b.dtype = DType::Char; // unsupported: the reader says so
            out->bytes.push_back(std::move(b));
        }
    }
    if (!serialised) fail(context, "its codecs have no array-to-bytes codec (bytes or sharding_indexed)");
    if (out->shard && !std::is_sorted(order.begin(), order.end()))
        fail(context, "transpose before sharding_indexed is not supported");
    if (!std::is_sorted(order.begin(), order.end())) out->order = order;
    return out;
}

} // namespace

ZarrArrayMeta parseArrayV3(const JsonDoc& doc, const std::string& context) {
    const json& j = doc.json;
    if (!j.is_object()) fail(context, "zarr.json is " + shortDump(j) + ", not an object");
    ZarrArrayMeta m;
    m.format = 3;
    m.shape = intList(member(j, "shape", context), "shape", context);
    const json& dt = member(j, "data_type", context);
    const auto t = dt.is_string() ? v3Type(dt.get<std::string>()) : std::nullopt;
    if (t)
        m.dtype = *t;
    else
        m.unsupportedType = shortDump(dt), m.dtype = DType::UInt8;
    const json& grid = member(j, "chunk_grid", context);
    if (codecName(grid, context) != "regular")
        fail(context, "chunk_grid " + shortDump(grid) + " (only 'regular' is read)");
    m.chunk = intList(member(configOf(grid), "chunk_shape", context), "chunk_shape", context);
    checkShapes(m, context);
    const json keys = j.value("chunk_key_encoding", json{{"name", "default"}});
    const std::string keyName = codecName(keys, context);
    const json keyConfig = configOf(keys);
    if (keyName == "default") {
        m.keyPrefix = "c";
        m.separator = '/';
    } else if (keyName == "v2") {
        m.separator = '.';
    } else {
        fail(context, "chunk_key_encoding '" + keyName + "' is not supported");
    }
    if (keyConfig.contains("separator")) {
        const json& s = keyConfig["separator"];
        if (s == "/" || s == ".")
            m.separator = s.get<std::string>()[0];
        else
            fail(context, "chunk key separator " + shortDump(s) + " ('.' or '/' expected)");
    }
    if (j.contains("storage_transformers") && j["storage_transformers"].is_array() &&
        !j["storage_transformers"].empty())
        fail(context, "storage_transformers are not supported");
    if (!m.unsupportedType) {
        const json& f = member(j, "fill_value", context);
        if (!f.is_null()) m.fill = fillBytes(f, m.dtype, m.fillNumber, context);
        m.codecs = *parseCodecs(member(j, "codecs", context), m.shape.size(), m.chunk, m.dtype, 0, context);
    }
    if (j.contains("attributes")) {
        JsonDoc attrs{j["attributes"]};
        m.attrs = parseAttributes(&attrs, context);
    }
    if (j.contains("dimension_names") && !j["dimension_names"].is_null()) {
        const json& d = j["dimension_names"];
        if (!d.is_array() || d.size() != m.shape.size())
            fail(context, "dimension_names " + shortDump(d) + " does not name its " +
                              std::to_string(m.shape.size()) + " dims");
        for (const json& e : d) {
            if (!e.is_string() && !e.is_null())
                fail(context, "dimension_names entry " + shortDump(e) + " is not text");
            m.dims.push_back(e.is_string() ? e.get<std::string>() : std::string());
        }
    }
    return m;
}

} // namespace strata::io::detail
