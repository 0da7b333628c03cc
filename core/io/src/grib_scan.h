#pragma once
// Where a GRIB file's messages lie: the framing of GRIB editions 1 and 2 ("GRIB", the total
// length, "7777" at the end), read from a few bytes per message, without ecCodes. Bytes between
// messages (padding, a header some centres put first) are skipped.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "raw_file.h"

namespace strata::io::detail {

struct GribSpan {
    int number = 0;           // 1-based, in file order, damaged messages counted
    std::uint64_t offset = 0; // of "GRIB"
    std::uint64_t length = 0; // the whole message, "GRIB" to "7777"
    int edition = 0;          // 1 or 2
    std::uint32_t file = 0;   // which of the files opened together it lies in (0: the first)
};

struct GribScan {
    std::vector<GribSpan> messages; // whole messages only
    // One line per damaged message, "message 3 (at byte 1234): ..." (no file name), with the
    // message's number (0 for bytes before the first message).
    std::vector<std::pair<int, std::string>> problems;
    int found = 0; // messages met, damaged ones included
};

// Scans the whole file. Throws NetcdfError (from RawFile) only when a read fails.
GribScan scanGribMessages(const RawFile& file, const std::string& what);

// True when `head` (the file's first bytes) starts with "GRIB".
bool startsLikeGrib(const char* head, std::size_t n);

} // namespace strata::io::detail
