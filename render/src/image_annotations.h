#pragma once
// Everything around the frame, drawn as 2-D props in the back renderer: the plot's border,
// the axes' ticks, labels and titles, the colour bar with its ticks and units (and its
// triangles beyond a fixed range and its "missing" swatch), the title.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <vtkNew.h>

#include "colour_bar_plan.h"
#include "strata/core/ops.h"
#include "strata/render/colour_range.h"
#include "strata/render/view_layout.h"

class vtkActor2D;
class vtkProp;
class vtkRenderer;

namespace strata::detail {

struct AnnotationContent {
    ViewLayout layout;
    ViewWindow window;
    const AxisGrid* x = nullptr;
    const AxisGrid* y = nullptr;
    std::uint64_t gridVersion = 0; // changes whenever x or y draw differently (ticks, titles)
    ColourBarContent bar;
    std::string title;
    std::string barTitle; // the variable's units
};

// Three groups of props, each rebuilt only when what it shows changes: the axes (border, ticks,
// labels, titles), the colour bar, the title. A step through time changes the title (and the
// colour bar with a per-frame range), not the axes: their text textures are kept, and a rebuilt
// colour bar moves the tick labels it had rather than drawing their text again.
class ImageAnnotations {
public:
    ImageAnnotations();
    ~ImageAnnotations();
    // Brings the props in `back` (window pixels) up to date with `content`.
    void build(vtkRenderer* back, const AnnotationContent& content);
    void clear();
    // How many groups the last build() made afresh (0 to 3): for tests and benchmarks.
    int rebuiltGroups() const { return rebuilt_; }
    // How many labels the last build() drew afresh. A rebuilt group takes the labels of its last
    // build that read and look the same, only moved (a colour bar's ticks under a new range),
    // with their text textures: for tests and benchmarks.
    int labelsDrawn() const { return labelsDrawn_; }

    enum class Align { Left, Centre, Right };
    enum class VAlign { Bottom, Centre, Top };

private:
    struct Group {
        std::vector<vtkProp*> props;                             // removed from the renderer on clear
        std::vector<std::pair<std::string, vtkActor2D*>> labels; // kept for the next build, by key
    };
    struct AxesKey {
        ViewLayout layout;
        ViewWindow window;
        std::uint64_t grid = 0;
        friend bool operator==(const AxesKey&, const AxesKey&) = default;
    };
    struct BarKey {
        ViewLayout layout;
        ColourBarContent bar;
        std::string title;
        friend bool operator==(const BarKey&, const BarKey&) = default;
    };
    struct TitleKey {
        ViewLayout layout;
        std::string title;
        friend bool operator==(const TitleKey&, const TitleKey&) = default;
    };
    void add(Group& g, vtkProp* p);
    // `s` at (x, y) in a group: a label of the last build with the same text and style, moved
    // there, or a new one. With a role, the label of the last build in that role and style,
    // given the new text.
    vtkActor2D* label(Group& g, const std::string& s, double x, double y, double size, Align h, VAlign v,
                      double angle = 0, const char* role = nullptr);
    void clear(Group& g); // its labels go to spare_
    void dropSpare();     // the labels no build took again leave the renderer
    void buildAxes(Group& g, const AnnotationContent& c);
    void buildBar(Group& g, const AnnotationContent& c);
    void buildTitle(Group& g, const AnnotationContent& c);

    vtkRenderer* renderer_ = nullptr;
    Group axes_, bar_, title_;
    std::optional<AxesKey> axesKey_;
    std::optional<BarKey> barKey_;
    std::optional<TitleKey> titleKey_;
    std::unordered_multimap<std::string, vtkActor2D*> spare_;
    int rebuilt_ = 0, labelsDrawn_ = 0;
};

} // namespace strata::detail
