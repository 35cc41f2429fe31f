"""Guards for statements of docs/notes/cnn.md that the page states without a doctest.

The page says: "When the dilated kernel is longer than the padded input, there is no
position where it fits and no output: PyTorch raises a `RuntimeError`,
`conv_output_size` a `ValueError`." These tests check both halves on every small
configuration with an empty output, and that a bad argument is named in the error.
They also check the quantifiers of the stride correction and of the receptive-field
paragraph: the receptive field *can* have gaps; a larger stride never shrinks a later
receptive field and widens it behind any kernel wider than one pixel; an undilated
kernel skips pixels between two positions exactly when s > k, a dilated one can at
s = k; and the last (n + 2p - k) mod s pixels of the padded input go unread at any
stride (docs/sources.md).
"""

from __future__ import annotations

import itertools

import pytest
import torch

from mlnotes.cnn import conv_output_size, kernel_positions, receptive_field

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
    assert all(
        conv_output_size(32, k, padding=d * (k - 1) // 2, dilation=d) == 32
        for k in (1, 3, 5)
        for d in (1, 2, 3)
    )


def _inputs_read(kernel_sizes, strides, dilations, n=200):
    """Indices of the inputs that output 0 of a stack of conv1d layers depends on (autograd)."""
    x = torch.ones(1, 1, n, dtype=torch.float64, requires_grad=True)
    h = x
    for k, s, d in zip(kernel_sizes, strides, dilations):
        h = torch.nn.functional.conv1d(
            h, torch.ones(1, 1, k, dtype=torch.float64), stride=s, dilation=d
        )
    h[0, 0, 0].backward()
    return torch.nonzero(x.grad[0, 0]).flatten().tolist()


@pytest.mark.parametrize(
    ("stack", "gaps"),
    [
        (([3], [1], [2]), True),  # one dilated layer: taps 0, 2, 4
        (([2, 3], [3, 1], [1, 1]), True),  # a stride larger than the kernel, then a layer
        (([2, 2, 2], [1, 1, 1], [1, 2, 4]), False),  # WaveNet-style dilations: 8 contiguous inputs
        (([3, 3], [1, 1], [1, 2]), False),  # a dilated layer over an undilated one
        (([2], [3], [1]), False),  # the last layer's stride changes nothing
    ],
)
def test_the_receptive_field_can_but_need_not_have_gaps(stack, gaps):
    """The page: "with dilations, or strides larger than the kernels, the region can have
    gaps"; its formula gives the span, from the first input read to the last."""
    read = _inputs_read(*stack)
    span = read[-1] - read[0] + 1
    assert span == receptive_field(*stack)
    assert (len(read) < span) is gaps


def test_a_stride_never_shrinks_later_receptive_fields_and_widens_them_behind_a_kernel_wider_than_one():
    """The stride correction: a greater stride never makes later features more localized,
    and makes them less localized as soon as a later kernel is wider than one pixel."""
    for kernels in itertools.product((1, 2, 3), repeat=3):
        for s in (1, 2, 3):
            narrow = receptive_field(list(kernels), [s, 1, 1])
            wide = receptive_field(list(kernels), [s + 1, 1, 1])
            assert wide >= narrow
            assert (wide > narrow) is any(k > 1 for k in kernels[1:])
    assert receptive_field([3, 1], [2, 1]) == receptive_field([3, 1], [1, 1]) == 3


def test_a_dilated_kernel_can_skip_pixels_when_the_stride_equals_the_kernel():
    """The stride correction's Check: "for an undilated kernel", pixels are skipped only
    once s > k; a dilated kernel of size 2 at stride 2 never reads the odd inputs."""
    read = {i for row in kernel_positions(10, 2, stride=2, dilation=2) for i in row}
    assert sorted(set(range(10)) - read) == [1, 3, 5, 7, 9]
    for n, k, s in itertools.product(range(4, 12), range(1, 5), range(1, 6)):
        if k > n or conv_output_size(n, k, stride=s) < 2:
            continue  # skipping needs two positions to skip between
        read = {i for row in kernel_positions(n, k, stride=s) for i in row}
        last = max(read)
        assert (set(range(last + 1)) - read != set()) is (s > k)


def test_the_last_pixels_go_unread_at_any_stride_unless_the_kernel_ends_there():
    """docs/sources.md: "at any stride the last (n + 2p - k) mod s pixels of the padded input
    are never read: kernel_positions(10, 3, stride=2) never reads input 9"."""
    assert max(i for row in kernel_positions(10, 3, stride=2) for i in row) == 8
    for n, k, s, p in itertools.product(range(1, 16), range(1, 6), range(1, 6), range(3)):
        if k > n + 2 * p:
            continue
        last = max(i for row in kernel_positions(n, k, stride=s, padding=p) for i in row)
        assert (n + p - 1) - last == (n + 2 * p - k) % s, (n, k, s, p)


@pytest.mark.parametrize("k", [2, 3, 4, 5, 7])
def test_border_pixels_are_read_less_and_same_padding_centres_every_pixel(k):
    """The page: at stride 1 without padding, each of the k - 1 pixels nearest a border
    is read by fewer kernel positions than one in the middle of a large input (the pixel
    on the border by a single one), and the (k - 1)/2 nearest each border are never the
    centre of a kernel of odd size k; with "same" padding, every pixel is the centre of
    one position."""
    for n in range(2 * k - 1, 2 * k + 8):
        positions = kernel_positions(n, k)
        reads = [sum(i in row for row in positions) for i in range(n)]
        assert reads[0] == reads[-1] == 1
        assert max(reads) == k and reads[k - 1] == k  # a pixel in the middle
        assert all(reads[i] < k for i in range(k - 1))  # the k - 1 pixels at the border
        if k % 2:
            half = (k - 1) // 2
            centres = {row[half] for row in positions}
            assert all(i not in centres for i in range(half))
            assert half in centres  # the (k - 1)/2 nearest the border only
            same = {row[half] for row in kernel_positions(n, k, padding=half)}
            assert same == set(range(n))
