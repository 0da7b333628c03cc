#pragma once
// RangeBook: the colour ranges the frame service knows without reading a frame: each variable's
// whole extremes (for the whole-variable range), and the table of every frame's extremes of the
// view shown (made once its variable is resident on a device). Another file clears it; a table
// made for a file closed since is not kept. Not thread-safe: its owner locks around it.
#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "strata/core/colour_range.h"
#include "strata/core/frame_ranges.h"
#include "strata/core/view.h"

namespace strata::app {

// A variable of a file: what the whole variable's extremes are kept by.
struct VariableKey {
    std::string file;
    std::string variable;
    friend bool operator==(const VariableKey&, const VariableKey&) = default;
};
inline VariableKey variableKeyOf(const FrameSpec& spec) { return {spec.file, spec.variable}; }

// Ranges are kept in the variable's own units and given in the units a view shows (FrameSpec::
// units): a range in units it cannot be converted to is not known.
class RangeBook {
public:
    std::optional<MinMax> variableRange(const VariableKey& key, const std::string& units = {}) const;
    void setVariableRange(const VariableKey& key, MinMax range, std::string storedUnits = {});

    // Whether `spec`'s view can take a frame table: a map (X and Y) without reductions, whose
    // frames are slices of the variable.
    static bool takesFrameTable(const FrameSpec& spec);
    // A table for `spec`'s view (variable, X and Y) is kept, or was tried and could not be made.
    bool hasFrameTable(const FrameSpec& spec) const;
    // Keeps `table` (null: it could not be made, and is not tried again) as the table of
    // `spec`'s view, replacing another view's, unless the book was cleared since `generation`
    // (the table is of a file closed since): false then.
    bool setFrameTable(const FrameSpec& spec, std::shared_ptr<const FrameRanges> table,
                       std::uint64_t generation, std::string storedUnits = {});
    // The extremes of the frame `spec` shows (in spec.units), from the table of its view
    // (nullopt without one).
    std::optional<MinMax> frameRange(const FrameSpec& spec) const;

    // Another file: every range goes, and tables made for the last one are refused.
    void clear();
    std::uint64_t generation() const { return generation_; }

private:
    struct FrameTable {
        VariableKey variable;
        std::string xDim, yDim;
        std::shared_ptr<const FrameRanges> table;
        std::string units; // the table's: the variable's own
    };
    bool matches(const FrameSpec& spec) const;

    struct Known {
        VariableKey key;
        MinMax range;
        std::string units;
    };
    std::list<Known> variables_;
    std::optional<FrameTable> frames_;
    std::uint64_t generation_ = 0;
};

} // namespace strata::app
