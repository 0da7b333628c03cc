#pragma once
// What a file set needs of each member at open, read in child processes (several at once, each
// taking a share of the files) and sent back through a pipe: dims, variables (with where their
// bytes lie, for reads without netCDF-C), index coordinates. A member that crashes or hangs
// netCDF-C costs its child and is named; the other members go on in a new child.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "direct_layout.h"
#include "strata/core/dataset.h"

namespace strata::io::detail {

struct MemberVariable {
    std::string name;
    std::vector<std::string> dims;
    std::vector<std::int64_t> shape;
    DType stored = DType::Float32;
    std::string encoding;               // the CF encoding in words: equal texts decode alike
    std::optional<DirectLayout> layout; // without its file; nullopt: read through netCDF-C
};

struct MemberCoordinate { // a 1-D index coordinate
    std::string name;
    std::vector<double> values; // decoded numbers (masked → NaN, unpacked)
    std::string units, calendar;
};

struct MemberSummary {
    std::string path;
    std::string error; // non-empty: the member could not be read (the message names it)
    std::string format;
    std::vector<Dimension> dims;
    std::vector<MemberVariable> variables;
    std::vector<MemberCoordinate> coords;

    const MemberVariable* findVariable(const std::string& name) const;
    const MemberCoordinate* findCoord(const std::string& name) const;
    const Dimension* findDim(const std::string& name) const;
};

// The summary of each of `paths`, in the same order, read by up to `workers` child processes.
// A child still reading one file after `timeoutMs` is stopped and that file named.
std::vector<MemberSummary> readMemberSummaries(const std::vector<std::string>& paths, int workers,
                                               int timeoutMs);

} // namespace strata::io::detail
