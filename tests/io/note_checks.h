#pragma once
// Whether an open's notes say something: a line holding every one of `words`.
#include <string>
#include <vector>

#include "strata/io/netcdf.h"

namespace nctest {

inline bool anyNoteHas(const strata::io::OpenNotes& notes, const std::vector<std::string>& words) {
    for (const std::string& line : notes.lines) {
        bool all = true;
        for (const std::string& w : words) all = all && line.find(w) != std::string::npos;
        if (all) return true;
    }
    return false;
}

} // namespace nctest
