#pragma once
// The annotation plan (annotation_plan.h) drawn as 2-D props in the back renderer: ink boxes
// and lines, the colour bar's bands, triangles and swatch, the labels.
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "annotation_plan.h"

class vtkActor2D;
class vtkProp;
class vtkRenderer;

namespace strata::detail {

class ImageAnnotations {
public:
    ImageAnnotations();
    ~ImageAnnotations();
    // Brings the props in `back` (window pixels) up to date with `plan`, the overlay over the
    // frame (the coastlines) in `plot`, a renderer above the frame's whose viewport is the plan's
    // plot rectangle, and a map's labels beyond its edge in `over`, a renderer above both over
    // the whole window.
    void build(vtkRenderer* back, vtkRenderer* plot, vtkRenderer* over, const AnnotationPlan& plan);
    void clear();
    // How many groups the last build() made afresh (0 to 3): for tests and benchmarks.
    int rebuiltGroups() const { return rebuilt_; }
    // How many labels the last build() drew afresh. A rebuilt group takes the labels of its last
    // build that read and look the same, only moved (a colour bar's ticks under a new range),
    // with their text textures: for tests and benchmarks.
    int labelsDrawn() const { return labelsDrawn_; }

private:
    struct Group {
        std::vector<vtkProp*> props;                             // removed from the renderer on clear
        std::vector<std::pair<std::string, vtkActor2D*>> labels; // kept for the next build, by key
    };
    void add(Group& g, vtkProp* p);
    // `t` in a group: a label of the last build with the same text and style, moved there, or a
    // new one. With a role, the label of the last build in that role and style, given the new
    // text.
    vtkActor2D* label(Group& g, const TextItem& t);
    void clear(Group& g); // its labels go to spare_
    void dropSpare();     // the labels no build took again leave the renderer
    void buildInk(Group& g, const InkGroup& ink, double lineWidth);
    void buildBarFill(Group& g, const ColourBarFill& fill);

    vtkRenderer* renderer_ = nullptr;
    Group axes_, bar_, title_;
    // What each group drew last (its part of the plan, with the layout and the line width).
    struct Drawn {
        ViewLayout layout;
        double lineWidth = 0;
        InkGroup ink;
        ColourBarFill fill;
        friend bool operator==(const Drawn&, const Drawn&) = default;
    };
    std::optional<Drawn> axesDrawn_, barDrawn_, titleDrawn_;
    std::unordered_multimap<std::string, vtkActor2D*> spare_;
    vtkRenderer* plot_ = nullptr;
    vtkActor2D* coast_ = nullptr;        // in plot_
    vtkActor2D* contours_ = nullptr;     // in plot_: the isolines, under the coastlines
    std::vector<vtkActor2D*> vectors_;   // in plot_: the vector pair's glyphs, over the isolines
    std::vector<vtkActor2D*> overFrame_; // in plot_: a map's graticule labels on a halo
    vtkRenderer* over_ = nullptr;
    std::vector<vtkActor2D*> beyondMap_; // in over_: those beyond the map's edge
    struct CoastDrawn {
        std::shared_ptr<const std::vector<PixelPolyline>> coast, contours;
        std::shared_ptr<const std::vector<InkLines>> vectors;
        PixelRect plot;
        Rgba8 contourColour;
        double contourWidth = 1;
        friend bool operator==(const CoastDrawn&, const CoastDrawn&) = default;
    };
    std::optional<CoastDrawn> coastDrawn_;
    void buildCoast(vtkRenderer* plot, vtkRenderer* over, const AnnotationPlan& plan);
    void clearCoast();
    int rebuilt_ = 0, labelsDrawn_ = 0;
};

} // namespace strata::detail
