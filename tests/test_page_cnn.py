"""Guards for statements of docs/notes/cnn.md that the page states without a doctest.

The page says: "When the dilated kernel is longer than the padded input, there is no
position where it fits and no output: PyTorch raises a `RuntimeError`,
`conv_output_size` a `ValueError`." These tests check both halves on every small
configuration with an empty output, and that a bad argument is named in the error.
"""

from __future__ import annotations

import itertools

import pytest
import torch

from mlnotes.cnn import conv_output_size

EMPTY = [
    (n, k, p, d)
    for n, k, p, d in itertools.product(range(1, 8), range(1, 6), range(3), range(1, 4))
    if d * (k - 1) + 1 > n + 2 * p
]


def test_there_are_empty_configurations():
    assert len(EMPTY) > 20


@pytest.mark.parametrize(("n", "k", "p", "d"), EMPTY)
def test_empty_output_torch_raises_runtime_error_and_we_raise_value_error(n, k, p, d):
    conv = torch.nn.Conv2d(1, 1, (k, 1), padding=(p, 0), dilation=(d, 1))
    with pytest.raises(RuntimeError):
        conv(torch.zeros(1, 1, n, 1))
    with pytest.raises(ValueError):
        conv_output_size(n, k, padding=p, dilation=d)


def test_the_page_example_of_an_empty_output():
    """The example the page used to show: n = 4, k = 3, d = 2 spans 5 > 4 positions."""
    with pytest.raises(ValueError) as info:
        conv_output_size(4, 3, dilation=2)
    assert "4" in str(info.value)  # the value of n (or of the padded length)


@pytest.mark.parametrize("stride", [0, -1])
def test_a_non_positive_stride_is_named_with_its_value(stride):
    with pytest.raises(ValueError) as info:
        conv_output_size(4, 3, stride=stride)
    assert "stride" in str(info.value) and str(stride) in str(info.value)


def test_same_padding_needs_an_undilated_kernel():
    """The page says "an odd, undilated kernel": with dilation 2, p = (k - 1)/2 shrinks."""
    assert [conv_output_size(32, k, padding=(k - 1) // 2) for k in (1, 3, 5, 7)] == [32] * 4
    assert conv_output_size(32, 3, padding=1, dilation=2) == 30
    # the dilated version of "same" padding is p = d (k - 1) / 2
    assert all(conv_output_size(32, k, padding=d * (k - 1) // 2, dilation=d) == 32
               for k in (1, 3, 5) for d in (1, 2, 3))
