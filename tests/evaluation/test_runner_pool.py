"""The runner's pool: N episodes in flight, no batches, errors re-raised, stop on close."""

from __future__ import annotations

import threading
import time

import pytest

from builder.evaluation.runner import play_all
from builder.records.sample import Sample
from builder.records.trajectory import Trajectory
from builder.synthetic import make_sample


class _Recorder:
    def __init__(self, slow: str = "", delay: float = 0.02, fail: str = "") -> None:
        self.slow, self.delay, self.fail = slow, delay, fail
        self.lock = threading.Lock()
        self.in_flight = self.peak = self.started = 0

    def __call__(self, sample: Sample) -> Trajectory:
        with self.lock:
            self.started += 1
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            if sample.id == self.fail:
                raise RuntimeError("boom")
            time.sleep(0.6 if sample.id == self.slow else self.delay)
            return Trajectory(sample_id=sample.id)
        finally:
            with self.lock:
                self.in_flight -= 1


def test_n_in_flight_and_a_slow_episode_holds_up_no_other() -> None:
    samples = [make_sample(i) for i in range(13)]
    play = _Recorder(slow=samples[0].id)
    order = [t.sample_id for t in play_all(samples, play, 3)]
    assert sorted(order) == sorted(s.id for s in samples)
    assert play.peak == 3
    # the 12 fast ones (4 rounds of 3 at most) all finish while the slow one runs
    assert order[-1] == samples[0].id


def test_an_exception_is_reraised_and_closing_stops_new_episodes() -> None:
    samples = [make_sample(i) for i in range(40)]
    play = _Recorder(fail=samples[1].id)
    with pytest.raises(RuntimeError, match="boom"):
        list(play_all(samples, play, 2))
    time.sleep(0.1)  # let the other thread finish its episode
    assert play.started < len(samples)

    play = _Recorder()
    episodes = play_all(samples, play, 2)
    next(episodes)
    episodes.close()  # the caller stopped (Ctrl-C, a failed write)
    time.sleep(0.1)
    assert play.started < len(samples) // 2 and play.in_flight == 0
