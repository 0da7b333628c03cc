#include "py_region.h"

#include <pybind11/stl.h>

#include <sys/stat.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "py_array.h"
#include "py_dataset.h"
#include "strata/core/data_source.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"

namespace py = pybind11;

namespace strata::py {
namespace {

// The datasets this process has opened for region reads, newest last: a Dask worker reads many
// chunks of one file and opens it once. A local file is opened again when it changed.
class OpenFiles {
public:
    std::shared_ptr<const Dataset> get(const std::string& path) {
        const std::string stamp = stampOf(path);
        {
            std::lock_guard lock(mutex_);
            for (const Entry& e : entries_)
                if (e.path == path && e.stamp == stamp) return e.dataset;
        }
        OpenNotes notes;
        auto ds = std::make_shared<const Dataset>(openDataset(path, notes)); // outside the lock
        std::lock_guard lock(mutex_);
        std::erase_if(entries_, [&](const Entry& e) { return e.path == path; });
        entries_.push_back({path, stamp, ds});
        if (entries_.size() > kKept) entries_.pop_front();
        ++opened_;
        return ds;
    }
    std::uint64_t opened() const { return opened_.load(); }

private:
    static constexpr std::size_t kKept = 16;
    struct Entry {
        std::string path, stamp;
        std::shared_ptr<const Dataset> dataset;
    };
    // Size and modification time of a local file (a Zarr store's folder: its own), else empty.
    static std::string stampOf(const std::string& path) {
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) return {};
        return std::to_string(st.st_size) + "@" + std::to_string(st.st_mtim.tv_sec) + "." +
               std::to_string(st.st_mtim.tv_nsec);
    }
    std::mutex mutex_;
    std::deque<Entry> entries_;
    std::atomic<std::uint64_t> opened_{0};
};

OpenFiles& openFiles() {
    static OpenFiles files;
    return files;
}

std::atomic<std::uint64_t> regionReads{0};

// Variable `name` of `ds`, in a group when its name says one ("group/name", as describeParts
// of a group names them).
const Variable& variableIn(const Dataset& ds, const std::string& path, const std::string& name) {
    const auto slash = name.rfind('/');
    const Variable* v = slash == std::string::npos
                            ? ds.findVariable(name)
                            : ds.findGroup(name.substr(0, slash)).findVariable(name.substr(slash + 1));
    STRATA_EXPECTS(v, ValueError, path + ": no variable '" + name + "'");
    STRATA_EXPECTS(isNumeric(v->dtype()), ValueError,
                   path + ": variable '" + name + "' (" + std::string(strata::name(v->dtype())) +
                       ") has no numeric values to read");
    return *v;
}

// A file's variables and coordinates without their values: what xarray needs to build lazy
// arrays (names, dims, shapes, decoded dtypes, attributes, the reader's chunk shape).
::py::dict describeParts(const std::string& path, const std::string& group) {
    std::shared_ptr<const Dataset> file;
    {
        ::py::gil_scoped_release nogil;
        file = openFiles().get(path);
    }
    // A group's variables ("" or "/": the root's), each read by _read as "group/name".
    const Dataset* ds = group.empty() ? file.get() : &file->findGroup(group);
    const std::string prefix = group.empty() || group == "/" ? std::string() : ds->group.substr(1) + "/";
    ::py::list variables;
    for (const std::string& n : ds->dataVariables()) {
        const Variable* v = ds->findVariable(n);
        if (!v || !isNumeric(v->dtype())) continue; // kept as metadata only, as _open does
        ::py::dict d;
        d["name"] = n;
        d["read_as"] = prefix + n; // what _read takes
        d["dims"] = v->dims();
        d["shape"] = v->shape();
        d["dtype"] = std::string(name(v->dtype()));
        d["attrs"] = exportAttributes(v->attrs());
        const std::vector<std::int64_t> chunks = io::storedChunkShape(*v);
        d["chunks"] = chunks.size() == v->shape().size() ? ::py::cast(chunks) : ::py::none();
        variables.append(d);
    }
    ::py::list coords;
    for (const Coordinate& c : ds->coords) coords.append(exportCoordinate(c));
    ::py::dict out;
    out["path"] = file->path;
    out["format"] = file->format;
    out["attrs"] = exportAttributes(ds->attrs);
    out["variables"] = variables;
    out["coords"] = coords;
    return out;
}

using Range = std::tuple<std::int64_t, std::int64_t, std::int64_t>; // start, stop, step

// The region of variable `name` of `path` given by one (start, stop, step) per dim (step >= 1),
// read and decoded onto `device`: only the file's chunks meeting it are read.
ExportedArray readRegion(const std::string& path, const std::string& name, const std::vector<Range>& region,
                         const std::string& deviceText) {
    const Device device = parseDevice(deviceText);
    ::py::gil_scoped_release nogil;
    const std::shared_ptr<const Dataset> ds = openFiles().get(path);
    const Variable& v = variableIn(*ds, path, name);
    const std::string context = path + ": variable '" + name + "'";
    STRATA_EXPECTS(region.size() == v.dims().size(), ValueError,
                   context + ": a region of " + std::to_string(region.size()) + " dims for " +
                       std::to_string(v.dims().size()));
    std::vector<Indexer> indexers;
    for (std::size_t i = 0; i < region.size(); ++i) {
        const auto [start, stop, step] = region[i];
        STRATA_EXPECTS(step >= 1 && 0 <= start && start <= stop && stop <= v.shape()[i], IndexError,
                       context + ": region " + std::to_string(start) + ":" + std::to_string(stop) + ":" +
                           std::to_string(step) + " is outside dim '" + v.dims()[i] + "' of length " +
                           std::to_string(v.shape()[i]));
        indexers.push_back({v.dims()[i], Slice{start, stop, step}});
    }
    const Stream stream = device.isCuda() ? defaultStream(device) : Stream::host();
    Variable loaded = v.isel(indexers).load(device, stream);
    stream.synchronize();
    ++regionReads;
    return ExportedArray::of(loaded, context);
}

} // namespace

void bindRegions(::py::module_& m) {
    m.def("_describe", &describeParts, ::py::arg("path"), ::py::arg("group") = "",
          "A file's variables (name, dims, shape, dtype, attrs, chunks) and coordinates, no values read.");
    m.def("_read", &readRegion, ::py::arg("path"), ::py::arg("name"), ::py::arg("region"),
          ::py::arg("device"),
          "A region of a variable, (start, stop, step) per dim, read and decoded onto a device.");
    m.def(
        "_region_counters",
        [] {
            ::py::dict d;
            d["reads"] = regionReads.load();
            d["opened"] = openFiles().opened();
            return d;
        },
        "Region reads and file opens of this process (for tests: which chunks a worker read).");
}

} // namespace strata::py
