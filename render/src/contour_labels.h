#pragma once
// Labels along isolines drawn in window pixels: the level's value, in as many decimals as the
// levels' spacing needs, on a halo over the line, spaced along it and never over one another.
#include <string>
#include <vector>

#include "annotation_plan.h"
#include "coast_plan.h"
#include "strata/render/view_layout.h"

namespace strata::detail {

// The levels' labels: the fewest decimals (0 to 10) that give every level within 1 % of the
// smallest spacing between levels ("275", "0.025", "-1.5"); one level alone: six significant
// digits.
std::vector<std::string> contourLabelTexts(const std::vector<double>& levels);

struct LabelledLine {
    const PixelPolyline* line = nullptr;
    const std::string* text = nullptr;
};

// Places labels of `size` pixels along `lines`: every `spacing` pixels of a line's length (the
// first half a spacing in, or half way along a shorter line), where the line runs nearly straight across the
// label, wholly inside `plot`, and clear of every label placed before it; longer lines are labelled first. A
// line shorter than three labels' widths has none.
std::vector<TextItem> placeContourLabels(std::vector<LabelledLine> lines, const PixelRect& plot, double size,
                                         double spacing);

} // namespace strata::detail
