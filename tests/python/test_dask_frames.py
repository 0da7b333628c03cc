"""Dask-backed data in Strata's frame pipeline (computeFrame, as the window and the command line
compute frames; no window needed): a step computes its chunk alone, reductions are Dask
reductions whose result alone comes back, values equal NumPy's; a chunk that raises, a worker
killed mid-frame, workers that keep dying, a slow chunk past its timeout and a scheduler gone
each give a message naming the variable and the chunk, and the next frame works; an
area-weighted mean equals one written here; progress is told with the worker count and its end.
On a
LocalCluster of two processes and on a scheduler with two workers over TCP. Skips without
dask.distributed."""
import gc
import os
import signal
import tempfile
import threading
import time
import unittest
import unittest.mock
import warnings

import numpy as np
import xarray as xr

import strata
from dask_clusters import (TcpCluster, dask, fatal_block, failing_block, local_cluster,
                           needs_distributed, slow_block, worker_reads, write_series)
from strata import _strata, dask_frames, dask_progress, lazy
from strata.convert import _strata_dataset

OPS = {"mean": np.nanmean, "min": np.nanmin, "max": np.nanmax, "std": np.nanstd, "sum": np.nansum}


def held(da, timeout=None):
    fetches = []
    h, _, _ = _strata_dataset(da, dask=fetches)
    if timeout is not None:
        for f in fetches:
            f.timeout = timeout
    return h, fetches[0]


def frame(h, name, indices=(), reductions=(), x="lon", y="lat", area_weighted=False):
    return np.asarray(strata.as_array(_strata._compute_frame(h, name, x, y, list(indices), list(reductions),
                                                              "cpu", area_weighted)))


def with_latitude(values, chunks, name="tas"):
    """`values` (time, lat, lon) as a Dask-backed DataArray whose lat is a CF latitude."""
    nt, ny, nx = values.shape
    coords = {"lat": ("lat", np.linspace(-80, 85, ny), {"units": "degrees_north"}),
              "lon": ("lon", np.linspace(0, 350, nx), {"units": "degrees_east"})}
    return xr.DataArray(dask.array.from_array(values, chunks=chunks), dims=("time", "lat", "lon"),
                        coords=coords, name=name)


def area_mean(values, lat, axes):
    """The cos(latitude)-weighted mean over `axes` of (time, lat, lon) values, NaN skipped: the
    sum of w x over the cells that have a value, over the sum of their w."""
    w = np.broadcast_to(np.cos(np.deg2rad(lat))[None, :, None], values.shape)
    valid = ~np.isnan(values)
    return np.where(valid, w * values, 0).sum(axis=axes) / np.where(valid, w, 0).sum(axis=axes)


class Recorder:
    """A progress listener (DaskFetch.on_progress) that keeps what it is told."""

    def __init__(self):
        self.calls = []
        self.lock = threading.Lock()

    def __call__(self, key, words, done, total):
        with self.lock:
            self.calls.append((key, words, done, total))


class FramesOnACluster:
    """The checks every cluster shape passes (mixed into a TestCase that sets self.client)."""

    def test_a_step_computes_its_chunk_alone(self):
        ds = xr.open_dataset(self.series, engine="strata", chunks={"time": 30})
        h, fetch = held(ds.tas)
        before, client_before = worker_reads(self.client), lazy.region_counters()["reads"]
        np.testing.assert_array_equal(frame(h, "tas", [("time", 100)]), self.values[100])
        self.assertEqual(worker_reads(self.client) - before, 1, "more than the step's chunk was read")
        self.assertEqual(fetch.computes, 1)
        np.testing.assert_array_equal(frame(h, "tas", [("time", 364)]), self.values[364])
        self.assertEqual(worker_reads(self.client) - before, 2)
        self.assertEqual(lazy.region_counters()["reads"], client_before, "the client read chunks itself")

    def test_reductions_are_dask_reductions_equal_to_numpy(self):
        ds = xr.open_dataset(self.series, engine="strata", chunks={"time": 30})
        h, fetch = held(ds.tas)
        wide = self.values.astype(np.float64)
        for op, ref in OPS.items():
            with self.subTest(op=op):
                before = worker_reads(self.client)
                got = frame(h, "tas", reductions=[("time", op)])
                self.assertEqual(got.dtype, np.float32)
                np.testing.assert_allclose(got, ref(wide, axis=0).astype(np.float32), rtol=2e-6, atol=1e-5)
                self.assertEqual(worker_reads(self.client) - before, 13)  # every chunk, in the workers
        self.assertEqual(fetch.computes, len(OPS))  # one Dask computation each, its result alone back
        # Over two dims, one after the other: a zonal mean of the time maximum.
        got = np.asarray(strata.as_array(_strata._compute_frame(h, "tas", "lon", "", [], [("time", "max"),
                                                                                         ("lat", "mean")], "cpu")))
        np.testing.assert_allclose(got, np.nanmean(np.nanmax(wide, axis=0), axis=0), rtol=2e-6)

    def test_an_area_weighted_mean_is_a_dask_reduction_equal_to_a_weighted_mean(self):
        values = self.values.copy()
        values[::7, 5, :] = np.nan  # whole rows missing at some steps, and the series' own NaN
        lat = np.linspace(-80, 85, values.shape[1])
        h, fetch = held(with_latitude(values, (30, 24, 36)))
        wide = values.astype(np.float64)
        # The global mean of each step: one Dask computation, its 365 values alone back.
        got = frame(h, "tas", reductions=[("lat", "mean"), ("lon", "mean")], x="time", y="",
                    area_weighted=True)
        np.testing.assert_allclose(got, area_mean(wide, lat, (1, 2)).astype(np.float32), rtol=2e-6)
        self.assertEqual(fetch.computes, 1)
        # After a maximum over time, the area mean over latitude alone (weights over one dim).
        got = frame(h, "tas", reductions=[("time", "max"), ("lat", "mean")], x="lon", y="",
                    area_weighted=True)
        ref = area_mean(np.nanmax(wide, axis=0)[None], lat, (1,))[0]
        np.testing.assert_allclose(got, ref.astype(np.float32), rtol=2e-6)
        self.assertEqual(fetch.computes, 2)
        # The data tell weighted from unweighted: the plain mean is another number.
        plain = frame(h, "tas", reductions=[("lat", "mean"), ("lon", "mean")], x="time", y="")
        self.assertFalse(np.allclose(plain, area_mean(wide, lat, (1, 2)), rtol=1e-4))

    def test_progress_is_told_with_the_workers_and_its_end(self):
        x = dask.array.from_array(self.values[:120], chunks=(30, 24, 36)).map_blocks(slow_block, 0.8, dtype=np.float32)
        h, fetch = held(xr.DataArray(x, dims=("time", "lat", "lon"), name="tas"), timeout=60)
        fetch.on_progress = told = Recorder()
        got = frame(h, "tas", reductions=[("time", "max")])
        np.testing.assert_array_equal(got, np.nanmax(self.values[:120], axis=0))
        running = [c for c in told.calls if c[3] is not None]
        self.assertGreaterEqual(len(running), 1, told.calls)
        self.assertTrue(all("computing on Dask (2 workers)" == c[1] for c in told.calls), told.calls)
        totals = {c[3] for c in running}
        self.assertEqual(len(totals), 1, told.calls)  # one graph, counted whole
        self.assertGreaterEqual(totals.pop(), 4)  # at least its four slow chunks
        done = [c[2] for c in running]
        self.assertEqual(done, sorted(done), told.calls)
        self.assertEqual(told.calls[-1][3], None, "the end was not told")
        self.assertEqual(len({c[0] for c in told.calls}), 1)
        # A computation that ends before the delay tells nothing (nor its end).
        told.calls.clear()
        ds = xr.open_dataset(self.series, engine="strata", chunks={"time": 30})
        h2, quick = held(ds.tas)
        quick.on_progress = told
        with unittest.mock.patch.object(dask_progress, "DELAY", 30.0):
            np.testing.assert_array_equal(frame(h2, "tas", [("time", 3)]), self.values[3])
        self.assertEqual(told.calls, [])

    def test_a_slow_frame_leaves_nothing_held_on_the_cluster(self):
        # Its result is released with its future when the frame has it, not when Python's
        # cycle collector next runs (disabled here: a cycle would keep it).
        x = dask.array.from_array(self.values[:60], chunks=(30, 24, 36)).map_blocks(slow_block, 0.8, dtype=np.float32)
        h, _ = held(xr.DataArray(x, dims=("time", "lat", "lon"), name="tas"), timeout=60)
        gc.disable()
        try:
            np.testing.assert_array_equal(frame(h, "tas", [("time", 40)]), self.values[40])
            deadline = time.monotonic() + 5
            while self.client.futures and time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertEqual(len(self.client.futures), 0, "a future of the frame is still held")
        finally:
            gc.enable()

    def test_a_chunk_that_raises_names_the_variable_and_the_chunk(self):
        x = dask.array.from_array(self.values[:120], chunks=(30, 24, 36)).map_blocks(failing_block, dtype=np.float32)
        h, _ = held(xr.DataArray(x, dims=("time", "lat", "lon"), name="bad"), timeout=60)
        with self.assertRaises(strata.IoError) as cm:
            frame(h, "bad", [("time", 70)])
        text = str(cm.exception)
        for words in ("variable 'bad'", "chunk (2, 0, 0)", "time 60:90", "sensor 7 offline"):
            self.assertIn(words, text)
        np.testing.assert_array_equal(frame(h, "bad", [("time", 10)]), self.values[10])

    def test_a_chunk_past_its_timeout_is_cancelled_with_a_message(self):
        x = dask.array.from_array(self.values[:60], chunks=(30, 24, 36)).map_blocks(slow_block, 4.0, dtype=np.float32)
        h, _ = held(xr.DataArray(x, dims=("time", "lat", "lon"), name="slow"), timeout=0.5)
        t0 = time.monotonic()
        with self.assertRaises(strata.IoError) as cm:
            frame(h, "slow", [("time", 31)])
        self.assertLess(time.monotonic() - t0, 3.5)
        self.assertIn("variable 'slow': box of chunk (1, 0, 0)", str(cm.exception))
        self.assertIn("not computed within 0.5 s", str(cm.exception))

    def test_a_worker_killed_mid_frame_is_told_and_the_next_frame_works(self):
        x = dask.array.from_array(self.values[:60], chunks=(30, 24, 36)).map_blocks(slow_block, 2.0, dtype=np.float32)
        h, fetch = held(xr.DataArray(x, dims=("time", "lat", "lon"), name="tas"), timeout=60)
        killed = []
        threading.Thread(target=self._kill_busy_worker, args=(killed,), daemon=True).start()
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            try:
                got = frame(h, "tas", [("time", 40)])
                np.testing.assert_array_equal(got, self.values[40])  # Dask computed it again elsewhere
                message = " ".join(fetch.notes)
            except strata.IoError as e:
                message = str(e)
        self.assertTrue(killed, "no worker was computing the chunk")
        self.assertIn("variable 'tas'", message)
        self.assertIn("chunk (1, 0, 0)", message)
        self.assertIn(killed[0], message)
        self.client.wait_for_workers(2, timeout=60)
        np.testing.assert_array_equal(frame(h, "tas", [("time", 5)]), self.values[5])

    def test_workers_that_keep_dying_give_a_message_and_the_next_frame_works(self):
        x = dask.array.from_array(self.values[:60], chunks=(30, 24, 36)).map_blocks(fatal_block, dtype=np.float32)
        h, _ = held(xr.DataArray(x, dims=("time", "lat", "lon"), name="tas"), timeout=90)
        with self.assertRaises(strata.IoError) as cm:
            frame(h, "tas", [("time", 45)])
        self.assertIn("variable 'tas': box of chunk (1, 0, 0)", str(cm.exception))
        self.assertIn("died", str(cm.exception))
        self.client.wait_for_workers(2, timeout=60)
        np.testing.assert_array_equal(frame(h, "tas", [("time", 3)]), self.values[3])

    def _kill_busy_worker(self, killed):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            busy = [w for w, tasks in self.client.processing().items() if tasks]
            if busy:
                pid = self.client.run(os.getpid, workers=busy[:1])[busy[0]]
                time.sleep(0.3)  # mid-chunk
                killed.append(busy[0])
                os.kill(pid, signal.SIGKILL)
                return
            time.sleep(0.05)


@needs_distributed
class FramesOnALocalCluster(FramesOnACluster, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.client = local_cluster()
        cls.tmp = tempfile.TemporaryDirectory(prefix="strata-dask-frames-")
        cls.series = os.path.join(cls.tmp.name, "series.nc")
        cls.values = write_series(cls.series, nan_at=(slice(0, 40), 3, 4))

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        cls.tmp.cleanup()

    def test_cancel_cancels_the_computation_in_flight(self):
        x = dask.array.from_array(self.values[:60], chunks=(30, 24, 36)).map_blocks(slow_block, 5.0, dtype=np.float32)
        h, fetch = held(xr.DataArray(x, dims=("time", "lat", "lon"), name="tas"), timeout=60)
        threading.Timer(0.5, fetch.cancel).start()
        t0 = time.monotonic()
        with self.assertRaises(strata.IoError) as cm:
            frame(h, "tas", [("time", 0)])
        self.assertLess(time.monotonic() - t0, 4)
        self.assertIn("variable 'tas': box of chunk (0, 0, 0) (time 0:30): cancelled", str(cm.exception))

    def test_cancel_cancels_an_area_weighted_mean_in_flight(self):
        x = with_latitude(self.values[:60], (30, 24, 36))
        slow = x.copy(data=x.data.map_blocks(slow_block, 5.0, dtype=np.float32))
        h, fetch = held(slow, timeout=60)
        threading.Timer(0.5, fetch.cancel).start()
        t0 = time.monotonic()
        with self.assertRaises(strata.IoError) as cm:
            frame(h, "tas", reductions=[("lat", "mean"), ("lon", "mean")], x="time", y="", area_weighted=True)
        self.assertLess(time.monotonic() - t0, 4)
        self.assertIn("variable 'tas': reduction (area-weighted mean over lat, lon)", str(cm.exception))
        self.assertIn("cancelled", str(cm.exception))

    def test_progress_on_the_local_scheduler(self):
        x = dask.array.from_array(self.values[:90], chunks=(30, 24, 36)).map_blocks(slow_block, 0.4, dtype=np.float32)
        h, fetch = held(xr.DataArray(x, dims=("time", "lat", "lon"), name="tas"), timeout=60)
        fetch.on_progress = told = Recorder()
        with unittest.mock.patch.object(dask_frames, "current_client", return_value=None):
            with dask.config.set(scheduler="threads", num_workers=1):
                got = frame(h, "tas", reductions=[("time", "mean")])
        np.testing.assert_allclose(got, np.nanmean(self.values[:90].astype(np.float64), axis=0), rtol=2e-6)
        running = [c for c in told.calls if c[3] is not None]
        self.assertGreaterEqual(len(running), 2, told.calls)  # the chunks take 0.4 s each, one at a time
        self.assertTrue(all(c[1] == "computing on Dask (local scheduler)" for c in told.calls))
        self.assertEqual([c[2] for c in running], sorted(c[2] for c in running))
        self.assertLess(running[0][2], running[-1][2], told.calls)  # tasks got done meanwhile
        self.assertEqual(told.calls[-1][3], None)

    def test_sums_and_means_skip_nan_in_double_and_say_nothing_counts(self):
        values = self.values[:90].copy()
        values[:, 7, 9] = np.nan  # nothing counts there: a mean of NaN, a sum of 0
        values[5:, 2, :] = 1e8  # where float32 sums would lose the small values
        h, _ = held(xr.DataArray(dask.array.from_array(values, chunks=(30, 12, 36)), dims=("time", "lat", "lon"),
                                 name="tas"), timeout=60)
        wide = values.astype(np.float64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for op, ref in (("mean", np.nanmean), ("sum", np.nansum)):
                with self.subTest(op=op):
                    got = frame(h, "tas", reductions=[("time", op)])
                    np.testing.assert_allclose(got, ref(wide, axis=0).astype(np.float32), rtol=1e-7)
            got = frame(h, "tas", reductions=[("time", "mean")])
        self.assertTrue(np.isnan(got[7, 9]))
        self.assertEqual(frame(h, "tas", reductions=[("time", "sum")])[7, 9], 0)

    def test_in_memory_chunks_and_a_bare_dask_array(self):
        x = dask.array.from_array(np.arange(4 * 6 * 8, dtype=np.int16).reshape(4, 6, 8), chunks=(1, 3, 8))
        fetches = []
        h, var, _ = _strata_dataset(x, dims=("time", "lat", "lon"), name="counts", dask=fetches)
        np.testing.assert_array_equal(frame(h, "counts", [("time", 2)]), x[2].compute())
        self.assertEqual(len(fetches), 1)
        self.assertEqual(dask_frames.cluster_words(self.client), "Dask (2 workers)")


@needs_distributed
class FramesOnATcpCluster(FramesOnACluster, unittest.TestCase):
    """A scheduler and two workers as processes of their own, as on many machines."""

    @classmethod
    def setUpClass(cls):
        cls.tcp = TcpCluster()
        cls.client = cls.tcp.client
        cls.tmp = tempfile.TemporaryDirectory(prefix="strata-dask-tcp-")
        cls.series = os.path.join(cls.tmp.name, "series.nc")
        cls.values = write_series(cls.series)

    @classmethod
    def tearDownClass(cls):
        cls.tcp.close()
        cls.tmp.cleanup()

    def test_zz_a_scheduler_gone_gives_a_message_not_a_hang(self):  # last: it ends the cluster
        ds = xr.open_dataset(self.series, engine="strata", chunks={"time": 30})
        h, _ = held(ds.tas, timeout=20)
        np.testing.assert_array_equal(frame(h, "tas", [("time", 1)]), self.values[1])
        self.tcp.scheduler.kill()
        self.tcp.scheduler.wait()
        t0 = time.monotonic()
        with self.assertRaises(strata.IoError) as cm:
            frame(h, "tas", [("time", 200)])
        self.assertLess(time.monotonic() - t0, 30)
        self.assertIn("variable 'tas'", str(cm.exception))
        self.assertIn("chunk (6, 0, 0)", str(cm.exception))


if __name__ == "__main__":
    unittest.main()


class SumsTravelWithoutStrata(unittest.TestCase):
    def test_a_worker_without_strata_computes_the_sums(self):
        # What the workers run of Strata's sums pickles by value: a Python without Strata (its
        # path unset here) loads it and sums a chunk with it.
        import pickle
        import subprocess
        import sys
        import cloudpickle
        from strata import dask_sums
        with self.assertRaises(Exception):
            pickle.dumps(dask_sums._partial)  # not by reference
        payload = cloudpickle.dumps((dask_sums._partial, dask_sums._finish))
        code = ("import pickle, sys, numpy as np; p, f = pickle.loads(sys.stdin.buffer.read()); "
                "v = np.array([[1, np.nan], [3, np.nan]], np.float32); "
                "print(list(f(p(v, axis=(0,)), axis=(0,))), any(m.startswith('strata') for m in sys.modules))")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        out = subprocess.run([sys.executable, "-c", code], input=payload, capture_output=True, env=env,
                             timeout=60, check=True).stdout.decode()
        self.assertEqual(out.strip(), "[2.0, nan] False")

