"""Work started on a thread of its own and waited for where its result is needed.

The scanner's Python holds the interpreter lock for most of a scan, so a second thread wins
nothing for Python work (docs/performance.md: the classifier read ahead on a worker thread, tried
and not kept). OpenCV lets go of the lock inside its calls, though, and a 2-core machine has a
core to spare while the main thread works in Python: a few whole-picture OpenCV steps whose
inputs are known early (:func:`vision.detect._detect_with`), the classifier's readings of the
faces found (:mod:`vision.read_ahead`) and the shade check's picture (:func:`vision.light.shade_picture`,
started by :func:`vision.scan.scan`) run there meanwhile.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

WORKERS = 6  # the most threads kept for the jobs: a scan has at most three running at once (the shade check's
#              picture, a look's whole-picture steps, its read-ahead), and the server may run two scans

_pool: ThreadPoolExecutor | None = None
_pool_pid = 0
_pool_lock = threading.Lock()


def _workers() -> ThreadPoolExecutor:
    """This process's pool of ``WORKERS`` threads, made on first use (and again in a process
    forked from one that had it: a fork copies no threads)."""
    global _pool, _pool_pid
    if _pool is None or _pool_pid != os.getpid():
        with _pool_lock:
            if _pool is None or _pool_pid != os.getpid():
                _pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="tilelens-background")
                _pool_pid = os.getpid()
    return _pool


class InBackground:
    """``fn(*args)`` running on a thread of its own from the moment this is made; :meth:`result`
    waits for it and returns its value, or raises what it raised; :meth:`join` only waits.

    The threads are kept between jobs (up to ``WORKERS``, a
    :class:`concurrent.futures.ThreadPoolExecutor`, which starts one only where none is idle):
    starting a thread a job cost the scan's main thread about 0.24 ms a job, two jobs a look
    (docs/performance.md). The pool's threads are not daemon threads: at the interpreter's exit
    each finishes its job first, as one still inside OpenCV when the interpreter exits aborts the
    process ("terminate called without an active exception"); callers join every job before
    they return all the same (:func:`vision.detect._detect_with`)."""

    def __init__(self, fn: Callable, *args) -> None:
        self._future = _workers().submit(fn, *args)

    def join(self) -> None:
        wait((self._future,))

    def result(self):
        return self._future.result()
