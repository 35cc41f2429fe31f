r"""Sinusoidal positional embeddings.

The table of Vaswani et al. (2017), *Attention Is All You Need*, section 3.5, as the
post "Transformers Breakdown: Sinusoidal Embeddings" defines it (Definition 1.1):

$$SE_{(pos, 2i)} = \sin(pos\,\omega_i), \qquad SE_{(pos, 2i+1)} = \cos(pos\,\omega_i),
\qquad \omega_i = \text{base}^{-2i/d},$$

for positions $0 \le pos < \text{max\_pos}$ and $0 \le i < d/2$, with $d$ = `embed_dim`
and base $= 10000$. The angles are computed in float64 and only then cast to the
requested dtype, so the table is correctly rounded even at large positions (a table
computed in float32 throughout, as the post's Listing 1 does, is not:
see [`rounding_error`][mlnotes.embeddings.rounding_error]).

Examples:
    >>> import torch
    >>> from mlnotes.embeddings import sinusoidal_embeddings, shift_matrix
    >>> se = sinusoidal_embeddings(50, 8, dtype=torch.float64)
    >>> se.shape
    torch.Size([50, 8])
    >>> torch.allclose(shift_matrix(7, 8) @ se[10], se[17])
    True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch import Tensor, nn

__all__ = [
    "SinusoidalEmbeddings",
    "distance_at_offset",
    "frequencies",
    "pairwise_distances",
    "rounding_error",
    "shift_matrix",
    "sinusoidal_embeddings",
]


def _check_embed_dim(embed_dim: object) -> int:
    if isinstance(embed_dim, bool) or not isinstance(embed_dim, int):
        raise TypeError(f"embed_dim must be an int, got {type(embed_dim).__name__} {embed_dim!r}")
    if embed_dim <= 0 or embed_dim % 2:
        raise ValueError(f"embed_dim must be a positive even integer, got {embed_dim}")
    return embed_dim


def _check_base(base: float) -> float:
    if not (isinstance(base, (int, float)) and math.isfinite(base) and base > 1):
        raise ValueError(f"base must be a finite number greater than 1, got {base!r}")
    return float(base)


def _check_max_pos(max_pos: object) -> int:
    if isinstance(max_pos, bool) or not isinstance(max_pos, int):
        raise TypeError(f"max_pos must be an int, got {type(max_pos).__name__} {max_pos!r}")
    if max_pos <= 0:
        raise ValueError(f"max_pos must be a positive integer, got {max_pos}")
    return max_pos


def frequencies(embed_dim: int, base: float = 10000.0) -> Tensor:
    r"""Angular frequencies $\omega_i = \text{base}^{-2i/d}$ of the sinusoidal embeddings.

    Computed in log space, $\omega_i = \exp(-2i \ln(\text{base}) / d)$, which is the
    vectorial form of the post's equation (4).

    Args:
        embed_dim: $d$, the embedding dimension; a positive even integer.
        base: the base of the geometric progression of wavelengths (10000 in the paper).

    Returns:
        Tensor of shape `(embed_dim // 2,)`, float64, in radians per position:
        $\omega_0 = 1$ down to $\omega_{d/2-1} = \text{base}^{-(d-2)/d}$.

    Raises:
        TypeError: if `embed_dim` is not an int.
        ValueError: if `embed_dim` is not positive and even, or `base` is not > 1.

    Examples:
        >>> frequencies(8)
        tensor([1.0000e+00, 1.0000e-01, 1.0000e-02, 1.0000e-03], dtype=torch.float64)
        >>> frequencies(7)
        Traceback (most recent call last):
        ...
        ValueError: embed_dim must be a positive even integer, got 7

    References:
        Vaswani et al. (2017), *Attention Is All You Need*, section 3.5;
        the post, Definition 1.1, equations (1)–(4).
    """
    embed_dim = _check_embed_dim(embed_dim)
    base = _check_base(base)
    two_i = torch.arange(0, embed_dim, 2, dtype=torch.float64)
    return torch.exp(two_i * (-math.log(base) / embed_dim))


def sinusoidal_embeddings(
    max_pos: int,
    embed_dim: int,
    base: float = 10000.0,
    dtype: torch.dtype = torch.float32,
) -> Tensor:
    r"""The table of sinusoidal embeddings $SE(pos)$ for $0 \le pos <$ `max_pos`.

    Column $2i$ holds $\sin(pos\,\omega_i)$ and column $2i+1$ holds $\cos(pos\,\omega_i)$,
    with $\omega_i$ from [`frequencies`][mlnotes.embeddings.frequencies]. Angles are
    computed in float64, then the table is cast to `dtype`.

    Args:
        max_pos: number of positions (rows); positions are $0, \dots,$ `max_pos` $- 1$.
        embed_dim: $d$, the embedding dimension (columns); a positive even integer.
        base: base of the frequencies (10000 in the paper).
        dtype: floating dtype of the result.

    Returns:
        Tensor of shape `(max_pos, embed_dim)`, values in $[-1, 1]$.

    Raises:
        TypeError: if `max_pos` or `embed_dim` is not an int.
        ValueError: if `max_pos` is not positive, `embed_dim` is not positive and even,
            or `base` is not > 1.

    Examples:
        >>> se = sinusoidal_embeddings(3, 4)
        >>> se.shape, se.dtype
        (torch.Size([3, 4]), torch.float32)
        >>> se[0]                                 # SE(0) = [sin 0, cos 0, sin 0, cos 0]
        tensor([0., 1., 0., 1.])
        >>> round(se[2, 0].item(), 4), round(math.sin(2.0), 4)   # sin(2 * omega_0)
        (0.9093, 0.9093)
        >>> sinusoidal_embeddings(0, 4)
        Traceback (most recent call last):
        ...
        ValueError: max_pos must be a positive integer, got 0

    References:
        Vaswani et al. (2017), section 3.5; the post, Definition 1.1 and Listing 1.
    """
    max_pos = _check_max_pos(max_pos)
    omega = frequencies(embed_dim, base)
    angles = torch.arange(max_pos, dtype=torch.float64)[:, None] * omega[None, :]
    table = torch.empty(max_pos, embed_dim, dtype=torch.float64)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table.to(dtype)


class SinusoidalEmbeddings(nn.Module):
    r"""A `torch.nn.Module` that looks up sinusoidal positional embeddings.

    The table from [`sinusoidal_embeddings`][mlnotes.embeddings.sinusoidal_embeddings]
    is registered as a (non-trainable, non-persistent) buffer named `embeddings`, so
    `module.to(device)` moves it and `state_dict()` does not store it. This is the
    post's Listing 1 with its bugs fixed.

    Args:
        max_pos: number of positions in the table.
        embed_dim: $d$, a positive even integer.
        base: base of the frequencies (10000 in the paper).

    Raises:
        TypeError, ValueError: as [`sinusoidal_embeddings`][mlnotes.embeddings.sinusoidal_embeddings].

    Examples:
        >>> import torch
        >>> pe = SinusoidalEmbeddings(max_pos=512, embed_dim=16)
        >>> pe.embeddings.shape
        torch.Size([512, 16])
        >>> tokens = torch.randn(2, 10, 16)                # (batch, seq, embed_dim)
        >>> x = tokens + pe(torch.arange(10))              # broadcast over the batch
        >>> x.shape
        torch.Size([2, 10, 16])
        >>> pe(torch.tensor([[0, 3], [511, 2]])).shape     # any shape of positions
        torch.Size([2, 2, 16])
        >>> pe(torch.tensor([512]))
        Traceback (most recent call last):
        ...
        IndexError: positions must be in [0, 512), got 512

    References:
        The post, section 3.1 (Listing 1); Vaswani et al. (2017), section 3.5.
    """

    embeddings: Tensor

    def __init__(self, max_pos: int, embed_dim: int, base: float = 10000.0) -> None:
        super().__init__()
        self.max_pos = _check_max_pos(max_pos)
        self.embed_dim = _check_embed_dim(embed_dim)
        self.base = _check_base(base)
        table = sinusoidal_embeddings(max_pos, embed_dim, base)
        self.register_buffer("embeddings", table, persistent=False)

    def forward(self, positions: Tensor) -> Tensor:
        """Look up the embeddings of integer `positions`.

        Args:
            positions: integer tensor of any shape, values in `[0, max_pos)`.

        Returns:
            Tensor of shape `(*positions.shape, embed_dim)` on the buffer's device.

        Raises:
            TypeError: if `positions` is not an integer tensor.
            IndexError: if a position is outside `[0, max_pos)`.
        """
        if not isinstance(positions, Tensor):
            raise TypeError(f"positions must be a torch.Tensor, got {type(positions).__name__}")
        if positions.is_floating_point() or positions.is_complex() or positions.dtype == torch.bool:
            raise TypeError(f"positions must be an integer tensor, got dtype {positions.dtype}")
        if positions.numel():
            lo, hi = int(positions.min()), int(positions.max())
            bad = lo if lo < 0 else hi if hi >= self.max_pos else None
            if bad is not None:
                raise IndexError(f"positions must be in [0, {self.max_pos}), got {bad}")
        return self.embeddings[positions.to(self.embeddings.device)]

    def extra_repr(self) -> str:
        return f"max_pos={self.max_pos}, embed_dim={self.embed_dim}, base={self.base:g}"


def shift_matrix(
    k: float,
    embed_dim: int,
    base: float = 10000.0,
    dtype: torch.dtype = torch.float64,
) -> Tensor:
    r"""The matrix $M(k)$ with $M(k)\,SE(t) = SE(t + k)$ for every position $t$.

    $M(k)$ is block diagonal: its $i$-th $2 \times 2$ block is the rotation
    $\begin{bmatrix}\cos(\omega_i k) & \sin(\omega_i k) \\ -\sin(\omega_i k) & \cos(\omega_i k)\end{bmatrix}$,
    the post's equation (34). It depends on the offset $k$ and not on $t$. It is
    orthogonal, so it preserves distances, and $M(k)^{-1} = M(-k) = M(k)^\top$.

    Args:
        k: the offset, in positions (any real number; negative shifts back).
        embed_dim: $d$, a positive even integer.
        base: base of the frequencies (10000 in the paper).
        dtype: floating dtype of the result.

    Returns:
        Tensor of shape `(embed_dim, embed_dim)`.

    Raises:
        TypeError: if `embed_dim` is not an int.
        ValueError: if `embed_dim` is not positive and even, `base` is not > 1,
            or `k` is not finite.

    Examples:
        >>> import torch
        >>> M = shift_matrix(3, 4)
        >>> se = sinusoidal_embeddings(20, 4, dtype=torch.float64)
        >>> torch.allclose(M @ se[5], se[8]) and torch.allclose(M @ se[12], se[15])
        True
        >>> torch.allclose(M @ M.T, torch.eye(4, dtype=torch.float64))   # a rotation
        True

    References:
        The post, section 2.3, equations (11)–(34).
    """
    if not math.isfinite(float(k)):
        raise ValueError(f"k must be a finite number, got {k!r}")
    angles = float(k) * frequencies(embed_dim, base)
    c, s = torch.cos(angles), torch.sin(angles)
    blocks = torch.stack([torch.stack([c, s], -1), torch.stack([-s, c], -1)], -2)  # (d/2, 2, 2)
    return torch.block_diag(*blocks).to(dtype)


def pairwise_distances(embeddings: Tensor, *, chunk_size: int = 256) -> Tensor:
    r"""Euclidean distances between all pairs of rows of `embeddings`.

    Uses $\|x - y\|^2 = \|x\|^2 + \|y\|^2 - 2\,x \cdot y$ with a matrix product, one
    block of rows at a time and only for the upper triangle (the lower one is its
    mirror), so it needs $O(n^2 + n \cdot d)$ memory. The post's Listing 4 broadcasts the
    differences into an $(n, n, d)$ tensor first: $O(n^2 d)$ memory, 4 GB at
    $n = d = 1000$ in float32.

    The product formula loses digits when $\|x - y\|^2$ is tiny next to
    $\|x\|^2 + \|y\|^2$ (nearly equal rows: for two rows with norms near 1700 that
    differ by $10^{-3}$ in each of 300 coordinates, 0.017 apart, `torch.cdist` returns
    0.5). Pairs with $\|x - y\|^2 < 10^{-2}\,(\|x\|^2 + \|y\|^2)$ are therefore
    recomputed from their difference in float64.

    Args:
        embeddings: tensor of shape `(n, d)`, floating point; float64 is computed in
            float64, other dtypes in float32.
        chunk_size: rows computed per block (a memory/speed trade-off, not a result change).

    Returns:
        Tensor of shape `(n, n)`, in the dtype of `embeddings`: symmetric, zero on the
        diagonal, non-negative.

    Raises:
        TypeError: if `embeddings` is not a floating-point tensor.
        ValueError: if `embeddings` is not 2-D, or `chunk_size` is not positive.

    Examples:
        >>> import torch
        >>> x = torch.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])
        >>> pairwise_distances(x)
        tensor([[ 0.,  5., 10.],
                [ 5.,  0.,  5.],
                [10.,  5.,  0.]])
        >>> far = torch.full((1, 3), 1000.0)
        >>> near = torch.cat([far, far + 2**-10])   # rows 2**-10 apart in each coordinate
        >>> round(pairwise_distances(near)[0, 1].item() / 2**-10, 4)   # sqrt(3)
        1.7321
        >>> pairwise_distances(torch.zeros(3))
        Traceback (most recent call last):
        ...
        ValueError: embeddings must be 2-D (n, d), got shape (3,)

    References:
        The post, section 3.4 (Listing 4 and Figure 3).
    """
    if not isinstance(embeddings, Tensor) or not embeddings.is_floating_point():
        got = embeddings.dtype if isinstance(embeddings, Tensor) else type(embeddings).__name__
        raise TypeError(f"embeddings must be a floating-point torch.Tensor, got {got}")
    if embeddings.ndim != 2:
        raise ValueError(f"embeddings must be 2-D (n, d), got shape {tuple(embeddings.shape)}")
    if chunk_size <= 0:
        raise ValueError(f"chunk_size must be positive, got {chunk_size}")
    work = torch.float64 if embeddings.dtype == torch.float64 else torch.float32
    x = embeddings.detach().to(work)
    sq = (x * x).sum(dim=1)
    n = x.shape[0]
    out = torch.empty(n, n, dtype=work, device=x.device)
    near_i, near_j = [], []
    for a in range(0, n, chunk_size):
        b = min(a + chunk_size, n)
        block = x[a:b] @ x[a:].T  # rows a..b against columns a..n: the upper triangle
        norms = sq[a:b, None] + sq[None, a:]
        block.mul_(-2).add_(norms)
        i, j = (block < 1e-2 * norms).nonzero(as_tuple=True)
        keep = a + i < a + j  # strictly above the diagonal
        near_i.append(a + i[keep])
        near_j.append(a + j[keep])
        out[a:b, a:] = block
        out[b:, a:b] = block[:, b - a :].T
        square = out[a:b, a:b]  # mirror its upper triangle, so the result is symmetric
        square.copy_(torch.triu(square) + torch.triu(square, 1).T)
    i, j = torch.cat(near_i), torch.cat(near_j)
    exact = embeddings.detach().to(torch.float64)
    for s in range(0, i.numel(), 65536):
        ii, jj = i[s : s + 65536], j[s : s + 65536]
        d2 = ((exact[ii] - exact[jj]) ** 2).sum(dim=1).to(work)
        out[ii, jj] = d2
        out[jj, ii] = d2
    out.clamp_(min=0).sqrt_()
    out.fill_diagonal_(0)
    return out.to(embeddings.dtype)


def distance_at_offset(k: float | Tensor, embed_dim: int, base: float = 10000.0) -> Tensor:
    r"""$\|SE(t + k) - SE(t)\|_2$ in closed form; it does not depend on $t$.

    Each frequency contributes $(\sin\omega_i(t+k) - \sin\omega_i t)^2 +
    (\cos\omega_i(t+k) - \cos\omega_i t)^2 = 2 - 2\cos(\omega_i k) = 4\sin^2(\omega_i k / 2)$, so

    $$\|SE(t + k) - SE(t)\|_2 = 2\sqrt{\textstyle\sum_{i=0}^{d/2-1} \sin^2(\omega_i k / 2)}.$$

    It is 0 at $k = 0$, grows with $|k|$ (fast, then ever more slowly: not linearly),
    and for large $|k|$ approaches $\sqrt{d}$ and oscillates around it.

    Args:
        k: an offset or a tensor of offsets, in positions.
        embed_dim: $d$, a positive even integer.
        base: base of the frequencies (10000 in the paper).

    Returns:
        float64 tensor with the shape of `k` (a 0-d tensor for a number).

    Raises:
        TypeError: if `embed_dim` is not an int.
        ValueError: if `embed_dim` is not positive and even, or `base` is not > 1.

    Examples:
        >>> import torch
        >>> se = sinusoidal_embeddings(200, 64, dtype=torch.float64)
        >>> d = distance_at_offset(5, 64)
        >>> round(d.item(), 6) == round((se[105] - se[100]).norm().item(), 6)
        True
        >>> distance_at_offset(torch.tensor([0, 1, 10, 100]), 64)
        tensor([0.0000, 1.4718, 4.6794, 5.3151], dtype=torch.float64)

    References:
        The post, sections 1.2 (property 3) and 3.4 (Figure 3).
    """
    omega = frequencies(embed_dim, base)
    k = torch.as_tensor(k, dtype=torch.float64)
    half_angles = k[..., None] * omega / 2
    return 2 * torch.sqrt((torch.sin(half_angles) ** 2).sum(-1))


def rounding_error(
    positions: Tensor | Sequence[int],
    embed_dim: int,
    base: float = 10000.0,
    dtype: torch.dtype = torch.float32,
) -> Tensor:
    r"""Largest error of an embedding computed entirely in `dtype`, per position.

    The post's Listing 1 computes the frequencies, the angles $pos\,\omega_i$ and their
    sines in float32. The angle then carries a relative rounding error of about
    $2^{-24}$, an absolute error that grows linearly with the position. This returns
    $\max_j |SE^{\text{dtype}}_{(pos, j)} - SE_{(pos, j)}|$ against the float64 table.

    Args:
        positions: a tensor (or sequence) of non-negative integer positions, shape `(n,)`.
        embed_dim: $d$, a positive even integer.
        base: base of the frequencies (10000 in the paper).
        dtype: the low-precision dtype to measure (float32, float16 or bfloat16).

    Returns:
        float64 tensor of shape `(n,)`.

    Raises:
        TypeError: if `dtype` is not a floating dtype.
        ValueError: if a position is negative or beyond the largest finite `dtype`
            value, or as [`frequencies`][mlnotes.embeddings.frequencies].

    Examples:
        >>> err = rounding_error([10, 10_000, 1_000_000], embed_dim=64)
        >>> bool(err[0] < 1e-6), bool(1e-4 < err[1] < 1e-2), bool(err[2] > 1e-2)
        (True, True, True)

    References:
        The post, section 3.1 (Listing 1); IEEE 754 single precision.
    """
    omega64 = frequencies(embed_dim, base)
    pos = torch.as_tensor(positions, dtype=torch.float64).reshape(-1)
    if pos.numel() and float(pos.min()) < 0:
        raise ValueError(f"positions must be non-negative, got {float(pos.min()):g}")
    if not dtype.is_floating_point:
        raise TypeError(f"dtype must be a floating dtype, got {dtype}")
    if pos.numel() and float(pos.max()) > torch.finfo(dtype).max:
        raise ValueError(
            f"positions must be at most {torch.finfo(dtype).max:g}, the largest {dtype} "
            f"(got {float(pos.max()):g}): the angle would be infinite"
        )
    # the way Listing 1 does it: everything in `dtype`
    two_i = torch.arange(0, embed_dim, 2, dtype=dtype)
    omega_low = torch.exp(two_i * -(math.log(base) / embed_dim))
    angles_low = pos.to(dtype)[:, None] * omega_low[None, :]
    angles64 = pos[:, None] * omega64[None, :]
    err_sin = (torch.sin(angles_low).to(torch.float64) - torch.sin(angles64)).abs()
    err_cos = (torch.cos(angles_low).to(torch.float64) - torch.cos(angles64)).abs()
    return torch.maximum(err_sin, err_cos).amax(dim=-1)
