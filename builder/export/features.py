"""``datasets.Features`` derived from the pydantic records, so the schema is written once.

The walk maps ``str``/``Literal`` → string, ``int`` → int64, ``float`` → float64, ``bool`` →
bool, ``X | None`` → X (nullable in Arrow), ``list[X]`` → ``List(X)``, and a nested model →
a struct of its fields, in declaration order.
"""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin

from datasets import Features, List, Value
from pydantic import BaseModel

from builder.errors import StageError
from builder.records.sample import Sample

_SCALARS: dict[type, str] = {str: "string", int: "int64", float: "float64", bool: "bool"}


def _feature_for(annotation: Any, where: str) -> Any:
    origin = get_origin(annotation)
    if annotation in _SCALARS:
        return Value(_SCALARS[annotation])
    if origin is Literal:
        kinds = {type(a) for a in get_args(annotation)}
        if kinds == {str}:
            return Value("string")
        raise StageError(f"{where}: Literal of {kinds} has no datasets feature")
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        # `Literal[...] | Literal[""]` and `X | None` both collapse to one feature.
        features = [_feature_for(a, where) for a in args]
        first = features[0]
        if all(f == first for f in features):
            return first
        raise StageError(f"{where}: union {annotation} maps to different features")
    if origin is list:
        (item,) = get_args(annotation)
        return List(_feature_for(item, where))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return model_features(annotation)
    raise StageError(f"{where}: no datasets feature for {annotation!r}")


def model_features(model: type[BaseModel]) -> dict[str, Any]:
    """The struct of a model's fields, as a dict of datasets features."""
    return {
        name: _feature_for(field.annotation, f"{model.__name__}.{name}")
        for name, field in model.model_fields.items()
    }


def sample_features() -> Features:
    """Features of an exported Sample row (checkpoints, candidates and evidence nested)."""
    return Features(model_features(Sample))
