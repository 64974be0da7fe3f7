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


def test_all_threads_in_flight_at_32_and_a_failed_start_is_raised_without_hanging(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    samples = [make_sample(i) for i in range(64)]
    play = _Recorder(delay=0.2)
    assert len(list(play_all(samples, play, 32))) == 64
    assert play.peak == 32  # every thread of the tree started and ran

    real_start = threading.Thread.start

    def start(self: threading.Thread) -> None:
        if self.name == "episode-5":  # a leaf's parent: its subtree never runs
            raise RuntimeError("can't start new thread")
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    play = _Recorder()
    result: list[BaseException] = []

    def consume() -> None:
        try:
            list(play_all(samples, play, 32))
        except RuntimeError as exc:
            result.append(exc)

    t = threading.Thread(target=consume, daemon=True)
    real_start(t)
    t.join(10)
    assert not t.is_alive(), "play_all hung on a failed thread start"
    assert [str(e) for e in result] == ["can't start new thread"]
    assert play.started == 0  # no episode began
