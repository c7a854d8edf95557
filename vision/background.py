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
    """``fn(*args)`` running on a thread of its own from the moment this is made; :meth:`result`
    waits for it and returns its value, or raises what it raised; :meth:`join` only waits. A
    thread a job, not a pool: it costs about a tenth of a millisecond and holds nothing between
    jobs. Not a daemon thread: one still inside OpenCV when the interpreter exits aborts the
    process ("terminate called without an active exception"), so the interpreter waits for it
    (a caller that raises leaves its job to finish), and callers join every job before they
    return (:func:`vision.detect._detect_with`)."""

    def __init__(self, fn: Callable, *args) -> None:
        self._value = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(fn, args), daemon=False,
                                        name="tilelens-background")
        self._thread.start()

    def _run(self, fn: Callable, args: tuple) -> None:
        try:
            self._value = fn(*args)
        except BaseException as e:  # handed to whoever waits for the result
            self._error = e

    def join(self) -> None:
        self._thread.join()

    def result(self):
        self.join()
        if self._error is not None:
            raise self._error
        return self._value
