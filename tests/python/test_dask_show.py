"""strata.show of Dask-backed data in a window of this process (under Xvfb, on the CPU path), on
a LocalCluster of two processes: the frame on the screen equals NumPy's without the variable
computed whole; a chunk that raises is told in the window's error, naming the variable and the
chunk, and the window shows the next data; the status bar tells the cluster's progress while a
frame computes, and clears. Skips without dask.distributed."""
import os
import tempfile
import time
import unittest
from unittest import mock

import numpy as np
import xarray as xr

os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="strata-dask-show-"))
import strata  # noqa: E402
from strata import _strata  # noqa: E402
from strata.show import DASK_STEPS_AHEAD  # noqa: E402
from dask_clusters import (dask, failing_block, local_cluster, needs_distributed, slow_block,  # noqa: E402
                           worker_reads, write_series)


@needs_distributed
class ShowDaskBacked(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.client = local_cluster()
        cls.tmp = tempfile.TemporaryDirectory(prefix="strata-dask-show-")
        cls.series = os.path.join(cls.tmp.name, "series.nc")
        cls.values = write_series(cls.series)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        cls.tmp.cleanup()

    def test_the_frame_is_computed_on_the_cluster_not_the_whole_variable(self):
        ds = xr.open_dataset(self.series, engine="strata", chunks={"time": 30})
        before = worker_reads(self.client)
        view = strata.show(ds.tas)
        try:
            np.testing.assert_array_equal(view.frame(timeout=60), self.values[0])
            self.assertEqual((view.view["y"], view.view["x"]), ("lat", "lon"))
            self.assertEqual(view.dask_notes, [])
            # Each step a computation on the cluster: one step ahead, none behind.
            self.assertEqual(view._window.prefetch, (DASK_STEPS_AHEAD, 0))
            deadline = time.monotonic() + 3  # the step ahead computed, and any others (none)
            while time.monotonic() < deadline:
                _strata._process_events()
                time.sleep(0.05)
            # NumPy data shown in its place: the window's own steps around it.
            view.update(xr.DataArray(self.values[:4], dims=("time", "lat", "lon"), name="tas"))
            self.assertGreater(view._window.prefetch[0], 1)
        finally:
            view.close()
        # The step shown and the one ahead: single steps of the first chunk, read in the
        # workers; never the whole variable (365 steps in 13 chunks), nor the window's eight
        # steps ahead.
        reads = worker_reads(self.client) - before
        self.assertGreaterEqual(reads, 1)
        self.assertLessEqual(reads, 2)

    def test_a_chunk_that_raises_is_told_and_the_window_goes_on(self):
        x = dask.array.from_array(self.values[:90], chunks=(30, 24, 36)).map_blocks(
            failing_block, bad=0, dtype=np.float32)
        bad = xr.DataArray(x, dims=("time", "lat", "lon"), name="bad")
        view = strata.show(bad, compute_timeout=60)
        try:
            with self.assertRaises(strata.ValueError) as cm:
                view.frame(timeout=60)
            for words in ("variable 'bad'", "chunk (0, 0, 0)", "sensor 7 offline"):
                self.assertIn(words, str(cm.exception))
            self.assertTrue(view.is_open)
            good = xr.open_dataset(self.series, engine="strata", chunks={"time": 30}).tas
            view.update(good)
            np.testing.assert_array_equal(view.frame(timeout=60), self.values[0])
        finally:
            view.close()

    def _slow_view(self):
        # A 2-D variable (no step to prefetch) in two chunks of 3 s each: long enough that a loop
        # sees the words between the first report (0.2 s in) and the end, on a loaded machine
        # too (at 1.5 s a chunk, a run beside a build saw only the end).
        x = dask.array.from_array(self.values[0], chunks=(12, 36)).map_blocks(slow_block, 3.0, dtype=np.float32)
        return strata.show(xr.DataArray(x, dims=("lat", "lon"), name="slow"), compute_timeout=60)

    def _assert_progress_told_and_cleared(self, view):
        seen = set()
        deadline = time.monotonic() + 30
        while view._window.frames_shown < 1 and time.monotonic() < deadline:
            _strata._process_events()
            seen.add(view.cluster_progress)
            time.sleep(0.02)
        self.assertGreaterEqual(view._window.frames_shown, 1, "no frame within 30 s")
        np.testing.assert_array_equal(view.frame(timeout=5), self.values[0])
        told = [s for s in seen if s[0]]
        self.assertTrue(told, "the status bar said nothing while the frame computed")
        for text, percent in told:
            self.assertRegex(text, r"^computing on Dask \(2 workers\): \d+/\d+ tasks$")
            done, total = map(int, text.rsplit(": ", 1)[1].split()[0].split("/"))
            self.assertAlmostEqual(percent, 100 * done / total, delta=1)  # the bar fills as far
        deadline = time.monotonic() + 10  # the end, told from the worker thread, is shown
        while view.cluster_progress != ("", -1) and time.monotonic() < deadline:
            _strata._process_events()
            time.sleep(0.02)
        self.assertEqual(view.cluster_progress, ("", -1))

    def test_the_status_bar_tells_the_cluster_progress_and_clears(self):
        view = self._slow_view()
        try:
            self._assert_progress_told_and_cleared(view)
        finally:
            view.close()

    def test_a_first_frame_computing_before_the_window_is_made_is_told(self):
        # The window's constructor asks its first frame, whose compute may start on the frame
        # worker before show() goes on. A window made slowly lets it start first every time:
        # its progress was never told when show() gave the fetches the status bar afterwards.
        made = _strata._Window

        def made_slowly(*args, **kwargs):
            window = made(*args, **kwargs)
            time.sleep(1.0)  # the compute (3 s) starts and runs meanwhile
            return window

        with mock.patch.object(_strata, "_Window", made_slowly):
            view = self._slow_view()
        try:
            self._assert_progress_told_and_cleared(view)
        finally:
            view.close()

    def test_closing_the_window_cancels_the_computation_in_flight(self):
        x = dask.array.from_array(self.values[:60], chunks=(30, 24, 36)).map_blocks(
            slow_block, 8.0, dtype=np.float32)
        view = strata.show(xr.DataArray(x, dims=("time", "lat", "lon"), name="slow"))
        deadline = time.monotonic() + 10
        while not any(self.client.processing().values()) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertTrue(any(self.client.processing().values()), "nothing computed on the cluster")
        t0 = time.monotonic()
        view.close()  # the frame service's token cancels the Dask futures of its frames
        while any(self.client.processing().values()) and time.monotonic() - t0 < 6:
            time.sleep(0.05)
        self.assertLess(time.monotonic() - t0, 6, "the cluster still computes the closed window's frames")


if __name__ == "__main__":
    unittest.main()
