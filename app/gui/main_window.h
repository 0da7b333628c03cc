#pragma once
// The Strata window: composition and wiring. The state of what it looks at is a Workspace (the
// dataset, the variable, the view, the screen, Undo's history; app/workspace.h), changed in one
// place (applyView and its lighter kin all end in Workspace::apply, and present() tells the
// widgets); frames come from the FrameService off the GUI thread; files open through the
// DatasetOpener; what is kept between sessions goes through WindowSettings; the status bar's
// permanent part is a StatusPanel. Its files, by what they do: main_window.cpp (building and
// wiring), _open (opening, a variable's first view), _view (changes, frames), _colour, _grid,
// _history, _io (exports, saved views), _keys, _memory (data from Python), _probe (hover),
// _projection, _recent (each file's last view, recent files), _residency, _series (the Series
// dock's series, step marker and CSV), _state, _task, _units (display units).
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QSize>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>

#include "contour_dialog.h"
#include "dataset_opener.h"
#include "export_view.h"
#include "frame_service.h"
#include "frame_timing.h"
#include "pyramid_view.h"
#include "strata/core/derived.h"
#include "strata/render/image_view.h"
#include "strata/render/line_plot.h"
#include "view_roles.h"
#include "window_settings.h"
#include "workspace.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QStackedWidget;
class QTimer;

namespace strata::app {

class ColourPanel;
class DatasetPanel;
class DimensionBar;
class SeriesDock;
class SlicePanel;
class StatusPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens `path` off the GUI thread (returns at once). `initial`, when set, is the view to
    // show first (from the command line or a saved view), fitted to the file.
    void openFile(const QString& path, std::optional<ViewSpec> initial = std::nullopt);
    // Several files (or a glob, or a directory) as one dataset along their record dim; one
    // path opens as openFile does.
    void openFiles(const QStringList& paths, std::optional<ViewSpec> initial = std::nullopt);
    void cancelOpen();
    // A view for the next file opened, worked out from its dataset (the command line's
    // --var, --x, ... once the file is open); used once.
    void setInitialView(std::function<ViewSpec(const Dataset&)> resolve) {
        initialView_ = std::move(resolve);
    }
    // Derived variables (`NAME = EXPR`, the command line's --derive) added to the next file
    // opened, reading `others` by alias (--with); used once.
    void setInitialDerived(std::vector<std::string> statements, std::vector<DatasetAlias> others = {});
    // File ▸ Add Dataset…: opens `paths` (one file or a file set) beside the dataset, off the GUI
    // thread, as `alias` (default: the first free of b, c, …, z); derived variables read its
    // variables as alias.NAME. An alias open already is replaced, and the derived variables
    // that read it are made again. datasetAdded or openFailed tells the outcome.
    void addDatasets(const QStringList& paths, const QString& alias = {});
    const std::vector<DatasetAlias>& otherDatasets() const { return others_; }
    // Adds (or redefines) a derived variable of the open dataset and shows it: the view stays
    // when it is the one shown. False, with the message shown, when the statement is refused.
    // `dialogOnError` false: a refusal is said in the status bar (a slider being dragged).
    bool addDerived(const QString& statement, bool dialogOnError = true);
    bool opening() const { return opener_->opening(); }
    // Shows a Dataset held in memory (its path empty), titled `title`: `variable`, or the first
    // numeric one; a newer one of the same shape keeps the view (main_window_memory.cpp).
    // `range`: the colour range from here on (kept by later calls without one).
    void showDataset(std::shared_ptr<const Dataset> ds, const QString& title, const QString& variable = {},
                     std::optional<ColourRange> range = std::nullopt);

    // Shows `variablePath` of the open file with its default view (or its last one).
    void showVariable(const QString& variablePath);
    // Shows `spec` (a new view of the open file). `steppingDim`/`direction`: a step along a dim.
    void applyView(const ViewSpec& spec, const std::string& steppingDim = {}, int direction = 0);
    // The dimension bar's request: `dim` to `role`.
    void assignDim(const QString& dim, Role role, ReduceOp op = ReduceOp::Mean);
    // The series through the cell (row, column) of the frame shown, along `dim` (empty: the
    // series dim chosen in the dock, by default the first sliced dim).
    void plotSeriesAt(std::int64_t row, std::int64_t column, const QString& dim = {});

    // Edit ▸ Undo / Redo: the view before the last change of roles, reductions, colours, range
    // or zoom (main_window_history.cpp).
    void undo();
    void redo();
    // The window's keyboard shortcuts as (keys, what they do), read from its actions and
    // shortcuts; Help ▸ Keyboard Shortcuts shows them (main_window_keys.cpp).
    QList<QPair<QString, QString>> shortcutList() const;
    void showShortcuts();

    bool saveView(const QString& path);
    bool loadView(const QString& path);
    // Exports the view shown; ".png"/".csv" is added to a `path` without it.
    bool exportPng(const QString& path, QSize pixels);
    bool exportCsv(const QString& path);
    // File ▸ Export Animation… (_movie): the view as a movie along one of its sliced dims, each
    // frame as Export PNG draws it. The status bar shows "frame 120 / 365" with a bar and a
    // Cancel button (Esc too), and the window answers meanwhile. False (and said) when it
    // failed or was cancelled: no file is left then.
    struct MovieChoice {
        QString dim;                 // a sliced dim of the view
        qint64 start = 0, stop = -1; // its steps start, start + step, ... below stop (-1: its end)
        qint64 step = 1;
        double fps = 10;
        QSize size; // the movie's pixels (empty: the image view's)
    };
    bool exportMovie(const QString& path, const MovieChoice& choice);
    // The same without the messages: what was written, or thrown (CancelledError when
    // cancelled, ValueError while another movie is written).
    MovieResult writeMovie(const QString& path, const MovieChoice& choice);
    // What the dialog offers first: the active slider's dim (else the first sliced one), all its
    // steps, 10 frames/s, the image view's size. An empty dim when the view has none to animate.
    MovieChoice defaultMovieChoice() const;
    bool exportingMovie() const { return movieCancel_ != nullptr; }
    void cancelMovie();
    // The name the export dialogs offer: "tas_2005-01-16.png" in the last export folder.
    QString suggestedExportPath(const QString& extension) const;
    // The series plotted in the Series dock as CSV (_series): its coordinate and values with
    // units in the header, the cell's coordinates in every row; ".csv" added as exportCsv does.
    bool exportSeriesCsv(const QString& path);
    // The name the dock's Export CSV… offers: "tas_0.93N_1.88E_along-time.csv" in the last
    // export folder.
    QString suggestedSeriesExportPath() const;
    // -v: the status bar's messages carry their details (bytes copied off the device).
    void setVerbose(bool verbose) { verbose_ = verbose; }
    // Coastlines over longitude/latitude frames (View ▸ Coastlines; --coastlines).
    // The View ▸ Coastlines action's tip: the level the image view drew and where it is from.
    void noteCoastlines(QAction* action);
    void setCoastlines(bool on);
    // Isolines of the frame (View ▸ Contours) at the levels, labels and dashes View ▸ Contour
    // Levels… chose (automatic levels in the colour range, labelled, until then).
    void setContours(bool on);
    // View ▸ Contour Levels…: a dialog whose every valid change applies at once (and turns the
    // contours on); a spelling that cannot be read is said at its field.
    void contourLevelsDialog();
    // View ▸ Contour Variable: the isolines of `name` (a variable on the frame's grid; the shown
    // variable's own name: its own) over the frame, and the contours on.
    void setContourVariable(const QString& name);
    // View ▸ Filled Contours: the colours banded at the levels View ▸ Contour Levels… chose.
    void setFilledContours(bool on);
    // View ▸ Vectors: the dataset's vector pair over the frame, drawn as `style` (None: not).
    void setVectors(VectorStyle style);
    // Particles' controls (View ▸ Vectors): how many there are and how fast they move, each a
    // factor of the view's own (1); they pause with pauseParticlesAction (Ctrl+Shift+P).
    void setParticleDensity(double factor);
    void setParticleSpeed(double factor);
    void setContourChoice(const ContourChoice& choice);
    const ContourChoice& contourChoice() const { return contourChoice_; }
    // A curvilinear frame's cells in longitude/latitude or index space (View ▸ Grid; --grid).
    void setGridSpace(GridSpace space);
    GridSpace gridSpace() const;
    // Longitude/latitude frames on a map in projection `name` (View ▸ Projection; --projection),
    // empty for none; main_window_projection.cpp. An unknown name shows why in the status bar.
    // Part of the view (saved with it, undone with Edit ▸ Undo); a file's remembered last view
    // and a new variable's first view keep the projection the window shows.
    void setProjection(const QString& name);
    // The variable shown in `units` (the Colour panel's Units button; --units), converted on
    // the device; empty: as stored. Units it cannot be converted to are refused with a dialog
    // that says why. The colour range is kept per units: back in units used before, the range
    // set there returns; a fixed range new to the units is converted (main_window_units.cpp).
    void setDisplayUnits(const QString& units);
    // Whether `frame` can go on a projection: longitude/latitude axes, a grid mapping's x/y, or
    // a curvilinear grid shown as its cells.
    bool projectable(const DataArray& frame);
    // Whether the view's variable lies on cells of the sphere an area mean weighs by.
    bool onCells(const ViewSpec& v) const;
    // A file holding the mesh the data's own file lacks (--grid-file, File ▸ Open Grid File…):
    // its geometry is read there. Null: none.
    void setGridFile(std::shared_ptr<const Dataset> grid);
    const std::shared_ptr<const Dataset>& gridFile() const { return gridFile_; }
    // `frame`'s cells when it is the whole of a frame along the cells of the last frame shown
    // (a map of them is shown: HEALPix, a mesh's faces); null otherwise.
    std::shared_ptr<const SphereCells> cellsOf(const DataArray& frame) const;
    // A HEALPix pyramid's variable (healpix_pyramid.h) is computed at the zoom whose cells fit
    // the image view's pixels, chosen again as the view is zoomed, panned or resized; only that
    // zoom is loaded onto the device. The zoom asked for last and the one on the screen, -1 when
    // the variable shown is no pyramid's.
    int askedZoom() const { return askedZoom_; }
    int shownZoom() const { return shownZoom_; }

    // For tests and the benchmark.
    const Workspace& workspace() const { return ws_; }
    const ViewSpec& view() const { return ws_.view(); }
    std::shared_ptr<const Dataset> dataset() const { return ws_.dataset(); }
    const DataArray& shownFrame() const { return ws_.screen().frame; }
    const DataArray& shownSeries() const;
    QString lastError() const { return lastError_; }
    // "lat = 0.93°N, lon = 1.88°E, time = 2005-01-16: tas = 271.3 K" for the cell last hovered.
    QString probeText() const { return probeText_; }
    double lastFrameMs() const { return timing_.lastMs(); }
    DimensionBar* dimensionBar() const { return dimBar_; }
    SlicePanel* slicePanel() const { return slices_; }
    ColourPanel* colourPanel() const { return colour_; }
    DatasetPanel* datasetPanel() const { return datasetPanel_; }
    ImageView* imageView() const { return image_; }
    LinePlotView* lineView() const { return line_; }
    LinePlotView* seriesView() const;
    QDockWidget* seriesDock() const;
    QComboBox* seriesDimBox() const;
    FrameService* frameService() const { return service_; }
    QMessageBox* errorBox() const { return errorBox_; }
    QLabel* deviceLabel() const;
    QLabel* renderLabel() const;
    QLabel* frameTimeLabel() const;

signals:
    void datasetOpened(const QString& path);
    void movieFrameWritten(int done, int total); // while exportMovie writes
    void openFailed(const QString& message);
    void datasetAdded(const QString& alias);
    void frameShown(); // a frame (or line) of the current view is on screen
    void seriesShown();
    void viewChanged();

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    // Building (main_window.cpp and the files named).
    void buildDocks();
    void buildMenus();
    void buildParticleMenu(QMenu* vectors);
    void buildEditMenu(QMenu* edit);     // _history
    void buildGridMenu(QMenu* view);     // _grid
    void addProjectionMenu(QMenu* view); // _projection
    void buildShortcuts();               // _keys: the view's keys wherever the focus is but in a text field
    void buildResidency();               // _residency
    void connectParts();
    void focusView();

    // The one place a view changes: Workspace::apply, then present() shows what changed.
    // `record`: kept for Undo (false for an undone or redone view). Returns false (and says why)
    // when the view does not fit the dataset.
    bool change(const ViewSpec& next, bool record = true);
    // change's first half: the view made, what changed returned, nothing shown yet.
    std::optional<ViewChange> applied(const ViewSpec& next, bool record);
    // applyView's body: `spec` made the view (kept for Undo when `record`), its frame asked for,
    // then the widgets told (the frame comes through the event loop: it is read while they are).
    void showView(const ViewSpec& spec, bool record, const std::string& steppingDim = {}, int direction = 0);
    void present(const ViewChange& c);
    void requestFrame(const ViewSpec& before, const std::string& steppingDim, int direction);
    void prepareGlAhead();             // the image view's GL surface made on the next turn of the loop, once
    void replay(const ViewSpec& spec); // an undone or redone view
    void updateUndoActions();
    void onOpened(const QStringList& paths, const std::optional<ViewSpec>& initial,
                  const OpenOutcome& outcome);
    // The last of an open, left until its first frame is on the screen (or has failed, or no
    // frame was asked for): the window's title, the recent files and the last folder. Setting
    // the title waits on the X server's paint of the window (1-7 ms), the settings are synced
    // to disk (2-3 ms): the first frame need not wait for either.
    void finishOpen();
    void onFrameReady(const std::shared_ptr<const FrameResult>& r);
    void onSeriesReady(const std::shared_ptr<const SeriesResult>& r);
    void onHover(const Pick& pick);
    void onPresented();
    void onColourChanged();
    void onResidencyChanged(const QString& variable);
    void chooseResidentBudget();
    void derivedDialog(const QString& statement = {}); // _derived: File ▸ New Derived Variable…
    // _datasets: File ▸ Add Dataset… and the others a loaded view reads.
    void addDatasetDialog();
    void openGridFileDialog(); // File ▸ Open Grid File…: a mesh's geometry from another file
    void addNextDataset();
    void onDatasetAdded(const QStringList& paths, const OpenOutcome& outcome);
    // The view's `with` entries not open as it says (alias and paths): empty when all are.
    std::vector<ViewSpec::Other> missingOthers(const ViewSpec& v) const;
    std::vector<ViewSpec::Other> othersOfView() const; // what a saved view records of others_
    // The same files in the same order (paths compared as files: relative or absolute alike).
    static bool samePaths(const std::vector<std::string>& a, const std::vector<std::string>& b);
    // A loaded view (paths resolved): its other datasets opened first, then shown.
    bool showLoadedView(const ViewSpec& v);
    // A saved view's derived variables added to the open dataset (those it has as written are
    // left); throws Error when one is refused.
    void addDerivedQuietly(const std::vector<std::string>& statements);
    void anomalyDialog(const QString& timeDim); // _derived: Anomaly… on a time dim's chip
    void showScalar(const QString& variablePath, const DataArray& var);
    void showNothing(const QString& message); // a dataset without a numeric variable
    // Files opened as one dataset that do not form one: their conflicts, and a group to open.
    void offerGroups(const QString& name, const OpenOutcome& outcome);
    void clearSeries(); // another file or variable: the dock forgets its series
    void showError(const QString& title, const QString& message, bool dialog);
    void updateDeviceLabel(const FallbackNote* note = nullptr);
    void showSaved(const QString& message, const QString& path, std::uint64_t bytesFromDevice);

    // The long computation the wanted frame waits on, in the status bar (_task).
    void noteTask(const ViewSpec& before);
    void showTask();
    void endTask();
    void cancelTask();

    // What the settings keep: the last view of the file, each variable's colours, recent files.
    // A variable's own remembered colours; else, for a variable named as the one shown before
    // another file opened, the colour map chosen there (and its fixed range where the units
    // are the same); else the defaults.
    Colouring colouringFor(const std::string& variable) const;
    void rememberView();
    void rememberViewSoon();
    void rebuildRecentMenu();
    void restoreLayout();
    void saveLayout() const;
    MinMax shownColourRange() const;
    ImageViewSettings imageSettings() const;
    void showProjection(); // the image and the menu follow the view's projection
    void showUnits();      // the Units button follows the view's units
    // The units the view's values are in: its display units, else the variable's (empty: none).
    std::string shownUnits() const;
    // `spec`'s projection in the projection's own spelling; a name this build does not know is
    // dropped, and the status bar says so.
    void canonicaliseProjection(ViewSpec& spec);
    // A view the window makes for itself (a file's remembered last view, a variable's first
    // view) is shown in the window's projection; a zoom made in another one goes.
    void keepProjection(ViewSpec& spec) const;
    // The frame on the screen when it is the view's frame (else none: an export computes it).
    DataArray frameOnScreen() const;
    void exportPngDialog();
    void exportCsvDialog();
    void exportMovieDialog();
    // exportView's options for the view shown at `pixels`: the View menu's coastlines, grid,
    // contours and vectors (main_window_io.cpp).
    ExportOptions viewExportOptions(QSize pixels) const;
    void exportSeriesCsvDialog();                      // _series: the dock's Export CSV…
    QString inExportFolder(const QString& name) const; // `name` in the last export folder
    void saveViewDialog();
    void loadViewDialog();
    void openDialog();

    Workspace ws_;
    WindowSettings settings_;
    FrameTiming timing_;
    FrameService* service_;
    DatasetOpener* opener_;
    StatusPanel* status_ = nullptr;
    QStackedWidget* stack_;
    ImageView* image_;
    LinePlotView* line_;
    QLabel* message_;
    DimensionBar* dimBar_;
    SlicePanel* slices_;
    ColourPanel* colour_;
    DatasetPanel* datasetPanel_;
    SeriesDock* series_;
    QMenu* recentMenu_ = nullptr;
    QAction *undoAction_ = nullptr, *redoAction_ = nullptr;
    QPointer<QMessageBox> errorBox_;
    QTimer* rememberTimer_ = nullptr;
    QString lastError_, probeText_;
    // The pyramid of the dataset shown (computed once a dataset: pyramidFor_), the zoom last
    // asked for (its variable's path, released from the device when another is asked) and the
    // one on the screen, which exports and series follow.
    const healpix::Pyramid* pyramid() const;
    ZoomedView atZoom(const ViewSpec& spec);
    ViewSpec atShownZoom(const ViewSpec& spec) const;
    void followZoom();
    mutable std::optional<healpix::Pyramid> pyramid_;
    mutable std::weak_ptr<const Dataset> pyramidFor_;
    int askedZoom_ = -1, shownZoom_ = -1;
    std::string askedLevel_;
    std::shared_ptr<const SphereCells> cells_; // the last frame's (FrameResult::cells)
    QString cellsError_;                       // the last told (FrameResult::cellsError)
    std::shared_ptr<const Dataset> gridFile_;
    struct Task {
        QString what;     // what the wanted frame waits on ("mean over time"); empty: nothing long
        double done = -1; // the fraction of its streamed pass done; < 0: none told
    } task_;
    std::function<ViewSpec(const Dataset&)> initialView_;
    std::vector<std::string> initialDerived_;
    // The colours of the variable shown when another file opened (with its units), offered to
    // a variable of the same name in the new file that has none of its own; until it is shown.
    struct Carried {
        std::string variable, units;
        Colouring colouring;
    };
    std::optional<Carried> carried_;
    // The colour range last used for (file, variable, units): what returns with those units.
    std::map<std::tuple<std::string, std::string, std::string>, ColourRange> rangesByUnits_;
    std::vector<DatasetAlias> others_; // the datasets derived variables read by alias
    DatasetOpener* adder_ = nullptr;   // opens them, one at a time
    struct Adding {
        QString alias;
        QStringList paths;
    };
    std::vector<Adding> adding_;          // the first is being opened
    std::optional<ViewSpec> pendingView_; // a loaded view waiting for its other datasets
    QPointer<QDialog> anomaly_;           // the Anomaly… dialog while it is open
    QPointer<QDialog> contourDialog_;     // the Contour Levels… dialog while it is open
    ContourChoice contourChoice_;
    bool verbose_ = false;
    bool* movieCancel_ = nullptr; // while a movie is written: set to stop it
    struct OpenEnd {
        QString title;
        QStringList paths;
        QString folder;
    };
    std::optional<OpenEnd> openEnd_; // finishOpen's work, until it is done
    bool frameAsked_ = false;        // a frame was asked for since the open was delivered
    std::jthread deviceFinder_;      // finds the compute device for the label (updateDeviceLabel)
    bool glPrepared_ = false;        // the image view's GL surface was asked for ahead (prepareGlAhead)
};

} // namespace strata::app
