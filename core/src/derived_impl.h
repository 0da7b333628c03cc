#pragma once
// Inside derived variables: the compiled form (derived.cpp) and its evaluation
// (derived_eval.cpp).
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "derived_program.h"
#include "strata/core/derived.h"

namespace strata::detail {

// What a Load reads: a stored input, or a climatology table (its means or its standard
// deviations), read by group (the climatology itself) or by time (an anomaly).
struct LeafRef {
    enum class Kind { Input, TableMean, TableStd };
    Kind kind = Kind::Input;
    int index = 0;                                     // into Compiled::inputs or Compiled::tables
    bool byTime = false;                               // a table read through its time → group map
    std::map<std::string, std::pair<int, int>> shifts; // per dim: the windows' shifts around its loads
};

// A program as compiled: its index space is `dims`; window dims are indices into it.
struct CodeUnit {
    std::vector<DerivedInstr> code;
    std::vector<LeafRef> leaves;
    std::vector<std::string> dims;
    std::vector<std::int64_t> shape;
    int stack = 0;
};

struct InputLeaf {
    VariableRef ref;
    DataArray array; // as opened (lazy): read from when no resident copy is found
};

enum class Group { Month, Season, DayOfYear, Hour };

// A climatology: the moments of `x` per group over the base period, one map per group.
struct TableSpec {
    CodeUnit x;           // over x's dims, the time dim among them
    int timeAxis = 0;     // in x.dims
    std::string groupDim; // "month", "season", "dayofyear", "hour"
    int firstYear = 0, lastYear = 0;
    std::vector<double> groupValues;   // the group dim's coordinate: 1..12, 1..4 (DJF MAM JJA SON), ...
    std::vector<std::int32_t> groupOf; // per time index: the group's row
    std::vector<std::int32_t> first, members; // base-period members of each row
    std::int64_t points = 0;                  // elements of one map (x without time)
    DType dtype = DType::Float32;
    bool needStd = false;
};

// A table computed for one device: means (and standard deviations), [group][point], and the
// time → group map, all on that device.
struct TableData {
    std::shared_ptr<const Buffer> mean, std, map;
};

struct Compiled {
    std::string statement, name, units, unitsReason;
    CodeUnit main;
    std::vector<InputLeaf> inputs;
    std::vector<TableSpec> tables;
    std::vector<DatasetAlias> others; // the other datasets it reads
    int rootTable = -1;               // the table of a climatology or anomaly at the top
    DType dtype = DType::Float32;
};

// What compiling a statement gives besides the program: the result's dims and sizes, and the
// group dims its climatologies make (name → coordinate values).
struct CompiledShape {
    std::vector<std::string> dims;
    std::vector<std::int64_t> shape;
    std::map<std::string, std::vector<double>> newDims;
};
// Compiles `e` (the derived variables it names already expanded) against `stored` into `out`
// (derived_compile.cpp). Throws ValueError naming the problem.
CompiledShape compileStatement(const Dataset& stored, const std::vector<DatasetAlias>& others,
                               const Expression& e, Compiled& out);

// Evaluates `unit` over the box (in its index space) into a new buffer of n = Π count
// elements of `dtype` on `device`, ordered on `stream`. Tables it reads come from `tables`.
struct Evaluation {
    const Compiled& compiled;
    const ResidentLookup& lookup;
    std::function<TableData(int table)> table;
};
Buffer evaluateUnit(const Evaluation& e, const CodeUnit& unit, const DerivedBox& box, DType dtype,
                    Device device, Stream stream);
// The most input bytes a table reads at once when its inputs are not resident (0: the default,
// 256 MiB); tests make it small to merge many chunks.
void setTableChunkBytes(std::size_t bytes);
// Whether programs of one instruction on leaves and constants skip the interpreter (on unless
// a test compares the two).
void setSimplePrograms(bool on);
// Computes table `t` on `device`.
TableData computeTable(const Evaluation& e, int t, Device device, Stream stream);

} // namespace strata::detail

namespace strata {
struct DerivedSource::State {
    detail::Compiled compiled;
    mutable std::mutex mutex;
    ResidentLookup lookup;
    // Tables are computed under this lock (recursive: a table may read another).
    std::recursive_mutex tablesMutex;
    std::map<std::pair<int, int>, detail::TableData> tables; // (table, device code) → data
};
} // namespace strata
