"""One explicit registry per plug-in kind (agents, users, judges, search backends).

Names are unique: registering a name twice is refused, so a plug-in can never silently
replace another. Lookup errors list the registered names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from builder.errors import ConfigError

T = TypeVar("T")


class Registry(Generic[T]):
    """Name → factory, for one plug-in kind."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}

    def add(self, name: str, item: T) -> None:
        if name in self._items:
            raise ConfigError(f"{self.kind} {name!r} is already registered", hint="pick a new name")
        self._items[name] = item

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator form of :meth:`add`."""

        def deco(item: T) -> T:
            self.add(name, item)
            return item

        return deco

    def get(self, name: str) -> T:
        """The item registered as ``name``; for ``prefix:arg`` names, the one for ``prefix``."""
        if name in self._items:
            return self._items[name]
        prefix = name.split(":", 1)[0]
        if ":" in name and prefix in self._items:
            return self._items[prefix]
        raise ConfigError(
            f"unknown {self.kind} {name!r}",
            hint=f"choose one of: {', '.join(self.names())}",
        )

    def names(self) -> list[str]:
        return sorted(self._items)

    def __contains__(self, name: str) -> bool:
        return name in self._items
