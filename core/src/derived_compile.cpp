// Compiling a derived variable's statement against a dataset: names, dims and their sizes,
// broadcasting, masks, units, windows and climatology tables, into the stack programs of
// derived_program.h.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "derived_impl.h"
#include "strata/core/cftime.h"
#include "strata/core/error.h"

namespace strata {

using detail::CodeUnit;
using detail::Compiled;
using detail::DerivedInstr;
using detail::DerivedOp;
using detail::Group;
using detail::LeafRef;
using detail::TableSpec;
using detail::WindowKind;

namespace {

// The dim of a time axis among `dims` (an index coordinate with CF time units, decoded or not:
// one that could not be decoded is named with its problem by the caller, not passed over); -1
// when none.
int timeAxisOf(const Dataset& ds, const std::vector<std::string>& dims) {
    for (std::size_t i = 0; i < dims.size(); ++i) {
        const Coordinate* c = ds.coords.find(dims[i]);
        if (!c || !c->isIndex()) continue;
        if (c->time || (!c->problem.empty() && isTimeUnits(c->attrs.text("units").value_or(""))))
            return int(i);
    }
    return -1;
}

bool isLeap(int year, Calendar c) {
    const bool julian = year % 4 == 0;
    const bool gregorian = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    switch (c) {
    case Calendar::NoLeap:
    case Calendar::Day360:
        return false;
    case Calendar::AllLeap:
        return true;
    case Calendar::Julian:
        return julian;
    case Calendar::ProlepticGregorian:
        return gregorian;
    case Calendar::Standard:
        return year < 1583 ? julian : gregorian;
    }
    return gregorian;
}

// The day of the year in the date's calendar, as cftime counts it (1-based).
int dayOfYear(const DateTime& d, Calendar c) {
    if (c == Calendar::Day360) return (d.month - 1) * 30 + d.day;
    static constexpr int kBefore[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    return kBefore[d.month - 1] + d.day + (d.month > 2 && isLeap(d.year, c) ? 1 : 0);
}

int groupValue(Group g, const DateTime& d, Calendar c) {
    switch (g) {
    case Group::Month:
        return d.month;
    case Group::Season:
        return d.month % 12 / 3 + 1; // DJF 1, MAM 2, JJA 3, SON 4
    case Group::DayOfYear:
        return dayOfYear(d, c);
    case Group::Hour:
        return d.hour;
    }
    return 0;
}

Group parseGroup(const std::string& s) {
    if (s == "month") return Group::Month;
    if (s == "season") return Group::Season;
    if (s == "dayofyear") return Group::DayOfYear;
    return Group::Hour; // the parser let only these four through
}

std::string groupMember(Group g, int value) {
    switch (g) {
    case Group::Month: {
        static const char* kMonths[12] = {"January",   "February", "March",    "April",
                                          "May",       "June",     "July",     "August",
                                          "September", "October",  "November", "December"};
        return value >= 1 && value <= 12 ? kMonths[value - 1] : "month " + std::to_string(value);
    }
    case Group::Season: {
        static const char* kSeasons[4] = {"DJF", "MAM", "JJA", "SON"};
        return value >= 1 && value <= 4 ? kSeasons[value - 1] : "season " + std::to_string(value);
    }
    case Group::DayOfYear:
        return "day of year " + std::to_string(value);
    case Group::Hour:
        return "hour " + std::to_string(value);
    }
    return {};
}

bool isKelvin(const std::string& u) {
    return u == "K" || u == "kelvin" || u == "Kelvin" || u == "degK" || u == "deg_K";
}

const std::map<std::string, DerivedOp>& unaryFunctions() {
    static const std::map<std::string, DerivedOp> m = {
        {"abs", DerivedOp::Abs},       {"sqrt", DerivedOp::Sqrt},     {"exp", DerivedOp::Exp},
        {"log", DerivedOp::Log},       {"log10", DerivedOp::Log10},   {"sin", DerivedOp::Sin},
        {"cos", DerivedOp::Cos},       {"tan", DerivedOp::Tan},       {"arcsin", DerivedOp::Arcsin},
        {"arccos", DerivedOp::Arccos}, {"arctan", DerivedOp::Arctan}, {"floor", DerivedOp::Floor},
        {"ceil", DerivedOp::Ceil},     {"isnan", DerivedOp::IsNan}};
    return m;
}
const std::map<std::string, DerivedOp>& binaryFunctions() {
    static const std::map<std::string, DerivedOp> m = {{"arctan2", DerivedOp::Arctan2},
                                                       {"hypot", DerivedOp::Hypot},
                                                       {"minimum", DerivedOp::Minimum},
                                                       {"maximum", DerivedOp::Maximum},
                                                       {"fillna", DerivedOp::Fillna}};
    return m;
}
// Functions whose result has the units of their (first) operand.
bool keepsUnits(const std::string& f) {
    static const std::set<std::string> keep = {
        "abs",  "floor", "ceil",         "hypot",       "minimum", "maximum",     "fillna",
        "clip", "where", "rolling_mean", "rolling_sum", "diff",    "climatology", "anomaly"};
    return keep.count(f) > 0;
}

DerivedOp binaryOp(ExprOp op) {
    switch (op) {
    case ExprOp::Add:
        return DerivedOp::Add;
    case ExprOp::Subtract:
        return DerivedOp::Subtract;
    case ExprOp::Multiply:
        return DerivedOp::Multiply;
    case ExprOp::Divide:
        return DerivedOp::Divide;
    case ExprOp::Power:
        return DerivedOp::Power;
    case ExprOp::Less:
        return DerivedOp::Less;
    case ExprOp::LessEqual:
        return DerivedOp::LessEqual;
    case ExprOp::Greater:
        return DerivedOp::Greater;
    case ExprOp::GreaterEqual:
        return DerivedOp::GreaterEqual;
    case ExprOp::Equal:
        return DerivedOp::Equal;
    case ExprOp::NotEqual:
        return DerivedOp::NotEqual;
    case ExprOp::And:
        return DerivedOp::And;
    case ExprOp::Or:
        return DerivedOp::Or;
    default:
        return DerivedOp::Add;
    }
}
bool isComparison(ExprOp op) { return op >= ExprOp::Less && op <= ExprOp::NotEqual; }

// What a node gives: its dims (in order), whether it is a mask, a bare number, its units.
struct Info {
    std::vector<std::string> dims;
    bool mask = false;
    bool number = false;
    double value = 0;
    std::string units;
    bool unitsKnown = false; // units is the node's (possibly empty) units
    std::string reason;      // "kept", "converted"
};

class Compiler {
public:
    Compiler(const Dataset& ds, const std::vector<DatasetAlias>& others, Compiled& out)
        : ds_(ds), others_(others), out_(out) {}

    void compile(const Expression& e) {
        statement_ = e.text;
        root_ = &e.root;
        out_.statement = e.text;
        out_.name = e.name;
        Info info = visit(e.root, out_.main, {});
        if (info.dims.empty())
            failInExpression(statement_, e.root.column,
                             "the expression reads no variable: it must have dims");
        finish(out_.main, info.dims);
        bool f64 = false;
        for (const auto& in : out_.inputs) f64 = f64 || in.array.dtype() == DType::Float64;
        out_.dtype = f64 ? DType::Float64 : DType::Float32;
        for (auto& t : out_.tables) t.dtype = out_.dtype;
        if (!e.units.empty()) {
            out_.units = e.units;
            out_.unitsReason = "set";
        } else if (info.unitsKnown && !info.units.empty()) {
            out_.units = info.units;
            out_.unitsReason = info.reason.empty() ? "kept" : info.reason;
        } else {
            out_.unitsReason = "none";
        }
        dims_ = info.dims;
    }

    const std::vector<std::string>& dims() const { return dims_; }
    std::int64_t sizeOf(const std::string& d) const { return sizes_.at(d); }
    // New dims (climatology groups): name → coordinate values.
    const std::map<std::string, std::vector<double>>& newDims() const { return newDims_; }

private:
    [[noreturn]] void fail(const ExprNode& n, const std::string& problem) const {
        failInExpression(statement_, n.column, problem);
    }

    void noteDim(const ExprNode& n, const std::string& dim, std::int64_t size, const std::string& who) {
        const auto it = sizes_.find(dim);
        if (it == sizes_.end()) {
            sizes_[dim] = size;
            sizeFrom_[dim] = who;
        } else if (it->second != size) {
            fail(n, "dim '" + dim + "' is " + std::to_string(it->second) + " long in " + sizeFrom_[dim] +
                        " and " + std::to_string(size) + " in " + who +
                        ": dims of one name must have one size");
        }
    }

    static std::vector<std::string> unite(const std::vector<std::string>& a,
                                          const std::vector<std::string>& b) {
        std::vector<std::string> out = a;
        for (const auto& d : b)
            if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
        return out;
    }

    void emit(CodeUnit& u, DerivedInstr in, int pushes) {
        u.code.push_back(in);
        depth_[&u] += pushes;
        u.stack = std::max(u.stack, depth_[&u]);
    }
    void emitOp(CodeUnit& u, DerivedOp op, int pushes) {
        DerivedInstr in;
        in.op = op;
        emit(u, in, pushes);
    }

    int leafOf(CodeUnit& u, LeafRef ref, const std::map<std::string, std::pair<int, int>>& shifts) {
        int found = -1;
        for (std::size_t i = 0; i < u.leaves.size(); ++i)
            if (u.leaves[i].kind == ref.kind && u.leaves[i].index == ref.index &&
                u.leaves[i].byTime == ref.byTime)
                found = int(i);
        if (found < 0) {
            u.leaves.push_back(ref);
            found = int(u.leaves.size() - 1);
        }
        for (const auto& [dim, s] : shifts) {
            auto [it, fresh] = u.leaves[found].shifts.emplace(dim, s);
            if (!fresh)
                it->second = {std::min(it->second.first, s.first), std::max(it->second.second, s.second)};
        }
        return found;
    }

    // A Load of `ref` at the current index (and the windows' shifts).
    void load(CodeUnit& u, LeafRef ref, const std::map<std::string, std::pair<int, int>>& shifts) {
        DerivedInstr in;
        in.op = DerivedOp::Load;
        in.leaf = std::int16_t(leafOf(u, std::move(ref), shifts));
        emit(u, in, 1);
    }

    static std::string joined(const std::vector<std::string>& names) {
        std::string list;
        for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
        return list;
    }

    Info variable(const ExprNode& n, CodeUnit& u, const std::map<std::string, std::pair<int, int>>& shifts) {
        const Dataset* source = &ds_;
        if (!n.alias.empty()) {
            source = nullptr;
            std::string aliases;
            for (const auto& o : others_) {
                if (o.alias == n.alias) source = o.dataset.get();
                aliases += (aliases.empty() ? "" : ", ") + o.alias;
            }
            if (!source)
                fail(n, "no dataset is open as '" + n.alias + "'" +
                            (aliases.empty() ? " (no other dataset is open)" : " (open: " + aliases + ")"));
        }
        const std::string key = inputKey({n.alias, n.name});
        const Variable* v = source->findVariable(n.name);
        if (!v) {
            fail(n, "unknown variable '" + key + "' (variables: " + joined(source->dataVariables()) + ")");
        }
        if (!isNumeric(v->dtype()))
            fail(n, "'" + key + "' holds " + std::string(name(v->dtype())) + ", not numbers");
        DataArray array = (*source)[n.name];
        for (int i = 0; i < array.ndim(); ++i) {
            const std::string& d = array.dims()[i];
            noteDim(n, d, array.shape()[i], "'" + key + "'");
            if (source != &ds_) checkGrid(n, key, array, d);
        }
        int index = -1;
        for (std::size_t i = 0; i < out_.inputs.size(); ++i)
            if (out_.inputs[i].ref == VariableRef{n.alias, n.name}) index = int(i);
        if (index < 0) {
            out_.inputs.push_back({VariableRef{n.alias, n.name}, array});
            index = int(out_.inputs.size() - 1);
        }
        LeafRef ref;
        ref.kind = LeafRef::Kind::Input;
        ref.index = index;
        load(u, ref, shifts);
        Info info;
        info.dims = array.dims();
        info.units = array.attrs().text("units").value_or("");
        info.unitsKnown = true;
        return info;
    }

    // Another dataset's variable must lie on this dataset's grid: the same coordinate values.
    void checkGrid(const ExprNode& n, const std::string& key, const DataArray& array,
                   const std::string& dim) const {
        const Coordinate* theirs = array.coords().find(dim);
        const Coordinate* ours = ds_.coords.find(dim);
        if (!theirs || !ours || !theirs->isIndex() || !ours->isIndex()) return;
        bool same = theirs->values.size() == ours->values.size();
        for (std::size_t i = 0; same && i < ours->values.size(); ++i) {
            const double a = ours->values[i], b = theirs->values[i];
            same = (std::isnan(a) && std::isnan(b)) || std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(a));
        }
        if (!same) {
            auto span = [](const Coordinate& c) {
                return c.values.empty() ? std::string("empty")
                                        : std::to_string(c.values.size()) + " values, " + c.label(0) +
                                              " to " + c.label(std::int64_t(c.values.size() - 1));
            };
            fail(n, "'" + key + "' is on another grid: its " + dim + " has " + span(*theirs) +
                        ", this dataset's " + span(*ours) + " (regridding is not supported)");
        }
    }

    Info visit(const ExprNode& n, CodeUnit& u, const std::map<std::string, std::pair<int, int>>& shifts) {
        switch (n.kind) {
        case ExprNode::Kind::Number: {
            DerivedInstr in;
            in.op = DerivedOp::Const;
            in.value = n.number;
            emit(u, in, 1);
            Info info;
            info.number = true;
            info.value = n.number;
            return info;
        }
        case ExprNode::Kind::String:
            fail(n, "a string may only be a group or a dim argument");
        case ExprNode::Kind::Variable:
            return variable(n, u, shifts);
        case ExprNode::Kind::Unary: {
            Info a = visit(n.args[0], u, shifts);
            if (n.op == ExprOp::Not) {
                if (!a.mask) fail(n, "'~' takes a mask (a comparison, isnan, & or |)");
                emitOp(u, DerivedOp::Not, 0);
                return a;
            }
            emitOp(u, DerivedOp::Negate, 0);
            a.value = -a.value;
            a.mask = false;
            return a;
        }
        case ExprNode::Kind::Binary:
            return binary(n, u, shifts);
        case ExprNode::Kind::Call:
            return call(n, u, shifts);
        }
        fail(n, "an expression of an unknown kind");
    }

    Info binary(const ExprNode& n, CodeUnit& u, const std::map<std::string, std::pair<int, int>>& shifts) {
        const Info a = visit(n.args[0], u, shifts);
        const Info b = visit(n.args[1], u, shifts);
        if (n.op == ExprOp::And || n.op == ExprOp::Or) {
            const char* op = n.op == ExprOp::And ? "&" : "|";
            if (!a.mask || !b.mask)
                fail(n, std::string("'") + op + "' combines masks: write (a > 0) " + op +
                            " (b < 1), with the comparisons in parentheses");
        }
        emitOp(u, binaryOp(n.op), -1);
        Info out;
        out.dims = unite(a.dims, b.dims);
        out.mask = isComparison(n.op) || n.op == ExprOp::And || n.op == ExprOp::Or;
        out.number = a.number && b.number;
        out.unitsKnown = true;
        if (n.op == ExprOp::Add || n.op == ExprOp::Subtract) {
            const double sign = n.op == ExprOp::Add ? 1.0 : -1.0;
            if (!a.number && !b.number && a.unitsKnown && b.unitsKnown && a.units == b.units) {
                out.units = a.units;
            } else if (!a.number && b.number && isKelvin(a.units) &&
                       std::fabs(sign * b.value + 273.15) < 1e-9) {
                out.units = "degC";
                out.reason = "converted";
            }
        }
        return out;
    }

    Info call(const ExprNode& n, CodeUnit& u, const std::map<std::string, std::pair<int, int>>& shifts) {
        const std::string& f = n.name;
        if (auto it = unaryFunctions().find(f); it != unaryFunctions().end()) {
            Info a = visit(n.args[0], u, shifts);
            emitOp(u, it->second, 0);
            a.mask = f == "isnan";
            a.number = false;
            if (!keepsUnits(f)) a.units.clear();
            return a;
        }
        if (auto it = binaryFunctions().find(f); it != binaryFunctions().end()) {
            const Info a = visit(n.args[0], u, shifts);
            const Info b = visit(n.args[1], u, shifts);
            emitOp(u, it->second, -1);
            Info out;
            out.dims = unite(a.dims, b.dims);
            out.unitsKnown = true;
            if (keepsUnits(f) && (b.number || b.units == a.units)) out.units = a.units;
            return out;
        }
        if (f == "where" || f == "clip") {
            const Info a = visit(n.args[0], u, shifts);
            const Info b = visit(n.args[1], u, shifts);
            const Info c = visit(n.args[2], u, shifts);
            if (f == "where" && !a.mask)
                fail(n.args[0], "where's first argument must be a mask (a comparison, isnan, & or |)");
            emitOp(u, f == "where" ? DerivedOp::Where : DerivedOp::Clip, -2);
            Info out;
            out.dims = unite(unite(a.dims, b.dims), c.dims);
            out.unitsKnown = true;
            if (f == "clip")
                out.units = a.units;
            else if (b.number || c.number || b.units == c.units)
                out.units = b.number ? c.units : b.units;
            return out;
        }
        if (f == "rolling_mean" || f == "rolling_sum" || f == "diff") return window(n, u, shifts);
        if (f == "climatology" || f == "anomaly" || f == "std_anomaly") return climatology(n, u, shifts);
        fail(n, "unknown function '" + f + "'");
    }

    Info window(const ExprNode& n, CodeUnit& u, std::map<std::string, std::pair<int, int>> shifts) {
        const std::string& dim = n.args[1].name;
        DerivedInstr begin;
        begin.op = DerivedOp::WindowBegin;
        if (n.name == "diff") {
            begin.window = WindowKind::Diff;
            begin.lo = -1;
            begin.hi = 0;
        } else {
            const double asked = n.args[2].number;
            if (asked > 1e6) fail(n.args[2], "a window of " + toString(n.args[2]) + " steps is too long");
            const int window = int(asked);
            begin.window = n.name == "rolling_mean" ? WindowKind::Mean : WindowKind::Sum;
            begin.lo = -(window / 2); // centred as xarray's rolling(center=True)
            begin.hi = window - 1 - window / 2;
        }
        const std::size_t at = u.code.size();
        windowDims_[&u].push_back({at, dim});
        emit(u, begin, 2);
        auto& s = shifts[dim];
        s = {s.first + begin.lo, s.second + begin.hi};
        Info x = visit(n.args[0], u, shifts);
        if (std::find(x.dims.begin(), x.dims.end(), dim) == x.dims.end()) {
            fail(n.args[1], n.name + " along '" + dim +
                                "', which its operand does not have (dims: " + joined(x.dims) + ")");
        }
        if (const int length = begin.hi - begin.lo + 1; length > sizes_.at(dim))
            fail(n.args[2], "a window of " + std::to_string(length) + " steps is longer than '" + dim +
                                "' (" + std::to_string(sizes_.at(dim)) + ")");
        DerivedInstr end = begin;
        end.op = DerivedOp::WindowEnd;
        end.jump = std::int32_t(at + 1);
        windowDims_[&u].push_back({u.code.size(), dim});
        emit(u, end, -2);
        u.code[at].jump = std::int32_t(u.code.size());
        x.mask = false;
        x.number = false;
        return x;
    }

    Info climatology(const ExprNode& n, CodeUnit& u,
                     const std::map<std::string, std::pair<int, int>>& shifts) {
        TableSpec t;
        const Group group = parseGroup(n.args[1].name);
        t.groupDim = n.args[1].name;
        const Info x = visit(n.args[0], t.x, {});
        t.timeAxis = timeAxisOf(ds_, x.dims);
        if (t.timeAxis < 0) {
            fail(n, n.name + " needs a time dim (a coordinate with CF time units); its operand has dims (" +
                        joined(x.dims) + ")");
        }
        const std::string timeDim = x.dims[std::size_t(t.timeAxis)];
        finish(t.x, x.dims);
        const Coordinate& time = *ds_.coords.find(timeDim);
        if (!time.problem.empty()) fail(n, "the time of '" + timeDim + "' cannot be read: " + time.problem);
        const auto& dates = time.time->dates;
        const Calendar calendar = time.time->calendar;
        int firstYear = dates.empty() ? 0 : dates.front().year, lastYear = firstYear;
        for (const auto& d : dates) {
            firstYear = std::min(firstYear, d.year);
            lastYear = std::max(lastYear, d.year);
        }
        t.firstYear = firstYear;
        t.lastYear = lastYear;
        if (n.args.size() == 4) {
            t.firstYear = int(n.args[2].number);
            t.lastYear = int(n.args[3].number);
        }
        std::set<int> present;
        std::vector<int> values(dates.size());
        for (std::size_t i = 0; i < dates.size(); ++i)
            present.insert(values[i] = groupValue(group, dates[i], calendar));
        t.groupValues.assign(present.begin(), present.end());
        std::vector<std::vector<std::int32_t>> rows(t.groupValues.size());
        t.groupOf.resize(dates.size());
        for (std::size_t i = 0; i < dates.size(); ++i) {
            const int row =
                int(std::lower_bound(t.groupValues.begin(), t.groupValues.end(), double(values[i])) -
                    t.groupValues.begin());
            t.groupOf[i] = row;
            if (dates[i].year >= t.firstYear && dates[i].year <= t.lastYear)
                rows[std::size_t(row)].push_back(std::int32_t(i));
        }
        t.first.push_back(0);
        for (std::size_t g = 0; g < rows.size(); ++g) {
            if (rows[g].empty())
                fail(n, "no " + groupMember(group, int(t.groupValues[g])) + " in the base period " +
                            std::to_string(t.firstYear) + "–" + std::to_string(t.lastYear) +
                            "; the record has years " + std::to_string(firstYear) + "–" +
                            std::to_string(lastYear));
            t.members.insert(t.members.end(), rows[g].begin(), rows[g].end());
            t.first.push_back(std::int32_t(t.members.size()));
        }
        t.points = 1;
        for (std::size_t i = 0; i < x.dims.size(); ++i)
            if (int(i) != t.timeAxis) t.points *= sizes_.at(x.dims[i]);
        t.needStd = n.name == "std_anomaly";
        depth_.erase(&t.x); // the unit moves: a later one may take its address
        windowDims_.erase(&t.x);
        out_.tables.push_back(std::move(t));
        const int table = int(out_.tables.size() - 1);
        if (&n == root_) out_.rootTable = table;

        Info out;
        out.unitsKnown = true;
        if (n.name == "climatology") {
            const std::string& g = out_.tables[std::size_t(table)].groupDim;
            noteDim(n, g, std::int64_t(out_.tables[std::size_t(table)].groupValues.size()), n.name + "(...)");
            if (const auto it = newDims_.find(g);
                it != newDims_.end() && it->second != out_.tables[std::size_t(table)].groupValues)
                fail(n, "two climatologies by " + g + " with different groups");
            newDims_[g] = out_.tables[std::size_t(table)].groupValues;
            if (const Coordinate* c = ds_.coords.find(g); c && !ds_.findDim(g))
                fail(n, "the group dim '" + g + "' would hide the dataset's coordinate of that name");
            LeafRef ref;
            ref.kind = LeafRef::Kind::TableMean;
            ref.index = table;
            load(u, ref, shifts);
            out.dims = x.dims;
            out.dims[std::size_t(out_.tables[std::size_t(table)].timeAxis)] = g;
            out.units = x.units;
            return out;
        }
        // The anomaly: x at the index, less its group's mean (over its standard deviation).
        const Info again = visit(n.args[0], u, shifts);
        (void)again;
        LeafRef mean;
        mean.kind = LeafRef::Kind::TableMean;
        mean.index = table;
        mean.byTime = true;
        load(u, mean, shifts);
        emitOp(u, DerivedOp::Subtract, -1);
        if (n.name == "std_anomaly") {
            LeafRef sd = mean;
            sd.kind = LeafRef::Kind::TableStd;
            load(u, sd, shifts);
            emitOp(u, DerivedOp::Divide, -1);
        } else {
            out.units = x.units;
        }
        out.dims = x.dims;
        return out;
    }

    // Fixes the unit's index space and resolves its windows' dims into it.
    void finish(CodeUnit& u, const std::vector<std::string>& dims) {
        u.dims = dims;
        u.shape.clear();
        for (const auto& d : dims) u.shape.push_back(sizes_.at(d));
        for (const auto& [at, dim] : windowDims_[&u])
            u.code[at].dim = std::int8_t(std::find(dims.begin(), dims.end(), dim) - dims.begin());
        if (int(dims.size()) > kMaxDims)
            failInExpression(statement_, 1, "the result has more than " + std::to_string(kMaxDims) + " dims");
        if (u.stack > detail::kDerivedDepths[std::size(detail::kDerivedDepths) - 1])
            failInExpression(statement_, 1, "the expression is too deep to evaluate");
    }

    const Dataset& ds_;
    const std::vector<DatasetAlias>& others_;
    Compiled& out_;
    std::string statement_;
    const ExprNode* root_ = nullptr;
    std::map<std::string, std::int64_t> sizes_;
    std::map<std::string, std::string> sizeFrom_;
    std::map<const CodeUnit*, int> depth_;
    std::map<const CodeUnit*, std::vector<std::pair<std::size_t, std::string>>> windowDims_;
    std::map<std::string, std::vector<double>> newDims_;
    std::vector<std::string> dims_;
};
} // namespace

detail::CompiledShape detail::compileStatement(const Dataset& stored, const std::vector<DatasetAlias>& others,
                                               const Expression& e, Compiled& out) {
    Compiler c(stored, others, out);
    c.compile(e);
    CompiledShape shape;
    shape.dims = c.dims();
    for (const auto& d : shape.dims) shape.shape.push_back(c.sizeOf(d));
    shape.newDims = c.newDims();
    return shape;
}

} // namespace strata
