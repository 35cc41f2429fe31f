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
# It redraws the post's figures with the `mlnotes` package and checks, in code, the
# properties the post proves: each dimension is periodic in the position, no two
# positions share an embedding, a shift by $k$ positions is a rotation $M(k)$, and the
# distance between two embeddings depends on their offset only.
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
# ## Figure 1: each dimension over 100 positions, d = 4
#
# Dimensions 0 and 1 turn with $\omega_0 = 1$ (period $2\pi \approx 6.3$ positions),
# dimensions 2 and 3 with $\omega_1 = 0.01$ (period $200\pi \approx 628$ positions).

# %%
table = sinusoidal_embeddings(100, 4)
omega = frequencies(4)
print("omega:", omega.tolist(), " periods:", (2 * math.pi / omega).tolist())

fig, ax = plt.subplots(figsize=(8, 3.5))
for j in range(4):
    ax.plot(table[:, j], linestyle="-" if j % 2 == 0 else "--",
            label=f"dim {j}: {('sin', 'cos')[j % 2]}(pos · ω{j // 2})")
ax.set(xlabel="position pos", ylabel="SE(pos, j)")
ax.legend(loc="lower left", fontsize=8);

# %% [markdown]
# ## Figure 2: 100 positions × 128 dimensions
#
# The frequencies decay exponentially with the dimension index: the left columns change
# from one position to the next, the right ones hardly change over 100 positions.

# %%
table = sinusoidal_embeddings(100, 128)
fig, ax = plt.subplots(figsize=(8, 4))
image = ax.imshow(table, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
fig.colorbar(image, ax=ax, label="SE(pos, j)")
ax.set(xlabel="dimension j", ylabel="position pos");

# %% [markdown]
# ## Injectivity
#
# No two of the first 100 000 positions share an embedding: the smallest distance between
# two of them, at any offset, is the distance between neighbours.

# %%
dist = distance_at_offset(torch.arange(1, 100_001), 128)
print(f"smallest distance {dist.min().item():.4f} at offset {int(dist.argmin()) + 1}")

# %% [markdown]
# ## A shift is a rotation: SE(t + k) = M(k) SE(t)
#
# $M(k)$ (the post's matrix $M$, section 2.3) depends on $k$, not on $t$. $SE$ itself is
# not linear: $SE(0) \neq 0$.

# %%
se = sinusoidal_embeddings(200, 16, dtype=torch.float64)
M = shift_matrix(7, 16, dtype=torch.float64)
print("M(7) SE(t) == SE(t + 7) for every t:", all(torch.allclose(M @ se[t], se[t + 7]) for t in range(193)))
print("M(7) is orthogonal:", torch.allclose(M @ M.T, torch.eye(16, dtype=torch.float64)))
print("SE(0) =", se[0].tolist())

# %% [markdown]
# ## Figure 3: distances between 1000 positions, d = 1000
#
# `pairwise_distances` needs $O(n^2 + nd)$ memory; the post's Listing 4 builds an
# $(n, n, d)$ tensor, 4 GB here. The distance is 0 on the diagonal and grows away from it.

# %%
table = sinusoidal_embeddings(1000, 1000)
distances = pairwise_distances(table)
fig, ax = plt.subplots(figsize=(6, 5))
image = ax.imshow(distances, cmap="viridis", vmin=0, vmax=math.sqrt(1000))
fig.colorbar(image, ax=ax, label="‖SE(pos₁) − SE(pos₂)‖₂")
ax.set(xlabel="pos₂", ylabel="pos₁");

# %% [markdown]
# ## Figure 4: the distance against the offset
#
# It does not depend on $t$ (rows 0 and 500 of the table coincide with the closed form),
# and it grows with the offset, not linearly, towards $\sqrt{d}$.

# %%
k = torch.arange(1000)
ks = torch.arange(0, 500, 25)
fig, ax = plt.subplots(figsize=(8, 3.5))
ax.plot(k, distance_at_offset(k, 1000), label="distance_at_offset(k, 1000)")
ax.plot(ks, distances[0, ks], "o", label="row t = 0")
ax.plot(ks, distances[500, 500 + ks], "x", label="row t = 500")
ax.axhline(math.sqrt(1000), linestyle="--", color="C3", label="√d")
ax.set(xlabel="offset k", ylabel="‖SE(t + k) − SE(t)‖₂", ylim=(0, 34))
ax.legend(loc="lower right");

# %% [markdown]
# ## Figure 5: float32 rounding error against the position
#
# Computing the angles in float32, as the post's Listing 1 does, costs about
# $pos \cdot 2^{-24}$ of accuracy.

# %%
positions = torch.logspace(0, 7, 120).round().unique()
fig, ax = plt.subplots(figsize=(8, 3.5))
for d in (128, 512):
    ax.loglog(positions, rounding_error(positions, d), label=f"d = {d}")
ax.loglog(positions, positions * 2.0**-24, "--", label="pos · 2⁻²⁴")
ax.set(xlabel="position pos", ylabel="max error in the row")
ax.legend();

# %% [markdown]
# ## In a model
#
# The table is a buffer: it follows the module to its device and dtype, and is not trained.

# %%
pe = SinusoidalEmbeddings(max_pos=512, embed_dim=64)
tokens = torch.nn.Embedding(1000, 64)
token_ids = torch.randint(0, 1000, (2, 10))
x = tokens(token_ids) * math.sqrt(64) + pe(torch.arange(10))
print(x.shape, [name for name, _ in pe.named_buffers()], list(pe.parameters()))
