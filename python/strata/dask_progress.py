"""How far the Dask computation of a frame has gone, told while it runs: the tasks of its graph
done out of all, with the words for where it runs ("Dask (2 workers)"). On a distributed client
the scheduler is asked every INTERVAL which of the graph's tasks are still to run (from a daemon
thread, each question bounded by ASK_TIMEOUT); on the local scheduler, Dask's own callbacks
count the tasks finished. A computation quicker than DELAY tells nothing (a step's frame leaves
the status bar alone); one that told anything tells its end.

A listener is called as listener(key, words, done, total) with total None at the end; `key`
tells the computations of one window apart. Nothing here imports Dask at import time."""
import itertools
import threading
import time

DELAY = 0.2  # seconds a computation runs before its progress is told
EVERY = 0.1  # seconds at least between two reports (but the last task's)
INTERVAL = 0.25  # seconds between two questions to the scheduler
ASK_TIMEOUT = 2.0  # seconds the scheduler has to answer one

_keys = itertools.count()


def _tasks_left_counter():
    """The function the scheduler runs (pickled by value: the scheduler need not have Strata):
    how many of `keys` are not done yet, or None while `final` is unknown to it (the graph not
    there yet). Tasks done and forgotten are done; keys are strings on older schedulers."""
    def tasks_left(keys, final, dask_scheduler=None, **_):
        tasks = dask_scheduler.tasks

        def state(k):
            ts = tasks.get(k)
            if ts is None and not isinstance(k, str):
                ts = tasks.get(str(k))
            return None if ts is None else ts.state

        if state(final) is None:
            return None
        return sum(1 for k in keys if state(k) not in (None, "memory", "erred", "released", "forgotten"))
    return tasks_left


class _Told:
    """What one computation has told its listener, so that its end is told once and only after
    something was."""

    def __init__(self, listener, words):
        self.listener = listener
        self.words = words
        self.key = next(_keys)
        self.start = time.monotonic()
        self.lock = threading.Lock()
        self.told = False
        self.ended = False
        self.last = None
        self.at = 0.0

    def tell(self, done, total):
        now = time.monotonic()
        with self.lock:
            if self.ended or (done, total) == self.last or now - self.start < DELAY:
                return
            if now - self.at < EVERY and done < total:
                return
            self.told, self.last, self.at = True, (done, total), now
            self.listener(self.key, self.words, done, total)

    def end(self):
        with self.lock:
            if self.ended:
                return
            self.ended = True
            if self.told:
                self.listener(self.key, self.words, 0, None)


class ClusterWatch:
    """Tells `listener` how far `future` (the compute of collection `x` on `client`) has gone,
    from a daemon thread, until stop()."""

    def __init__(self, listener, words, client, x, future):
        self._told = _Told(listener, words)
        self._stop = threading.Event()
        self._client, self._x, self._future = client, x, future
        threading.Thread(target=self._run, name="strata-dask-progress", daemon=True).start()

    def _run(self):
        if self._stop.wait(DELAY):
            return
        try:  # the graph's keys: those the scheduler knows the tasks by
            keys = list(dict(self._x.__dask_graph__()).keys())
        except Exception:  # not a graph we can read: the words alone, with a busy stripe
            keys = None
        count = _tasks_left_counter()
        total = len(keys) if keys else 0
        self._told.tell(0, total)
        while not self._stop.wait(INTERVAL):
            if keys is None or self._client.status != "running":
                continue
            try:
                left = self._client.run_on_scheduler(count, keys, self._future.key, callback_timeout=ASK_TIMEOUT)
            except Exception:  # a scheduler that does not run functions, or gone: said by the compute
                continue
            if left is not None:
                self._told.tell(total - min(left, total), total)

    def stop(self):
        self._stop.set()
        self._told.end()


class LocalWatch:
    """Tells `listener` how far a computation on the local scheduler has gone: `callbacks` go to
    compute(callbacks=...), so that only this computation's tasks are counted."""

    def __init__(self, listener, words):
        self._told = _Told(listener, words)
        self._total = 0

        def start_state(dsk, state):
            self._total = len(dsk)

        def posttask(key, result, dsk, state, worker_id):
            self._told.tell(len(state["finished"]), self._total)

        self.callbacks = [(None, start_state, None, posttask, None)]

    def stop(self):
        self._told.end()
