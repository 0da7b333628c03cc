"""strata.show in a window of this process (under Xvfb, on the CPU path): the frame on the
screen against the data shown, update, dates and calendars in the sliders, the producer kept
alive while shown, and the input hook that keeps the window live at Python's prompt."""
import gc
import os
import queue
import subprocess
import sys
import tempfile
import threading
import unittest
import weakref

import numpy as np
import xarray as xr

# The window's settings (docks, last views) go to a folder of the test's own.
os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="strata-show-"))
import strata  # noqa: E402


def field(nt=3, ny=20, nx=30, seed=1):
    rng = np.random.default_rng(seed)
    data = rng.standard_normal((nt, ny, nx)).astype(np.float32)
    return xr.DataArray(
        data, dims=("time", "lat", "lon"), name="tas",
        coords={"time": np.array(["2005-01-16T12:00", "2005-02-15T00:00", "2005-03-16T12:00"],
                                 dtype="datetime64[ns]")[:nt],
                "lat": np.linspace(-60, 60, ny), "lon": np.linspace(0, 348, nx)},
        attrs={"units": "K", "long_name": "near-surface air temperature"})


class Show(unittest.TestCase):
    def tearDown(self):
        gc.collect()

    def test_frame_is_the_data_shown(self):
        da = field()
        view = strata.show(da)
        try:
            frame = view.frame()
            self.assertIsInstance(frame, np.ndarray)
            self.assertEqual(view.view["x"], "lon")
            self.assertEqual(view.view["y"], "lat")
            np.testing.assert_array_equal(frame, da.isel(time=0).transpose("lat", "lon").values)
            self.assertIn("tas", view._window.title)
        finally:
            view.close()

    def test_a_derived_variable_is_shown(self):
        # strata.derive's result (a DataArray computed by Strata where the inputs are) shown as
        # any DataArray is: the frame on the screen is hypot(u, v)'s first step.
        u, v = field(seed=1), field(seed=2)
        ds = xr.Dataset({"u": u, "v": v})
        speed = strata.derive(ds, "speed = hypot(u, v)")
        view = strata.show(speed)
        try:
            frame = view.frame()
            self.assertEqual((view.view["y"], view.view["x"]), ("lat", "lon"))
            np.testing.assert_allclose(frame, np.hypot(u.values[0], v.values[0]), rtol=1e-6)
            self.assertIn("speed", view._window.title)
        finally:
            view.close()

    def test_healpix_and_mesh_variables_are_maps(self):
        """A HEALPix variable (easygems' crs, as a coordinate or a variable) opens as a map of
        its cells: the cell dim alone on x, where without the grid tas(time, cell) would be an
        image of time against cell. An MPAS mesh read by xarray is one too."""
        rng = np.random.default_rng(3)
        tas = xr.DataArray(rng.standard_normal((2, 48)).astype(np.float32), dims=("time", "cell"),
                           name="tas", attrs={"grid_mapping": "crs"})
        crs = xr.DataArray(np.int32(0), attrs={"healpix_nside": 2, "healpix_order": "nest"})
        for ds in (xr.Dataset({"tas": tas}, coords={"crs": crs}), xr.Dataset({"tas": tas, "crs": crs})):
            view = strata.show(ds)
            try:
                np.testing.assert_array_equal(view.frame(), tas.isel(time=0).values)
                self.assertEqual((view.view["variable"], view.view["x"], view.view["y"]), ("tas", "cell", ""))
            finally:
                view.close()
        plain = strata.show(xr.Dataset({"tas": (tas.dims, tas.values)}))
        try:
            self.assertEqual((plain.view["x"], plain.view["y"]), ("cell", "time"))
        finally:
            plain.close()
        mpas = xr.open_dataset(os.path.join(os.environ["STRATA_TEST_DATA"], "mesh", "mpas_QU1920km.nc"))
        mesh = ["latCell", "lonCell", "latVertex", "lonVertex", "verticesOnCell", "nEdgesOnCell"]
        view = strata.show(mpas[["areaCell"] + mesh].set_coords(mesh))
        try:
            self.assertEqual((view.view["variable"], view.view["x"], view.view["y"]), ("areaCell", "nCells", ""))
            np.testing.assert_array_equal(view.frame(), mpas["areaCell"].values)
        finally:
            view.close()

    def test_update_shows_new_data_and_keeps_the_view(self):
        da = field()
        view = strata.show(da)
        try:
            first = np.array(view.frame())
            view.update(da * 2 + 1)
            second = view.frame()
            np.testing.assert_array_equal(second, first * 2 + 1)
            self.assertEqual((view.view["y"], view.view["x"]), ("lat", "lon"))
            view.update(field(seed=7))
            np.testing.assert_array_equal(view.frame(), field(seed=7).isel(time=0).values)
        finally:
            view.close()

    def test_bare_array_with_dims(self):
        a = np.arange(12 * 16, dtype=np.int16).reshape(12, 16)
        view = strata.show(a, dims=("y", "x"), name="counts")
        try:
            np.testing.assert_array_equal(view.frame(), a)
            self.assertEqual(view.view["variable"], "counts")
        finally:
            view.close()
        with self.assertRaises(strata.ValueError):
            strata.show(a)  # no dims

    def test_strided_input(self):
        base = np.arange(4 * 40 * 50, dtype=np.float64).reshape(4, 40, 50)
        v = base[1:, ::2, 5::3]  # non-contiguous
        view = strata.show(v, dims=("t", "y", "x"))
        try:
            np.testing.assert_array_equal(view.frame(), v[0])
        finally:
            view.close()

    def test_dataset_shows_its_first_variable(self):
        ds = xr.Dataset({"a": field(seed=3), "b": field(seed=4)})
        view = strata.show(ds)
        try:
            np.testing.assert_array_equal(view.frame(), ds.a.isel(time=0).values)
        finally:
            view.close()

    def test_dates_and_calendars_reach_the_sliders(self):
        view = strata.show(field())
        try:
            view.frame()
            self.assertEqual(view._window.slice_label("time"), "2005-01-16")
        finally:
            view.close()
        import cftime
        times = [cftime.datetime(2000, 2, 30, calendar="360_day"), cftime.datetime(2000, 3, 1, calendar="360_day")]
        da = xr.DataArray(np.zeros((2, 3, 4), np.float32), dims=("time", "y", "x"), coords={"time": times})
        view = strata.show(da)
        try:
            view.frame()
            self.assertEqual(view._window.slice_label("time"), "2000-02-30")  # a date of that calendar only
        finally:
            view.close()

    def test_a_missing_date_is_named(self):
        # NaT in the time coordinate: shown, with the Dataset's summary naming the missing
        # date (as for a file's). Before, the coordinate was dropped without a word.
        da = field()
        da = da.assign_coords(time=np.array(["2005-01-16", "NaT", "2005-03-16"], dtype="datetime64[ns]"))
        view = strata.show(da)
        try:
            np.testing.assert_array_equal(view.frame(), da.isel(time=0).values)
            self.assertIn("coordinate 'time': a time value is missing (NaT)", view._held.summary)
        finally:
            view.close()

    def test_producer_freed_only_after_the_window_closes(self):
        a = np.arange(30 * 40, dtype=np.float32).reshape(30, 40)
        gone = weakref.ref(a)
        view = strata.show(a, dims=("y", "x"))
        view.frame()
        del a
        gc.collect()
        self.assertIsNotNone(gone(), "freed while the window shows it")
        np.testing.assert_array_equal(view.frame(), np.arange(1200, dtype=np.float32).reshape(30, 40))
        view.close()
        gc.collect()
        self.assertIsNone(gone(), "still held after the window closed")

    def test_wait_closed_returns_when_the_window_closes(self):
        # block=True is wait_closed(): it runs the window until it closes (here, from Qt's
        # event loop after the first frame, as a user's close would come).
        view = strata.show(np.ones((6, 6), np.float32), dims=("y", "x"))
        view.on_frame(lambda: view._window.close_later())
        self.assertTrue(view.is_open)
        view.wait_closed()
        self.assertFalse(view.is_open)
        self.assertEqual(view._window.frames_shown, 1)

    def test_vmin_vmax_fix_the_colour_range(self):
        da = field()
        view = strata.show(da)
        try:
            view.frame()
            self.assertEqual(view.view["range"], ("frame",))  # each frame's extremes by default
        finally:
            view.close()
        view = strata.show(da, vmin=-1.5, vmax=2)
        try:
            np.testing.assert_array_equal(view.frame(), da.isel(time=0).values)
            self.assertEqual(view.view["range"], ("fixed", -1.5, 2.0))
            view.update(da * 2)  # kept
            view.frame()
            self.assertEqual(view.view["range"], ("fixed", -1.5, 2.0))
            view.update(da * 3, vmin=0, vmax=5)
            np.testing.assert_array_equal(view.frame(), (da * 3).isel(time=0).values)
            self.assertEqual(view.view["range"], ("fixed", 0.0, 5.0))
            with self.assertRaises(strata.ValueError) as cm:
                view.update(da, vmin=1)
            self.assertIn("vmin and vmax go together", str(cm.exception))
        finally:
            view.close()
        with self.assertRaises(strata.ValueError) as cm:
            strata.show(da, vmin=3, vmax=3)
        self.assertIn("must be finite and below vmax", str(cm.exception))

    def test_contours_are_drawn_and_refused_as_the_command_line_says(self):
        da = field()
        view = strata.show(da, contours="0.5:0")
        try:
            np.testing.assert_array_equal(view.frame(), da.isel(time=0).values)
            self.assertEqual(view.contours, "0.5:0")
            view.contours = 8
            self.assertEqual(view.contours, "8")
            with self.assertRaises(strata.ValueError) as cm:
                view.contours = "3,1"
            self.assertIn("3,1 are not increasing", str(cm.exception))
            self.assertEqual(view.contours, "8")  # the levels drawn stay
            view.contours = None
            self.assertIsNone(view.contours)
        finally:
            view.close()
        with self.assertRaises(strata.ValueError):
            strata.show(da, contours="0")

    def test_big_endian_data_are_shown_converted(self):
        # Big-endian NumPy arrays are converted to the machine's order (a copy): the frame has
        # their values. Before, a bare one was refused and a Dataset's was dropped unsaid.
        a = np.arange(12 * 16, dtype=">f8").reshape(12, 16)
        view = strata.show(a, dims=("y", "x"))
        try:
            np.testing.assert_array_equal(view.frame(), a)
            self.assertEqual(view.frame().dtype, np.float64)
        finally:
            view.close()
        view = strata.show(xr.Dataset({"be": (("y", "x"), a.astype(">i4"))}))
        try:
            np.testing.assert_array_equal(view.frame(), a.astype(np.int32))
        finally:
            view.close()

    def test_unsupported_dtype_is_refused(self):
        with self.assertRaises(strata.ValueError) as cm:
            strata.show(np.zeros((4, 4), np.float16), dims=("y", "x"))
        self.assertIn("dtype float16 is not supported", str(cm.exception))

    def test_export_movie_writes_the_view_along_a_dim(self):
        # View.export_movie: the view on the screen along its slider's dim, through the window's
        # own export (File > Export Animation...); errors as strata's, and no file left by one.
        view = strata.show(field(nt=3))
        folder = tempfile.mkdtemp(prefix="strata-movie-")
        try:
            view.frame()
            gif = os.path.join(folder, "tas.gif")
            r = view.export_movie(gif, fps=5, size=(64, 48))
            self.assertEqual((r["path"], r["frames"], r["size"], r["encoder"]), (gif, 3, (64, 48), "gif"))
            self.assertEqual(r["bytes_from_device"], 0)  # the CPU path: nothing on a device
            with open(gif, "rb") as f:
                data = f.read()
            self.assertEqual(data[:6], b"GIF89a")
            self.assertEqual(int.from_bytes(data[6:8], "little"), 64)
            self.assertEqual(int.from_bytes(data[8:10], "little"), 48)
            mp4 = os.path.join(folder, "tas.mp4")
            r = view.export_movie(mp4, dim="time", frames=(1, 3), size=(65, 49))
            self.assertEqual((r["frames"], r["size"]), (2, (66, 50)))  # padded to even
            self.assertIn(r["encoder"], ("libx264", "h264_nvenc"))
            with open(mp4, "rb") as f:
                data = f.read()
            self.assertEqual(data[4:8], b"ftyp")
            self.assertLess(data.index(b"moov"), data.index(b"mdat"))  # +faststart
            self.assertEqual(view.export_movie(mp4, frames=range(0, 3, 2), size=(64, 48))["frames"], 2)
            bad = {"lat": ("time.mp4", dict(dim="lat"), "is not a sliced dim of tas (those are: time)"),
                   "extension": ("time.avi", {}, "no movie format (.mp4, .webm or .gif)"),
                   "range": ("time.gif", dict(frames=(2, 9)), "are beyond time's 3 steps")}
            for label, (name, kwargs, message) in bad.items():
                with self.subTest(bad=label):
                    with self.assertRaises((strata.ValueError, strata.IndexError)) as cm:
                        view.export_movie(os.path.join(folder, name), **kwargs)
                    self.assertIn(message, str(cm.exception))
            self.assertEqual(sorted(os.listdir(folder)), ["tas.gif", "tas.mp4"])
        finally:
            view.close()

    def test_use_after_close_is_refused(self):
        # A View whose window was closed (by close(), or by the user): each use that needs the
        # window says so; a frame read before stays valid. Before, on_frame took a callback
        # that would never be called.
        da = field()
        view = strata.show(da)
        frame = view.frame()
        view.close()
        view.close()  # again: nothing more to do
        self.assertFalse(view.is_open)
        self.assertIn("(closed)", repr(view))
        uses = {"update": lambda: view.update(da), "frame": view.frame, "view": lambda: view.view,
                "contours": lambda: view.contours, "set contours": lambda: setattr(view, "contours", 5),
                "on_frame": lambda: view.on_frame(print),
                "export_movie": lambda: view.export_movie(os.path.join(tempfile.gettempdir(), "closed.gif"))}
        for label, use in uses.items():
            with self.subTest(use=label):
                with self.assertRaises(strata.ValueError) as cm:
                    use()
                self.assertIn("the Strata window was closed", str(cm.exception))
        view.on_frame(None)  # no callback: nothing to refuse
        np.testing.assert_array_equal(frame, da.isel(time=0).values)
        # Closed by the user (from Qt's event loop) rather than by close().
        view = strata.show(da)
        view.on_frame(lambda: view._window.close_later())
        view.wait_closed()
        with self.assertRaises(strata.ValueError) as cm:
            view.frame()
        self.assertIn("the Strata window was closed", str(cm.exception))


class NoDisplay(unittest.TestCase):
    """strata.show where no window can open: a strata.ValueError saying why, in a process of
    its own (Qt, given a display it cannot reach, ends the process)."""

    def show_in_child(self, **env):
        clean = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
        clean.update(env)
        code = ("import numpy as np, strata\n"
                "try:\n"
                "    strata.show(np.ones((4, 4), np.float32), dims=('y', 'x'))\n"
                "except strata.ValueError as e:\n"
                "    print('REFUSED', e)\n")
        run = subprocess.run([sys.executable, "-c", code], env=clean, capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, f"the process ended: {run.stderr[-2000:]}")
        return run.stdout

    def test_no_display(self):
        out = self.show_in_child()
        self.assertIn("REFUSED no display to open the Strata window on (DISPLAY is not set)", out)

    def test_a_display_that_does_not_answer(self):
        # Before, Qt's xcb plugin could not connect and aborted the interpreter.
        self.assertFalse(os.path.exists("/tmp/.X11-unix/X4917"))
        out = self.show_in_child(DISPLAY=":4917")
        self.assertIn("REFUSED cannot connect to the X display ':4917' (DISPLAY)", out)


class PromptStaysLive(unittest.TestCase):
    def test_ipython_hook_runs_qt_until_input(self):
        # IPython's input hook body with a real descriptor: it must run Qt's events (the frame
        # arrives through them) until the descriptor can be read; the frame callback writes it.
        read_end, write_end = os.pipe()

        class Context:  # what IPython's prompt hands its input hooks
            def fileno(self):
                return read_end

            def input_is_ready(self):
                return False
        try:
            view = strata.show(np.ones((8, 8), np.float32), dims=("y", "x"))
            view.on_frame(lambda: os.write(write_end, b"x"))
            self.assertEqual(view._window.frames_shown, 0)
            sys.modules["strata.show"]._ipython_hook(Context())
            self.assertEqual(view._window.frames_shown, 1)
            self.assertEqual(os.read(read_end, 1), b"x")
            view.close()
        finally:
            os.close(read_end)
            os.close(write_end)

    def test_frames_reach_the_screen_while_the_prompt_waits(self):
        # Python's own prompt reading from a pipe: the input hook must run Qt's events while
        # it waits, or the frame (delivered through Qt's event queue) never arrives.
        errors = tempfile.TemporaryFile(mode="w+")  # the prompts and any traceback
        child = subprocess.Popen([sys.executable, "-i", "-q", "-u"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=errors, text=True)
        try:
            # One line: the prompt's hook runs between lines, so none runs between these calls.
            child.stdin.write(
                "import numpy as np, strata\n"
                "v = strata.show(np.arange(600, dtype='float32').reshape(20, 30), dims=('y', 'x')); "
                "v.on_frame(lambda: print('FRAME', v._window.frames_shown, flush=True)); "
                "print('WAITING', v._window.frames_shown, flush=True)\n")
            child.stdin.flush()
            lines = queue.Queue()
            reader = threading.Thread(target=lambda: [lines.put(l.strip()) for l in child.stdout], daemon=True)
            reader.start()
            seen = []
            while not seen or not seen[-1].startswith("FRAME"):  # no input is sent until then
                try:
                    seen.append(lines.get(timeout=120))  # a bound on failure, not a proof
                except queue.Empty:
                    errors.seek(0)
                    self.fail(f"no frame while the prompt waited: {seen} {errors.read()}")
            lines_seen = seen
            self.assertIn("WAITING 0", lines_seen)  # nothing was shown before the prompt waited
            self.assertTrue(lines_seen[-1].startswith("FRAME 1"), lines_seen)
            child.stdin.write("print('done', float(v.frame()[19, 29]))\nexit()\n")
            child.stdin.flush()
            child.wait(timeout=120)
            reader.join(timeout=60)
            rest = []
            while not lines.empty():
                rest.append(lines.get())
            errors.seek(0)
            self.assertIn("done 599.0", rest, errors.read())
        finally:
            if child.poll() is None:
                child.kill()
            child.wait()


if __name__ == "__main__":
    unittest.main()
