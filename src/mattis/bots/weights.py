"""Reading and writing the numbered layers of a network file (``.npz``), shared by the
``learned`` policy (:mod:`.learned`) and the ``master`` network (:mod:`.network`): the
arrays ``w0``, ``b0``, ``w1`` …, free-text ``meta_*`` entries, and the errors a file that is
not one gets. Each caller names its own error type and words, so messages stay its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..extras import MissingExtra

try:
    import numpy as np
except ImportError as error:  # numpy is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error


def read_arrays(path: str | Path, what: str, error: type[ValueError]) -> dict[str, Any]:
    """Every array of the file at ``path``; an unreadable one raises ``error`` ("cannot read
    the ``what`` …")."""
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            return {key: data[key] for key in data.files}
    except (OSError, ValueError, EOFError) as failure:
        raise error(f"cannot read the {what} {path}: {failure}") from None


def numbered_layers(arrays: Mapping[str, Any], where: str, layer: str,
                    error: type[ValueError]) -> tuple[list[Any], list[Any]]:
    """The weights ``w0``, ``w1`` … and their biases, in order; a weight without its bias
    raises ``error`` ("``where``: ``layer`` N has no bias")."""
    weights: list[Any] = []
    biases: list[Any] = []
    while f"w{len(weights)}" in arrays:
        index = len(weights)
        if f"b{index}" not in arrays:
            raise error(f"{where}: {layer} {index} has no bias")
        weights.append(arrays[f"w{index}"])
        biases.append(arrays[f"b{index}"])
    return weights, biases


def meta_of(arrays: Mapping[str, Any]) -> dict[str, str]:
    """The trainer's notes (``meta_*`` entries), as text."""
    return {key[len("meta_"):]: str(value) for key, value in arrays.items() if key.startswith("meta_")}


def layer_arrays(weights: Sequence[Any], biases: Sequence[Any], meta: Mapping[str, object],
                 dtype: str) -> dict[str, Any]:
    """The numbered layers in ``dtype`` and the notes, as a file holds them."""
    if dtype not in ("float16", "float32"):
        raise ValueError(f"dtype: expected float16 or float32, got {dtype!r}")
    arrays: dict[str, Any] = {}
    for index, (weight, bias) in enumerate(zip(weights, biases, strict=True)):
        arrays[f"w{index}"] = np.asarray(weight, dtype=dtype)
        arrays[f"b{index}"] = np.asarray(bias, dtype=dtype)
    for key, value in meta.items():
        arrays[f"meta_{key}"] = np.array(str(value))
    return arrays


def write_arrays(path: str | Path, arrays: Mapping[str, Any]) -> Path:
    """Write ``arrays`` compressed to ``path``."""
    target = Path(path)
    with target.open("wb") as handle:
        np.savez_compressed(handle, **arrays)
    return target
