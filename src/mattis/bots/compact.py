"""The policy-and-value network as the offline app carries it: one small binary file, and its
arithmetic in plain Python.

The offline app runs on Pyodide without numpy, so ``mattis app build`` writes the shipped
network (:mod:`mattis.bots.network`, whose :func:`~mattis.bots.network.compact_bytes` makes
these bytes) into ``static/app/network.bin``; the worker's JavaScript
(``static/app/network.js``) reads the same bytes and does the same arithmetic much faster.
:class:`CompactNetwork` is that arithmetic in Python: the reference the JavaScript is tested
against, and the evaluator wherever no JavaScript is there (CPython, the tests).

The file, little-endian throughout::

    "MTSN"  u32 version (1)  u32 bytes per weight (2: float16, 4: float32)  u32 trunk layers L
    u32 × (L + 3): inputs, each trunk layer's width, actions, seats
    zeros up to a multiple of 8 bytes
    per trunk layer: weights (inputs × width, one row per input), biases (width)
    policy: weights transposed (actions × width, one row per action), biases (actions)
    value: weights transposed (seats × width), biases (seats)

Rows are laid out so that the sparse first layer adds one row per nonzero input, and the
policy head reads only the rows of the legal actions. Float16 is kept when the weights are
float16 numbers already (the shipped ``.npz`` stores them so): the file is then exact and
half the size.
"""

from __future__ import annotations

import math
import struct
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul
from typing import Final

MAGIC: Final = b"MTSN"
VERSION: Final = 1
HEADER: Final = struct.Struct("<4sIII")
"""The magic, the version, the bytes per weight and the trunk's layer count."""
ALIGN: Final = 8
"""The arrays start at a multiple of this many bytes (a float32 view needs 4)."""
DEVICE_NETWORK: Final = "network.bin"
"""The file's name in the offline app (``static/app/``)."""

Matrix = list[list[float]]


class CompactError(ValueError):
    """Bytes that are not a network of this format."""


@dataclass(frozen=True, slots=True)
class Shape:
    """The sizes a file declares: inputs, the trunk's widths, actions, seats; and its float size."""

    inputs: int
    widths: tuple[int, ...]
    actions: int
    seats: int
    itemsize: int

    @property
    def header_bytes(self) -> int:
        size = HEADER.size + 4 * (len(self.widths) + 3)
        return -(-size // ALIGN) * ALIGN

    def header(self) -> bytes:
        """The file's header, padded to :data:`ALIGN`."""
        head = HEADER.pack(MAGIC, VERSION, self.itemsize, len(self.widths))
        head += struct.pack(f"<{len(self.widths) + 3}I", self.inputs, *self.widths, self.actions, self.seats)
        return head + bytes(self.header_bytes - len(head))

    def array_sizes(self) -> list[int]:
        """How many numbers each array holds, in the file's order."""
        sizes: list[int] = []
        previous = self.inputs
        for width in self.widths:
            sizes += [previous * width, width]
            previous = width
        return [*sizes, self.actions * previous, self.actions, self.seats * previous, self.seats]


def read_shape(data: bytes) -> Shape:
    """The shape a file declares; :class:`CompactError` if the bytes are no such file."""
    if len(data) < HEADER.size:
        raise CompactError("too short for a network file")
    magic, version, itemsize, layers = HEADER.unpack_from(data)
    if magic != MAGIC or version != VERSION or itemsize not in (2, 4) or not 0 < layers < 16:
        raise CompactError("not a Mattis device network (version 1)")
    sizes = struct.unpack_from(f"<{layers + 3}I", data, HEADER.size)
    shape = Shape(sizes[0], tuple(sizes[1:-2]), sizes[-2], sizes[-1], itemsize)
    if len(data) != shape.header_bytes + itemsize * sum(shape.array_sizes()):
        raise CompactError("the file's length does not match its shape")
    return shape


def _floats(data: bytes, offset: int, count: int, itemsize: int) -> list[float]:
    if itemsize == 2:
        return list(struct.unpack_from(f"<{count}e", data, offset))
    numbers = array("f")
    numbers.frombytes(data[offset:offset + 4 * count])
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers.tolist()


def _rows(numbers: list[float], width: int) -> Matrix:
    return [numbers[start:start + width] for start in range(0, len(numbers), width)]


@dataclass(frozen=True, slots=True, eq=False)
class CompactNetwork:
    """A network read from the compact file, evaluated in plain Python over a sparse input."""

    shape: Shape
    trunk: tuple[tuple[Matrix, list[float]], ...]
    """Each trunk layer's weights (one row per input) and biases."""
    policy: tuple[Matrix, list[float]]
    """The policy head: one row of weights per action, and the biases."""
    value: tuple[Matrix, list[float]]
    """The value head: one row of weights per seat, and the biases."""

    @classmethod
    def from_bytes(cls, data: bytes) -> CompactNetwork:
        """The network in ``data`` (:class:`CompactError` if it is not one)."""
        shape = read_shape(data)
        offset, arrays = shape.header_bytes, []
        for count in shape.array_sizes():
            arrays.append(_floats(data, offset, count, shape.itemsize))
            offset += count * shape.itemsize
        trunk = []
        for index, width in enumerate(shape.widths):
            trunk.append((_rows(arrays[2 * index], width), arrays[2 * index + 1]))
        last = shape.widths[-1]
        policy_w, policy_b, value_w, value_b = arrays[-4:]
        return cls(shape, tuple(trunk), (_rows(policy_w, last), policy_b), (_rows(value_w, last), value_b))

    def hidden(self, indices: Sequence[int], values: Sequence[float]) -> list[float]:
        """The trunk's output for the input whose nonzero slots are ``indices`` (each once)
        with ``values``: each layer adds one row of weights per nonzero number it reads."""
        for weights, biases in self.trunk:
            out = list(biases)
            for index, value in zip(indices, values, strict=True):
                row = weights[index]
                if value == 1.0:
                    out = [total + weight for total, weight in zip(out, row, strict=True)]
                else:
                    out = [total + value * weight for total, weight in zip(out, row, strict=True)]
            indices = [index for index, total in enumerate(out) if total > 0.0]
            values = [out[index] for index in indices]
        dense = [0.0] * len(out)
        for index, value in zip(indices, values, strict=True):
            dense[index] = value
        return dense

    def evaluate(self, indices: Sequence[int], values: Sequence[float],
                 legal_indices: Sequence[int]) -> tuple[list[float], list[float]]:
        """Priors over ``legal_indices`` (a softmax of their logits only) and every relative
        seat's chance of ending as Mattis, as :meth:`PolicyValueNet.evaluate
        <mattis.bots.network.PolicyValueNet.evaluate>` gives them for the dense input."""
        hidden = self.hidden(indices, values)
        rows, biases = self.policy
        logits = [biases[action] + sum(map(mul, hidden, rows[action])) for action in legal_indices]
        top = max(logits)
        weights = [math.exp(logit - top) for logit in logits]
        total = sum(weights)
        rows, biases = self.value
        risks = [sigmoid(bias + sum(map(mul, hidden, row))) for row, bias in zip(rows, biases, strict=True)]
        return [weight / total for weight in weights], risks


def sigmoid(logit: float) -> float:
    """The logistic function, without overflow at either end."""
    if logit >= 0.0:
        return 1.0 / (1.0 + math.exp(-logit))
    exp = math.exp(logit)
    return exp / (1.0 + exp)


__all__ = ["DEVICE_NETWORK", "CompactError", "CompactNetwork", "Shape", "read_shape", "sigmoid"]
