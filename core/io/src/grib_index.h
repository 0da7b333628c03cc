#pragma once
// The keys of every message of a GRIB file, read once by ecCodes on the reader's threads: what
// the hypercubes (grib_cube.h) are made of, and where each message's values are.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "grib_scan.h"
#include "raw_file.h"

namespace strata::io::detail {

// A key of the message kept as cfgrib keeps it: "GRIB_<key>" attributes, text or number.
struct GribKey {
    std::string name;
    std::optional<std::string> text; // else `number`, or `array` where the key has several (pl)
    double number = 0;
    std::vector<double> array;
    bool integer = false;
};

struct GribMessage {
    GribSpan span;
    // The hypercube's keys.
    std::string typeOfLevel, stepType, gridType;
    long paramId = 0;
    // Read only for the first message of each (typeOfLevel, stepType, grid, paramId), where the
    // hypercubes take them from (ecCodes' concepts are slow); empty in the others. So are
    // `globals` and `attrs` below.
    std::string shortName, cfVarName, name, units, cfName;
    std::optional<long> member; // `number`: absent where the message has no ensemble member
    double level = 0;
    long dataDate = 0, dataTime = 0;
    double stepHours = 0;                    // endStep in hours, as cfgrib's step
    long ni = 0, nj = 0, numberOfPoints = 0; // reduced_gg: ni = numberOfPoints, nj = 1
    bool alternativeRows = false;            // alternativeRowScanning: odd rows run backwards
    std::string packingType;
    // Global keys: edition, centre, centreDescription, subCentre.
    std::vector<GribKey> globals;
    // The variable's GRIB_* keys, cfgrib's (its data attributes, extra keys and grid keys).
    std::vector<GribKey> attrs;
    // The grid's identity: its type, size and geometry keys, as text.
    std::string gridSignature;
};

struct GribIndex {
    std::vector<GribMessage> messages; // in file order
    std::vector<std::string> problems; // "message 3 (at byte 1234): ..." per skipped message
    int found = 0;                     // messages met, damaged ones included
};

// Scans `file` and reads every whole message's keys (in parallel). A message ecCodes cannot
// parse, of a grid Strata does not read, or whose grid size disagrees with its values is left
// out with a line in `problems`. Throws NetcdfError only when the file cannot be read.
// `shareKeys`: a GRIB 2 message is read only to its data section, and the keys that follow
// from its sections but for date, step and member (grid, packing, level type, step type,
// parameter: ecCodes' slow concepts) are read once for all messages whose sections agree
// otherwise; false reads every key of every message whole (the reference the tests compare to).
GribIndex indexGribFile(const RawFile& file, const std::string& what, bool shareKeys = true);

// The grids whose values are on (latitude, longitude) axes, and those on (y, x) with 2-D
// latitude and longitude (cfgrib's two kinds).
bool gribGridIsRegular(const std::string& gridType);
bool gribGridIsProjected(const std::string& gridType);
// The reduced Gaussian grids (reduced_gg: rows of pl[j] points each, ERA5's and IFS's N and O
// grids), on one `values` dim as cfgrib gives them, drawn as a mesh of their cells.
bool gribGridIsReduced(const std::string& gridType);

} // namespace strata::io::detail
