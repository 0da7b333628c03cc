#pragma once
// The Strata window: File ▸ Open (dialog, drop, command line, recent files; opened off the GUI
// thread with a progress bar and Cancel), the dataset panel, the dimension bar and sliders,
// the frame (an image, or a line for one X and no Y), colour controls, the hover probe and the
// line-plot dock, File ▸ Export PNG/CSV, Edit ▸ Undo/Redo of view changes, View ▸ Save/Load
// view, the view's keys wherever the focus is but in a text field, and the status bar (compute
// device, render path, last frame time). Everything shown follows from one ViewSpec.
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QSize>
#include <QTimer>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "frame_service.h"
#include "strata/core/cancel.h"
#include "strata/io/netcdf.h"
#include "strata/render/image_view.h"
#include "strata/render/line_plot.h"
#include "view_history.h"
#include "view_roles.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QProgressBar;
class QPushButton;
class QStackedWidget;

namespace strata::io {
class LatLonLocator;
}

namespace strata::app {

class ColourPanel;
class DatasetPanel;
class DimensionBar;
class SlicePanel;

struct OpenOutcome {
    std::shared_ptr<const Dataset> dataset;
    OpenNotes notes;
    QString error; // non-empty: the file could not be opened, and why
};

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
    bool opening() const;
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
    // The name the export dialogs offer: "tas_2005-01-16.png" in the last export folder.
    QString suggestedExportPath(const QString& extension) const;
    // -v: the status bar's messages carry their details (bytes copied off the device).
    void setVerbose(bool verbose) { verbose_ = verbose; }
    // Coastlines over longitude/latitude frames (View ▸ Coastlines; --coastlines).
    void setCoastlines(bool on);
    // A curvilinear frame's cells in longitude/latitude or index space (View ▸ Grid; --grid).
    void setGridSpace(GridSpace space);
    GridSpace gridSpace() const;
    // Longitude/latitude frames on a map in projection `name` (View ▸ Projection; --projection),
    // empty for none; main_window_projection.cpp. An unknown name shows why in the status bar.
    // Part of the view (saved with it, undone with Edit ▸ Undo); a file's remembered last view
    // and a new variable's first view keep the projection the window shows.
    void setProjection(const QString& name);

    // For tests and the benchmark.
    const ViewSpec& view() const { return spec_; }
    std::shared_ptr<const Dataset> dataset() const { return ds_; }
    const DataArray& shownFrame() const { return shown_; }
    const DataArray& shownSeries() const { return series_; }
    QString lastError() const { return lastError_; }
    // "lat = 0.93°N, lon = 1.88°E, time = 2005-01-16: tas = 271.3 K" for the cell last hovered.
    QString probeText() const { return probeText_; }
    double lastFrameMs() const { return lastFrameMs_; }
    DimensionBar* dimensionBar() const { return dimBar_; }
    SlicePanel* slicePanel() const { return slices_; }
    ColourPanel* colourPanel() const { return colour_; }
    DatasetPanel* datasetPanel() const { return datasetPanel_; }
    ImageView* imageView() const { return image_; }
    LinePlotView* lineView() const { return line_; }
    LinePlotView* seriesView() const { return seriesPlot_; }
    QDockWidget* seriesDock() const { return seriesDock_; }
    QComboBox* seriesDimBox() const { return seriesDim_; }
    FrameService* frameService() const { return service_; }
    QMessageBox* errorBox() const { return errorBox_; }
    QLabel* deviceLabel() const { return deviceLabel_; }
    QLabel* renderLabel() const { return renderLabel_; }
    QLabel* frameTimeLabel() const { return frameTimeLabel_; }

signals:
    void datasetOpened(const QString& path);
    void openFailed(const QString& message);
    void frameShown(); // a frame (or line) of the current view is on screen
    void seriesShown();
    void viewChanged();

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void addProjectionMenu(QMenu* view); // View ▸ Projection
    void buildMenus();
    void buildGridMenu(QMenu* view); // main_window_grid.cpp
    void buildDocks();
    void buildStatusBar();
    void buildShortcuts(); // the view's keys, wherever the focus is but in a text field
    void focusView();
    void buildEditMenu(QMenu* edit);
    void recordView(const ViewSpec& before); // spec_ changed from `before`: kept for Undo
    void updateUndoActions();
    void replay(const ViewSpec& spec); // an undone or redone view, not recorded again
    void restoreLayout();
    void saveLayout() const;
    void clearSeries(); // the series dock forgets its series (another file or variable)
    void showScalar(const QString& variablePath, const DataArray& var);
    // The long computation the wanted frame waits on, named in the status bar with Cancel
    // (main_window_task.cpp).
    void buildTask();
    void noteTask(const ViewSpec& before); // a frame of spec_ (changed from `before`) asked for
    void showTask();
    void endTask();
    void cancelTask();
    void onOpened(const QStringList& paths, std::optional<ViewSpec> initial, const OpenOutcome& outcome);
    void onFrameReady(const std::shared_ptr<const FrameResult>& r);
    void onSeriesReady(const std::shared_ptr<const SeriesResult>& r);
    void onHover(const Pick& pick);
    void onPresented();
    void onColourChanged();
    void showError(const QString& title, const QString& message, bool dialog);
    void updateDeviceLabel(const FallbackNote* note = nullptr);
    // Residency (main_window_residency.cpp): the status bar's "Data:" label and its Cancel, the
    // dataset panel's Where column, and the budget from the settings.
    void buildResidency();
    void onResidencyChanged(const QString& variable);
    void chooseResidentBudget();
    void rememberView();
    void rememberViewSoon();
    // Colour (main_window_colour.cpp): each variable's colouring, remembered by file and
    // variable, and the range the frame is drawn with now.
    Colouring colouringFor(const std::string& variable) const;
    void rememberColouring();
    MinMax shownColourRange() const;
    void addRecent(const QStringList& paths);
    void rebuildRecentMenu();
    void refreshSeriesDims();
    ImageViewSettings imageSettings() const;
    void showProjection(); // the image and the menu follow spec_.projection
    // A view the window makes for itself (a file's remembered last view, a variable's first
    // view) is shown in the window's projection; a zoom made in another one goes.
    void keepProjection(ViewSpec& spec) const;
    void showSaved(const QString& message, const QString& path, std::uint64_t bytesFromDevice);
    void exportPngDialog();
    void exportCsvDialog();
    void saveViewDialog();
    void loadViewDialog();
    void openDialog();

    FrameService* service_;
    std::shared_ptr<const Dataset> ds_;
    std::optional<ColourRange> memoryRange_; // showDataset's colour range for data in memory
    DataArray var_;
    ViewSpec spec_;
    DataArray shown_, series_;
    std::optional<MinMax> variableRange_; // the shown frame's variable's extremes, when computed
    std::optional<MinMax> frameRange_;    // the shown frame's own extremes, when known on the host
    std::uint64_t wantedFrame_ = 0, wantedSeries_ = 0;
    std::map<std::uint64_t, qint64> requestedAt_; // frame id → request time (ns)
    std::optional<qint64> presentPendingSince_;
    double lastFrameMs_ = 0;
    qint64 readyAt_ = 0, shownAt_ = 0; // monotonic ns: the wanted frame's arrival, then setFrame's end
    QElapsedTimer clock_;
    QString lastError_, probeText_;
    std::int64_t seriesRow_ = -1, seriesColumn_ = -1;
    std::shared_ptr<const io::LatLonLocator> geo_; // the probe's lat/lon for the variable shown
    QSize exportSize_{1200, 800};
    QString preferredSeriesDim_; // chosen in the series dock

    QFutureWatcher<OpenOutcome>* openWatcher_ = nullptr;
    std::uint64_t openGeneration_ = 0;
    // The open in progress's Cancel: its reads (a Zarr store's metadata over HTTP) stop.
    CancelToken openCancel_;

    QStackedWidget* stack_;
    ImageView* image_;
    LinePlotView* line_;
    QLabel* message_;
    DimensionBar* dimBar_;
    SlicePanel* slices_;
    ColourPanel* colour_;
    DatasetPanel* datasetPanel_;
    QDockWidget* seriesDock_;
    LinePlotView* seriesPlot_;
    QComboBox* seriesDim_;
    QMenu* recentMenu_ = nullptr;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QLabel *deviceLabel_, *renderLabel_, *frameTimeLabel_;
    QLabel* residencyLabel_ = nullptr;
    QPushButton* cancelLoad_ = nullptr;
    QPointer<QMessageBox> errorBox_;
    bool traceFrames_ = false;
    bool verbose_ = false;
    QTimer* rememberTimer_ = nullptr;
    QTimer* labelTimer_ = nullptr;
    std::function<ViewSpec(const Dataset&)> initialView_;
    ViewHistory history_;
    bool replaying_ = false;
    QAction *undoAction_ = nullptr, *redoAction_ = nullptr;
    std::optional<ViewSpec> shownSpec_; // the view whose frame is on the screen
    QString taskText_;
    double taskDone_ = -1; // the fraction of the wanted frame's streamed pass done; < 0: none told
    QLabel* taskLabel_ = nullptr;
    QPushButton* cancelTask_ = nullptr;
};

} // namespace strata::app
