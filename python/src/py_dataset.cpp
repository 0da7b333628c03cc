#include "py_dataset.h"

#include <pybind11/stl.h>

#include <cmath>
#include <map>
#include <string>

#include "py_array.h"
#include "py_computed.h"
#include "py_import.h"
#include "strata/core/cf_axis.h"
#include "strata/core/derived.h"
#include "strata/core/error.h"
#include "strata/core/expression.h"
#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"

namespace py = pybind11;

namespace strata::py {
namespace {

// "cuda:N" → N; -1 when the text after "cuda:" is not a plain non-negative number.
int ordinalOf(const std::string& digits) {
    if (digits.empty() || digits.size() > 4) return -1;
    for (char ch : digits)
        if (ch < '0' || ch > '9') return -1;
    return std::stoi(digits);
}

// "there are 2 CUDA devices (cuda:0 to cuda:1)"
std::string devicesText(int count) {
    if (count == 1) return "there is 1 CUDA device (cuda:0)";
    const std::string s = "there are " + std::to_string(count) + " CUDA devices";
    return count == 0 ? s : s + " (cuda:0 to cuda:" + std::to_string(count - 1) + ")";
}

} // namespace

Device parseDevice(const std::string& text) {
    if (text == "cpu" || text == "host") return Device::host();
    const bool numbered = text.rfind("cuda:", 0) == 0;
    STRATA_EXPECTS(text == "cuda" || numbered, ValueError,
                   "device '" + text + "' is not understood (use \"cuda\", \"cuda:N\" or \"cpu\")");
    const ComputeInfo& info = computeInfo();
    Device d = info.device;
    if (numbered) {
        const int ordinal = ordinalOf(text.substr(5));
        STRATA_EXPECTS(ordinal >= 0, ValueError,
                       "device '" + text + "' is not understood (use \"cuda\", \"cuda:N\" or \"cpu\")");
        const int count = cudaDeviceCount();
        STRATA_EXPECTS(ordinal < count, ValueError,
                       "device '" + text + "' does not exist: " + devicesText(count) +
                           (count ? "" : "; Strata computes on the CPU (" + info.reason + ")"));
        d = Device::cuda(ordinal);
    }
    STRATA_EXPECTS(info.device.isCuda(), ValueError,
                   "device '" + text + "' asked for, but Strata computes on the CPU (" + info.reason + ")");
    return d;
}

::py::dict exportCoordinate(const Coordinate& c) {
    ::py::dict d;
    d["name"] = c.name;
    d["dims"] = c.dims;
    d["shape"] = c.shape;
    d["values"] = c.values;
    d["dtype"] = std::string(name(c.dtype));
    d["attrs"] = exportAttributes(c.attrs);
    if (c.time) {
        std::vector<std::string> iso;
        iso.reserve(c.time->dates.size());
        for (const DateTime& t : c.time->dates) iso.push_back(t.iso());
        ::py::dict t;
        t["iso"] = iso;
        t["calendar"] = std::string(name(c.time->calendar));
        d["time"] = t;
    } else {
        d["time"] = ::py::none();
    }
    d["problem"] = c.problem;
    return d;
}

namespace {

// Reads every numeric data variable of `path` whole onto `device` (decoded as Strata decodes:
// masked → NaN, unpacked), with the coordinates on the host.
::py::dict openParts(const std::string& path, const std::string& deviceText, const std::string& group) {
    const Device device = parseDevice(deviceText);
    OpenNotes notes;
    Dataset file;
    {
        ::py::gil_scoped_release nogil;
        file = openDataset(path, notes);
    }
    // A group's variables ("" or "/": the root's); ValueError naming the file when there is none.
    const Dataset& ds = group.empty() ? file : file.findGroup(group);
    const Stream stream = device.isCuda() ? defaultStream(device) : Stream::host();
    ::py::list variables;
    for (const std::string& n : ds.dataVariables()) {
        const Variable* v = ds.findVariable(n);
        if (!v || !isNumeric(v->dtype())) {
            notes.lines.push_back(path + ": variable '" + n + "' (" +
                                  std::string(name(v ? v->dtype() : DType::Char)) +
                                  ") is kept as metadata only");
            continue;
        }
        Variable loaded;
        {
            ::py::gil_scoped_release nogil;
            loaded = v->load(device, stream);
        }
        ::py::dict d;
        d["name"] = n;
        d["dims"] = loaded.dims();
        d["attrs"] = exportAttributes(v->attrs());
        d["array"] = ExportedArray::of(loaded, path + ": variable '" + n + "'");
        variables.append(d);
    }
    ::py::list coords;
    for (const Coordinate& c : ds.coords) coords.append(exportCoordinate(c));
    ::py::dict out;
    out["path"] = file.path;
    out["format"] = file.format;
    out["attrs"] = exportAttributes(ds.attrs);
    out["variables"] = variables;
    out["coords"] = coords;
    std::vector<std::string> told = notes.warnings;
    told.insert(told.end(), notes.lines.begin(), notes.lines.end());
    out["notes"] = told;
    return out;
}

Coordinate importCoordinate(const ::py::dict& d, const std::string& context) {
    Coordinate c;
    c.name = d["name"].cast<std::string>();
    c.dims = d["dims"].cast<std::vector<std::string>>();
    c.shape = d["shape"].cast<std::vector<std::int64_t>>();
    c.values = d["values"].cast<std::vector<double>>();
    c.attrs = importAttributes(d["attrs"]);
    const std::string dt = d["dtype"].cast<std::string>();
    for (DType t : {DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32, DType::UInt32,
                    DType::Int64, DType::UInt64, DType::Float32, DType::Float64})
        if (dt == name(t)) c.dtype = t;
    std::int64_t n = 1;
    for (auto s : c.shape) n *= s;
    STRATA_EXPECTS(n == static_cast<std::int64_t>(c.values.size()) && c.dims.size() == c.shape.size(),
                   ValueError,
                   context + ": coordinate '" + c.name + "' has " + std::to_string(c.values.size()) +
                       " values for its shape");
    if (auto units = c.attrs.text("units"); units && isTimeUnits(*units)) {
        try {
            TimeAxis axis;
            axis.units = parseTimeUnits(*units);
            axis.calendar = parseCalendar(c.attrs.text("calendar").value_or("standard"));
            for (double v : c.values) {
                STRATA_EXPECTS(!std::isnan(v), DecodeError, "a time value is missing (NaT)");
                axis.dates.push_back(decodeTime(v, axis.units, axis.calendar));
            }
            c.time = std::move(axis);
        } catch (const DecodeError& e) {
            c.problem = context + ": coordinate '" + c.name + "': " + e.what();
        }
    }
    return c;
}

// A Dataset in memory from Python's parts: variables [(name, dims, array, attrs)], coords
// [dict as exportCoordinate makes], global attrs. No data are copied.
HeldDataset makeDataset(const ::py::list& variables, const ::py::list& coords, const ::py::dict& attrs,
                        const std::string& title) {
    auto ds = std::make_shared<Dataset>();
    ds->group = "/";
    ds->format = "in memory";
    ds->attrs = importAttributes(attrs);
    std::map<std::string, std::int64_t> lengths;
    std::vector<std::string> order;
    auto noteDims = [&](const std::vector<std::string>& dims, const Shape& shape, const std::string& who) {
        for (std::size_t i = 0; i < dims.size(); ++i) {
            auto [it, fresh] = lengths.emplace(dims[i], shape[i]);
            if (fresh) order.push_back(dims[i]);
            STRATA_EXPECTS(it->second == shape[i], ValueError,
                           title + ": " + who + " has dim '" + dims[i] + "' of length " +
                               std::to_string(shape[i]) + ", elsewhere " + std::to_string(it->second));
        }
    };
    for (auto item : variables) {
        auto t = item.cast<::py::tuple>();
        const auto n = t[0].cast<std::string>();
        const std::string context = title + ": variable '" + n + "'";
        Variable v;
        if (::py::isinstance<ComputedVariable>(t[2])) { // computed box by box (a Dask array)
            v = t[2].cast<const ComputedVariable&>().variable;
            v.attrs() = importAttributes(t[3]);
        } else {
            v = importVariable(t[2], t[1].cast<std::vector<std::string>>(), importAttributes(t[3]), context);
        }
        noteDims(v.dims(), v.shape(), "variable '" + n + "'");
        ds->variables.emplace_back(n, std::move(v));
    }
    for (auto item : coords) {
        Coordinate c = importCoordinate(item.cast<::py::dict>(), title);
        noteDims(c.dims, c.shape, "coordinate '" + c.name + "'");
        // As a file's: among the variables too, where what reads a grid looks for its parts (a
        // HEALPix grid mapping, a mesh's nodes and connectivity).
        if (!ds->findVariable(c.name)) {
            Variable v = DataArray::fromHost(c.name, c.dims, c.shape, c.values).variable();
            v.attrs() = c.attrs;
            ds->variables.emplace_back(c.name, std::move(v));
        }
        ds->coords.set(std::move(c));
    }
    for (const std::string& d : order) ds->dims.push_back({d, lengths[d], false});
    return HeldDataset{std::move(ds)};
}

} // namespace

::py::list exportAttributes(const Attributes& attrs) {
    ::py::list out;
    for (const Attribute& a : attrs) {
        ::py::object value;
        if (a.isText())
            value = ::py::str(std::get<std::string>(a.value));
        else
            std::visit([&](const auto& v) { value = ::py::cast(v); }, a.value);
        out.append(::py::make_tuple(a.name, std::string(name(a.type)), value));
    }
    return out;
}

void bindDatasets(::py::module_& m) {
    ::py::class_<HeldDataset>(m, "_Dataset", "A Strata Dataset held in memory")
        .def_property_readonly("summary", [](const HeldDataset& h) { return h.dataset->summary(); })
        .def_property_readonly("data_vars", [](const HeldDataset& h) { return h.dataset->dataVariables(); });
    m.def("_open", &openParts, ::py::arg("path"), ::py::arg("device"), ::py::arg("group") = "",
          "Reads a file's numeric variables whole onto a device; the parts of a Dataset.");
    m.def("_make_dataset", &makeDataset, ::py::arg("variables"), ::py::arg("coords"), ::py::arg("attrs"),
          ::py::arg("title"));
    m.def(
        "_derive",
        [](const HeldDataset& h, const std::string& statement) {
            Dataset ds = *h.dataset;
            derive(ds, statement);
            const std::string n = parseExpression(statement).name;
            const DataArray d = ds[n];
            // Computed where its inputs are: the GPU when one of them is there.
            Device device = Device::host();
            if (const DerivedSource* s = derivedSourceOf(d.variable()))
                for (const VariableRef& in : s->inputs())
                    if (const Variable* v = ds.findVariable(in.name);
                        v && v->isLoaded() && v->device().isCuda())
                        device = v->device();
            Variable computed;
            {
                ::py::gil_scoped_release nogil;
                const Stream stream = device.isCuda() ? defaultStream(device) : Stream::host();
                computed = d.variable().load(device, stream);
                stream.synchronize();
            }
            ::py::dict out;
            out["name"] = n;
            out["dims"] = computed.dims();
            out["attrs"] = exportAttributes(computed.attrs());
            out["array"] = ExportedArray::of(computed, "derived variable '" + n + "'");
            ::py::list coords; // the coordinates of its dims (a climatology's group among them)
            for (const std::string& dim : computed.dims())
                if (const Coordinate* c = ds.coords.find(dim)) coords.append(exportCoordinate(*c));
            out["coords"] = coords;
            return out;
        },
        ::py::arg("dataset"), ::py::arg("statement"),
        "The derived variable `statement` defines, computed whole from the dataset's arrays where they are.");
    m.def("_cuda_device_count", &cudaDeviceCount, "CUDA devices this process sees: for tests.");
    m.def(
        "_import_array",
        [](::py::handle array, std::vector<std::string> dims) {
            Variable v = importVariable(array, std::move(dims), {}, "array");
            return ExportedArray::of(v, "array");
        },
        ::py::arg("array"), ::py::arg("dims"),
        "The array as Strata takes it (borrowed, no copy), exported again: for tests.");
}

} // namespace strata::py
