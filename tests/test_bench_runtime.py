"""scripts/dev/bench_runtime.py's page builder: the two scratch pages of one explorable
figure, its matplotlib frames and the same data drawn by Vega-Lite (no Lighthouse here)."""

import html
import json
import re

import bench_runtime  # scripts/dev, on sys.path through pytest's `pythonpath` (pyproject.toml)
import pytest

from mlnotes.probability import normal_ppf

GRID = (0.01, 0.05, 0.32)


def _figures(folder):
    """A built figure's files: its manifest, the default drawing and two frames."""
    name = bench_runtime.FIGURE
    points = {}
    for alpha in GRID:
        light = f"{name}.svg" if alpha == 0.05 else f"{name}/alpha={alpha}.svg"
        points[f"alpha={alpha}"] = {
            "params": {"alpha": alpha},
            "files": [light, light.replace(".svg", "-dark.svg")],
            "caption": f"α = {alpha}: the caption",
        }
        (folder / light).parent.mkdir(parents=True, exist_ok=True)
        (folder / light).write_text(f"<svg>{alpha}</svg>")
    (folder / name / "manifest.json").write_text(
        json.dumps({"parameters": ["alpha"], "points": points})
    )
    return folder


def test_both_pages_are_written_with_the_figure_and_its_data(tmp_path):
    figures = _figures(tmp_path / "figures")
    pages = bench_runtime.build_pages(tmp_path / "out", None, figures=figures)
    assert set(pages) == {"frames", "runtime"}

    frames = pages["frames"].read_text()
    explore = json.loads(html.unescape(re.search(r'data-explore="([^"]*)"', frames)[1]))
    names = [pair[0] for pair in explore["frames"]]
    assert names == [
        "probability_normal_quantiles/alpha=0.01.svg",
        "probability_normal_quantiles.svg",
        "probability_normal_quantiles/alpha=0.32.svg",
    ]
    for name in names:  # every frame beside the page, as the site serves them
        assert (pages["frames"].parent / "figures" / name).read_text().startswith("<svg>")
    assert 'value="1"' in frames and 'max="2"' in frames  # the default, α = 0.05
    assert (pages["frames"].parent / "explore.js").read_text() == (
        bench_runtime.EXPLORE_JS.read_text()
    )

    runtime = pages["runtime"].read_text()
    for package in bench_runtime.RUNTIME:
        assert f'<script src="{package}.min.js"></script>' in runtime
    data = json.loads((pages["runtime"].parent / "data.json").read_text())
    assert data["alpha"] == list(GRID)
    # the boundaries PPF(α/2), by mlnotes; the 0.05 one is the notes' -1.96
    assert data["low"] == pytest.approx([float(normal_ppf(a / 2)) for a in GRID])
    assert data["low"][1] == pytest.approx(-1.959964, abs=1e-6)
    assert len(data["density"]) == 801
    spec = json.loads(re.search(r"vegaEmbed\('#chart', (.*), \{actions", runtime)[1])
    slider = spec["params"][0]
    assert slider["value"] == 1 and slider["bind"]["max"] == 2


def test_a_figure_not_built_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="build the figures first"):
        bench_runtime.build_pages(tmp_path / "out", None, figures=tmp_path)
