// Evaluating derived variables: the leaves a box needs (resident inputs where they are, else
// the box of the input that the box and its windows touch, loaded on the device), the
// climatology tables (per device, once), and the two backends' passes.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>

#include "backend.h"
#include "derived_impl.h"
#include "strata/core/error.h"

namespace strata::detail {
namespace {

// The most a table's chunk of non-resident inputs may take at once (tests make it small).
std::atomic<std::size_t> tableChunkBytes{std::size_t(256) << 20};
std::atomic<bool> simplePrograms{true};

struct Prepared {
    std::vector<DerivedLeaf> leaves;
    std::vector<DataArray> keep; // boxes of inputs loaded for this evaluation
    std::vector<TableData> tables;
};

using Ranges = std::vector<std::pair<std::int64_t, std::int64_t>>; // per dim of a unit: [first, last]

DataArray inputArray(const Evaluation& e, int index) {
    const InputLeaf& in = e.compiled.inputs[std::size_t(index)];
    if (e.lookup)
        if (std::optional<DataArray> resident = e.lookup(inputKey(in.ref))) return *resident;
    return in.array;
}

bool residentOn(const DataArray& a, Device device) { return a.isLoaded() && a.device() == device; }

Prepared prepare(const Evaluation& e, const CodeUnit& u, const Ranges& ranges, Device device, Stream stream) {
    Prepared out;
    for (const LeafRef& l : u.leaves) {
        DerivedLeaf d;
        if (l.kind == LeafRef::Kind::Input) {
            const DataArray a = inputArray(e, l.index);
            std::vector<std::int64_t> origin(std::size_t(a.ndim()), 0);
            std::vector<int> where(std::size_t(a.ndim()));
            std::vector<Indexer> box;
            for (int j = 0; j < a.ndim(); ++j) {
                const std::string& name = a.dims()[std::size_t(j)];
                const int k = int(std::find(u.dims.begin(), u.dims.end(), name) - u.dims.begin());
                where[std::size_t(j)] = k;
                std::int64_t lo = ranges[std::size_t(k)].first, hi = ranges[std::size_t(k)].second;
                if (const auto s = l.shifts.find(name); s != l.shifts.end()) {
                    lo += s->second.first;
                    hi += s->second.second;
                }
                lo = std::max<std::int64_t>(lo, 0);
                hi = std::min<std::int64_t>(hi, a.shape()[std::size_t(j)] - 1);
                origin[std::size_t(j)] = lo;
                box.push_back({name, Slice{lo, std::max(hi + 1, lo), 1}});
            }
            DataArray data = a;
            if (residentOn(a, device)) {
                std::fill(origin.begin(), origin.end(), 0);
            } else {
                data = a.isel(box).load(device, stream);
                out.keep.push_back(data);
            }
            const ArrayView v = data.variable().view();
            d.data = v.data;
            d.dtype = v.dtype;
            for (int j = 0; j < a.ndim(); ++j) {
                d.strides[where[std::size_t(j)]] = v.strides[j];
                d.origin[where[std::size_t(j)]] = origin[std::size_t(j)];
            }
        } else {
            const TableSpec& t = e.compiled.tables[std::size_t(l.index)];
            const TableData td = e.table(l.index);
            out.tables.push_back(td);
            d.data = (l.kind == LeafRef::Kind::TableMean ? td.mean : td.std)->data();
            d.dtype = t.dtype;
            const std::string& time = t.x.dims[std::size_t(t.timeAxis)];
            for (std::size_t k = 0; k < u.dims.size(); ++k) {
                const std::string& name = u.dims[k];
                if (l.byTime && name == time) {
                    d.mapDim = int(k);
                    d.map = static_cast<const std::int32_t*>(td.map->data());
                    d.mapStride = t.points;
                    continue;
                }
                if (!l.byTime && name == t.groupDim) {
                    d.strides[k] = t.points;
                    continue;
                }
                // C order over x's dims without time.
                std::int64_t stride = 1;
                bool found = false;
                for (std::size_t j = t.x.dims.size(); j-- > 0;) {
                    if (int(j) == t.timeAxis) continue;
                    if (t.x.dims[j] == name) {
                        found = true;
                        break;
                    }
                    stride *= t.x.shape[j];
                }
                d.strides[k] = found ? stride : 0;
            }
        }
        out.leaves.push_back(d);
    }
    return out;
}

// The program's code and leaves where `device` reads them (uploaded for a GPU: `held` keeps
// the copies until the work queued on `stream` is done).
DerivedProgram programOn(const CodeUnit& u, const std::vector<DerivedLeaf>& leaves, Device device,
                         Stream stream, std::vector<Buffer>& held) {
    DerivedProgram p;
    p.length = int(u.code.size());
    p.ndim = int(u.dims.size());
    p.stack = u.stack;
    for (int d = 0; d < p.ndim; ++d) p.shape[d] = u.shape[std::size_t(d)];
    p.leafCount = int(leaves.size());
    p.byRows = p.ndim > 0 &&
               std::none_of(u.code.begin(), u.code.end(),
                            [](const DerivedInstr& i) { return i.op == DerivedOp::WindowBegin; }) &&
               std::none_of(leaves.begin(), leaves.end(),
                            [&](const DerivedLeaf& l) { return l.mapDim == p.ndim - 1; });
    if (device.isHost()) {
        p.code = u.code.data();
        p.leaves = leaves.data();
        return p;
    }
    // One allocation and one copy for both (a frame's fixed cost).
    const std::size_t codeBytes = u.code.size() * sizeof(DerivedInstr);
    const std::size_t at = (codeBytes + 63) / 64 * 64;
    const std::size_t total = at + leaves.size() * sizeof(DerivedLeaf);
    std::vector<unsigned char> packed(std::max<std::size_t>(total, 1));
    if (codeBytes) std::memcpy(packed.data(), u.code.data(), codeBytes);
    if (!leaves.empty()) std::memcpy(packed.data() + at, leaves.data(), leaves.size() * sizeof(DerivedLeaf));
    held.emplace_back(packed.size(), device, stream);
    copyBytes(held.back().data(), device, packed.data(), Device::host(), packed.size(), stream);
    auto* base = static_cast<unsigned char*>(held.back().data());
    p.code = reinterpret_cast<const DerivedInstr*>(base);
    p.leaves = reinterpret_cast<const DerivedLeaf*>(base + at);
    return p;
}

bool isBinary(DerivedOp op) {
    return (op >= DerivedOp::Add && op <= DerivedOp::Or) ||
           (op >= DerivedOp::Arctan2 && op <= DerivedOp::Fillna);
}
bool isUnary(DerivedOp op) {
    return op == DerivedOp::Negate || op == DerivedOp::Not ||
           (op >= DerivedOp::Abs && op <= DerivedOp::IsNan);
}

// The unit as a simple program over the box (derived_program.h), when it is one: a leaf
// alone, an instruction of one operand on a leaf, or of two on leaves and constants (not two
// constants), with no leaf mapped along the innermost dim.
std::optional<DerivedSimple> simpleOf(const CodeUnit& u, const std::vector<DerivedLeaf>& leaves,
                                      const DerivedBox& box) {
    const std::vector<DerivedInstr>& c = u.code;
    DerivedSimple s;
    auto operand = [&](int k, const DerivedInstr& in) {
        if (in.op == DerivedOp::Const) {
            s.constant[k] = true;
            s.value[k] = in.value;
            return true;
        }
        if (in.op != DerivedOp::Load) return false;
        s.leaf[k] = leaves[std::size_t(in.leaf)];
        return true;
    };
    if (c.size() == 1 && c[0].op == DerivedOp::Load) {
        operand(0, c[0]);
    } else if (c.size() == 2 && c[0].op == DerivedOp::Load && isUnary(c[1].op)) {
        operand(0, c[0]);
        s.op = c[1].op;
    } else if (c.size() == 3 && isBinary(c[2].op) && operand(0, c[0]) && operand(1, c[1]) &&
               !(s.constant[0] && s.constant[1])) {
        s.op = c[2].op;
        s.operands = 2;
    } else {
        return std::nullopt;
    }
    s.ndim = int(u.dims.size());
    s.box = box;
    if (s.ndim == 0) return s;
    const int last = s.ndim - 1;
    for (int k = 0; k < s.operands; ++k) {
        if (s.constant[k]) continue;
        if (s.leaf[k].mapDim == last) return std::nullopt;
        s.innerStep[k] = s.leaf[k].strides[last] * box.step[last];
    }
    // Dims merge into inner from the back while every leaf's offset stays linear in the flat
    // inner index (a dim of one index always does).
    s.inner = box.count[last];
    s.outer = last;
    while (s.outer > 0) {
        const int d = s.outer - 1;
        bool linear = true;
        for (int k = 0; k < s.operands && linear; ++k) {
            if (s.constant[k] || box.count[d] == 1) continue;
            const DerivedLeaf& l = s.leaf[k];
            linear = l.mapDim != d && l.strides[d] * box.step[d] == s.innerStep[k] * s.inner;
        }
        if (!linear) break;
        s.inner *= box.count[d];
        s.outer = d;
    }
    for (int d = 0; d < s.outer; ++d) s.rows *= box.count[d];
    return s;
}

void evaluateInto(const Evaluation& e, const CodeUnit& unit, const DerivedBox& box, DType dtype,
                  Device device, Stream stream, void* out) {
    const int ndim = int(unit.dims.size());
    std::int64_t n = 1;
    Ranges ranges;
    for (int d = 0; d < ndim; ++d) {
        n *= box.count[d];
        ranges.emplace_back(box.start[d], box.start[d] + (box.count[d] - 1) * box.step[d]);
    }
    if (n == 0) return;
    const Prepared prepared = prepare(e, unit, ranges, device, stream);
    if (simplePrograms.load())
        if (const std::optional<DerivedSimple> s = simpleOf(unit, prepared.leaves, box)) {
            if (device.isHost()) {
                derivedSimpleCpu(*s, out, dtype);
                return;
            }
#if STRATA_HAVE_CUDA
            derivedSimpleCuda(*s, out, dtype, stream);
            return;
#endif
        }
    std::vector<Buffer> held;
    const DerivedProgram p = programOn(unit, prepared.leaves, device, stream, held);
    if (device.isHost()) {
        derivedEvalCpu(p, box, n, out, dtype);
        return;
    }
#if STRATA_HAVE_CUDA
    derivedEvalCuda(p, box, n, out, dtype, stream);
#else
    STRATA_FAIL(ValueError, "derived variables: this build has no CUDA");
#endif
}

} // namespace

void setSimplePrograms(bool on) { simplePrograms = on; }

void setTableChunkBytes(std::size_t bytes) { tableChunkBytes = bytes ? bytes : std::size_t(256) << 20; }

Buffer evaluateUnit(const Evaluation& e, const CodeUnit& unit, const DerivedBox& box, DType dtype,
                    Device device, Stream stream) {
    std::int64_t n = 1;
    for (std::size_t d = 0; d < unit.dims.size(); ++d) n *= box.count[d];
    Buffer out(std::size_t(n) * sizeOf(dtype), device, stream);
    evaluateInto(e, unit, box, dtype, device, stream, out.data());
    return out;
}

TableData computeTable(const Evaluation& e, int t, Device device, Stream stream) {
    const TableSpec& ts = e.compiled.tables[std::size_t(t)];
    const CodeUnit& x = ts.x;
    const std::int64_t groups = std::int64_t(ts.groupValues.size());
    const std::int64_t cells = groups * ts.points;
    auto onDevice = [&](const std::vector<std::int32_t>& v) {
        auto b = std::make_shared<Buffer>(std::max<std::size_t>(v.size() * 4, 1), device, stream);
        if (!v.empty()) copyBytes(b->data(), device, v.data(), Device::host(), v.size() * 4, stream);
        return b;
    };
    const auto first = onDevice(ts.first), members = onDevice(ts.members);

    // Time steps per chunk: all of the base period when the inputs are resident here, else as
    // many as kTableChunkBytes of input boxes hold.
    const std::int64_t steps = x.shape[std::size_t(ts.timeAxis)];
    std::int64_t tFirst = steps, tLast = -1;
    for (std::int32_t m : ts.members) {
        tFirst = std::min<std::int64_t>(tFirst, m);
        tLast = std::max<std::int64_t>(tLast, m);
    }
    std::size_t bytesPerStep = 0;
    for (const LeafRef& l : x.leaves) {
        if (l.kind != LeafRef::Kind::Input) continue;
        const DataArray a = inputArray(e, l.index);
        if (residentOn(a, device)) continue;
        const std::int64_t along =
            std::find(a.dims().begin(), a.dims().end(), x.dims[std::size_t(ts.timeAxis)]) != a.dims().end()
                ? steps
                : 1;
        bytesPerStep += a.variable().nbytes() / std::size_t(std::max<std::int64_t>(along, 1));
    }
    const std::int64_t chunk =
        bytesPerStep == 0 ? steps
                          : std::max<std::int64_t>(1, std::int64_t(tableChunkBytes.load() / bytesPerStep));

    TableData out;
    auto meanOut = std::make_shared<Buffer>(std::size_t(cells) * sizeOf(ts.dtype), device, stream);
    std::shared_ptr<Buffer> stdOut;
    if (ts.needStd) stdOut = std::make_shared<Buffer>(std::size_t(cells) * sizeOf(ts.dtype), device, stream);
    out.mean = meanOut;
    out.std = stdOut;
    out.map = onDevice(ts.groupOf);
    // One chunk on the CPU: its blocks write the tables directly (no accumulators, no finish).
    const bool direct = device.isHost() && tLast - tFirst + 1 <= chunk;
    const std::size_t accumulatorBytes = direct ? 8 : std::size_t(cells) * 8;
    Buffer count(accumulatorBytes, device, stream), mean(accumulatorBytes, device, stream),
        m2(accumulatorBytes, device, stream);
    // On the GPU, sums about a shift per point (many threads add to one cell).
    Buffer shift(device.isHost() ? 8 : std::size_t(ts.points) * 8, device, stream);

    std::vector<Buffer> held;
    bool firstChunk = true;
    for (std::int64_t t0 = tFirst; t0 <= tLast; t0 += chunk) {
        const std::int64_t t1 = std::min(t0 + chunk, tLast + 1);
        Ranges ranges;
        for (std::size_t d = 0; d < x.dims.size(); ++d)
            ranges.emplace_back(int(d) == ts.timeAxis ? std::make_pair(t0, t1 - 1)
                                                      : std::make_pair(std::int64_t(0), x.shape[d] - 1));
        const Prepared prepared = prepare(e, x, ranges, device, stream);
        DerivedTableProblem q;
        q.program = programOn(x, prepared.leaves, device, stream, held);
        q.timeDim = ts.timeAxis;
        q.points = ts.points;
        q.t0 = t0;
        q.t1 = t1;
        q.groups.groups = int(groups);
        q.groups.first = static_cast<const std::int32_t*>(first->data());
        q.groups.members = static_cast<const std::int32_t*>(members->data());
        for (std::size_t g = 0; g + 1 < ts.first.size(); ++g)
            q.groups.largest = std::max(q.groups.largest, int(ts.first[g + 1] - ts.first[g]));
        q.count = static_cast<double*>(count.data());
        q.mean = static_cast<double*>(mean.data());
        q.m2 = static_cast<double*>(m2.data());
        q.first = firstChunk;
        q.needSecond = ts.needStd;
        if (!device.isHost()) q.shift = static_cast<double*>(shift.data());
        if (direct) {
            q.meanOut = meanOut->data();
            q.stdOut = stdOut ? stdOut->data() : nullptr;
            q.dtype = ts.dtype;
        }
        firstChunk = false;
        if (device.isHost()) {
            derivedTableCpu(q);
        } else {
#if STRATA_HAVE_CUDA
            derivedTableCuda(q, stream);
#endif
        }
    }
    if (direct) {
        stream.synchronize();
        return out;
    }
    DerivedFinishProblem f;
    f.n = cells;
    f.count = static_cast<const double*>(count.data());
    f.mean = static_cast<const double*>(mean.data());
    f.m2 = static_cast<const double*>(m2.data());
    f.meanOut = meanOut->data();
    f.stdOut = stdOut ? stdOut->data() : nullptr;
    f.dtype = ts.dtype;
    if (!device.isHost()) {
        f.shift = static_cast<const double*>(shift.data());
        f.points = ts.points;
    }
    if (device.isHost()) {
        derivedFinishCpu(f);
    } else {
#if STRATA_HAVE_CUDA
        derivedFinishCuda(f, stream);
#endif
    }
    stream.synchronize(); // other streams read the table next
    return out;
}

} // namespace strata::detail

namespace strata {

namespace {
detail::DerivedBox boxOf(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                         std::span<const std::int64_t> stride, std::size_t ndim) {
    STRATA_EXPECTS(start.size() == ndim && count.size() == ndim && stride.size() == ndim, ValueError,
                   "derived variable: a box of " + std::to_string(start.size()) + " dims for " +
                       std::to_string(ndim));
    detail::DerivedBox b;
    for (std::size_t d = 0; d < ndim; ++d) {
        b.start[d] = start[d];
        b.count[d] = count[d];
        b.step[d] = std::max<std::int64_t>(stride[d], 1);
    }
    return b;
}
int deviceCode(Device d) { return d.isHost() ? -1 : d.ordinal; }
} // namespace

std::optional<Buffer> DerivedSource::evaluate(std::span<const std::int64_t> start,
                                              std::span<const std::int64_t> count,
                                              std::span<const std::int64_t> stride, Device device,
                                              Stream stream) const {
    const detail::Compiled& k = state_->compiled;
    const detail::DerivedBox box = boxOf(start, count, stride, k.main.dims.size());
    ResidentLookup lookup;
    {
        std::lock_guard lock(state_->mutex);
        lookup = state_->lookup;
    }
    State& s = *state_;
    detail::Evaluation e{k, lookup, {}};
    e.table = [&](int t) {
        std::lock_guard lock(s.tablesMutex);
        const auto key = std::make_pair(t, deviceCode(device));
        if (const auto it = s.tables.find(key); it != s.tables.end()) return it->second;
        detail::TableData data = detail::computeTable(e, t, device, stream);
        s.tables[key] = data;
        return data;
    };
    return detail::evaluateUnit(e, k.main, box, k.dtype, device, stream);
}

void DerivedSource::read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                         std::span<const std::int64_t> stride, void* out) const {
    const Buffer b = *evaluate(start, count, stride, Device::host(), Stream::host());
    if (b.size()) std::memcpy(out, b.data(), b.size());
}

} // namespace strata
