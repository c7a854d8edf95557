"""Work started on a thread of its own and waited for where its result is needed.

The scanner's Python holds the interpreter lock for most of a scan, so a second thread wins
nothing for Python work (docs/performance.md: the classifier read ahead on a worker thread, tried
and not kept). OpenCV lets go of the lock inside its calls, though, and a 2-core machine has a
core to spare while the main thread works in Python: a few whole-picture OpenCV steps whose
inputs are known early (:func:`vision.detect._detect_with`) run there meanwhile.
"""
from __future__ import annotations

import threading
from collections.abc import Callable


class InBackground:
    """``fn(*args)`` running on a daemon thread from the moment this is made; :meth:`result`
    waits for it and returns its value, or raises what it raised. A thread a job, not a pool: it
    costs about a tenth of a millisecond, and nothing is left behind across a ``fork``."""

    def __init__(self, fn: Callable, *args) -> None:
        self._value = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(fn, args), daemon=True, name="tilelens-background")
        self._thread.start()

    def _run(self, fn: Callable, args: tuple) -> None:
        try:
            self._value = fn(*args)
        except BaseException as e:  # handed to whoever waits for the result
            self._error = e

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value
