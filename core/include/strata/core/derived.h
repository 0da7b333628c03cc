#pragma once
// Derived variables (issue 31): `NAME = EXPR` over a dataset's variables (and, by alias, those
// of other open datasets), added to the dataset as a variable like any other. Its data is
// lazy: a box of it (a frame, a slab of a streamed reduction, an export) is evaluated from the
// inputs in one fused pass on the device that asks, from the resident copies of the inputs
// where there are some, else from the box of the inputs it needs. Nothing whole-record is
// made unless something asks for the whole variable.
//
// Broadcasting is by dim name, as in xarray: the result's dims are the first operand's, then
// the new ones of the next. Climatology tables (one map per group) are computed once per
// base period and device, and kept while the variable is.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strata/core/data_source.h"
#include "strata/core/dataset.h"
#include "strata/core/expression.h"

namespace strata {

// Another open dataset, reached from expressions as ALIAS.NAME.
struct DatasetAlias {
    std::string alias;
    std::shared_ptr<const Dataset> dataset;
};

// Adds (or, for a derived variable of that name, replaces) the derived variable `statement`
// defines in `ds`, and rebuilds the derived variables that use it. Throws ValueError with a
// message naming the problem: a syntax error at its column, an unknown variable or function,
// dims of one name and different sizes, another grid, a stored variable of the same name, a
// cycle between derived variables, a group with no member in the base period. `ds` is left
// as it was when it throws.
void derive(Dataset& ds, std::string_view statement, const std::vector<DatasetAlias>& others = {});

// The statements of the dataset's derived variables, in the order they were made.
std::vector<std::string> derivedStatementsOf(const Dataset& ds);

// Removes a derived variable (and the coordinates only it used). False when there is none.
bool removeDerived(Dataset& ds, std::string_view name);

// What the app and the command line need to know of a derived variable.
class DerivedSource;
// The derived source behind `v`, or null for a stored variable.
const DerivedSource* derivedSourceOf(const Variable& v);

// The input an expression reads, as the resident set knows it: "tas" for the dataset's own,
// "b.tas" for another dataset's.
std::string inputKey(const VariableRef& ref);

// Where evaluation finds the resident copy of an input (by inputKey): nullopt reads the
// box it needs from the file instead. Called from any thread.
using ResidentLookup = std::function<std::optional<DataArray>(const std::string& key)>;

class DerivedSource : public DataSource {
public:
    // Evaluates the box on the host (the CPU path, and readers that ask for host values).
    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override;
    std::string describe() const override;
    std::string readPath() const override;
    std::optional<Buffer> evaluate(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                                   std::span<const std::int64_t> stride, Device device,
                                   Stream stream) const override;

    const std::string& statement() const; // as written
    const std::string& name() const;
    // The units, and where they come from: "set", "kept" (+ and - of equal units, functions
    // that keep them), "converted" (K − 273.15 → degC) or "none".
    const std::string& units() const;
    const std::string& unitsReason() const;
    // The stored variables it reads (derived ones it uses are expanded), in the order first read.
    std::vector<VariableRef> inputs() const;
    // The other open datasets it reads, by alias.
    const std::vector<DatasetAlias>& others() const;
    // Sets where the resident inputs are (replacing any earlier lookup).
    void setResidentLookup(ResidentLookup lookup) const;

    struct State;
    explicit DerivedSource(std::shared_ptr<State> state);
    ~DerivedSource() override;

private:
    std::shared_ptr<State> state_;
};

} // namespace strata
