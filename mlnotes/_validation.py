"""Argument checks shared by every public function of `mlnotes` (private).

One check per kind of argument, so the same kind is treated the same way everywhere:
`integer` (a Python or NumPy integer, never a bool, float or string), `boolean` (a
Python or NumPy bool), `real` and `probability` (a real number, NaN always rejected,
±inf unless allowed, optionally within a range), `real_array` and `probability_array`
(an array-like of real numbers as a float64 array: booleans, complex values, strings,
None and ragged nesting rejected), `floating_dtype` (a floating `torch.dtype`).

Every error is a `TypeError` (wrong kind of value) or a `ValueError` (right kind,
wrong value) whose message names the argument and shows the value received (an
array's shape instead, when its number of dimensions or its emptiness is wrong).
"""

from __future__ import annotations

import math
import numbers
import reprlib

import numpy as np

__all__ = [
    "boolean",
    "floating_dtype",
    "integer",
    "probability",
    "probability_array",
    "real",
    "real_array",
    "scalar_or_array",
    "show",
]

_repr = reprlib.Repr()
_repr.maxlist = _repr.maxtuple = 8
_repr.maxstring = 60
_repr.maxother = 120


def show(value: object) -> str:
    """A short repr of `value` for an error message (long sequences are elided)."""
    if isinstance(value, np.ndarray):
        text = np.array2string(value, threshold=16, edgeitems=3, separator=", ")
        return text if len(text) <= 200 else text[:197] + "..."
    if isinstance(value, (np.generic, numbers.Number)) and not isinstance(value, (bool, np.bool_)):
        return repr(value.item() if isinstance(value, np.generic) else value)
    text = (
        repr(value)
        if isinstance(value, (list, tuple)) and len(repr(value)) <= 200
        else _repr.repr(value)
    )
    return text


def _is_bool(value: object) -> bool:
    return isinstance(value, (bool, np.bool_))


def integer(
    value: object, name: str, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """Return `value` as a Python int, checking it is an integer in [`minimum`, `maximum`].

    Python and NumPy integers are accepted; bools, floats (even integral ones),
    strings and None raise `TypeError`; an integer below `minimum` or above `maximum`
    raises `ValueError`.
    """
    if _is_bool(value) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {show(value)} ({type(value).__name__})")
    value = int(value)
    if minimum is not None and value < minimum:
        kind = {0: "a non-negative integer", 1: "a positive integer"}.get(
            minimum, f"an integer >= {minimum}"
        )
        raise ValueError(f"{name} must be {kind}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {value}")
    return value


def boolean(value: object, name: str) -> bool:
    """Return `value` as a Python bool, checking it is a Python or NumPy bool.

    Anything else (0 and 1 included, which a flag would silently accept as falsy or
    truthy) raises `TypeError`.
    """
    if not _is_bool(value):
        raise TypeError(f"{name} must be True or False, got {show(value)} ({type(value).__name__})")
    return bool(value)


def _range_text(low, low_open, high, high_open) -> str:
    if low is None and high is None:
        return "a finite real number"
    left = "(" if low_open or low is None else "["
    right = ")" if high_open or high is None else "]"
    lo = "-inf" if low is None else f"{low:g}"
    hi = "inf" if high is None else f"{high:g}"
    return f"a real number in {left}{lo}, {hi}{right}"


def real(
    value: object,
    name: str,
    *,
    finite: bool = True,
    low: float | None = None,
    low_open: bool = False,
    high: float | None = None,
    high_open: bool = False,
    what: str | None = None,
) -> float:
    """Return `value` as a Python float, checking it is a real number in range.

    Python, NumPy and `fractions` reals (and 0-d real arrays) are accepted; bools,
    complex numbers, strings and None raise `TypeError`. NaN always raises
    `ValueError`; so does ±inf when `finite`, and a value outside
    `[low, high]` (ends excluded when `low_open`/`high_open`). `what` replaces the
    generated description of the range in the message.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if _is_bool(value) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {show(value)} ({type(value).__name__})")
    try:
        number = float(value)
    except OverflowError:  # an int or Fraction beyond the float range
        number = math.copysign(math.inf, value)
    description = what or _range_text(low, low_open, high, high_open)
    bad = (
        math.isnan(number)
        or (finite and math.isinf(number))
        or (low is not None and (number < low or (low_open and number == low)))
        or (high is not None and (number > high or (high_open and number == high)))
    )
    if bad:
        raise ValueError(f"{name} must be {description}, got {show(value)}")
    return number


def probability(value: object, name: str, *, low_open: bool = False) -> float:
    """Return `value` as a float in [0, 1] (in (0, 1] when `low_open`)."""
    interval = "(0, 1]" if low_open else "[0, 1]"
    return real(
        value, name, low=0.0, low_open=low_open, high=1.0, what=f"a probability in {interval}"
    )


def real_array(
    value: object,
    name: str,
    *,
    finite: bool = True,
    ndim: int | tuple[int, ...] | None = None,
    nonempty: bool = False,
    what: str = "a real number or an array of real numbers",
) -> np.ndarray:
    """Return `value` as a float64 NumPy array of real numbers.

    Accepts numbers, nested sequences and arrays of Python/NumPy integers and floats
    (and `Fraction`s), and torch tensors (copied to the CPU). Raises `TypeError` for
    None, strings, booleans, complex values, ragged nesting or other objects;
    `ValueError` for NaN, for ±inf when `finite`, for a number of dimensions not in
    `ndim` and for an empty array when `nonempty`.
    """
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be {what}, got {show(value)} ({type(value).__name__})")
    if type(value).__module__.startswith("torch") and hasattr(value, "detach"):
        tensor = value.detach().cpu()
        if tensor.is_floating_point():  # bfloat16 and float16 have no NumPy twin here
            tensor = tensor.double()
        value = tensor.numpy()  # bool and complex tensors are rejected below
    try:
        raw = np.asarray(value)
    except ValueError:  # ragged nesting
        raise TypeError(f"{name} must be {what} (a rectangular array), got {show(value)}") from None
    kind = raw.dtype.kind
    if kind == "b":
        raise TypeError(f"{name} must hold real numbers, not booleans, got {show(value)}")
    if kind == "c":
        raise TypeError(f"{name} must hold real numbers, not complex ones, got {show(value)}")
    if kind in "iuf" and isinstance(value, (list, tuple)) and raw.size:
        # NumPy turns [True, 1] into an integer array: look for booleans it absorbed
        for v in np.asarray(value, dtype=object).ravel():
            if _is_bool(v):
                raise TypeError(f"{name} must hold real numbers, not booleans, got {show(value)}")
    if kind in "iuf":
        array = raw.astype(np.float64)
    elif kind == "O":
        flat = raw.ravel()
        for v in flat:
            if _is_bool(v) or not isinstance(v, numbers.Real):
                raise TypeError(
                    f"{name} must be {what}, got {show(value)} (holding {type(v).__name__})"
                )
        array = np.empty(raw.shape, dtype=np.float64)
        out = array.ravel()
        for i, v in enumerate(flat):
            try:
                out[i] = float(v)
            except OverflowError:
                out[i] = math.copysign(math.inf, v)
    else:
        raise TypeError(f"{name} must be {what}, got {show(value)} (dtype {raw.dtype})")
    if np.isnan(array).any():
        raise ValueError(f"{name} must not contain NaN, got {show(value)}")
    if finite and np.isinf(array).any():
        raise ValueError(f"{name} must be finite (no ±inf), got {show(value)}")
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else ndim
        if array.ndim not in allowed:
            dims = " or ".join(f"{d}-D" for d in allowed)
            raise ValueError(f"{name} must be {dims}, got shape {array.shape}")
    if nonempty and array.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {array.shape}")
    return array


def probability_array(value: object, name: str, **kwargs) -> np.ndarray:
    """Return `value` as a float64 array of numbers in [0, 1] (see `real_array`)."""
    array = real_array(value, name, **kwargs)
    if ((array < 0) | (array > 1)).any():
        raise ValueError(f"{name} must be a probability in [0, 1], got {show(value)}")
    return array


def scalar_or_array(result: object, like: object) -> float | np.ndarray:
    """A Python float when the input `like` was a scalar, else a float64 array."""
    result = np.asarray(result, dtype=np.float64)
    return float(result) if np.ndim(like) == 0 else result


def floating_dtype(dtype: object, name: str = "dtype"):
    """Return a floating `torch.dtype`; `None` means `torch.get_default_dtype()`.

    Integer, bool and complex dtypes (and anything that is not a `torch.dtype`) raise
    `TypeError`: a table of sines and cosines cast to an integer dtype is silently
    truncated to -1, 0 and 1. Every floating dtype passes, float8 ones included.
    """
    import torch

    if dtype is None:
        return torch.get_default_dtype()
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise TypeError(
            f"{name} must be a floating-point torch.dtype (such as float32 or float64), got {dtype!r}"
        )
    return dtype
