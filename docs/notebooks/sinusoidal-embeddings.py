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
# # Sinusoidal embeddings: the notebook
#
# The companion of the post
# [Transformers Breakdown: Sinusoidal Embeddings](../blog/posts/sinusoidal-embeddings.md).
# It redraws the post's figures (and the one of its
# [companion page](../notes/sinusoidal-embeddings-in-practice.md)) with the `mlnotes`
# package, and checks with `assert`s, on the ranges it computes, that the table is
# Definition 1.1 and the properties the post and its corrections establish: each
# dimension is periodic in the (real) position, no two positions share an embedding, a
# shift by $k$ positions is a rotation $M(k)$, and the distance between two embeddings
# depends on their offset only.
# What a figure shows is asserted too, where its text states it. A failed check stops
# the notebook.
#
# The table of Definition 1.1 is
# $SE_{(pos, 2i)} = \sin(\omega_i\, pos)$, $SE_{(pos, 2i+1)} = \cos(\omega_i\, pos)$,
# with $\omega_i = 10000^{-2i/d}$.

# %%
import math

import matplotlib.pyplot as plt
import torch

from mlnotes.embeddings import (
    SinusoidalEmbeddings,
    distance_at_offset,
    frequencies,
    pairwise_distances,
    rounding_error,
    shift_matrix,
    sinusoidal_embeddings,
)

# %% [markdown]
# ## Each dimension over 100 positions, d = 4
#
# Dimensions 0 and 1 turn with $\omega_0 = 1$ (period $2\pi \approx 6.3$ positions),
# dimensions 2 and 3 with $\omega_1 = 0.01$ (period $200\pi \approx 628$ positions).
# The checks: the table equals Definition 1.1 evaluated without `mlnotes`; the periods
# are $2\pi$ and $200\pi$; and at 500 real positions the whole embedding takes the same
# values $200\pi$ later, a period of both frequencies, which tests $\omega_1 = 0.01$
# (with a wrong frequency, $200\pi\,\omega_1$ would not be a multiple of $2\pi$).

# %%
table = sinusoidal_embeddings(100, 4)
omega = frequencies(4)
periods = 2 * math.pi / omega
print("omega:", omega.tolist(), " periods:", periods.tolist())
# Definition 1.1, without mlnotes: SE(pos, 2i) = sin(pos / 10000^(2i/d)), 2i + 1: cos
definition = torch.tensor(
    [
        [f(p / 10000 ** (2 * i / 4)) for i in range(2) for f in (math.sin, math.cos)]
        for p in range(100)
    ],
    dtype=torch.float64,
)
assert (table.double() - definition).abs().max() < 1e-6  # float32 table: rounding only
assert torch.allclose(periods, torch.tensor([2 * math.pi, 200 * math.pi], dtype=torch.float64))
# the whole embedding is periodic in the (real) position, with period 200π = 2π · 10000^(2/4)
pos = torch.linspace(0, 99, 500, dtype=torch.float64)[:, None]
assert torch.allclose(torch.sin((pos + 200 * math.pi) * omega), torch.sin(pos * omega))
assert torch.allclose(torch.cos((pos + 200 * math.pi) * omega), torch.cos(pos * omega))

fig, ax = plt.subplots(figsize=(8, 3.5))
for j in range(4):
    ax.plot(
        table[:, j],
        linestyle="-" if j % 2 == 0 else "--",
        label=f"dim {j}: {('sin', 'cos')[j % 2]}(pos · ω{j // 2})",
    )
ax.set(xlabel="position pos", ylabel="SE(pos, j)")
ax.legend(loc="lower left", fontsize=8)
plt.show()
# %% [markdown]
# ## 100 positions × 128 dimensions
#
# The frequencies decay exponentially with the dimension index: from each position to
# the next, one of columns 0 to 3 changes by more than 0.5, while each of columns 90 to
# 127 changes by less than 0.2 over all 100 positions.

# %%
table = sinusoidal_embeddings(100, 128)
assert (table[1:, :4] - table[:-1, :4]).abs().max(dim=1).values.min() > 0.5
assert (table[:, 90:] - table[0, 90:]).abs().max() < 0.2
fig, ax = plt.subplots(figsize=(8, 4))
image = ax.imshow(table, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
fig.colorbar(image, ax=ax, label="SE(pos, j)")
ax.set(xlabel="dimension j", ylabel="position pos")
# %% [markdown]
# ## Injectivity
#
# No two of the first 100 001 positions share an embedding (d = 128). The distance
# between positions $t$ and $t + k$ is the closed form `distance_at_offset(k)` (checked
# against the table at $t$ = 0 and 1000, $k$ = 0 to 999), and over the offsets 1 to
# 100 000 it is smallest between neighbours. (The proof, for all positions, is in
# section 2.2 of the post, in the correction box.)

# %%
se = sinusoidal_embeddings(2000, 128, dtype=torch.float64)
closed = distance_at_offset(torch.arange(1000), 128)
assert torch.allclose((se[:1000] - se[0]).norm(dim=1), closed)
assert torch.allclose((se[1000:] - se[1000]).norm(dim=1), closed)
dist = distance_at_offset(torch.arange(1, 100_001), 128)
print(f"smallest distance {dist.min().item():.4f} at offset {int(dist.argmin()) + 1}")
assert dist.min() > 0 and int(dist.argmin()) == 0  # offset 1: neighbours

# %% [markdown]
# ## A shift is a rotation: SE(t + k) = M(k) SE(t)
#
# $M(k)$ (the post's matrix $M$, section 2.3) depends on $k$, not on $t$. $SE$ itself is
# not linear: $SE(0) \neq 0$.

# %%
se = sinusoidal_embeddings(200, 16, dtype=torch.float64)
M = shift_matrix(7, 16, dtype=torch.float64)
assert all(torch.allclose(M @ se[t], se[t + 7]) for t in range(193))  # t = 0, ..., 192
assert torch.allclose(M @ M.T, torch.eye(16, dtype=torch.float64))  # a rotation
assert not torch.allclose(M, shift_matrix(5, 16, dtype=torch.float64))  # M depends on k
assert se[0].abs().max() > 0  # SE(0) != 0: SE is not linear
print("SE(0) =", se[0].tolist())

# %% [markdown]
# ## Distances between 1000 positions, d = 1000
#
# `pairwise_distances` needs $O(n^2 + nd)$ memory; the post's Listing 4 builds an
# $(n, n, d)$ tensor, 4 GB here. The distance is 0 on the diagonal and more than 5 off
# it; away from the diagonal it grows, though not monotonically (next section).

# %%
table = sinusoidal_embeddings(1000, 1000)
distances = pairwise_distances(table)
assert (distances.diagonal() == 0).all()
assert distances[~torch.eye(1000, dtype=torch.bool)].min() > 5
fig, ax = plt.subplots(figsize=(6, 5))
image = ax.imshow(distances, cmap="viridis", vmin=0, vmax=math.sqrt(1000))
fig.colorbar(image, ax=ax, label="‖SE(pos₁) − SE(pos₂)‖₂")
ax.set(xlabel="pos₂", ylabel="pos₁")
# %% [markdown]
# ## The distance against the offset
#
# It does not depend on $t$ (rows 0 and 500 of the table agree with the closed form at
# the offsets 0 to 499), and it grows with the offset, not linearly (from $k$ = 500 to
# 999 the slope is under 1 % of its value from 0 to 10) and not monotonically, towards
# $\sqrt{d}$, below it at all 1000 offsets.

# %%
k = torch.arange(1000)
ks = torch.arange(0, 500, 25)
closed = distance_at_offset(torch.arange(500), 1000).float()
assert torch.allclose(distances[0, :500], closed, atol=1e-3)
assert torch.allclose(distances[500, 500:], closed, atol=1e-3)
dist = distance_at_offset(k, 1000)
assert (dist[999] - dist[500]) / 499 < 0.01 * (dist[10] - dist[0]) / 10  # not linear
assert (dist[1:] < dist[:-1]).any()  # not monotone (first decrease: k = 68 to 69)
assert dist.max() < math.sqrt(1000)
fig, ax = plt.subplots(figsize=(8, 3.5))
ax.plot(k, dist, label="distance_at_offset(k, 1000)")
ax.plot(ks, distances[0, ks], "o", label="row t = 0")
ax.plot(ks, distances[500, 500 + ks], "x", label="row t = 500")
ax.axhline(math.sqrt(1000), linestyle="--", color="C3", label="√d")
ax.set(xlabel="offset k", ylabel="‖SE(t + k) − SE(t)‖₂", ylim=(0, 34))
ax.legend(loc="lower right")
plt.show()
# %% [markdown]
# ## The companion page's figure: float32 rounding error against the position
#
# Computing the angles in float32, as the post's Listing 1 does, costs about
# $pos \cdot 2^{-24}$ of accuracy (between 0.3 and 1.3 times that, for these 112
# positions and $d$ = 128 and 512).

# %%
positions = torch.logspace(0, 7, 120).round().unique()
fig, ax = plt.subplots(figsize=(8, 3.5))
for d in (128, 512):
    err = rounding_error(positions, d)
    ratio = err / (positions.double() * 2.0**-24)
    assert 0.3 < ratio.min() and ratio.max() < 1.3
    ax.loglog(positions, err, label=f"d = {d}")
ax.loglog(positions, positions * 2.0**-24, "--", label="pos · 2⁻²⁴")
ax.set(xlabel="position pos", ylabel="max error in the row")
ax.legend()
plt.show()
# %% [markdown]
# ## In a model
#
# The table is a buffer, not a parameter, so it is not trained, and `module.to(...)`
# moves and casts it (the companion page's last section). Checked here: the names of the
# buffers and parameters, and the cast to float64; this CPU notebook moves nothing to
# another device.

# %%
pe = SinusoidalEmbeddings(max_pos=512, embed_dim=64)
tokens = torch.nn.Embedding(1000, 64)
token_ids = torch.randint(0, 1000, (2, 10))
x = tokens(token_ids) * math.sqrt(64) + pe(torch.arange(10))
assert x.shape == (2, 10, 64)
assert [name for name, _ in pe.named_buffers()] == ["embeddings"] and list(pe.parameters()) == []
assert pe.to(torch.float64).embeddings.dtype == torch.float64
print(x.shape)
