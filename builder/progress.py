"""Progress bars that also speak in logs.

On a terminal this is rich's :class:`~rich.progress.Progress`. Without one (output to a
file, CI, ``nohup``) rich draws nothing until the end, so a long step looks hung; there
:class:`LogProgress` prints one plain line per task every ``interval`` seconds instead
(``DISCOBENCH_PROGRESS_INTERVAL``, default 15), and for a transient bar (which rich would
leave no trace of) a last line when its task completes.
"""

from __future__ import annotations

import os
import time
from typing import Any

from rich.progress import Progress, Task, TaskID

DEFAULT_INTERVAL = 15.0


def _interval() -> float:
    raw = os.environ.get("DISCOBENCH_PROGRESS_INTERVAL", "")
    try:
        return max(0.0, float(raw)) if raw else DEFAULT_INTERVAL
    except ValueError:
        return DEFAULT_INTERVAL


class LogProgress(Progress):
    """rich Progress plus a plain progress line at intervals when there is no terminal."""

    def __init__(self, *columns: Any, interval: float | None = None, **kwargs: Any) -> None:
        super().__init__(*columns, **kwargs)
        self.interval = _interval() if interval is None else interval
        self._plain = not self.disable and not self.console.is_terminal
        self._last: dict[TaskID, float] = {}

    def add_task(self, description: str, *args: Any, **kwargs: Any) -> TaskID:
        task_id = super().add_task(description, *args, **kwargs)
        self._last[task_id] = time.monotonic()
        return task_id

    def update(self, task_id: TaskID, *args: Any, **kwargs: Any) -> None:
        super().update(task_id, *args, **kwargs)
        self._tick(task_id)

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._tick(task_id)

    def _tick(self, task_id: TaskID) -> None:
        if not self._plain:
            return
        task = next((t for t in self.tasks if t.id == task_id), None)
        if task is None:
            return
        now = time.monotonic()
        finished = task.total is not None and task.total > 0 and task.completed >= task.total
        if finished and (self._last.get(task_id) == -1.0 or not self.live.transient):
            return  # printed already, or rich prints the finished bar itself
        if not finished and now - self._last.get(task_id, now) < self.interval:
            return
        self._last[task_id] = -1.0 if finished else now
        self.console.print(progress_line(task), markup=False, highlight=False, soft_wrap=True)


def progress_line(task: Task) -> str:
    """``description: 120/600 (20%), 0:35 elapsed``; no total known: the count only."""
    done = int(task.completed)
    elapsed = int(task.elapsed or 0)
    clock = f"{elapsed // 60}:{elapsed % 60:02d} elapsed"
    name = task.description.replace("[bold]", "").replace("[/]", "")
    if task.total:
        return f"{name}: {done}/{int(task.total)} ({done / task.total:.0%}), {clock}"
    return f"{name}: {done}, {clock}"
