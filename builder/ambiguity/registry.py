"""The one place where ambiguity injectors are registered (duplicates refused)."""

from __future__ import annotations

from collections.abc import Sequence

from builder.ambiguity.base import Injector
from builder.ambiguity.criteria import CriteriaInjector
from builder.ambiguity.entity import EntityInjector
from builder.ambiguity.factual import FactualInjector
from builder.ambiguity.version import VersionInjector
from builder.errors import ConfigError

_REGISTRY: dict[str, Injector] = {}


def register(injector: Injector) -> Injector:
    if injector.name in _REGISTRY:
        raise ValueError(f"ambiguity type {injector.name!r} is already registered")
    _REGISTRY[injector.name] = injector
    return injector


def names() -> list[str]:
    return list(_REGISTRY)


def get(types: Sequence[str] | None = None) -> list[Injector]:
    """Injectors for ``types`` (all when None), in registration order."""
    if not types:
        return list(_REGISTRY.values())
    bad = [t for t in types if t not in _REGISTRY]
    if bad:
        raise ConfigError(f"unknown ambiguity type(s) {bad}", hint=f"choose from {names()}")
    return [inj for name, inj in _REGISTRY.items() if name in types]


for _builtin in (EntityInjector(), VersionInjector(), CriteriaInjector(), FactualInjector()):
    register(_builtin)
