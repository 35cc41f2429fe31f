"""The post's Listings 1-4 run, and compute what `mlnotes.embeddings` computes.

The listings in `docs/blog/posts/sinusoidal-embeddings/` are the code the post shows
(included with `--8<--`). Each is executed here the way a reader runs it: as a script
(`__main__`), from its own folder, so that `from listing_1 import SinusoidalEmbeddings`
resolves, with matplotlib's non-interactive Agg backend.
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest
import torch

from mlnotes.embeddings import (
    SinusoidalEmbeddings,
    pairwise_distances,
    rounding_error,
    sinusoidal_embeddings,
)

LISTINGS = Path(__file__).resolve().parents[1] / "docs" / "blog" / "posts" / "sinusoidal-embeddings"


@pytest.fixture
def run_listing(monkeypatch):
    """Run `listing_<n>.py` as `__main__` from its folder; return its globals."""
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    monkeypatch.chdir(LISTINGS)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # no __pycache__ in docs/
    monkeypatch.syspath_prepend(str(LISTINGS))
    monkeypatch.delitem(sys.modules, "listing_1", raising=False)
    monkeypatch.delitem(sys.modules, "listing_4", raising=False)

    def run(n: int) -> dict:
        return runpy.run_path(str(LISTINGS / f"listing_{n}.py"), run_name="__main__")

    yield run
    plt.close("all")


@pytest.mark.slow
def test_listing_1_runs_as_a_script():
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run(
        [sys.executable, "listing_1.py"],
        cwd=LISTINGS,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert out.stdout.startswith("torch.Size([100, 4])")


def test_listing_1_table_is_definition_1_1(run_listing):
    ns = run_listing(1)
    pe = ns["SinusoidalEmbeddings"](1000, 128)
    table = pe.embeddings
    assert table.shape == (1000, 128) and table.dtype == torch.float32
    reference = sinusoidal_embeddings(1000, 128, dtype=torch.float64)
    # equal up to float32 rounding of the angles (which grows with the position) ...
    assert torch.allclose(table.double(), reference, rtol=0, atol=1e-4)
    assert torch.allclose(table[:100].double(), reference[:100], rtol=0, atol=1e-5)
    # ... and that error is exactly what mlnotes.embeddings.rounding_error measures
    per_row = (table.double() - reference).abs().amax(dim=1)
    assert torch.allclose(per_row, rounding_error(torch.arange(1000), 128), rtol=0, atol=1e-7)


def test_listing_1_forward_is_the_authors(run_listing):
    # The author's design, kept: the table is a plain attribute (no parameter, no buffer),
    # and forward(x, t) moves the rows of the positions t to x's device and returns them
    # as (batch, embed_dim, 1, 1). mlnotes.embeddings.SinusoidalEmbeddings is the redesign.
    ns = run_listing(1)
    pe = ns["SinusoidalEmbeddings"](50, 8)
    assert list(pe.parameters()) == [] and dict(pe.named_buffers()) == {}
    t = torch.tensor([0, 3, 49])
    out = pe(torch.zeros(3, 8, dtype=torch.float64), t)
    assert out.shape == (3, 8, 1, 1) and out.device == torch.device("cpu")
    ours = SinusoidalEmbeddings(50, 8)
    assert torch.allclose(out[:, :, 0, 0], ours(t), atol=1e-6)
    # module.to(dtype) leaves a plain attribute alone (a buffer would be cast)
    assert pe.to(torch.float64).embeddings.dtype == torch.float32


def test_listing_2_plots_each_dimension(run_listing):
    import matplotlib.pyplot as plt

    ns = run_listing(2)
    lines = plt.gcf().axes[0].get_lines()
    assert [line.get_label() for line in lines] == [
        "Dim 0 (i = 0)",
        "Dim 1 (i = 0)",
        "Dim 2 (i = 1)",
        "Dim 3 (i = 1)",
    ]
    reference = sinusoidal_embeddings(100, 4)
    for j, line in enumerate(lines):
        assert torch.allclose(torch.as_tensor(line.get_ydata()), reference[:, j], atol=1e-6)
    assert ns["embeddings_np"].shape == (100, 4)


def test_listing_3_heatmap_is_the_table(run_listing):
    import matplotlib.pyplot as plt

    ns = run_listing(3)
    assert torch.allclose(ns["results"], sinusoidal_embeddings(100, 128), atol=1e-5)
    (image,) = plt.gcf().axes[0].get_images()
    assert image.get_array().shape == (100, 128)


@pytest.mark.slow
def test_listing_4_distances_match_pairwise_distances(run_listing):
    # the full n = d = 1000 run: the (n, n, d) float32 tensor takes 4 GB
    ns = run_listing(4)
    distances = ns["distances"]
    assert distances.shape == (1000, 1000)
    reference = pairwise_distances(sinusoidal_embeddings(1000, 1000))
    assert torch.allclose(distances, reference, rtol=0, atol=1e-3)


def test_listing_4_function_is_importable(monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.syspath_prepend(str(LISTINGS))
    monkeypatch.delitem(sys.modules, "listing_1", raising=False)
    monkeypatch.delitem(sys.modules, "listing_4", raising=False)
    from listing_4 import broadcast_distances  # no 4 GB on import: the run is under __main__

    table = sinusoidal_embeddings(64, 32)
    assert torch.allclose(broadcast_distances(table), pairwise_distances(table), atol=1e-5)
