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

    // Coordinates are host memory, copied into every group below theirs: a small hostile file
    // can declare much. What one file keeps is capped (and by the memory budget).
    static constexpr std::size_t kMaxCoordinateBytes = std::size_t(4) << 30;
    // Groups deeper than this are not read (each level is a frame of recursion, here and in
    // every walk of the Dataset).
    static constexpr int kMaxGroupDepth = 128;
    bool admitCoordinate(std::size_t values, const std::string& what); // false, with a note, past the cap

    struct Depth { // counts the levels of read() entered
        explicit Depth(int& d) : d_(++d) {}
        ~Depth() { --d_; }
        int& d_;
    };

    std::shared_ptr<const NcFile> file_;
    std::string format_;
    OpenNotes& notes_;
    std::size_t coordinateBytes_ = 0;
    int depth_ = 0;
};

} // namespace strata::io::detail
