"""strata.show: the Strata window in this process, for xarray data or a bare array."""
import sys
import threading
import weakref

from . import _strata
from .convert import _strata_dataset, as_array

# The steps the window computes ahead of the one shown for Dask-backed data, whose every step is
# a computation on the cluster (none behind); other data get the window's own.
DASK_STEPS_AHEAD = 1

_hook_installed = False


def _ipython_hook(context):
    """IPython's input hook: Qt's events run until the prompt has input."""
    _strata._pump_until_readable(context.fileno())


def _keep_prompt_live():
    """Keeps the window live while the interpreter waits at its prompt: IPython's input hook
    (registered as gui "strata"), or Python's own PyOS_InputHook."""
    global _hook_installed
    if _hook_installed:
        return
    ipython = None
    if "IPython" in sys.modules:
        try:
            from IPython import get_ipython
            ipython = get_ipython()
        except Exception:  # an IPython too old or partly there: Python's own hook below
            ipython = None
    if ipython is not None and hasattr(ipython, "enable_gui"):
        try:
            from IPython.terminal.pt_inputhooks import register
            register("strata", _ipython_hook)
            ipython.enable_gui("strata")
            _hook_installed = True
            return
        except Exception:
            pass
    _hook_installed = bool(_strata._install_pyos_input_hook())


class _ClusterStatus:
    """What the Dask computations of a window's frames tell its status bar: "computing on Dask
    (2 workers): 3/13 tasks", their tasks summed while several run (a frame and the step
    prefetched after it), cleared when the last ends. Holds the window weakly (the window holds
    the data, whose fetches hold this). Made before the window: the window's first frame starts
    computing in its constructor, and told nothing when the fetches learnt of this after it;
    attach() gives it the window and tells what runs already."""

    def __init__(self, window=None):
        self._window = weakref.ref(window) if window is not None else lambda: None
        self._lock = threading.Lock()
        self._running = {}  # key -> (words, done, total)

    def attach(self, window):
        with self._lock:
            self._window = weakref.ref(window)
            if self._running:
                window.set_cluster_progress(*self._text())

    def __call__(self, key, words, done, total):
        with self._lock:
            if total is None:
                self._running.pop(key, None)
            else:
                self._running[key] = (words, done, total)
            text, fraction = self._text()
            window = self._window()
            if window is not None:  # under the lock: the status bar is told in order
                window.set_cluster_progress(text, fraction)

    def _text(self):
        if not self._running:
            return "", -1.0
        words = list(self._running.values())[-1][0]
        done = sum(d for _, d, _ in self._running.values())
        total = sum(t for _, _, t in self._running.values())
        if total <= 0:  # the graph's tasks not known: the words alone, with a busy stripe
            return words, -1.0
        return f"{words}: {done}/{total} tasks", done / total


def _report_to(window, dask, status=None):
    """Gives the fetches of `dask` the window's status (one per window: data shown after other
    data tell the same status bar; None: the window is not made yet). Returns it."""
    status = status or _ClusterStatus(window)
    for fetch in dask:
        fetch.on_progress = status
    return status


class View:
    """A Strata window showing Python's data. update(new) shows new data (the view kept when
    it fits); frame() is the frame on screen (CuPy or NumPy, by where it lives, no copy)."""

    def __init__(self, window, held, title, dask=(), compute_timeout=None, status=None):
        self._window = window
        self._status = status
        self._held = held
        self._title = title
        self._dask = list(dask)
        self._compute_timeout = compute_timeout

    def update(self, obj, dims=None, name=None, vmin=None, vmax=None):
        dask = []
        held, var, title = _strata_dataset(obj, dims, name, dask)
        _set_timeout(dask, self._compute_timeout)
        self._status = _report_to(self._window, dask, self._status)
        self.cancel()  # boxes of the data replaced are not wanted any more
        if bool(dask) != bool(self._dask):  # the steps ahead as show() sets them for such data
            ahead, behind = (DASK_STEPS_AHEAD, 0) if dask else (-1, -1)
            self._window.set_prefetch(ahead, behind)
        self._window.show(held, title, var or "", vmin, vmax)
        self._held = held
        self._dask = dask
        return self

    def cancel(self):
        """Cancels the Dask computations of the frames being computed (Dask-backed data): those
        frames fail with a message saying so; the next view asked for is computed again."""
        for fetch in self._dask:
            fetch.cancel()

    @property
    def cluster_progress(self):
        """What the status bar says of the Dask computation the frame waits on ("computing on Dask
        (2 workers): 3/13 tasks") and its bar's fill in percent (-1: not known), or ("", -1)
        when nothing computes."""
        return self._window.cluster_progress

    @property
    def dask_notes(self):
        """What went wrong on the Dask cluster and was recovered from (a worker lost), oldest first."""
        return [note for fetch in self._dask for note in fetch.notes]

    @property
    def contours(self):
        """The isolines' levels as the command line's --contours spells them ("auto", "12",
        "270,280,290", "5:0"), or None when none are drawn. Setting it draws them (labelled),
        computed where the frame is; None takes them away."""
        return self._window.contours

    @contours.setter
    def contours(self, levels):
        self._window.set_contours(None if levels is None else str(levels))

    def frame(self, timeout=60.0):
        """The frame on the screen once the view last asked for is drawn (pumping Qt's events
        until then): its values as computed by Strata (after isel and reductions), CuPy on the
        GPU, NumPy on the host, sharing Strata's memory."""
        return as_array(self._window.frame(timeout))

    @property
    def view(self):
        """The variable shown, its X and Y dims, and its colour range: ("fixed", vmin, vmax),
        or the mode alone ("frame": each frame's extremes)."""
        return self._window.view

    @property
    def is_open(self):
        return self._window.is_open

    def on_frame(self, callback):
        """Calls `callback()` after each frame reaches the screen (None: no more calls)."""
        self._window.set_on_frame(callback)

    def export_movie(self, path, dim=None, fps=10, frames=None, size=None):
        """Writes the view on the screen as a movie along `dim` (default: the active slider's),
        each frame as File > Export Animation... draws it (title with the step's value, colour
        bar, axes, coasts, contours): .mp4 (H.264), .webm (VP9) or .gif (one palette), by the
        name. `frames` is (start, stop[, step]), a range or a slice of the dim's steps (default all), `size` (width,
        height) in pixels (default the view's). The window shows the progress and answers
        meanwhile; its Cancel raises strata.CancelledError and leaves no file. Returns what was
        written: path, frames, size, encoder, encoder_note, bytes_from_device."""
        if isinstance(frames, (slice, range)):
            frames = (frames.start, frames.stop, frames.step)
        if frames is not None:
            start, stop, step = (tuple(frames) + (1,))[:3]  # (start, stop) steps by 1
            frames = (int(start or 0), -1 if stop is None else int(stop), int(step or 1))
        if size is not None:
            size = (int(size[0]), int(size[1]))
        return self._window.export_movie(str(path), dim or "", float(fps), frames, size)

    def close(self):
        """Closes the window; the data shown are released (their producers may be freed)."""
        self._window.close()
        self._held = None

    def wait_closed(self):
        """Runs the window until the user closes it."""
        self._window.wait_closed()

    def __repr__(self):
        state = "open" if self.is_open else "closed"
        return f"<strata.View {self._title!r} ({state})>"


def _set_timeout(dask, timeout):
    if timeout is not None:
        for fetch in dask:
            fetch.timeout = float(timeout)


def show(obj, dims=None, name=None, block=False, vmin=None, vmax=None, contours=None, compute_timeout=None):
    """Opens the Strata window on `obj` in this process.

    `obj` is an xarray DataArray or Dataset, or a bare array (NumPy, CuPy, anything with
    __dlpack__ or __cuda_array_interface__) with `dims` naming its dimensions. Its data are
    borrowed without a copy (device arrays stay on their device; big-endian NumPy arrays alone
    are converted to the machine's byte order, a copy) and kept alive while shown;
    coordinates and attributes come along. Returns a View. In IPython and Python's own prompt
    the window stays live while the prompt waits; block=True runs it until it is closed.
    `vmin` and `vmax` (both or neither) fix the colour range, kept by update() unless it gives
    its own: without them each frame's extremes are found on the device, and only those (two
    values a frame, once per array shown) come back to the host, for the colour bar's labels;
    with them nothing of the data leaves the device. `contours` draws isolines over the frame
    at levels spelled as the command line's --contours: "auto", a count, "v1,v2,..." or
    "step:base" (View.contours changes them).

    Data backed by Dask are not computed here: each frame is computed when it is shown (and the
    next step ahead), as one compute of the chunks it needs on the current Dask client (or the
    local scheduler), reductions over dims (and area-weighted means) as Dask reductions. While
    one runs longer than a moment, the status bar says where and how many of its tasks are done.
    `compute_timeout` (seconds, default dask_frames.TIMEOUT) bounds each; a frame that fails says
    which chunks and why."""
    dask = []
    held, var, title = _strata_dataset(obj, dims, name, dask)
    _set_timeout(dask, compute_timeout)
    status = _report_to(None, dask)  # before the window, whose constructor asks the first frame
    # Each step of Dask-backed data is a computation on the cluster: one step ahead, none behind.
    window = _strata._Window(held, title, var or "", vmin, vmax, steps_ahead=DASK_STEPS_AHEAD if dask else -1)
    status.attach(window)
    view = View(window, held, title, dask, compute_timeout, status)
    if contours is not None:
        try:
            view.contours = contours
        except Exception:
            view.close()
            raise
    if block:
        view.wait_closed()
    else:
        _keep_prompt_live()
    return view
