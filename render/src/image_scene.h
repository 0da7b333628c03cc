#pragma once
// ImageScene: the image view's content in VTK terms, shared by the on-screen widget and PNG
// export so that both draw the same thing. Three renderers: the back one (white, the whole
// window) holds axes, colour bar and title; the plot one (its viewport the plot rectangle,
// pixel-aligned parallel camera) holds the frame; the overlay (the same viewport, a layer
// above) the coastlines. Calls that touch GL (prepare, releaseGl)
// need the render window's context current.
#include <cstdint>
#include <memory>
#include <optional>

#include <vtkNew.h>

#include "curvilinear_actor.h"
#include "frame_actor.h"
#include "image_annotations.h"
#include "image_content.h"
#include "strata/render/frame_texture.h"
#include "strata/render/image_settings.h"

class vtkOpenGLRenderWindow;
class vtkRenderer;

namespace strata::detail {

class ImageScene {
public:
    ImageScene();
    ~ImageScene();
    ImageScene(const ImageScene&) = delete;
    ImageScene& operator=(const ImageScene&) = delete;

    void attach(vtkOpenGLRenderWindow* window); // adds the renderers
    void detach();

    void setFrame(ImageFrame frame);
    void clearFrame();
    bool hasFrame() const { return content_.hasFrame(); }
    const ImageFrame* frame() const { return content_.frame(); }
    void setSettings(const ImageViewSettings& settings);
    const ImageViewSettings& settings() const { return content_.settings(); }
    const ImageContent& content() const { return content_; }

    // Lays the scene out for a window of width × height device pixels and brings the texture
    // up to date (context current). Call before each render.
    void prepare(int width, int height, double scale);
    // Frees GL objects (context current).
    void releaseGl();

    const ViewLayout& layout() const { return layout_; }
    ViewWindow window() const { return content_.window(); } // the visible data window
    Pick pick(double px, double py) const { return content_.pick(layout_, px, py); }
    const FramePathInfo& path() const;
    MinMax range() const { return range_; }
    int annotationGroupsRebuilt() const { return annotations_.rebuiltGroups(); }
    int annotationLabelsDrawn() const { return annotations_.labelsDrawn(); }
    bool frameCopied() const { return frameActor_.copies(); }
    bool colouredAhead() const { return colouredAhead_; }

private:
    void updateTexture();

    vtkOpenGLRenderWindow* window_ = nullptr;
    vtkNew<vtkRenderer> back_;
    vtkNew<vtkRenderer> plot_;
    vtkNew<vtkRenderer> overlay_; // over the plot: the coastlines (over the copied frame too)
    vtkNew<vtkRenderer> margins_; // over everything: a map's labels beyond its edge
    FrameActor frameActor_;
    CurvilinearActor curvActor_;   // the frame's cells in lon/lat, when content_.curvilinear()
    std::uint64_t builtCells_ = 0; // content_.cellsVersion() the actors were built for
    ImageAnnotations annotations_;

    ImageContent content_;
    std::vector<Rgba8> table_;
    DataArray lut_;
    std::string lutKey_; // map, direction and device of lut_
    bool textureDirty_ = true;
    bool colouredAhead_ = false; // the last texture came from the frame's ColouredFrame
    std::unique_ptr<FrameTexture> texture_;
    bool textureAllowsInterop_ = true;
    MinMax range_{0, 1};
    ViewLayout layout_;
};

} // namespace strata::detail
