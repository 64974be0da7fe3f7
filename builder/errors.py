"""One error root for the whole toolkit.

Every error the toolkit raises on purpose derives from :class:`DiscoBenchError` and carries
a message that says *where* (file, line, field, request) and a ``hint`` that says *what to do*.
The CLI turns these into a red message and a non-zero exit code; anything else is a bug.
"""

from __future__ import annotations

from pathlib import Path


class DiscoBenchError(Exception):
    """Root of every error raised on purpose by discobench-builder."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n  hint: {self.hint}" if self.hint else self.message


class ConfigError(DiscoBenchError):
    """A setting, flag or environment variable is missing or invalid."""

    exit_code = 2


class InputError(DiscoBenchError):
    """A file given by the user cannot be read or holds invalid records."""

    exit_code = 3

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        field: str | None = None,
        hint: str | None = None,
    ) -> None:
        where = ""
        if path is not None:
            where = str(path)
            if line is not None:
                where += f":{line}"
        if field:
            where += f" (field {field!r})" if where else f"field {field!r}"
        super().__init__(f"{where}: {message}" if where else message, hint=hint)
        self.path = path
        self.line = line
        self.field = field


class ServiceError(DiscoBenchError):
    """An external service (Wikidata, Wikipedia, LLM, Label Studio, Hub) failed."""

    exit_code = 4


class CacheMissError(ServiceError):
    """Replay mode was asked for a request that was never recorded."""

    exit_code = 5


class StageError(DiscoBenchError):
    """A pipeline stage cannot run on what it was given (e.g. an empty input)."""

    exit_code = 6
