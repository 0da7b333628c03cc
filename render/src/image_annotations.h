#pragma once
// Everything around the frame, drawn as 2-D props in the back renderer: the plot's border,
// the axes' ticks, labels and titles, the colour bar with its ticks and units, the title.
#include <string>
#include <vector>

#include <vtkNew.h>

#include "strata/core/ops.h"
#include "strata/render/colour_range.h"
#include "strata/render/view_layout.h"

class vtkProp;
class vtkRenderer;

namespace strata::detail {

struct AnnotationContent {
    ViewLayout layout;
    ViewWindow window;
    const AxisGrid* x = nullptr;
    const AxisGrid* y = nullptr;
    std::vector<Rgba8> table; // the colour map, low values first
    MinMax range{0, 1};
    std::string title;
    std::string barTitle; // the variable's units
};

class ImageAnnotations {
public:
    ImageAnnotations();
    ~ImageAnnotations();
    // Replaces the props in `back` (window pixels).
    void build(vtkRenderer* back, const AnnotationContent& content);
    void clear();

private:
    void add(vtkRenderer* r, vtkProp* p);
    std::vector<std::pair<vtkRenderer*, vtkProp*>> props_;
};

} // namespace strata::detail
