#pragma once
// Longitudes that make a whole turn: n evenly spaced centres, n steps of 360° / n, so that the
// last column's cells reach over to the first (contours and flow go across the seam).
#include <vector>

namespace strata {

bool isWholeTurn(const std::vector<double>& lon);

} // namespace strata
