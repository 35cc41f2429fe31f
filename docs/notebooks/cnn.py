# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Convolutional neural networks: the notebook
#
# The companion of the [CNN notes](../notes/cnn.md). It checks the output-size formula
#
# $$\text{out} = \left\lfloor \frac{n + 2p - d\,(k - 1) - 1}{s} \right\rfloor + 1$$
#
# of `mlnotes.cnn.conv_output_size` against `torch.nn.Conv2d` on random configurations,
# shows where the kernel lands for a few strides, and measures with autograd how the
# stride changes the receptive field of a stack of convolutions.

# %%
import matplotlib.pyplot as plt
import numpy as np
import torch

from mlnotes.cnn import conv_output_size, kernel_positions, receptive_field

rng = np.random.default_rng(0)

# %% [markdown]
# ## The formula against <code>torch.nn.Conv2d</code>
# <!-- HTML <code>, not backticks: mkdocs-jupyter 0.26 strips backtick spans before it builds
# the table of contents (danielfrg/mkdocs-jupyter#202), so a backticked heading's TOC link
# would be #the-formula-against while the heading's id keeps the code's text.
# tests/test_site.py checks every #fragment link of the site. -->
#
# Random heights, widths, kernel sizes, strides, paddings and dilations, different for
# the two dimensions. Where the kernel does not fit, both refuse.

# %%
agree = refused = 0
for _ in range(300):
    h, w = (
        dict(
            n=int(rng.integers(1, 40)),
            kernel_size=int(rng.integers(1, 8)),
            stride=int(rng.integers(1, 6)),
            padding=int(rng.integers(0, 5)),
            dilation=int(rng.integers(1, 4)),
        )
        for _ in range(2)
    )
    conv = torch.nn.Conv2d(
        1,
        1,
        (h["kernel_size"], w["kernel_size"]),
        stride=(h["stride"], w["stride"]),
        padding=(h["padding"], w["padding"]),
        dilation=(h["dilation"], w["dilation"]),
    )
    try:
        shape = tuple(conv(torch.zeros(1, 1, h["n"], w["n"])).shape[2:])
    except RuntimeError:
        shape = None
    try:
        ours = (conv_output_size(**h), conv_output_size(**w))
    except ValueError:
        ours = None
    assert ours == shape, (h, w, ours, shape)
    agree += shape is not None
    refused += shape is None
print(f"{agree} configurations agree, {refused} refused by both")

# %% [markdown]
# ## Where the kernel lands
#
# A kernel of size 3 over 7 inputs padded with one zero at each end; negative indices
# and indices from 7 on are padding.

# %%
for stride in (1, 2, 3):
    print(f"stride {stride}:", kernel_positions(7, 3, stride=stride, padding=1))

# %% [markdown]
# ## Output size against stride and padding ($n = 16$, $k = 3$)

# %%
strides, paddings = range(1, 6), range(0, 5)
table = np.array(
    [[conv_output_size(16, 3, stride=s, padding=p) for p in paddings] for s in strides]
)
print("rows: stride 1..5, columns: padding 0..4")
print(table)

# %% [markdown]
# ## Receptive field: formula and autograd
#
# With kernels of ones and an input of ones, the gradient of one output with respect to
# the input is positive exactly on the inputs it depends on (with other weights a
# gradient can also vanish by cancellation). The span of that support is what the formula
# gives; a larger stride makes it larger, not smaller.


# %%
def measured_field(kernels, strides):
    x = torch.ones(1, 1, 2000, requires_grad=True)
    h = x
    for k, s in zip(kernels, strides):
        h = torch.nn.functional.conv1d(h, torch.ones(1, 1, k), stride=s)
    h[0, 0, 0].backward()
    support = torch.nonzero(x.grad[0, 0]).ravel()
    return int(support[-1] - support[0] + 1)


depths = range(1, 6)
fig, ax = plt.subplots(figsize=(6, 3.5))
for s in (1, 2, 3):
    formula = [receptive_field([3] * L, [s] * L) for L in depths]
    measured = [measured_field([3] * L, [s] * L) for L in depths]
    assert formula == measured
    ax.plot(list(depths), formula, marker="o", label=f"stride {s}")
ax.set(yscale="log", xlabel="layers", ylabel="receptive field (inputs)")
ax.legend()
plt.show()
