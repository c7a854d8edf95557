"""vision.background.InBackground: a job on a thread of its own, waited for where needed."""
import threading

import pytest

from vision import background
from vision.background import InBackground


def test_the_result_is_the_jobs_value_computed_on_another_thread():
    ran_on = []

    def job(a, b):
        ran_on.append(threading.get_ident())
        return a + b

    later = InBackground(job, 2, 3)
    assert later.result() == 5
    assert later.result() == 5  # asked again: the same value, not run again
    assert ran_on != [threading.get_ident()] and len(ran_on) == 1


def test_the_caller_goes_on_while_the_job_runs():
    release = threading.Event()
    later = InBackground(lambda: release.wait(5) and "done")
    # the job waits for the caller: made synchronously it would block here for 5 s and return False
    release.set()
    assert later.result() == "done"


def test_what_the_job_raised_is_raised_where_its_result_is_asked_for():
    def job():
        raise ValueError("no such picture")

    later = InBackground(job)
    with pytest.raises(ValueError, match="no such picture"):
        later.result()


def test_a_process_that_scanned_a_photo_with_no_tiles_exits_cleanly():
    """A look that finds no face never asks for its background job's result: the job must still
    be waited for. A daemon thread left inside OpenCV at exit aborted the interpreter
    ("terminate called without an active exception", return code -6)."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import cv2, numpy as np\n"
        "from vision.scan import scan\n"
        "felt = np.full((600, 800, 3), (40, 110, 30), np.uint8)\n"
        "res = scan(cv2.imencode('.jpg', felt)[1].tobytes(), classify_fn=lambda crops, quads: [])\n"
        "print(len(res['tiles']))\n"
    )
    root = Path(__file__).resolve().parents[2]
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
        assert (out.returncode, out.stdout.split()) == (0, ["0"]), out.stderr


def test_the_threads_are_kept_between_jobs():
    for _ in range(3):  # one job after another: each finds an idle thread of the pool
        InBackground(lambda: None).join()
    names = {InBackground(threading.current_thread).result().name for _ in range(10)}
    assert names and all(n.startswith("tilelens-background") for n in names)
    assert len(names) <= background.WORKERS


def _in_child(queue):
    queue.put(InBackground(lambda: 6 * 7).result())


def test_a_process_forked_after_a_job_runs_jobs_of_its_own():
    import multiprocessing

    InBackground(lambda: None).join()  # this process's pool is made: a fork copies none of its threads
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_in_child, args=(queue,))
    child.start()
    assert queue.get(timeout=30) == 42
    child.join(30)
    assert child.exitcode == 0
