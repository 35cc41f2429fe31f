"""Tests of mlnotes.cnn against torch.nn.Conv2d and torch's autograd."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mlnotes.cnn import conv_output_size, kernel_positions, receptive_field

configs = st.fixed_dictionaries(
    {
        "n": st.integers(1, 40),
        "kernel_size": st.integers(1, 7),
        "stride": st.integers(1, 6),
        "padding": st.integers(0, 5),
        "dilation": st.integers(1, 4),
    }
)


def torch_output_shape(height, width):
    """Output (H, W) of torch.nn.Conv2d with per-dimension parameters, or None if it refuses."""
    conv = torch.nn.Conv2d(
        1,
        1,
        kernel_size=(height["kernel_size"], width["kernel_size"]),
        stride=(height["stride"], width["stride"]),
        padding=(height["padding"], width["padding"]),
        dilation=(height["dilation"], width["dilation"]),
        bias=False,
    )
    x = torch.zeros(1, 1, height["n"], width["n"])
    try:
        with torch.no_grad():
            return tuple(conv(x).shape[-2:])
    except RuntimeError:
        return None


def empty(config):
    """Whether the dilated kernel is longer than the padded input (no output), by the
    definition rather than by the formula under test."""
    span = config["dilation"] * (config["kernel_size"] - 1) + 1
    return span > config["n"] + 2 * config["padding"]


def ours(config):
    try:
        return conv_output_size(**config)
    except ValueError:
        return None


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(configs, configs)
def test_conv_output_size_matches_torch_conv2d(height, width):
    expected = torch_output_shape(height, width)
    got_h, got_w = ours(height), ours(width)
    if expected is None:
        assert got_h is None or got_w is None
    else:
        assert (got_h, got_w) == expected


@pytest.mark.slow
def test_conv_output_size_matches_torch_on_a_grid():
    """Every small configuration, height only (width 1, kernel 1)."""
    width = {"n": 1, "kernel_size": 1, "stride": 1, "padding": 0, "dilation": 1}
    for n, k, s, p, d in itertools.product(
        range(1, 9), range(1, 5), range(1, 4), range(3), range(1, 3)
    ):
        height = {"n": n, "kernel_size": k, "stride": s, "padding": p, "dilation": d}
        expected = torch_output_shape(height, width)
        assert ours(height) == (None if expected is None else expected[0]), height


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(configs)
def test_kernel_positions_are_the_inputs_torch_reads(config):
    """conv1d with a one-hot kernel at tap j returns the input at index i*s - p + j*d."""
    if empty(config):  # no output: the error, and nothing else to compare
        with pytest.raises(ValueError, match="the output would be empty"):
            kernel_positions(**config)
    assume(not empty(config))
    positions = kernel_positions(**config)
    n, k = config["n"], config["kernel_size"]
    x = torch.arange(1, n + 1, dtype=torch.float64)[None, None, :]
    assert len(positions) == conv_output_size(**config)
    for j in range(k):
        weight = torch.zeros(1, 1, k, dtype=torch.float64)
        weight[0, 0, j] = 1.0
        out = torch.nn.functional.conv1d(
            x,
            weight,
            stride=config["stride"],
            padding=config["padding"],
            dilation=config["dilation"],
        )[0, 0].numpy()
        indices = np.array([row[j] for row in positions])
        inside = (indices >= 0) & (indices < n)
        expected = np.where(inside, np.clip(indices, 0, n - 1) + 1.0, 0.0)  # padding reads 0
        np.testing.assert_array_equal(out, expected)


@st.composite
def stacks(draw):
    layers = draw(st.integers(1, 4))
    ks = draw(st.lists(st.integers(1, 5), min_size=layers, max_size=layers))
    ss = draw(st.lists(st.integers(1, 3), min_size=layers, max_size=layers))
    ds = draw(st.lists(st.integers(1, 3), min_size=layers, max_size=layers))
    return ks, ss, ds


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(stacks())
def test_receptive_field_matches_torch_gradient(stack):
    """The inputs one output depends on: where the gradient of that output is non-zero."""
    ks, ss, ds = stack
    field = receptive_field(ks, ss, ds)
    n = field + 64
    x = torch.ones(1, 1, n, dtype=torch.float64, requires_grad=True)
    h = x
    for k, s, d in zip(ks, ss, ds):
        weight = torch.ones(1, 1, k, dtype=torch.float64)
        h = torch.nn.functional.conv1d(h, weight, stride=s, dilation=d)
    h[0, 0, 0].backward()
    support = np.flatnonzero(x.grad[0, 0].numpy())
    assert support[-1] - support[0] + 1 == field


def test_receptive_field_grows_with_stride():
    """Against the notes: a larger stride makes later features *less* localized."""
    kernels = [3, 3, 3]
    fields = [receptive_field(kernels, [s, s, 1]) for s in (1, 2, 3)]
    assert fields == [7, 15, 27]


@given(configs)
def test_output_size_is_monotone(config):
    if empty(config):
        with pytest.raises(ValueError, match="the output would be empty"):
            conv_output_size(**config)
    assume(not empty(config))
    out = conv_output_size(**config)
    more_stride = dict(config, stride=config["stride"] + 1)
    more_padding = dict(config, padding=config["padding"] + 1)
    assert conv_output_size(**more_stride) <= out
    assert conv_output_size(**more_padding) >= out
    if config["stride"] <= 2:  # one more pixel of padding: 2 more outputs, then 1
        assert conv_output_size(**more_padding) == out + 3 - config["stride"]


def test_more_padding_does_not_always_mean_a_larger_output():
    """Against the notes: from stride 3 on, one more pixel of padding can change nothing."""
    assert (
        conv_output_size(4, 3, stride=4, padding=0)
        == conv_output_size(4, 3, stride=4, padding=1)
        == 1
    )
    assert [conv_output_size(16, 3, stride=4, padding=p) for p in range(5)] == [4, 4, 5, 5, 6]
    assert [conv_output_size(16, 3, stride=3, padding=p) for p in range(4)] == [5, 6, 6, 7]


def test_stride_larger_than_kernel_skips_inputs():
    read = {i for row in kernel_positions(10, 2, stride=3) for i in row}
    assert sorted(set(range(10)) - read) == [2, 5, 8, 9]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n": 0, "kernel_size": 3}, ValueError, "n must be a positive integer, got 0"),
        ({"n": 5, "kernel_size": 0}, ValueError, "kernel_size must be a positive integer, got 0"),
        (
            {"n": 5, "kernel_size": 3, "stride": 0},
            ValueError,
            "stride must be a positive integer, got 0",
        ),
        (
            {"n": 5, "kernel_size": 3, "stride": -2},
            ValueError,
            "stride must be a positive integer, got -2",
        ),
        (
            {"n": 5, "kernel_size": 3, "padding": -1},
            ValueError,
            "padding must be a non-negative integer, got -1",
        ),
        (
            {"n": 5, "kernel_size": 3, "dilation": 0},
            ValueError,
            "dilation must be a positive integer, got 0",
        ),
        ({"n": 5, "kernel_size": 3, "dilation": 3}, ValueError, "the output would be empty"),
        ({"n": 2, "kernel_size": 5, "padding": 1}, ValueError, "the output would be empty"),
        ({"n": 5.0, "kernel_size": 3}, TypeError, r"n must be an integer, got 5.0 \(float\)"),
        ({"n": 5, "kernel_size": True}, TypeError, "kernel_size must be an integer, got True"),
    ],
)
def test_conv_output_size_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        conv_output_size(**kwargs)


def test_numpy_integers_are_accepted():
    assert conv_output_size(np.int64(7), np.int32(3), stride=np.int8(2)) == 3


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        (([],), ValueError, "kernel_sizes must name at least one layer"),
        (([3, 3], [1]), ValueError, r"strides must have one entry per layer \(2\)"),
        (([3], [1], [1, 1]), ValueError, r"dilations must have one entry per layer \(1\)"),
        (([3, 0],), ValueError, r"kernel_sizes\[1\] must be a positive integer, got 0"),
        (([3], [0]), ValueError, r"strides\[0\] must be a positive integer"),
        (([3], [1.5]), TypeError, r"strides\[0\] must be an integer"),
    ],
)
def test_receptive_field_errors(args, error, message):
    with pytest.raises(error, match=message):
        receptive_field(*args)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kernel_sizes": []}, "kernel_sizes must name at least one layer, got []"),
        ({"kernel_sizes": [3], "dilations": [0]}, "dilations[0] must be a positive integer, got 0"),
    ],
)
def test_receptive_field_errors_in_full(kwargs, message):
    with pytest.raises(ValueError) as info:
        receptive_field(**kwargs)
    assert str(info.value) == message
