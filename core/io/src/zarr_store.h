#pragma once
// Where a Zarr store's keys live: a local directory (one file per key). Keys are checked
// before any file is touched: a key from a hostile store never leaves the store's directory.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace strata::io::detail {

using Bytes = std::vector<unsigned char>;

class ZarrStore {
public:
    virtual ~ZarrStore() = default;
    // The value of `key` ("sst/.zarray", "sst/0.0"), or nullopt when the store has no such key.
    // Throws NetcdfError naming the store and the key when the key is refused (empty parts,
    // ".", "..", a backslash, a NUL) or its value is larger than `maxBytes` or cannot be read.
    virtual std::optional<Bytes> get(const std::string& key, std::uint64_t maxBytes) const = 0;
    // The names of the folders directly under `prefix` ("" for the root), sorted; empty where
    // the store cannot be listed.
    virtual std::vector<std::string> children(const std::string& prefix) const = 0;
    // False where children() cannot list (a store over HTTP).
    virtual bool canList() const { return true; }
    // The store as the user named it, for messages.
    virtual const std::string& name() const = 0;
};

// A store in a local directory. Throws NetcdfError when `path` is not a readable directory.
std::shared_ptr<const ZarrStore> openLocalStore(const std::string& path);

// Throws NetcdfError (naming `store`) unless every '/'-separated part of `key` is a plain name.
void checkKey(const std::string& store, const std::string& key);

} // namespace strata::io::detail
