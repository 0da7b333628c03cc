#pragma once
// Reads one group of an open file (and its child groups) into a Dataset. Callers hold
// netcdfMutex() for the whole read.
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "nc_file.h"
#include "strata/core/dataset.h"
#include "strata/io/netcdf.h"

namespace strata::io::detail {

class GroupReader {
public:
    GroupReader(std::shared_ptr<const NcFile> file, std::string format, OpenNotes& notes)
        : file_(std::move(file)), format_(std::move(format)), notes_(notes) {}

    // `parent` is the enclosing group's Dataset (null for the root): its dims and coordinates
    // are visible here.
    Dataset read(int groupId, const Dataset* parent);

private:
    // The variable as a lazy Variable, or nullopt (with a note) for types Strata cannot hold.
    std::optional<std::pair<std::string, Variable>> readVariable(int groupId, int varId,
                                                                 const std::string& group);
    void readDims(int groupId, const Dataset* parent, Dataset& ds);
    void readCoordinates(int groupId, const Dataset* parent, Dataset& ds);

    std::shared_ptr<const NcFile> file_;
    std::string format_;
    OpenNotes& notes_;
};

} // namespace strata::io::detail
