#pragma once
// GRIB messages into hypercubes, as cfgrib.open_datasets makes them: one per level type, step
// type and grid, and within those one per set of parameters on the same axes (2 m and 10 m
// fields apart); a variable per parameter over the axes number, time, step and the level
// (cfgrib's order), each the sorted union of its messages' values. No ecCodes here.
#include <cstdint>
#include <string>
#include <vector>

#include "grib_index.h"

namespace strata::io::detail {

struct GribAxis {
    std::string name;           // number, time, step, or the typeOfLevel (isobaricInhPa, surface, ...)
    std::vector<double> values; // time: seconds since 1970-01-01; step: hours
};

struct GribCubeVariable {
    std::string name; // cfVarName, else shortName, else paramId_<id>; unique in its cube
    long paramId = 0;
    std::size_t first = 0; // the message its attributes come from (an index into the messages)
    // A message (index into the messages) per cell of the axes (C order), -1 where none is.
    std::vector<std::int64_t> fields;
    std::int64_t missing = 0;       // cells without a message
    std::vector<GribSpan> repeated; // where fields met twice lie (the first of each is read)
};

struct GribCube {
    // "isobaricInhPa_instant"; "heightAboveGround_10_instant" where parameters on single levels
    // of one type part; "_2", "_3" after it for further grids or parts.
    std::string name;
    std::string typeOfLevel, stepType;
    std::size_t first = 0;             // a message of the cube: its global keys
    std::vector<std::size_t> messages; // all of them (indexes into the messages), in file order
    std::vector<GribAxis> axes;        // number (where messages have one), time, step, level
    std::vector<GribCubeVariable> variables;
};

// Messages' seconds since 1970-01-01 from dataDate (YYYYMMDD) and dataTime (HHMM).
double gribSeconds(long dataDate, long dataTime);

// The cubes of `messages`, ordered by level type and step type. A part whose axes span more than
// 2^24 places (a hostile file's, all values distinct) is left out with a line in `problems`.
std::vector<GribCube> buildGribCubes(const std::vector<GribMessage>& messages,
                                     std::vector<std::string>& problems);

} // namespace strata::io::detail
