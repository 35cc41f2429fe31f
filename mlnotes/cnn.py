r"""Convolution arithmetic: output size, kernel positions and receptive field.

A convolutional layer slides a kernel of `kernel_size` taps, spaced `dilation`
apart, over an input of length `n` padded with `padding` zeros on each side, moving
`stride` positions at a time. These functions compute, per spatial dimension, where
the kernel lands and how big the output is, with the conventions of
`torch.nn.Conv1d`/`Conv2d`/`Conv3d`. Every argument is a Python (or NumPy) integer; a
float or a bool raises `TypeError`, an out-of-range value or an empty output raises
`ValueError` naming the argument.

References:
    Notes "MAC5921 - Deep Learning" (2025-11-23), "Convolutional Neural Networks".
    V. Dumoulin and F. Visin, *A guide to convolution arithmetic for deep learning*,
    arXiv:1603.07285, 2016, chapter 2 and section 5.1. I. Goodfellow, Y. Bengio and
    A. Courville, *Deep Learning*, MIT Press, 2016, section 9.5.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mlnotes import _validation as V

__all__ = ["conv_output_size", "kernel_positions", "receptive_field"]


def _integer(value: object, name: str, minimum: int) -> int:
    """Return `value` as an int >= `minimum`, or raise naming `name`."""
    return V.integer(value, name, minimum=minimum)


def _sequence(values: object, name: str) -> list:
    """Return `values` (a sequence or array of per-layer integers) as a list."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(
            f"{name} must be a sequence of integers, one per layer, got {V.show(values)} "
            f"({type(values).__name__})"
        )
    return list(values)


def conv_output_size(
    n: int, kernel_size: int, stride: int = 1, padding: int = 0, dilation: int = 1
) -> int:
    r"""Length of a convolution's output along one dimension.

    $$\text{out} = \left\lfloor \frac{n + 2p - d\,(k - 1) - 1}{s} \right\rfloor + 1,$$

    with input length $n$, kernel size $k$, stride $s$, padding $p$ (on each side)
    and dilation $d$. The kernel spans $d(k - 1) + 1$ input positions; it fits at
    positions $0, s, 2s, \dots$ of the padded input, of length $n + 2p$, as long as
    it does not run past the end. This is the size `torch.nn.Conv2d` produces, per
    dimension.

    Args:
        n: Input length (height or width), positive.
        kernel_size: Number of kernel taps $k$, positive.
        stride: Step $s$ between two kernel positions, positive.
        padding: Zeros $p$ added at each end of the input, non-negative.
        dilation: Spacing $d$ between kernel taps, positive ($1$: adjacent taps).

    Returns:
        The output length, a positive int.

    Raises:
        TypeError: If an argument is not an integer.
        ValueError: If an argument is out of range, or the dilated kernel is longer
            than the padded input (the output would be empty).

    Examples:
        A 3-tap kernel over 7 inputs: 5 positions at stride 1, 3 at stride 2; one zero
        of padding on each side keeps the length at stride 1 ("same" padding).

        >>> conv_output_size(7, 3)
        5
        >>> conv_output_size(7, 3, stride=2)
        3
        >>> conv_output_size(7, 3, padding=1)
        7
        >>> conv_output_size(7, 3, dilation=3)
        1
        >>> conv_output_size(4, 5)
        Traceback (most recent call last):
        ...
        ValueError: the output would be empty: the kernel spans dilation*(kernel_size - 1) + 1 = 5 positions but the padded input has n + 2*padding = 4 (n=4, kernel_size=5, stride=1, padding=0, dilation=1)

    Equation:
        notes/cnn.md#eq:cnn-output-size

    References:
        Notes, "Convolutional Neural Networks" (stride, padding). Dumoulin and Visin,
        *A guide to convolution arithmetic for deep learning*, 2016, relationship 15;
        `torch.nn.Conv2d` documentation (shape section).
    """
    n = _integer(n, "n", 1)
    kernel_size = _integer(kernel_size, "kernel_size", 1)
    stride = _integer(stride, "stride", 1)
    padding = _integer(padding, "padding", 0)
    dilation = _integer(dilation, "dilation", 1)
    span = dilation * (kernel_size - 1) + 1
    padded = n + 2 * padding
    if span > padded:
        raise ValueError(
            "the output would be empty: the kernel spans dilation*(kernel_size - 1) + 1 = "
            f"{span} positions but the padded input has n + 2*padding = {padded} "
            f"(n={n}, kernel_size={kernel_size}, stride={stride}, padding={padding}, "
            f"dilation={dilation})"
        )
    return (padded - span) // stride + 1


def kernel_positions(
    n: int, kernel_size: int, stride: int = 1, padding: int = 0, dilation: int = 1
) -> list[list[int]]:
    r"""Input indices each output position of a convolution reads.

    Output $i$ reads the padded input at $is + jd$ for $j = 0, \dots, k - 1$. Indices
    are given in the coordinates of the unpadded input, so positions in the padding
    are negative or $\ge n$.

    Args:
        n: Input length, positive.
        kernel_size: Number of kernel taps $k$, positive.
        stride: Step $s$ between two kernel positions, positive.
        padding: Zeros added at each end, non-negative.
        dilation: Spacing $d$ between kernel taps, positive.

    Returns:
        A list with one entry per output position (as many as
            [`conv_output_size`][mlnotes.cnn.conv_output_size] says), each the list of
            the `kernel_size` input indices the kernel reads there (its taps).

    Raises:
        TypeError: If an argument is not an integer.
        ValueError: As [`conv_output_size`][mlnotes.cnn.conv_output_size].

    Examples:
        >>> kernel_positions(5, 3, stride=2, padding=1)
        [[-1, 0, 1], [1, 2, 3], [3, 4, 5]]

        With a stride larger than the kernel, inputs can be skipped: here 2, 5 and 6
        are never read.

        >>> kernel_positions(7, 2, stride=3)
        [[0, 1], [3, 4]]

    References:
        Dumoulin and Visin, *A guide to convolution arithmetic for deep learning*,
        2016, chapter 2 and section 5.1.
    """
    out = conv_output_size(n, kernel_size, stride, padding, dilation)
    return [[i * stride - padding + j * dilation for j in range(kernel_size)] for i in range(out)]


def receptive_field(
    kernel_sizes: Sequence[int],
    strides: Sequence[int] | None = None,
    dilations: Sequence[int] | None = None,
) -> int:
    r"""Length of the receptive field of one output of a stack of convolutions.

    The length counts input positions from the first one the output depends on to
    the last one. With dilations, or strides larger than the kernels, the region can
    have gaps, and the output then depends on fewer positions than that: one layer with
    $k = 3$ taps at dilation 2 reads 3 inputs spread over a length of 5.

    For layers $l = 1, \dots, L$ with kernel size $k_l$, stride $s_l$ and dilation
    $d_l$, the length grows as

    $$r_l = r_{l-1} + d_l\,(k_l - 1)\prod_{i=1}^{l-1} s_i, \qquad r_0 = 1.$$

    A layer's stride does not change what that layer sees, but multiplies the growth of
    every layer after it. So a larger stride never shrinks the receptive field of the
    later layers, and it enlarges it when a later layer has more than one tap; when
    only $1 \times 1$ layers follow, the stride changes nothing
    (`receptive_field([3, 1], strides=[2, 1])` is 3, as with stride 1).

    Args:
        kernel_sizes: Kernel size of each layer, first layer first; at least one.
        strides: Stride of each layer (default: all 1); same length.
        dilations: Dilation of each layer (default: all 1); same length.

    Returns:
        The length of the receptive field along one dimension, in input positions.

    Raises:
        TypeError: If an argument is not a sequence (a single int is not), or an entry
            is not an integer.
        ValueError: If `kernel_sizes` is empty, the lengths differ, or an entry is not
            positive.

    Examples:
        Two 3-tap layers see 5 inputs at stride 1; a stride of 2 in the first layer
        makes it 7 (no gaps: the stride is smaller than the kernel). A dilated kernel
        spans more inputs than it reads:

        >>> receptive_field([3, 3])
        5
        >>> receptive_field([3, 3], strides=[2, 1])
        7
        >>> receptive_field([3], dilations=[2])   # 3 taps, 2 apart: inputs 0, 2, 4
        5
        >>> receptive_field(3)
        Traceback (most recent call last):
        ...
        TypeError: kernel_sizes must be a sequence of integers, one per layer, got 3 (int)

    Equation:
        notes/cnn.md#eq:cnn-receptive-field

    References:
        A. Araujo, W. Norris and J. Sim, "Computing Receptive Fields of Convolutional
        Neural Networks", Distill, 2019: the formula for undilated layers; a dilated
        kernel enters it with its effective size $d(k - 1) + 1$ (Dumoulin and Visin,
        2016, section 5.1). W. Luo, Y. Li, R. Urtasun and R. Zemel, "Understanding the
        Effective Receptive Field in Deep Convolutional Neural Networks", NeurIPS 2016:
        the *effective* receptive field, the part of this region where the gradient is
        large, is a fraction of it.
    """
    kernel_sizes = _sequence(kernel_sizes, "kernel_sizes")
    if not kernel_sizes:
        raise ValueError("kernel_sizes must name at least one layer, got []")
    strides = [1] * len(kernel_sizes) if strides is None else _sequence(strides, "strides")
    dilations = [1] * len(kernel_sizes) if dilations is None else _sequence(dilations, "dilations")
    for name, values in (("strides", strides), ("dilations", dilations)):
        if len(values) != len(kernel_sizes):
            raise ValueError(
                f"{name} must have one entry per layer ({len(kernel_sizes)}), got {values}"
            )
    field, jump = 1, 1
    for layer, (k, s, d) in enumerate(zip(kernel_sizes, strides, dilations)):
        k = _integer(k, f"kernel_sizes[{layer}]", 1)
        s = _integer(s, f"strides[{layer}]", 1)
        d = _integer(d, f"dilations[{layer}]", 1)
        field += d * (k - 1) * jump
        jump *= s
    return field
