"""Dask-backed data in Strata's frame pipeline (computeFrame, as the window and the command line
compute frames; no window needed): a step computes its chunk alone, reductions are Dask
reductions whose result alone comes back, values equal NumPy's; a chunk that raises, a worker
killed mid-frame, workers that keep dying, a slow chunk past its timeout and a scheduler gone
each give a message naming the variable and the chunk, and the next frame works. On a
LocalCluster of two processes and on a scheduler with two workers over TCP. Skips without
dask.distributed."""
import os
import signal
import tempfile
import threading
import time
import unittest
import warnings

import numpy as np
import xarray as xr

import strata
from dask_clusters import (TcpCluster, dask, fatal_block, failing_block, local_cluster,
                           needs_distributed, slow_block, worker_reads, write_series)
from strata import _strata, dask_frames, lazy
from strata.convert import _strata_dataset

OPS = {"mean": np.nanmean, "min": np.nanmin, "max": np.nanmax, "std": np.nanstd, "sum": np.nansum}


def held(da, timeout=None):
    fetches = []
    h, _, _ = _strata_dataset(da, dask=fetches)
    if timeout is not None:
        for f in fetches:
            f.timeout = timeout
    return h, fetches[0]


def frame(h, name, indices=(), reductions=()):
    return np.asarray(strata.as_array(_strata._compute_frame(h, name, "lon", "lat", list(indices),
                                                              list(reductions), "cpu")))


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
