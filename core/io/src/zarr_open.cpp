// openZarr: a Zarr store's groups and arrays into a Dataset, as the netCDF reader builds one.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "nc_coords.h"
#include "strata/core/error.h"
#include "strata/core/healpix_pyramid.h"
#include "strata/io/zarr.h"
#include "zarr_codec.h"
#include "zarr_http.h"
#include "zarr_json.h"
#include "zarr_source.h"
#include "zarr_store.h"

namespace strata::io {
namespace detail {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxNodes = 100000;
constexpr int kMaxDepth = 128;

// A group or an array of the store, by its path ("" for the root, "a/b").
struct Node {
    bool array = false;
    std::shared_ptr<const JsonDoc> meta, attrs; // v2: .zarray/.zgroup and .zattrs; v3: zarr.json
};

std::string parentOf(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}
std::string join(const std::string& prefix, const std::string& key) {
    return prefix.empty() ? key : prefix + "/" + key;
}

class StoreReader {
public:
    StoreReader(std::shared_ptr<const ZarrStore> store, OpenNotes& notes)
        : store_(std::move(store)), notes_(notes) {}

    Dataset read() {
        findNodes();
        const auto root = nodes_.find("");
        STRATA_EXPECTS(root != nodes_.end(), NetcdfError,
                       store_->name() + ": no .zgroup, .zarray, .zmetadata or zarr.json at its top");
        if (root->second.array) { // a store that is one array: a Dataset holding it
            std::string name = std::filesystem::path(store_->name()).filename().string();
            if (auto dot = name.rfind(".zarr"); dot != std::string::npos && dot + 5 == name.size())
                name.resize(dot);
            Dataset ds = emptyDataset("");
            addArray(ds, name.empty() ? "data" : name, "", root->second);
            std::vector<const Dataset*> chain{&ds};
            readCoordinates(ds, chain);
            return ds;
        }
        std::vector<const Dataset*> chain;
        return readGroup("", chain);
    }

private:
    std::shared_ptr<const JsonDoc> getJson(const std::string& key) {
        auto bytes = store_->get(key, kMaxMetadataBytes);
        if (!bytes) return nullptr;
        return parseJson(std::string(bytes->begin(), bytes->end()), store_->name() + ": '" + key + "'");
    }

    void addNode(const std::string& path, Node n) {
        STRATA_EXPECTS(nodes_.size() < kMaxNodes, NetcdfError,
                       store_->name() + ": more than " + std::to_string(kMaxNodes) + " groups and arrays");
        if (!path.empty()) checkKey(store_->name(), path);
        nodes_[path] = std::move(n);
    }

    void findNodes() {
        if (auto v3 = getJson("zarr.json")) {
            version_ = 3;
            if (v3->json.is_object() && v3->json.contains("consolidated_metadata") &&
                v3->json["consolidated_metadata"].is_object() &&
                v3->json["consolidated_metadata"].contains("metadata")) {
                addV3("", v3);
                const json& all = v3->json["consolidated_metadata"]["metadata"];
                STRATA_EXPECTS(all.is_object(), NetcdfError,
                               store_->name() + ": consolidated_metadata is not an object");
                for (const auto& [path, meta] : all.items())
                    addV3(path, std::make_shared<JsonDoc>(JsonDoc{meta}));
                return;
            }
            listV3("", v3, 0);
            noteUnlisted();
            return;
        }
        if (auto consolidated = getJson(".zmetadata")) {
            const json& md =
                consolidated->json.is_object() ? consolidated->json.value("metadata", json()) : json();
            STRATA_EXPECTS(md.is_object(), NetcdfError,
                           store_->name() + ": '.zmetadata' has no 'metadata' object");
            for (const auto& [key, value] : md.items()) {
                const auto slash = key.rfind('/');
                const std::string leaf = slash == std::string::npos ? key : key.substr(slash + 1);
                const std::string path = slash == std::string::npos ? std::string() : key.substr(0, slash);
                if (leaf != ".zarray" && leaf != ".zgroup") continue;
                Node n;
                n.array = leaf == ".zarray";
                n.meta = std::make_shared<JsonDoc>(JsonDoc{value});
                if (md.contains(join(path, ".zattrs")))
                    n.attrs = std::make_shared<JsonDoc>(JsonDoc{md[join(path, ".zattrs")]});
                addNode(path, std::move(n));
            }
            return;
        }
        listV2("", 0);
        noteUnlisted();
    }

    void noteUnlisted() {
        if (store_->canList() || nodes_.size() != 1 || nodes_.begin()->second.array) return;
        notes_.lines.push_back(store_->name() +
                               ": its groups and arrays cannot be listed over HTTP and it has no "
                               "consolidated metadata (.zmetadata); only its top group was read");
    }

    void listV2(const std::string& path, int depth) {
        Node n;
        if ((n.meta = getJson(join(path, ".zarray"))))
            n.array = true;
        else if (!(n.meta = getJson(join(path, ".zgroup"))))
            return;
        n.attrs = getJson(join(path, ".zattrs"));
        const bool group = !n.array;
        addNode(path, std::move(n));
        if (!group) return;
        if (depth >= kMaxDepth) {
            notes_.lines.push_back(store_->name() + ": group '/" + path +
                                   "': its groups are not read (more than " + std::to_string(kMaxDepth) +
                                   " levels deep)");
            return;
        }
        for (const std::string& child : store_->children(path)) listV2(join(path, child), depth + 1);
    }

    void addV3(const std::string& path, std::shared_ptr<const JsonDoc> doc) {
        const json& j = doc->json;
        const std::string context = store_->name() + ": '" + join(path, "zarr.json") + "'";
        STRATA_EXPECTS(j.is_object() && j.contains("node_type"), NetcdfError, context + ": no node_type");
        STRATA_EXPECTS(j.value("zarr_format", json()) == 3, NetcdfError,
                       context + ": zarr_format " + shortDump(j.value("zarr_format", json())) +
                           " (3 expected)");
        Node n;
        n.array = j["node_type"] == "array";
        STRATA_EXPECTS(n.array || j["node_type"] == "group", NetcdfError,
                       context + ": node_type " + shortDump(j["node_type"]) + " (array or group expected)");
        n.meta = std::move(doc);
        addNode(path, std::move(n));
    }

    void listV3(const std::string& path, std::shared_ptr<const JsonDoc> doc, int depth) {
        addV3(path, doc);
        if (nodes_[path].array) return;
        if (depth >= kMaxDepth) return;
        for (const std::string& child : store_->children(path))
            if (auto d = getJson(join(join(path, child), "zarr.json")))
                listV3(join(path, child), d, depth + 1);
    }

    Dataset emptyDataset(const std::string& path) {
        Dataset ds;
        ds.path = store_->name();
        ds.group = "/" + path;
        ds.format = "Zarr v" + std::to_string(version_);
        return ds;
    }

    void addArray(Dataset& ds, const std::string& name, const std::string& path, const Node& n) {
        const std::string label = path.empty() ? name : path;
        const std::string context = store_->name() + ": variable '" + label + "'";
        ZarrArrayMeta m =
            version_ == 3 ? parseArrayV3(*n.meta, context) : parseArrayV2(*n.meta, n.attrs.get(), context);
        if (m.unsupportedType) {
            notes_.lines.push_back(context + ": skipped (dtype " + *m.unsupportedType + " is not numeric)");
            return;
        }
        if (auto u = unsupportedCodec(m.codecs))
            notes_.lines.push_back(context + ": codec '" + *u +
                                   "' is not supported; its values cannot be read");
        std::vector<std::string> dims = m.dims;
        dims.resize(m.shape.size());
        for (std::size_t i = 0; i < dims.size(); ++i) // unnamed: dim_<i>, or <name>_dim_<i> when taken
            if (dims[i].empty()) {
                dims[i] = "dim_" + std::to_string(i);
                if (const Dimension* d = ds.findDim(dims[i]); d && d->length != m.shape[i])
                    dims[i] = name + "_dim_" + std::to_string(i);
            }
        if (std::set<std::string>(dims.begin(), dims.end()).size() != dims.size()) {
            notes_.lines.push_back(context + ": skipped (it uses one dimension twice)");
            return;
        }
        for (std::size_t i = 0; i < dims.size(); ++i)
            if (const Dimension* d = ds.findDim(dims[i]); d && d->length != m.shape[i]) {
                notes_.lines.push_back(context + ": skipped (its dim '" + dims[i] + "' has length " +
                                       std::to_string(m.shape[i]) + ", another variable's " +
                                       std::to_string(d->length) + ")");
                return;
            }
        for (std::size_t i = 0; i < dims.size(); ++i)
            if (!ds.findDim(dims[i])) ds.dims.push_back({dims[i], m.shape[i], false});
        Attributes attrs = m.attrs;
        // xarray takes a v2 fill_value as _FillValue (v3 stores say _FillValue in their attributes).
        if (m.format == 2 && m.fillNumber && !attrs.contains("_FillValue")) {
            Attribute a;
            a.name = "_FillValue";
            a.type = m.dtype;
            if (isFloating(m.dtype))
                a.value = std::vector<double>{*m.fillNumber};
            else if (m.dtype == DType::UInt64)
                a.value = std::vector<std::uint64_t>{std::uint64_t(*m.fillNumber)};
            else
                a.value = std::vector<std::int64_t>{std::int64_t(*m.fillNumber)};
            if (m.dtype == DType::UInt64 || m.dtype == DType::Int64) { // exact, from the bytes
                std::uint64_t bits = 0;
                std::memcpy(&bits, m.fill.data(), 8);
                if (m.dtype == DType::UInt64)
                    a.value = std::vector<std::uint64_t>{bits};
                else
                    a.value = std::vector<std::int64_t>{std::int64_t(bits)};
            }
            attrs.set(std::move(a));
        }
        CfEncoding encoding = CfEncoding::fromAttributes(attrs, m.dtype);
        for (const CfWarning& w : encoding.warnings) notes_.lines.push_back(context + ": " + w.text);
        Shape shape = m.shape;
        auto source = std::make_shared<ZarrSource>(store_, path, label, std::move(m));
        ds.variables.emplace_back(name, Variable::lazy(std::move(dims), std::move(shape), std::move(encoding),
                                                       std::move(source), std::move(attrs)));
    }

    // Index coordinates, those named by `coordinates` and cell_measures' areas, as netCDF's reader.
    void readCoordinates(Dataset& ds, const std::vector<const Dataset*>& chain) {
        const std::vector<std::string> names = coordinateNames(ds);
        for (const std::string& name : names) {
            const Variable* v = ds.findVariable(name);
            std::string group = ds.group;
            for (auto it = chain.rbegin(); !v && it != chain.rend(); ++it)
                if (*it != &ds && (v = (*it)->findVariable(name))) group = (*it)->group;
            if (!v) {
                notes_.lines.push_back(store_->name() + ": coordinate '" + name + "' named in group '" +
                                       ds.group + "' does not exist");
                continue;
            }
            if (group != ds.group && chain.size() > 1 && chain[chain.size() - 2]->coords.contains(name))
                continue;
            const std::string context =
                store_->name() + ": variable '" + (group == "/" ? name : group.substr(1) + "/" + name) + "'";
            if (auto c = decodeCoordinate(name, *v, context, notes_)) ds.coords.set(std::move(*c));
        }
    }

    Dataset readGroup(const std::string& path, std::vector<const Dataset*>& chain) {
        const Node& node = nodes_.at(path);
        Dataset ds = emptyDataset(path);
        const std::string context = store_->name() + ": group '" + ds.group + "'";
        if (version_ == 3) {
            if (node.meta->json.contains("attributes")) {
                JsonDoc a{node.meta->json["attributes"]};
                ds.attrs = parseAttributes(&a, context);
            }
        } else {
            ds.attrs = parseAttributes(node.attrs.get(), context);
        }
        std::vector<std::string> groups;
        for (const auto& [p, n] : nodes_) {
            if (p.empty() || parentOf(p) != path) continue;
            const std::string name = p.substr(path.empty() ? 0 : path.size() + 1);
            if (n.array)
                addArray(ds, name, p, n);
            else
                groups.push_back(p);
        }
        const Dataset* parent = chain.empty() ? nullptr : chain.back();
        if (parent)
            for (const Dimension& d : parent->dims)
                if (!ds.findDim(d.name)) ds.dims.push_back(d);
        chain.push_back(&ds);
        readCoordinates(ds, chain);
        if (parent)
            for (const Coordinate& c : parent->coords)
                if (!ds.coords.contains(c.name)) ds.coords.set(c);
        for (const std::string& g : groups) ds.groups.push_back(readGroup(g, chain));
        chain.pop_back();
        return ds;
    }

    std::shared_ptr<const ZarrStore> store_;
    OpenNotes& notes_;
    int version_ = 2;
    std::map<std::string, Node> nodes_;
};

} // namespace
} // namespace detail

bool looksLikeZarr(const std::string& path) {
    if (detail::isHttpUrl(path)) {
        std::string p = path.substr(0, path.find_first_of("?#"));
        while (!p.empty() && p.back() == '/') p.pop_back();
        return p.size() > 5 && p.compare(p.size() - 5, 5, ".zarr") == 0;
    }
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) return false;
    for (const char* key : {".zgroup", ".zarray", ".zmetadata", "zarr.json"})
        if (std::filesystem::exists(std::filesystem::path(path) / key, ec)) return true;
    return false;
}

Dataset openZarr(const std::string& path, OpenNotes& notes) {
    try {
        detail::StoreReader reader(
            detail::isHttpUrl(path) ? detail::openHttpStore(path) : detail::openLocalStore(path), notes);
        Dataset ds = reader.read();
        // A store of one group a zoom (a HEALPix pyramid) lists its variables once, at the root.
        if (const std::optional<healpix::Pyramid> p = healpix::rootPyramid(ds))
            notes.lines.push_back(
                path + ": " + p->describe() +
                "; the root shows the coarsest zoom, the window the zoom that fits the screen");
        return ds;
    } catch (const std::bad_alloc&) {
        STRATA_FAIL(OutOfMemoryError, path + ": out of memory while reading its metadata");
    } catch (const std::length_error&) {
        STRATA_FAIL(OutOfMemoryError, path + ": its metadata declares more than can be held");
    }
}

} // namespace strata::io
