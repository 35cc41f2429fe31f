r"""Sinusoidal positional embeddings (Vaswani et al. 2017, section 3.5; the post's Definition 1.1).

$SE_{(pos, 2i)} = \sin(pos\,\omega_i)$ and $SE_{(pos, 2i+1)} = \cos(pos\,\omega_i)$, with
$\omega_i = \text{base}^{-2i/d}$ ($d$ = `embed_dim`, base 10000 in the paper). Tables are
computed in float64 and cast at the end: a float32 entry is off by at most
$2^{-25} + (pos + 1) \cdot 2^{-52}$ (base 10000, $d \le 1024$), where one computed in float32
throughout, as the post's Listing 1 does, is off by up to about $pos \cdot 2^{-24}$.

Examples:
    >>> import torch
    >>> from mlnotes.embeddings import shift_matrix, sinusoidal_embeddings
    >>> se = sinusoidal_embeddings(50, 8)
    >>> torch.allclose(shift_matrix(7, 8) @ se[10], se[17])
    True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch
from torch import Tensor, nn

from mlnotes._validation import floating_dtype, integer, real, real_array, show

__all__ = [
    "SinusoidalEmbeddings",
    "distance_at_offset",
    "frequencies",
    "pairwise_distances",
    "rounding_error",
    "shift_matrix",
    "sinusoidal_embeddings",
]


_POSITION_DTYPES = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def _check_embed_dim(embed_dim: object) -> int:
    embed_dim = integer(embed_dim, "embed_dim")
    if embed_dim <= 0 or embed_dim % 2:
        raise ValueError(f"embed_dim must be a positive even integer, got {embed_dim}")
    return embed_dim


def _check_base(base: object) -> float:
    return real(base, "base", low=1.0, low_open=True, what="a finite number greater than 1")


def _check_max_pos(max_pos: object) -> int:
    return integer(max_pos, "max_pos", minimum=1)


def frequencies(embed_dim: int, base: float = 10000.0) -> Tensor:
    r"""Angular frequencies $\omega_i = \text{base}^{-2i/d}$ of the sinusoidal embeddings.

    Computed in log space, $\omega_i = \exp(-2i \ln(\text{base}) / d)$, the form the
    post's vector expression of Definition 1.1 uses.

    Args:
        embed_dim: $d$, the embedding dimension; a positive even integer.
        base: the base of the geometric progression of wavelengths (10000 in the paper).

    Returns:
        Tensor of shape `(embed_dim // 2,)`, float64, in radians per position:
        $\omega_0 = 1$ down to $\omega_{d/2-1} = \text{base}^{-(d-2)/d}$.

    Raises:
        TypeError: if `embed_dim` is not an integer (Python or NumPy; a bool is not) or
            `base` is not a real number.
        ValueError: if `embed_dim` is not positive and even, or `base` is not a finite
            number > 1.

    Examples:
        >>> frequencies(8)
        tensor([1.0000e+00, 1.0000e-01, 1.0000e-02, 1.0000e-03], dtype=torch.float64)
        >>> frequencies(7)
        Traceback (most recent call last):
        ...
        ValueError: embed_dim must be a positive even integer, got 7

    Equation:
        blog/posts/sinusoidal-embeddings.md#eq:se-vector

    References:
        Vaswani et al. (2017), *Attention Is All You Need*, section 3.5;
        the post, section 1.3, Definition 1.1.
    """
    embed_dim = _check_embed_dim(embed_dim)
    base = _check_base(base)
    two_i = torch.arange(0, embed_dim, 2, dtype=torch.float64)
    return torch.exp(two_i * (-math.log(base) / embed_dim))


def sinusoidal_embeddings(
    max_pos: int,
    embed_dim: int,
    base: float = 10000.0,
    dtype: torch.dtype | None = None,
) -> Tensor:
    r"""The table of sinusoidal embeddings $SE(pos)$ for $0 \le pos <$ `max_pos`.

    Column $2i$ holds $\sin(pos\,\omega_i)$ and column $2i+1$ holds $\cos(pos\,\omega_i)$,
    with $\omega_i$ from [`frequencies`][mlnotes.embeddings.frequencies]. Angles are
    computed in float64, then the table is cast to `dtype`.

    Args:
        max_pos: number of positions (rows); positions are $0, \dots,$ `max_pos` $- 1$.
        embed_dim: $d$, the embedding dimension (columns); a positive even integer.
        base: base of the frequencies (10000 in the paper).
        dtype: floating dtype of the result; `None` (the default) means torch's
            default dtype (`torch.get_default_dtype()`, float32 unless changed), the
            default of [`shift_matrix`][mlnotes.embeddings.shift_matrix] too.

    Returns:
        Tensor of shape `(max_pos, embed_dim)`, values in $[-1, 1]$.

    Raises:
        TypeError: if `max_pos` or `embed_dim` is not an integer (Python or NumPy; a
            bool is not), `base` is not a real number, or `dtype` is not a floating
            dtype (an integer table would be truncated to -1, 0 and 1).
        ValueError: if `max_pos` is not positive, `embed_dim` is not positive and even,
            or `base` is not a finite number > 1.

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
        >>> sinusoidal_embeddings(3, 4, dtype=torch.int64)
        Traceback (most recent call last):
        ...
        TypeError: dtype must be a floating-point torch.dtype (such as float32 or float64), got torch.int64

    Equation:
        blog/posts/sinusoidal-embeddings.md#eq:se-def-sin
        blog/posts/sinusoidal-embeddings.md#eq:se-def-cos
        blog/posts/sinusoidal-embeddings.md#eq:se-vector

    References:
        Vaswani et al. (2017), section 3.5; the post, Definition 1.1 and Listing 1.
    """
    max_pos = _check_max_pos(max_pos)
    dtype = floating_dtype(dtype)
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
    `module.to(device)` moves it (and `module.to(dtype)` casts it) and `state_dict()`
    does not store it. This is the site's redesign of the module of the post's
    Listing 1, for a transformer: Listing 1 keeps its (float32) table as a plain
    attribute, and its `forward(x, t)` moves the rows of `t` to the device of `x` and
    returns them as `(batch, embed_dim, 1, 1)`; this `forward` takes the positions
    alone and returns `(*positions.shape, embed_dim)`.

    Args:
        max_pos: number of positions in the table.
        embed_dim: $d$, a positive even integer.
        base: base of the frequencies (10000 in the paper).
        dtype: floating dtype of the table; `None` means torch's default dtype.

    Raises:
        TypeError: if `max_pos` or `embed_dim` is not an integer, `base` is not a real
            number, or `dtype` is not a floating dtype (as
            [`sinusoidal_embeddings`][mlnotes.embeddings.sinusoidal_embeddings]).
        ValueError: if `max_pos` is not positive, `embed_dim` is not positive and even,
            or `base` is not a finite number > 1.

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
        >>> pe(torch.tensor([1, 2], dtype=torch.uint8)).shape   # any integer dtype
        torch.Size([2, 16])
        >>> pe(torch.tensor([512]))
        Traceback (most recent call last):
        ...
        IndexError: positions must be in [0, 512), got 512

    Equation:
        blog/posts/sinusoidal-embeddings.md#eq:se-vector

    References:
        The post, section 3.1 (Listing 1); Vaswani et al. (2017), section 3.5;
        the companion page "Sinusoidal embeddings in practice" (a model's input layer).
    """

    embeddings: Tensor

    def __init__(
        self,
        max_pos: int,
        embed_dim: int,
        base: float = 10000.0,
        dtype: torch.dtype | None = None,
    ) -> None:
        super().__init__()
        self.max_pos = _check_max_pos(max_pos)
        self.embed_dim = _check_embed_dim(embed_dim)
        self.base = _check_base(base)
        table = sinusoidal_embeddings(self.max_pos, self.embed_dim, self.base, dtype=dtype)
        self.register_buffer("embeddings", table, persistent=False)

    def forward(self, positions: Tensor) -> Tensor:
        """Look up the embeddings of integer `positions`.

        Args:
            positions: integer tensor of any shape, of dtype `uint8`, `int8`, `int16`,
                `int32` or `int64`, on any device that holds values (not `meta`), values in
                `[0, max_pos)`.

        Returns:
            Tensor of shape `(*positions.shape, embed_dim)` on the buffer's device, in
            the buffer's dtype.

        Raises:
            TypeError: if `positions` is not a tensor of one of those dtypes (floating,
                complex and bool tensors are rejected: a bool tensor would be read as
                a mask; so are `uint16`, `uint32` and `uint64`, for which torch has no
                `min`).
            ValueError: if `positions` is on the `meta` device (it holds no values).
            IndexError: if a position is outside `[0, max_pos)`.
        """
        if not isinstance(positions, Tensor):
            raise TypeError(f"positions must be a torch.Tensor, got {type(positions).__name__}")
        if positions.dtype not in _POSITION_DTYPES:
            raise TypeError(
                "positions must be an integer tensor (uint8, int8, int16, int32 or int64), "
                f"got dtype {positions.dtype}"
            )
        if positions.is_meta:
            raise ValueError("positions must hold values: a tensor on the meta device has none")
        if positions.numel():
            lo, hi = int(positions.min()), int(positions.max())
            bad = lo if lo < 0 else hi if hi >= self.max_pos else None
            if bad is not None:
                raise IndexError(f"positions must be in [0, {self.max_pos}), got {bad}")
        # int64 indices: a uint8 (or int8) tensor would be taken for a boolean mask
        return self.embeddings[positions.to(device=self.embeddings.device, dtype=torch.long)]

    def extra_repr(self) -> str:
        return f"max_pos={self.max_pos}, embed_dim={self.embed_dim}, base={self.base:g}"


def shift_matrix(
    k: float,
    embed_dim: int,
    base: float = 10000.0,
    dtype: torch.dtype | None = None,
) -> Tensor:
    r"""The matrix $M(k)$ with $M(k)\,SE(t) = SE(t + k)$ for every position $t$.

    $M(k)$ is block diagonal: its $i$-th $2 \times 2$ block is the rotation
    $\begin{bmatrix}\cos(\omega_i k) & \sin(\omega_i k) \\ -\sin(\omega_i k) & \cos(\omega_i k)\end{bmatrix}$,
    the post's matrix $M$. It depends on the offset $k$ and not on $t$. It is
    orthogonal, so it preserves distances, and $M(k)^{-1} = M(-k) = M(k)^\top$.

    Args:
        k: the offset, in positions (any finite real number, or a 0-d real tensor;
            negative shifts back).
        embed_dim: $d$, a positive even integer.
        base: base of the frequencies (10000 in the paper).
        dtype: floating dtype of the result; `None` (the default) means torch's
            default dtype, the default of
            [`sinusoidal_embeddings`][mlnotes.embeddings.sinusoidal_embeddings], so
            `shift_matrix(k, d) @ sinusoidal_embeddings(n, d)[t]` works as written.
            The angles $\omega_i k$ are computed in float64 either way.

    Returns:
        Tensor of shape `(embed_dim, embed_dim)`.

    Raises:
        TypeError: if `embed_dim` is not an integer, `k` or `base` is not a real
            number, or `dtype` is not a floating dtype.
        ValueError: if `embed_dim` is not positive and even, `base` is not a finite
            number > 1, or `k` is not finite.

    Examples:
        >>> import torch
        >>> M = shift_matrix(3, 4)
        >>> se = sinusoidal_embeddings(20, 4)
        >>> torch.allclose(M @ se[5], se[8]) and torch.allclose(M @ se[12], se[15])
        True
        >>> torch.allclose(M @ M.T, torch.eye(4))   # a rotation
        True
        >>> shift_matrix(float("nan"), 4)
        Traceback (most recent call last):
        ...
        ValueError: k must be a finite real number, got nan

    Equation:
        blog/posts/sinusoidal-embeddings.md#eq:se-M

    References:
        The post, section 2.3.
    """
    if isinstance(k, Tensor) and k.ndim == 0 and not (k.is_complex() or k.dtype == torch.bool):
        k = k.item()
    k = real(k, "k")
    dtype = floating_dtype(dtype)
    angles = k * frequencies(embed_dim, base)
    c, s = torch.cos(angles), torch.sin(angles)
    blocks = torch.stack([torch.stack([c, s], -1), torch.stack([-s, c], -1)], -2)  # (d/2, 2, 2)
    return torch.block_diag(*blocks).to(dtype)


def pairwise_distances(embeddings: Tensor, *, chunk_size: int = 256) -> Tensor:
    r"""Euclidean distances between all pairs of rows of `embeddings`.

    Uses $\|x - y\|^2 = \|x\|^2 + \|y\|^2 - 2\,x \cdot y$ with matrix products, one
    block of rows at a time and only on and above the diagonal, so it needs
    $O(n^2 + n \cdot d)$ memory. The post's Listing 4 broadcasts the differences into an
    $(n, n, d)$ tensor first: $O(n^2 d)$ memory, 4 GB at $n = d = 1000$ in float32.

    Precision: with $u$ the unit roundoff of the working dtype ($2^{-24}$ for float32,
    $2^{-53}$ for float64), each distance that is a normal number of that dtype has a
    relative error of order $d\,u/\tau$ at most, with $\tau = 0.1$ for float32 and
    $10^{-2}$ for float64 (the rounding of sums of $d$ terms, magnified at most $1/\tau$
    times by the cancellation the product formula is allowed: about $6 \cdot 10^{-4}$
    for float32 at $d = 1000$, usually far less); it is then rounded to the input's
    dtype. To that end the rows are centred on their mean (rows far from the origin
    keep their digits) and, where their magnitudes are beyond $2^{\pm 40}$, scaled by
    powers of two (exactly), so that no square overflows; and every pair with
    $\|x - y\|^2 < \tau\,(\|x\|^2 + \|y\|^2)$ (centred rows), where the product formula
    cancels, is recomputed from the difference of its input rows, at a scale where no
    square underflows.

    Args:
        embeddings: tensor of shape `(n, d)`, floating point, finite; float64 is
            computed in float64, other dtypes in float32. `n` may be 0 or 1.
        chunk_size: rows computed per block: a memory/speed trade-off (another size
            can change the result's last bits, by rounding).

    Returns:
        Tensor of shape `(n, n)`, in the dtype and on the device of `embeddings`
        (whatever torch's default device): symmetric, zero on the diagonal,
        non-negative. A distance too large for the dtype is `inf`.

    Raises:
        TypeError: if `embeddings` is not a floating-point tensor (integer, bool and
            complex tensors are rejected), or `chunk_size` is not an integer.
        ValueError: if `embeddings` is not 2-D, holds NaN or ±inf or is a non-empty
            tensor on the `meta` device (it holds no values), or `chunk_size` is not positive.

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
        >>> pairwise_distances(1e20 * x)             # float32: the squares would overflow
        tensor([[0.0000e+00, 5.0000e+20, 1.0000e+21],
                [5.0000e+20, 0.0000e+00, 5.0000e+20],
                [1.0000e+21, 5.0000e+20, 0.0000e+00]])
        >>> pairwise_distances(torch.zeros(3))
        Traceback (most recent call last):
        ...
        ValueError: embeddings must be 2-D (n, d), got shape (3,)

    References:
        The post, section 3.4 (Listing 4 and the distance heatmap after it).
    """
    if not isinstance(embeddings, Tensor) or not embeddings.is_floating_point():
        got = f"dtype {embeddings.dtype}" if isinstance(embeddings, Tensor) else show(embeddings)
        raise TypeError(f"embeddings must be a floating-point torch.Tensor, got {got}")
    if embeddings.ndim != 2:
        raise ValueError(f"embeddings must be 2-D (n, d), got shape {tuple(embeddings.shape)}")
    chunk_size = integer(chunk_size, "chunk_size", minimum=1)
    n = embeddings.shape[0]
    work = torch.float64 if embeddings.dtype == torch.float64 else torch.float32
    source = embeddings.detach()

    def zeros() -> Tensor:  # made only when it is the answer: it is as large as the result
        return torch.zeros(n, n, dtype=embeddings.dtype, device=embeddings.device)

    if not source.numel():  # n = 0 or d = 0
        return zeros()
    if embeddings.is_meta:
        raise ValueError("embeddings must hold values: a tensor on the meta device has none")
    low, high = source.aminmax()  # no temporary of the input's size
    largest = max(-float(low), float(high))
    if not math.isfinite(largest):
        finite = torch.isfinite(source).all(dim=1)
        row = int((~finite).nonzero()[0])
        raise ValueError(
            f"embeddings must be finite, got a NaN or inf in row {row}: {show(embeddings[row].tolist())}"
        )
    if largest == 0.0:  # all rows zero
        return zeros()
    # Centre on the mean; scale by powers of two (exact) only where the magnitudes need it.
    # A distance in the units of `x` is the true one times 2**-total.
    exponent = math.frexp(largest)[1]
    total = exponent if abs(exponent) >= 40 else 0
    if total == 0 and source.dtype == work:
        x = source - source.mean(dim=0)  # a new tensor: the caller's is never changed
    else:
        x = _times_power_of_two(source.to(work), -total)
        x -= x.mean(dim=0)
    low, high = x.aminmax()
    spread = max(-float(low), float(high))
    if spread == 0.0 and bool((source == source[:1]).all()):  # every row equal
        return zeros()  # (a zero spread alone may hide differences lost to the scaling)
    exponent_c = math.frexp(spread)[1]
    if abs(exponent_c) >= 40:  # squares near the dtype's limits: the largest entry near 1
        x = _times_power_of_two(x, -exponent_c, inplace=True)
        total += exponent_c
    sq = torch.linalg.vector_norm(x, dim=1).square_()
    tau = 1e-2 if work == torch.float64 else 0.1
    # squares this small may have lost digits to underflow (gradual, absolute): recompute
    tiny = torch.finfo(work).tiny / torch.finfo(work).eps
    out = torch.empty(n, n, dtype=work, device=x.device)
    near_i, near_j = [], []
    for a in range(0, n, chunk_size):  # the blocks on and above the diagonal
        b = min(a + chunk_size, n)
        block = out[a:b, a:]
        torch.add(sq[a:b, None], sq[None, a:], out=block)
        block.addmm_(x[a:b], x[a:].T, alpha=-2)
        out[a:b, a:b].fill_diagonal_(math.inf)  # a row and itself: not a near pair
        # pairs below tau (||x||^2 + ||y||^2): candidates against each row's largest
        # bound in the block (one comparison pass), then the exact test on the few found
        bound = (sq[a:b] + float(sq[a:].max())).mul_(tau).clamp_(min=tiny)
        mask = block <= bound[:, None]
        mask[:, : b - a].triu_(1)  # above the diagonal only (the diagonal is inf anyway)
        i, j = mask.nonzero(as_tuple=True)
        if i.numel():
            i, j = i + a, j + a
            keep = (out[i, j] < tau * (sq[i] + sq[j])) | (out[i, j] <= tiny)
            near_i.append(i[keep])
            near_j.append(j[keep])
        diagonal = out[a:b, a:b]  # symmetric by construction below it; here, choose one
        diagonal.copy_(torch.minimum(diagonal, diagonal.T))
        out[a:b, :a].copy_(out[:a, a:b].T)
    out.fill_diagonal_(0)
    out.clamp_(min=0).sqrt_()
    out = _times_power_of_two(out, total, inplace=True)  # back to the input's units
    empty = torch.empty(0, dtype=torch.long, device=out.device)
    i, j = torch.cat([empty, *near_i]), torch.cat([empty, *near_j])
    # nearly equal rows: from the difference of the input rows, in the input's units (a
    # correctly rounded difference, not the centred rows' rounding errors), its norm taken
    # at a power-of-two scale where no square underflows or overflows; in steps whose
    # gathered rows (step x d values each) hold at most chunk_size x n values (a full
    # block's size), or one row each where d > chunk_size x n
    step = max(1, chunk_size * n // max(1, embeddings.shape[1]))
    for s in range(0, i.numel(), step):
        ii, jj = i[s : s + step], j[s : s + step]
        d = _norms(source[ii].to(work) - source[jj].to(work))
        out[ii, jj] = d
        out[jj, ii] = d
    return out.to(embeddings.dtype)


def _norms(diff: Tensor) -> Tensor:
    """Euclidean norms of the rows of `diff`, each taken at an exact power-of-two scale
    (largest entry in [1/2, 1)), so that no square underflows or overflows."""
    _, exponent = torch.frexp(diff.abs().amax(dim=1))
    half, rest = exponent // 2, exponent - exponent // 2  # 2**exponent itself can overflow
    two = torch.tensor(2.0, dtype=diff.dtype, device=diff.device)
    scaled = diff * two.pow(-half)[:, None] * two.pow(-rest)[:, None]
    return torch.linalg.vector_norm(scaled, dim=1) * two.pow(half) * two.pow(rest)


def _times_power_of_two(t: Tensor, k: int, *, inplace: bool = False) -> Tensor:
    """`t * 2**k`, exact (barring overflow and underflow), in steps that fit float32."""
    steps = [100 if k > 0 else -100] * (abs(k) // 100) + (
        [k % 100 if k > 0 else -(-k % 100)] if k % 100 else []
    )
    for n, part in enumerate(steps):
        t = t.mul_(2.0**part) if inplace or n else t * 2.0**part
    return t


def distance_at_offset(k: float | Tensor, embed_dim: int, base: float = 10000.0) -> Tensor:
    r"""$\|SE(t + k) - SE(t)\|_2$ in closed form; it does not depend on $t$.

    Each frequency contributes $(\sin\omega_i(t+k) - \sin\omega_i t)^2 +
    (\cos\omega_i(t+k) - \cos\omega_i t)^2 = 2 - 2\cos(\omega_i k) = 4\sin^2(\omega_i k / 2)$, so

    $$\|SE(t + k) - SE(t)\|_2 = 2\sqrt{\textstyle\sum_{i=0}^{d/2-1} \sin^2(\omega_i k / 2)}.$$

    It is 0 at $k = 0$ and the same at $-k$ as at $k$. For small $|k|$ it rises, fast
    at first, then more slowly (not linearly), with oscillations: it is not monotone
    (for $d = 64$ it is smaller at $k = 6$ than at $k = 5$). It never exceeds
    $\sqrt{2d}$ (each frequency adds at most 4 to the square), and for $|k|$ large
    enough that every $\omega_i k$ is large it oscillates around $\sqrt{d}$ (each
    frequency adds 2 on average).

    Args:
        k: an offset or a tensor (or array-like) of offsets, in positions; finite
            real numbers.
        embed_dim: $d$, a positive even integer.
        base: base of the frequencies (10000 in the paper).

    Returns:
        float64 tensor with the shape of `k` (a 0-d tensor for a number), on the CPU and
        without autograd history: `k` is read as numbers, whatever its device.

    Raises:
        TypeError: if `embed_dim` is not an integer, `base` is not a real number, or
            `k` holds something other than real numbers (bool, complex, None, strings).
        ValueError: if `embed_dim` is not positive and even, `base` is not a finite
            number > 1, or `k` holds NaN or ±inf.

    Examples:
        >>> import torch
        >>> se = sinusoidal_embeddings(200, 64, dtype=torch.float64)
        >>> d = distance_at_offset(5, 64).item()
        >>> [abs(d - (se[t + 5] - se[t]).norm().item()) < 1e-12 for t in (0, 100, 194)]
        [True, True, True]
        >>> bool(distance_at_offset(-5, 64) == distance_at_offset(5, 64))
        True
        >>> distance_at_offset(torch.tensor([0, 1, 10, 100]), 64)
        tensor([0.0000, 1.4718, 4.6794, 5.3151], dtype=torch.float64)
        >>> distance_at_offset(float("nan"), 8)
        Traceback (most recent call last):
        ...
        ValueError: k must not contain NaN, got nan

    Equation:
        blog/posts/sinusoidal-embeddings.md#eq:se-distance-offset

    References:
        The post, sections 1.2 (property 3) and 3.4 (the distance heatmap).
    """
    omega = frequencies(embed_dim, base)
    k = torch.from_numpy(real_array(k, "k", what="a real number or a tensor of real numbers"))
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
    sines in float32. The angle then carries a relative error of several times
    $2^{-24}$, not $2^{-24}$: the exponent $-2i \ln(10000)/d$, of size up to
    $\ln 10000 \approx 9.2$, is rounded twice, its absolute error becomes a relative
    error of $\omega_i$, and the product with the position rounds once more (below
    $18 \cdot 2^{-24}$ in all for even $d \le 4096$ and positions below $2^{24}$, which
    float32 holds exactly). That is an absolute error growing linearly with the
    position. This returns $\max_j |SE^{\text{dtype}}_{(pos, j)} - SE_{(pos, j)}|$
    against the float64 table.

    Args:
        positions: a tensor (or sequence, or number) of $n$ non-negative integer
            positions, read flattened (any shape).
        embed_dim: $d$, a positive even integer.
        base: base of the frequencies (10000 in the paper).
        dtype: the low-precision dtype to measure (float32, float16 or bfloat16;
            float64 measures 0).

    Returns:
        float64 tensor of shape `(n,)`, one error per position, in the units of the
        table's entries.

    Raises:
        TypeError: if `embed_dim` is not an integer, `base` is not a real number,
            `dtype` is not a floating dtype, or `positions` holds something other than
            real numbers.
        ValueError: if a position is not a finite integer value, is negative or beyond
            the largest finite `dtype` value, or as
            [`frequencies`][mlnotes.embeddings.frequencies].
        NotImplementedError: from torch, for a float8 `dtype` (it has no float8
            `arange`).

    Examples:
        >>> err = rounding_error([10, 10_000, 1_000_000], embed_dim=64)
        >>> bool(err[0] < 1e-6), bool(1e-4 < err[1] < 1e-2), bool(err[2] > 1e-2)
        (True, True, True)

    References:
        The post, section 3.1 (Listing 1); the companion page "Sinusoidal embeddings in
        practice" (float32 rounding); IEEE 754 single precision.
    """
    omega64 = frequencies(embed_dim, base)
    base = _check_base(base)
    dtype = floating_dtype(dtype)
    pos_array = real_array(positions, "positions", what="non-negative integer positions")
    if (pos_array != np.round(pos_array)).any():
        raise ValueError(f"positions must be integers, got {show(positions)}")
    pos = torch.from_numpy(pos_array).reshape(-1)
    if pos.numel() and float(pos.min()) < 0:
        raise ValueError(f"positions must be non-negative, got {float(pos.min()):g}")
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
