"""Dask-backed arrays in Strata's frames: strata.show (and derive) take a DataArray whose data is a
dask.array without computing it. Strata sees a lazy variable (_strata._computed) that is never
loaded whole; each box a frame needs is one compute of that slice on the user's current Dask
client (only the chunks it meets), and a reduction over dims is a Dask reduction whose result
alone comes back. NumPy chunks arrive as host arrays, CuPy chunks as device arrays (borrowed
through DLPack). Every wait has a timeout; a failure names the variable and the chunks.

Nothing here imports Dask: a Dask array exists only where the user's code imported it."""
import sys
import threading
import time
import warnings

import numpy as np

from . import _strata, dask_sums
from .dask_progress import ClusterWatch, LocalWatch

TIMEOUT = 300.0  # seconds a box may take on the cluster before it is cancelled (show's compute_timeout)
_NAN_OPS = {"sum": "nansum", "mean": "nanmean", "min": "nanmin", "max": "nanmax", "std": "nanstd"}


def is_dask_array(data):
    da = sys.modules.get("dask.array")
    return da is not None and isinstance(data, da.Array)


def current_client():
    """The Dask client the user's code made current (distributed's default), or None: then the
    local scheduler computes."""
    distributed = sys.modules.get("distributed")
    if distributed is None:
        return None
    try:
        return distributed.default_client()
    except ValueError:  # no client
        return None


def cluster_words(client):
    """ "Dask (2 workers)" for the status line, or "Dask (local scheduler)"."""
    if client is None:
        return "Dask (local scheduler)"
    if client.status != "running":
        return f"Dask ({client.scheduler.address}, {client.status})"
    try:
        n = len(_workers(client))
    except Exception:  # the scheduler does not answer: said when a box is computed
        return f"Dask ({client.scheduler.address})"
    return f"Dask ({n} worker{'s' if n != 1 else ''})"


ASK_TIMEOUT = 5.0  # seconds the scheduler has to say which workers it has


def _workers(client):
    """The addresses of the client's workers, asked of the scheduler within ASK_TIMEOUT: a
    scheduler just gone holds the call while the client tries to reconnect (a minute). The
    question runs on a daemon thread, left behind if it does not return in time."""
    answer = []
    done = threading.Event()

    def ask():
        try:
            answer.append(set(client.scheduler_info().get("workers", {})))
        except Exception as e:  # said by the caller
            answer.append(e)
        done.set()

    threading.Thread(target=ask, name="strata-dask-ask", daemon=True).start()
    if not done.wait(ASK_TIMEOUT):
        raise TimeoutError(f"no answer within {ASK_TIMEOUT:g} s")
    if isinstance(answer[0], Exception):
        raise answer[0]
    return answer[0]


class DaskComputeError(RuntimeError):
    """A box of a Dask-backed variable could not be computed: the message names the variable,
    the chunks and the cause."""


class DaskFetch:
    """The boxes and reductions of Dask array `array` shown as variable `name`, computed on the
    current client when each is asked for (by Strata's frame workers, on their threads)."""

    def __init__(self, name, array, timeout=None):
        self.name = str(name)
        self.array = array
        self.dtype = array.dtype.newbyteorder("=")
        self.timeout = TIMEOUT if timeout is None else float(timeout)
        self.computes = 0  # boxes and reductions computed (for tests and the curious)
        self.notes = []  # what went wrong but was recovered from (a worker lost and replaced)
        # Told how far each computation has gone (dask_progress): listener(key, words, done,
        # total), total None at its end. strata.show sets it to the window's status bar.
        self.on_progress = None
        self._lock = threading.Lock()
        self._running = set()

    # ---- what Strata calls (through _strata._computed)

    def __call__(self, start, count, step, device):
        index = _index(start, count, step)
        return _placed(self._compute(self.array[index], index, "box"), self.dtype, device)

    def reduce(self, start, count, step, steps, device):
        """The box reduced by each step ([axes], op, weights) in turn, axes counted in the box:
        NaN-skipping Dask reductions, or with weights (a float64 array over the box's axes, of
        length 1 where they do not vary) the mean sum(w x) / sum(w) over the cells where neither
        x nor w is NaN, as Strata's area-weighted mean."""
        index = _index(start, count, step)
        x = self.array[index]
        axes = list(range(x.ndim))
        words = []
        for step_axes, op, weights in steps:
            at = tuple(axes.index(a) for a in step_axes)
            x = _reduced(x, at, op, None if weights is None else _weights_for(x, weights, axes))
            axes = [a for a in axes if a not in step_axes]
            over = ", ".join(self._dims()[a] for a in step_axes)
            words.append(f"{'area-weighted mean' if weights is not None else op} over {over}")
        values = self._compute(x, index, f"reduction ({' then '.join(words)})")
        return _placed(values, self.dtype, device)

    def cancel(self):
        """Cancels the boxes being computed; their frames fail with a message."""
        with self._lock:
            running = list(self._running)
        for f in running:
            f.cancel()

    # ---- Dask

    def _compute(self, x, index, what):
        where = self.chunks_of(index)
        client = current_client()
        with self._lock:
            self.computes += 1
        if client is None:
            watch = LocalWatch(self.on_progress, "computing on Dask (local scheduler)") if self.on_progress else None
            try:
                return x.compute(callbacks=watch.callbacks) if watch else x.compute()
            except Exception as e:
                raise DaskComputeError(f"variable '{self.name}': {what} of {where}: {type(e).__name__}: {e}") from e
            finally:
                if watch:
                    watch.stop()
        return self._on_cluster(client, x, what, where)

    def _on_cluster(self, client, x, what, where):
        import distributed
        gone = (f"variable '{self.name}': {what} of {where}: the Dask scheduler at {client.scheduler.address} "
                f"does not answer")
        if client.status != "running":  # lost, and the client trying to reconnect: say so now
            raise DaskComputeError(f"{gone} (the client is {client.status})")
        try:
            before = _workers(client)
            import dask
            (x,) = dask.optimize(x)  # as compute would: the graph watched is the one computed
            future = client.compute(x, optimize_graph=False)
        except Exception as e:
            raise DaskComputeError(f"{gone} ({type(e).__name__}: {e})") from e
        with self._lock:
            self._running.add(future)
        watch = None
        if self.on_progress:
            n = len(before)
            watch = ClusterWatch(self.on_progress, f"computing on Dask ({n} worker{'s' if n != 1 else ''})",
                                 client, x, future)
        try:
            values = self._wait(client, future, gone)
        except distributed.TimeoutError as e:
            future.cancel()
            raise DaskComputeError(f"variable '{self.name}': {what} of {where} not computed within "
                                   f"{self.timeout:g} s on {client.scheduler.address}; cancelled") from e
        except DaskComputeError:
            raise
        except distributed.scheduler.KilledWorker as e:
            raise DaskComputeError(f"variable '{self.name}': {what} of {where}: the Dask workers computing "
                                   f"it died ({e}); the next frame tries again") from e
        except Exception as e:
            future.cancel()
            if type(e).__name__ == "CancelledError":
                raise DaskComputeError(f"variable '{self.name}': {what} of {where}: cancelled") from e
            raise DaskComputeError(f"variable '{self.name}': {what} of {where}: {type(e).__name__}: {e}") from e
        finally:
            if watch:
                watch.stop()
            with self._lock:
                self._running.discard(future)
        self._note_lost_workers(client, before, what, where)
        return values

    def _wait(self, client, future, gone):
        """The future's result within the timeout. The wait is woken when the future ends (its
        done callback) and looks every quarter of a second for a scheduler gone (the client
        then reconnects for a minute, while the future neither ends nor fails). No timed
        result(): each of its timeouts left an exception whose traceback held the future, and
        with it the result on the cluster, until Python's cycle collector ran."""
        import distributed
        ended = threading.Event()
        future.add_done_callback(lambda _: ended.set())
        deadline = time.monotonic() + self.timeout
        while not future.done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise distributed.TimeoutError(f"not computed within {self.timeout:g} s")
            if ended.wait(min(0.25, left)):
                break
            if client.status != "running":  # nothing to cancel with: the scheduler is gone
                raise DaskComputeError(f"{gone} (the client is {client.status})")
        return future.result()

    def _note_lost_workers(self, client, before, what, where):
        if client.status != "running":  # said at the next box
            return
        try:
            after = _workers(client)
        except Exception:
            return
        lost = sorted(before - after)
        if lost:
            note = (f"variable '{self.name}': worker {', '.join(lost)} left while {what} of {where} was "
                    f"computed; Dask computed it on the others")
            self.notes.append(note)
            warnings.warn(note, RuntimeWarning, stacklevel=2)

    def chunks_of(self, index):
        """ "chunk (3, 0, 0) (time 90:120)" : the chunks of the array the box meets, in words."""
        blocks, spans = [], []
        for dim, s, sizes in zip(self._dims(), index, self.array.chunks):
            edges = np.cumsum((0,) + tuple(sizes))
            first = int(np.searchsorted(edges, s.start, side="right") - 1)
            last = int(np.searchsorted(edges, max(s.stop - 1, s.start), side="right") - 1)
            blocks.append(str(first) if first == last else f"{first}-{last}")
            if len(sizes) > 1:
                spans.append(f"{dim} {edges[first]}:{edges[min(last + 1, len(sizes))]}")
        text = f"chunk ({', '.join(blocks)})"
        return text + (f" ({', '.join(spans)})" if spans else "")

    def _dims(self):
        return getattr(self, "dims", None) or [f"axis {i}" for i in range(self.array.ndim)]


def _reduced(x, at, op, weights):
    """Dask array `x` reduced over axes `at` by `op`, NaN skipped; weighted where `weights` (a
    constant array broadcasting against x) is given."""
    import dask.array as da
    if weights is not None:  # op is mean
        # A cell without a weight (NaN) has no say, as one without a value. Products in the
        # data's type (a float32 chunk gets no double copy, twice the bytes to go through),
        # sums in double.
        weights = np.where(np.isnan(weights), 0, weights).astype(x.dtype)
        valid = ~da.isnan(x)
        total = (da.where(valid, x, 0) * weights).sum(axis=at, dtype=np.float64)
        weight = (valid * weights).sum(axis=at, dtype=np.float64)
        return total / weight  # NaN where no cell counts (0 / 0)
    if op in ("sum", "mean") and dask_sums.usable(x):  # one pass a chunk (dask_sums.py)
        return dask_sums.nan_sum_or_mean(x, at, op)
    reduction = getattr(da, _NAN_OPS[op])
    # Sums accumulated in double, as Strata accumulates float32; extremes are exact.
    return reduction(x, axis=at) if op in ("min", "max") else reduction(x, axis=at, dtype=np.float64)


def _weights_for(x, weights, axes):
    """The weights Strata sent (over every axis of the box) shaped for `x`, whose axes are
    `axes` of the box (the others already reduced: the weights have length 1 there), in the
    kind of array x's chunks are (CuPy chunks get CuPy weights)."""
    w = np.asarray(weights, dtype=np.float64).reshape(tuple(weights.shape[a] for a in axes))
    meta = getattr(x, "_meta", None)
    if meta is not None and not isinstance(meta, np.ndarray) and type(meta).__module__.startswith("cupy"):
        import cupy
        w = cupy.asarray(w)
    return w


def _index(start, count, step):
    return tuple(slice(s, s + (c - 1) * st + 1 if c else s, st) for s, c, st in zip(start, count, step))


def _placed(values, dtype, device):
    """`values` as Strata takes a box: C-contiguous, in the machine's byte order, NumPy for the
    host; a CuPy array stays on its device when a device is asked for (a NumPy one is copied
    there by Strata)."""
    if device == "host":
        if not isinstance(values, np.ndarray) and hasattr(values, "get"):  # CuPy chunks shown on the host
            values = values.get()
        return np.asarray(values, dtype=dtype, order="C")  # keeps a 0-d result 0-d
    if isinstance(values, np.ndarray) or np.isscalar(values):
        return np.asarray(values, dtype=dtype, order="C")
    return values.astype(dtype, order="C", copy=False)


def computed_variable(name, dims, array, timeout=None):
    """Dask array `array` with `dims` as Strata's lazy variable: boxes and reductions computed on
    the current client when a frame asks for them. Returns it and its DaskFetch."""
    fetch = DaskFetch(name, array, timeout)
    fetch.dims = [str(d) for d in dims]
    refusal = f"computed on {cluster_words(current_client())} box by box"
    data = _strata._computed(fetch.dims, [int(n) for n in array.shape], fetch.dtype.name, fetch, fetch.reduce,
                             f"variable '{name}' (Dask)", refusal)
    return data, fetch
