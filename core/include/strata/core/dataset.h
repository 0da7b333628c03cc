#pragma once
// Dataset: a file's (or group's) dims, variables, coordinates, attributes and child groups.
// Metadata is on the host; variables stay lazy until loaded.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strata/core/data_array.h"

namespace strata {

struct Dimension {
    std::string name;
    std::int64_t length = 0;
    bool unlimited = false;
};

class Dataset {
public:
    std::string path;               // the file it came from (a file set's: its first file)
    std::vector<std::string> files; // a file set's files, in record order; empty for one file
    std::string group;              // "/" for the root, "/a/b" for groups
    std::string format;          // "classic", "64-bit offset", "CDF-5", "netCDF-4", "netCDF-4 classic model"
    std::vector<Dimension> dims; // visible here (the group's own first, then inherited)
    std::vector<std::pair<std::string, Variable>> variables; // in file order, coordinates included
    Coordinates coords; // decoded coordinate variables (index and auxiliary)
    Attributes attrs;   // global (group) attributes
    std::vector<Dataset> groups;

    const Variable* findVariable(std::string_view name) const;
    const Dimension* findDim(std::string_view name) const;
    // The variable as a DataArray with its coordinates: the index coordinate of each of its
    // dims and the auxiliary ones its `coordinates` attribute names. Throws ValueError naming
    // the file and listing the variables when there is none of that name.
    DataArray operator[](std::string_view name) const;
    // A group by path ("/a/b" or "a/b"); throws ValueError when there is none.
    const Dataset& findGroup(std::string_view path) const;
    // Data variables: those that are not coordinates (in file order).
    std::vector<std::string> dataVariables() const;

    // A summary in the spirit of `ncdump -h` and xarray's repr: dims, coordinates with their
    // first and last decoded values (dates for time), data variables with dtype, shape and
    // units, global attributes, and groups.
    std::string summary() const;
};

} // namespace strata
