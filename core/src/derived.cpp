// Derived variables in a dataset: adding, redefining and removing them (each statement compiled
// by derived_compile.cpp), their titles, and what their sources tell.
#include "strata/core/derived.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "derived_impl.h"
#include "strata/core/error.h"

namespace strata {

using detail::Compiled;
using detail::TableSpec;

std::string inputKey(const VariableRef& ref) {
    return ref.alias.empty() ? ref.name : ref.alias + "." + ref.name;
}

namespace {

constexpr const char* kExpressionAttr = "expression";

// The derived variables of a dataset, by name, with their statements as written.
std::vector<std::pair<std::string, std::string>> derivedStatements(const Dataset& ds) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, v] : ds.variables)
        if (const DerivedSource* s = derivedSourceOf(v)) out.emplace_back(name, s->statement());
    return out;
}

// `e` with every derived variable it names replaced by that variable's expression (expanded in
// turn). `defs` are the statements by name; `path` the names being expanded (a cycle check).
void expand(ExprNode& n, const std::map<std::string, Expression>& defs, std::vector<std::string>& path,
            const std::string& statement) {
    if (n.kind == ExprNode::Kind::Variable && n.alias.empty()) {
        const auto it = defs.find(n.name);
        if (it != defs.end()) {
            if (std::find(path.begin(), path.end(), n.name) != path.end()) {
                std::string cycle;
                for (const auto& p : path) cycle += p + " → ";
                failInExpression(statement, n.column, "a cycle between derived variables: " + cycle + n.name);
            }
            path.push_back(n.name);
            ExprNode inner = it->second.root;
            expand(inner, defs, path, it->second.text);
            path.pop_back();
            n = std::move(inner);
            return;
        }
    }
    for (auto& a : n.args) expand(a, defs, path, statement);
}

// A title for the panel and the colour bar: the statement, or for a climatology or an anomaly
// at the top, what it is against ("tas anomaly vs 1991–2020 monthly climatology").
std::string titleOf(const Expression& e, const Compiled& k) {
    const ExprNode& root = e.root;
    if (root.kind != ExprNode::Kind::Call || k.tables.empty()) return e.text;
    const bool anomaly = root.name == "anomaly" || root.name == "std_anomaly";
    if (!anomaly && root.name != "climatology") return e.text;
    const std::string& g = root.args[1].name;
    const std::string adjective = g == "month"       ? "monthly"
                                  : g == "season"    ? "seasonal"
                                  : g == "dayofyear" ? "daily"
                                                     : "hourly";
    const ExprNode& x = root.args[0];
    const std::string what = x.kind == ExprNode::Kind::Variable ? inputKey({x.alias, x.name}) : toString(x);
    if (k.rootTable < 0) return e.text;
    const TableSpec& own = k.tables[std::size_t(k.rootTable)];
    const std::string years = std::to_string(own.firstYear) + "–" + std::to_string(own.lastYear);
    if (!anomaly) return what + " " + adjective + " climatology " + years;
    return what + (root.name == "std_anomaly" ? " standardised anomaly" : " anomaly") + " vs " + years + " " +
           adjective + " climatology";
}

Variable makeVariable(Compiled compiled, const detail::CompiledShape& c, const std::string& title) {
    auto state = std::make_shared<DerivedSource::State>();
    state->compiled = std::move(compiled);
    const Compiled& k = state->compiled;
    CfEncoding enc;
    enc.packed = enc.decoded = k.dtype;
    Attributes attrs;
    if (!k.units.empty()) attrs.set({"units", DType::Char, k.units});
    attrs.set({"long_name", DType::Char, title});
    attrs.set({kExpressionAttr, DType::Char, k.statement});
    return Variable::lazy(c.dims, c.shape, enc, std::make_shared<DerivedSource>(state), attrs);
}

} // namespace

const DerivedSource* derivedSourceOf(const Variable& v) {
    return dynamic_cast<const DerivedSource*>(v.source().get());
}

void derive(Dataset& ds, std::string_view statement, const std::vector<DatasetAlias>& others) {
    const Expression parsed = parseExpression(statement);
    if (const Variable* v = ds.findVariable(parsed.name); v && !derivedSourceOf(*v))
        failInExpression(statement, 1,
                         "'" + parsed.name +
                             "' is a variable of the file: a derived variable needs another name");
    // Every derived variable, the new one in its place (or last), rebuilt against the stored ones.
    std::vector<std::pair<std::string, std::string>> statements = derivedStatements(ds);
    // The other datasets the derived variables read, the ones given now replacing those of an alias.
    std::vector<DatasetAlias> aliases = others;
    for (const auto& [name, v] : ds.variables)
        if (const DerivedSource* s = derivedSourceOf(v))
            for (const DatasetAlias& a : s->others())
                if (std::none_of(aliases.begin(), aliases.end(),
                                 [&](const DatasetAlias& b) { return b.alias == a.alias; }))
                    aliases.push_back(a);
    bool replaced = false;
    for (auto& [name, text] : statements)
        if (name == parsed.name) {
            text = parsed.text;
            replaced = true;
        }
    if (!replaced) statements.emplace_back(parsed.name, parsed.text);
    std::map<std::string, Expression> defs;
    for (const auto& [name, text] : statements)
        defs[name] = name == parsed.name ? parsed : parseExpression(text);

    Dataset next = ds;
    next.variables.erase(std::remove_if(next.variables.begin(), next.variables.end(),
                                        [](const auto& nv) { return derivedSourceOf(nv.second) != nullptr; }),
                         next.variables.end());
    std::map<std::string, std::vector<double>> groupDims;
    const Dataset stored = next; // what the expressions read
    for (const auto& [name, text] : statements) {
        Expression e = defs.at(name);
        std::vector<std::string> path{name};
        expand(e.root, defs, path, e.text);
        Compiled compiled;
        const detail::CompiledShape c = detail::compileStatement(stored, aliases, e, compiled);
        for (const auto& in : compiled.inputs)
            for (const DatasetAlias& a : aliases)
                if (a.alias == in.ref.alias &&
                    std::none_of(compiled.others.begin(), compiled.others.end(),
                                 [&](const DatasetAlias& b) { return b.alias == a.alias; }))
                    compiled.others.push_back(a);
        compiled.statement = text;
        for (const auto& [dim, values] : c.newDims) groupDims[dim] = values;
        const std::string title = titleOf(defs.at(name), compiled);
        next.variables.emplace_back(name, makeVariable(std::move(compiled), c, title));
    }
    // The climatologies' group dims and their coordinates.
    for (const auto& [dim, values] : groupDims) {
        if (const Dimension* d = next.findDim(dim)) {
            if (d->length != std::int64_t(values.size()))
                failInExpression(statement, 1,
                                 "the group dim '" + dim + "' would clash with the dataset's dim of length " +
                                     std::to_string(d->length));
            continue;
        }
        next.dims.push_back({dim, std::int64_t(values.size()), false});
        Coordinate c;
        c.name = dim;
        c.dims = {dim};
        c.shape = {std::int64_t(values.size())};
        c.values = values;
        c.dtype = DType::Int32;
        if (dim == "season") c.attrs.set({"flag_meanings", DType::Char, std::string("DJF MAM JJA SON")});
        next.coords.set(std::move(c));
    }
    ds = std::move(next);
}

std::vector<std::string> derivedStatementsOf(const Dataset& ds) {
    std::vector<std::string> out;
    for (const auto& [name, text] : derivedStatements(ds)) out.push_back(text);
    return out;
}

bool removeDerived(Dataset& ds, std::string_view name) {
    const Variable* v = ds.findVariable(name);
    if (!v || !derivedSourceOf(*v)) return false;
    const std::string statement = derivedSourceOf(*v)->statement();
    Dataset next = ds;
    next.variables.erase(std::remove_if(next.variables.begin(), next.variables.end(),
                                        [&](const auto& nv) { return nv.first == name; }),
                         next.variables.end());
    // The others are rebuilt without it: one that used it fails, naming it.
    std::vector<std::pair<std::string, std::string>> rest = derivedStatements(next);
    next.variables.erase(std::remove_if(next.variables.begin(), next.variables.end(),
                                        [](const auto& nv) { return derivedSourceOf(nv.second) != nullptr; }),
                         next.variables.end());
    std::vector<DatasetAlias> aliases;
    for (const auto& [n, v] : ds.variables)
        if (const DerivedSource* s = derivedSourceOf(v))
            for (const DatasetAlias& a : s->others()) aliases.push_back(a);
    for (const auto& [n, text] : rest) derive(next, text, aliases);
    ds = std::move(next);
    return true;
}

// ---- DerivedSource ----

DerivedSource::DerivedSource(std::shared_ptr<State> state) : state_(std::move(state)) {}
DerivedSource::~DerivedSource() = default;

const std::string& DerivedSource::statement() const { return state_->compiled.statement; }
const std::string& DerivedSource::name() const { return state_->compiled.name; }
const std::string& DerivedSource::units() const { return state_->compiled.units; }
const std::string& DerivedSource::unitsReason() const { return state_->compiled.unitsReason; }

std::vector<VariableRef> DerivedSource::inputs() const {
    std::vector<VariableRef> out;
    for (const auto& in : state_->compiled.inputs) out.push_back(in.ref);
    return out;
}

const std::vector<DatasetAlias>& DerivedSource::others() const { return state_->compiled.others; }

void DerivedSource::setResidentLookup(ResidentLookup lookup) const {
    std::lock_guard lock(state_->mutex);
    state_->lookup = std::move(lookup);
}

std::string DerivedSource::describe() const {
    return "derived variable '" + state_->compiled.statement + "'";
}

std::string DerivedSource::readPath() const { return "derived: evaluated from its inputs, fused"; }

} // namespace strata
