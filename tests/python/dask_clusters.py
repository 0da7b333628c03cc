"""Dask clusters for the tests of Dask-backed data: a LocalCluster of two worker processes, and
a scheduler with two workers started as separate processes talking TCP on localhost (the shape
of a cluster on many machines). Both take the tests' environment (PYTHONPATH to the build's
strata). Tests skip, saying why, where dask.distributed is not installed."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np

try:
    import dask
    import dask.array as da  # noqa: F401
    import distributed
except ImportError:  # Debian: python3-dask python3-distributed (scripts/setup.sh)
    dask = distributed = None

needs_distributed = unittest.skipIf(distributed is None,
                                    "dask.distributed is not installed (Debian: python3-distributed)")
QUICK = {  # a lost worker or scheduler is noticed in seconds, not minutes
    "distributed.comm.timeouts.connect": "5s",
    "distributed.comm.timeouts.tcp": "20s",
    "distributed.scheduler.allowed-failures": 1,
}


def local_cluster():
    """A LocalCluster of two single-threaded worker processes (with nannies, which restart a
    worker that dies), and its client, the default one."""
    dask.config.set(QUICK)
    cluster = distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                       dashboard_address=None, host="127.0.0.1")
    return cluster, distributed.Client(cluster)


class TcpCluster:
    """`dask-scheduler` and two `dask-worker`s as processes of their own on localhost."""

    def __init__(self, workers=2, timeout=60):
        dask.config.set(QUICK)
        self.tmp = tempfile.TemporaryDirectory(prefix="strata-dask-")
        file = os.path.join(self.tmp.name, "scheduler.json")
        env = dict(os.environ, DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="1")
        quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        self.scheduler = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
             "--no-dashboard", "--scheduler-file", file], **quiet)
        self.workers = []
        try:
            deadline = time.monotonic() + timeout
            while not os.path.exists(file):
                if time.monotonic() > deadline or self.scheduler.poll() is not None:
                    raise RuntimeError("dask-scheduler did not start")
                time.sleep(0.1)
            time.sleep(0.2)  # the file is written whole
            with open(file) as f:
                self.address = json.load(f)["address"]
            self.workers = [subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", self.address, "--nthreads", "1",
                 "--no-dashboard", "--host", "127.0.0.1"], **quiet) for _ in range(workers)]
            self.client = distributed.Client(self.address, timeout=timeout)
            self.client.wait_for_workers(workers, timeout=timeout)
        except BaseException:
            self.close()
            raise

    def close(self):
        if getattr(self, "client", None) is not None:
            try:
                self.client.close(timeout=5)
            except (TimeoutError, OSError):  # the scheduler is gone (a test ended it)
                pass
            self.client = None
        for p in self.workers + [self.scheduler]:
            if p.poll() is None:
                p.terminate()
        for p in self.workers + [self.scheduler]:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.tmp.cleanup()


def worker_reads(client):
    """Region reads Strata's reader made in all the workers so far."""
    from strata import lazy
    return sum(c["reads"] for c in client.run(lazy.region_counters, wait=True).values())


def write_series(path, nt=365, ny=24, nx=36, seed=3, nan_at=None):
    """A (time, lat, lon) float32 series as netCDF-4, stored in chunks of 30 steps."""
    import netCDF4
    rng = np.random.default_rng(seed)
    values = (rng.standard_normal((nt, ny, nx)) * 10 + 280).astype(np.float32)
    if nan_at is not None:
        values[nan_at] = np.nan
    with netCDF4.Dataset(path, "w") as f:
        f.createDimension("time", nt)
        f.createDimension("lat", ny)
        f.createDimension("lon", nx)
        t = f.createVariable("time", "f8", ("time",))
        t.units, t.calendar = "days since 2001-01-01", "standard"
        t[:] = np.arange(nt)
        f.createVariable("lat", "f8", ("lat",))[:] = np.linspace(-60, 60, ny)
        f.createVariable("lon", "f8", ("lon",))[:] = np.linspace(0, 350, nx)
        v = f.createVariable("tas", "f4", ("time", "lat", "lon"), chunksizes=(30, ny, nx), zlib=True,
                             fill_value=np.float32(1e20))
        v.units = "K"
        v[:] = np.ma.masked_invalid(values)
    return values


# ---- block functions the workers run (importable there: this module is on their path)

def slow_block(block, seconds=1.5):
    """The block as it is, after `seconds`: a chunk long enough to kill its worker meanwhile."""
    time.sleep(seconds)
    return block


def failing_block(block, block_info=None, bad=2):
    """Raises for block `bad` along the first axis."""
    if block_info is not None and block_info[0]["chunk-location"][0] == bad:
        raise ValueError("sensor 7 offline")
    return block


def fatal_block(block, block_info=None, bad=1):
    """Ends the worker process that computes block `bad` along the first axis."""
    if block_info is not None and block_info[0]["chunk-location"][0] == bad:
        os._exit(3)
    return block
