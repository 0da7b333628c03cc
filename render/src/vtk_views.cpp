// Loads the VTK views module on first use (see strata/render/vtk_views.h).
#include "strata/render/vtk_views.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLibrary>
#include <mutex>
#include <string>

#include "strata/core/error.h"
#include "strata/core/settings.h"

namespace strata {

QSurfaceFormat glSurfaceFormat() {
    QSurfaceFormat f;
    f.setRenderableType(QSurfaceFormat::OpenGL);
    f.setVersion(3, 2);
    f.setProfile(QSurfaceFormat::CoreProfile);
    f.setRedBufferSize(8);
    f.setGreenBufferSize(8);
    f.setBlueBufferSize(8);
    f.setAlphaBufferSize(8);
    f.setDepthBufferSize(24);
    f.setStencilBufferSize(0);
    f.setSamples(0);
    f.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    return f;
}
namespace {

// Where to look, in order: $STRATA_VTKVIEWS, beside the executable, where the build put it
// (for the test programs, which live elsewhere in the build tree).
QStringList viewsPlaces() {
    if (const auto path = settings::vtkViewsPath()) return {QString::fromStdString(*path)};
    QStringList places;
    if (QCoreApplication::instance())
        places << QCoreApplication::applicationDirPath() + "/" STRATA_VTKVIEWS_NAME;
#ifdef STRATA_VTKVIEWS_BUILT
    places << QStringLiteral(STRATA_VTKVIEWS_BUILT);
#endif
    return places;
}

const VtkViews* load(std::string& error) {
    using Entry = const VtkViews* (*)();
    std::string tried;
    if (auto entry = reinterpret_cast<Entry>(loadModuleEntry(viewsPlaces(), "strata_vtk_views", tried)))
        if (const VtkViews* views = entry()) return views;
    error = "the VTK views (plots, GL frames, PNG export) could not be loaded:" + tried;
    return nullptr;
}

} // namespace

void* loadModuleEntry(const QStringList& places, const char* entry, std::string& tried) {
    for (const QString& place : places) {
        if (!QFileInfo::exists(place)) {
            tried += "\n  " + place.toStdString() + ": no such file";
            continue;
        }
        // Never unloaded: what it makes may live as long as the program.
        auto* lib = new QLibrary(place);
        lib->setLoadHints(QLibrary::ResolveAllSymbolsHint); // a missing symbol fails here, not later
        if (lib->load()) {
            if (void* address = reinterpret_cast<void*>(lib->resolve(entry))) return address;
            tried += "\n  " + place.toStdString() + ": no entry point " + entry;
        } else {
            tried += "\n  " + place.toStdString() + ": " + lib->errorString().toStdString();
        }
        delete lib;
    }
    return nullptr;
}

QStringList modulePlaces(const QString& name, const QString& built) {
    QStringList places;
    if (const auto views = settings::vtkViewsPath())
        places << QFileInfo(QString::fromStdString(*views)).absolutePath() + "/" + name;
    if (QCoreApplication::instance()) places << QCoreApplication::applicationDirPath() + "/" + name;
    if (!built.isEmpty()) places << built;
    return places;
}

const VtkViews& vtkViews() {
    static std::once_flag once;
    static const VtkViews* views = nullptr;
    static std::string error;
    std::call_once(once, [] { views = load(error); });
    STRATA_EXPECTS(views, Error, error);
    return *views;
}

} // namespace strata
