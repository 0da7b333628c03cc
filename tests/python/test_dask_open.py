"""xr.open_dataset(path, engine="strata", chunks=...): Dask arrays whose chunks Strata's reader
reads inside the Dask workers (a LocalCluster of two processes). Equal to engine="netcdf4" with
the same chunks on every file in tests/data it opens, and to engine="zarr" on a Zarr store (on
disk, and over HTTP, where each worker reads its chunks from the URL); a
chunk pickles as the path and the variable's name; one chunk read for one step; the client
reads nothing. Skips without dask.distributed."""
import glob
import os
import pickle
import re
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import xarray as xr

import strata
from dask_clusters import local_cluster, needs_distributed, worker_reads, write_series
from strata import lazy

DATA = os.environ.get("STRATA_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data"))
SOURCE = os.environ.get("STRATA_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
FILES = sorted(f for f in glob.glob(os.path.join(DATA, "*.nc")) if os.path.basename(f) != "bad_cdf5_begin.nc")


def halves(ds):
    """Chunks that cut every dim in two: chunks of each variable meet in its middle."""
    return {d: max(1, (n + 1) // 2) for d, n in ds.sizes.items()}


@needs_distributed
class ChunksReadInTheWorkers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.client = local_cluster()
        cls.tmp = tempfile.TemporaryDirectory(prefix="strata-dask-open-")
        cls.series = os.path.join(cls.tmp.name, "series.nc")
        cls.values = write_series(cls.series)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        cls.tmp.cleanup()

    def test_every_file_equals_the_netcdf4_engine_with_the_same_chunks(self):
        import dask.array
        checked = 0
        client_reads = lazy.region_counters()["reads"]
        for path in FILES:
            try:
                ref = xr.open_dataset(path, engine="netcdf4", decode_times=False)
            except Exception:
                continue  # netCDF-C does not open it: nothing to compare with
            chunks = halves(ref)
            ref = ref.chunk(chunks)
            with self.subTest(file=os.path.basename(path)):
                ours = xr.open_dataset(path, engine="strata", chunks=chunks)
                for name, rv in ref.data_vars.items():
                    if rv.dtype.kind not in "iuf" or rv.ndim == 0:
                        continue
                    ov = ours[name]
                    self.assertIsInstance(ov.data, dask.array.Array, name)
                    self.assertEqual(ov.dims, rv.dims, name)
                    self.assertEqual(ov.dtype, rv.dtype, name)
                    self.assertEqual(ov.chunks, rv.chunks, name)
                    mine, theirs = self.client.compute([ov.data, rv.data], sync=True)
                    np.testing.assert_array_equal(mine, theirs, err_msg=f"{os.path.basename(path)}: {name}")
                    checked += 1
        self.assertGreater(checked, 8)
        self.assertEqual(lazy.region_counters()["reads"], client_reads, "the client read chunks itself")

    def test_one_step_reads_one_chunk_in_a_worker(self):
        ds = xr.open_dataset(self.series, engine="strata", chunks={"time": 30})
        self.assertEqual(ds.tas.data.numblocks, (13, 1, 1))
        before = worker_reads(self.client)
        step = ds.tas.isel(time=100).values
        self.assertEqual(worker_reads(self.client) - before, 1)
        np.testing.assert_array_equal(step, self.values[100])
        # The file's own chunks (30 steps) when chunks={}.
        self.assertEqual(xr.open_dataset(self.series, engine="strata", chunks={}).tas.data.chunksize, (30, 24, 36))

    def test_a_chunk_pickles_as_where_to_read(self):
        ds = xr.open_dataset(self.series, engine="strata", chunks={"time": 30})
        graph = pickle.dumps(dict(ds.tas.data.__dask_graph__()))
        self.assertLess(len(graph), 20_000, "values travel in the task graph")  # the data: 1.3 MB
        array = lazy.RegionArray(self.series, "tas", (365, 24, 36), "float32")
        text = pickle.dumps(array)
        self.assertLess(len(text), 400)
        self.assertIn(self.series.encode(), text)
        again = pickle.loads(text)
        self.assertEqual((again.path, again.name, again.shape, again.dtype), (self.series, "tas", (365, 24, 36),
                                                                              np.dtype("float32")))

    def test_a_zarr_store_equals_the_zarr_engine(self):
        try:
            import zarr  # noqa: F401
        except ImportError:
            self.skipTest("zarr is not installed (Debian: python3-zarr)")
        store = os.path.join(self.tmp.name, "series.zarr")
        src = xr.open_dataset(self.series, engine="netcdf4").isel(time=slice(0, 90)).load()
        src.tas.encoding = {"chunks": (20, 12, 36)}
        src.to_zarr(store, mode="w")
        ours = xr.open_dataset(store, engine="strata", chunks={})
        ref = xr.open_dataset(store, engine="zarr", chunks={})
        self.assertEqual(ours.tas.chunks, ref.tas.chunks)
        np.testing.assert_array_equal(*self.client.compute([ours.tas.data, ref.tas.data], sync=True))

    def test_a_zarr_store_over_http_is_read_in_the_workers(self):
        # A store served over HTTP (tests/io/zarr_http_server.py on 127.0.0.1): the workers read
        # its chunks from the URL themselves, and they equal zarr-python's of the same store.
        try:
            import zarr  # noqa: F401
        except ImportError:
            self.skipTest("zarr is not installed (Debian: python3-zarr)")
        served = tempfile.TemporaryDirectory(prefix="strata-dask-http-")
        self.addCleanup(served.cleanup)
        store = os.path.join(served.name, "series.zarr")
        src = xr.open_dataset(self.series, engine="netcdf4").isel(time=slice(0, 60)).load()
        src.tas.encoding = {"chunks": (20, 12, 36)}
        src.to_zarr(store, mode="w", consolidated=True)
        log = os.path.join(served.name, "requests.log")
        server = subprocess.Popen([sys.executable, os.path.join(SOURCE, "tests", "io", "zarr_http_server.py"),
                                   served.name, log], stdout=subprocess.PIPE, text=True)
        self.addCleanup(server.wait)
        self.addCleanup(server.kill)
        port = int(server.stdout.readline())
        url = f"http://127.0.0.1:{port}/series.zarr"
        ours = xr.open_dataset(url, engine="strata", chunks={})
        ref = xr.open_dataset(store, engine="zarr", chunks={})
        self.assertEqual(ours.tas.chunks, ref.tas.chunks)
        def requests():  # (client port, key) of each request so far
            with open(log) as f:
                return [(line.split()[0], line.split()[1]) for line in f if line.strip()]

        opened_by = {port for port, _ in requests()}  # this process's connections: metadata alone
        before = worker_reads(self.client)
        np.testing.assert_array_equal(*self.client.compute([ours.tas.data, ref.tas.data], sync=True))
        self.assertEqual(worker_reads(self.client) - before, 3 * 2 * 1)  # each chunk, in a worker
        chunks = [(port, key) for port, key in requests() if re.fullmatch(r"/series\.zarr/tas/\d+\.\d+\.\d+", key)]
        self.assertEqual(sorted({key for _, key in chunks}),
                         sorted(f"/series.zarr/tas/{t}.{y}.0" for t in range(3) for y in range(2)))
        self.assertFalse({port for port, _ in chunks} & opened_by, "the client read chunks itself")

    def test_many_files_as_one_with_open_mfdataset(self):
        paths = []
        for i, part in enumerate((slice(0, 200), slice(200, 365))):
            paths.append(os.path.join(self.tmp.name, f"part{i}.nc"))
            xr.open_dataset(self.series, engine="netcdf4").isel(time=part).to_netcdf(paths[-1])
        ds = xr.open_mfdataset(paths, engine="strata", chunks={"time": 50}, combine="by_coords")
        self.assertEqual(ds.tas.data.numblocks[0], 4 + 4)
        before = worker_reads(self.client)
        np.testing.assert_array_equal(ds.tas.isel(time=250).values, self.values[250])
        self.assertEqual(worker_reads(self.client) - before, 1)

    def test_without_chunks_the_variables_are_read_whole_as_before(self):
        ds = xr.open_dataset(self.series, engine="strata", device="cpu")
        self.assertIsInstance(ds.tas.data, np.ndarray)
        lazy_ds = xr.open_dataset(self.series, engine="strata", lazy=True)  # lazy without Dask
        np.testing.assert_array_equal(lazy_ds.tas[5:7, ::2].values, self.values[5:7, ::2])

    def test_a_missing_variable_or_file_says_which(self):
        with self.assertRaises(strata.ValueError) as cm:
            strata._strata._read(self.series, "nope", [(0, 1, 1)], "cpu")
        self.assertIn("no variable 'nope'", str(cm.exception))
        with self.assertRaises(strata.NetcdfError):
            xr.open_dataset(os.path.join(self.tmp.name, "absent.nc"), engine="strata", chunks={})


if __name__ == "__main__":
    unittest.main()
