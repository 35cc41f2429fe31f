"""Explorable figures: the grid read from a script (scripts/mlnotes_site/explore.py), the
builder drawing every point (figure_builder.py) and the figure block's controls
(plugins/figure_blocks.py), on scratch and tiny projects."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from mlnotes_site import explore, figure_builder
from mlnotes_site.figure_builder import FigureProject

# Two parameters, 3 x 2 points; the default (k=2, scale=1.0) is today's figure. The
# drawing's title and the caption's values say the point, so a frame drawn at the wrong
# point would show it.
POWERS = '''\
"""Powers of x."""

import matplotlib.pyplot as plt

from mlnotes.alpha import A

ALT = "The curve x to the k, scaled, for x from 0 to 3."
EXPLORE = {
    "k": {"label": "k, the exponent", "unit": "", "grid": (1, 2, 3)},
    "scale": {"label": "Scale", "unit": "cm", "grid": (0.5, 1.0), "format": "{:.1f}"},
}


def make_figure(k=2, scale=1.0):
    fig, ax = plt.subplots(figsize=(2, 2))
    xs = [0, 1, 2, 3]
    ax.plot(xs, [A * scale * x**k for x in xs])
    ax.set_title(f"k = {k}, scale = {scale}")
    return fig


def caption_values(k=2, scale=1.0):
    return f"At x = 3 the curve is at {A * scale * 3**k:g}."
'''
POINTS = [(k, s) for k in (1, 2, 3) for s in (0.5, 1.0)]  # the grid's order, written out

STATIC = '''\
"""A line."""
import matplotlib.pyplot as plt


def make_figure():
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1, 2], [0, 1, 0])
    return fig
'''


@pytest.fixture
def tree(scratch_package, monkeypatch) -> Path:
    """conftest's scratch project (its `mlnotes` first on sys.path: the forked workers
    import it), with scripts/figures/ and its own figure cache."""
    (scratch_package / "scripts" / "figures").mkdir(parents=True)
    monkeypatch.syspath_prepend(str(scratch_package))
    monkeypatch.delenv("MLNOTES_FIGURE_CACHE", raising=False)
    return scratch_package


def _write(tree: Path, name: str, text: str) -> Path:
    path = tree / "scripts" / "figures" / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    return path


def _build(project: FigureProject, capsys, failures: int = 0) -> str:
    capsys.readouterr()
    assert figure_builder.build(project, jobs=2) == failures, figure_builder.last_run(project)
    return capsys.readouterr().out


def _title(svg: Path) -> str:
    """The drawing's title, as matplotlib writes text in an SVG: a comment with the string."""
    found = re.findall(r"<!-- (k = [^>]*?) -->", svg.read_text())
    assert len(found) == 1, found
    return found[0]


# --- the builder ----------------------------------------------------------------------


@pytest.mark.slow
def test_every_point_is_drawn_light_and_dark_and_the_manifest_says_with_what(tree, capsys):
    _write(tree, "powers", POWERS)
    project = FigureProject.at(tree)
    out = _build(project, capsys)
    assert "powers: built in" in out and "(6 points)" in out
    manifest = json.loads((project.out / "powers" / "manifest.json").read_text())
    assert manifest["parameters"] == ["k", "scale"]
    assert [tuple(e["params"].values()) for e in manifest["points"].values()] == POINTS
    for k, s in POINTS:
        entry = manifest["points"][f"k={k},scale={s}"]
        assert entry["params"] == {"k": k, "scale": s}
        light, dark = (project.out / f for f in entry["files"])
        assert light.is_file() and dark.is_file()
        assert light.read_bytes() != dark.read_bytes()  # each in its palette
        # drawn by make_figure at that point: its title, and the call in the file itself
        assert _title(light) == _title(dark) == f"k = {k}, scale = {s}"
        assert entry["caption"] == f"At x = 3 the curve is at {s * 3**k:g}."  # A == 1
        if (k, s) == (2, 1.0):  # the default: today's files, drawn by make_figure()
            assert entry["files"] == ["powers.svg", "powers-dark.svg"]
            assert "<dc:description>" not in light.read_text()
        else:
            assert entry["files"] == [
                f"powers/k={k},scale={s}.svg",
                f"powers/k={k},scale={s}-dark.svg",
            ]
            description = f"<dc:description>make_figure(k={k}, scale={s})</dc:description>"
            assert description in light.read_text() and description in dark.read_text()


@pytest.mark.slow
def test_an_edit_redraws_only_the_edited_scripts_points(tree, capsys):
    _write(tree, "powers", POWERS)
    _write(tree, "line", STATIC)
    project = FigureProject.at(tree)
    _build(project, capsys)
    frame = project.out / "powers" / "k=3,scale=0.5.svg"
    before = frame.stat().st_mtime_ns
    out = _build(project, capsys)
    assert "powers: up to date" in out and "line: up to date" in out
    assert frame.stat().st_mtime_ns == before
    # the static figure's script edited: the explorable one's points are not drawn
    _write(tree, "line", STATIC.replace("[0, 1, 0]", "[0, 2, 0]"))
    out = _build(project, capsys)
    assert "line: built in" in out and "powers: up to date" in out
    assert frame.stat().st_mtime_ns == before
    # one frame lost: only that point is drawn again
    frame.unlink()
    out = _build(project, capsys)
    assert "powers: built in" in out and "(1 points)" in out, out
    assert frame.is_file()
    # each point's record is a keys.Stamp in the cache: one lost, that point is drawn again
    stamp = project.cache / "powers" / "k=3,scale=0.5.key"
    assert stamp.read_text() == figure_builder.point_key(
        (project.cache / "powers.key").read_text(), "k=3,scale=0.5"
    )
    stamp.unlink()
    out = _build(project, capsys)
    assert "(1 points)" in out and frame.stat().st_mtime_ns != before, out
    # the module it imports changed: every point, and the captions follow
    (tree / "mlnotes" / "alpha.py").write_text("from . import beta\nA = 2\n")
    out = _build(project, capsys)
    assert "(6 points)" in out
    manifest = explore.read_manifest(project.out, "powers")
    assert (
        manifest["points"]["k=3,scale=0.5"]["caption"]
        == f"At x = 3 the curve is at {2 * 0.5 * 27:g}."
    )


@pytest.mark.slow
def test_a_point_leaving_the_grid_loses_its_files_and_a_script_gone_its_folder(tree, capsys):
    script = _write(tree, "powers", POWERS)
    project = FigureProject.at(tree)
    _build(project, capsys)
    script.write_text(POWERS.replace('"grid": (1, 2, 3)', '"grid": (1, 2)'))
    _build(project, capsys)
    assert not (project.out / "powers" / "k=3,scale=0.5.svg").exists()
    assert (project.out / "powers" / "k=1,scale=0.5.svg").is_file()
    assert len(explore.read_manifest(project.out, "powers")["points"]) == 4
    records = project.cache / "powers"
    assert sorted(p.name for p in records.glob("*.key")) == [
        "k=1,scale=0.5.key",
        "k=1,scale=1.0.key",
        "k=2,scale=0.5.key",
    ]
    script.unlink()
    _build(project, capsys)
    assert not (project.out / "powers").exists() and not (project.out / "powers.svg").exists()
    assert not records.exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            ("(k=2, scale=1.0)", "(k=4, scale=1.0)", 1),
            "make_figure's default k=4 is not on its grid",
        ),
        (
            ("def make_figure(k=2, scale=1.0)", "def make_figure(k=2)", 1),
            "make_figure has no keyword parameter 'scale'",
        ),
        (
            ('"scale": {', '"a": {"label": "a", "unit": "", "grid": (1, 2)},\n    "scale": {', 1),
            "dict of 1 to 2 parameters",
        ),
        (('"label": "Scale", ', "", 1), "parameter 'scale': needs exactly the keys"),
        (("def caption_values", "def caption", 1), "no caption_values"),
    ],
)
def test_a_bad_explore_fails_the_build_naming_the_script_and_the_parameter(
    tree, capsys, edit, message
):
    _write(tree, "powers", POWERS)
    project = FigureProject.at(tree)
    _build(project, capsys)
    _write(tree, "powers", POWERS.replace(*edit))
    _build(project, capsys, failures=1)
    error = figure_builder.last_run(project)["failed"]["powers"]
    assert error.startswith("scripts/figures/powers.py: EXPLORE: ") and message in error, error
    # nothing stale: neither today's files nor the frames
    assert not (project.out / "powers.svg").exists() and not (project.out / "powers").exists()


@pytest.mark.slow
def test_a_point_make_figure_cannot_draw_fails_the_build_naming_the_point(tree, capsys):
    _write(tree, "powers", POWERS.replace("    fig, ax", "    assert k != 3, k\n    fig, ax"))
    project = FigureProject.at(tree)
    _build(project, capsys, failures=1)
    error = figure_builder.last_run(project)["failed"]["powers"]
    assert error.startswith("at k=3,scale=") and "AssertionError" in error
    assert not (project.out / "powers.svg").exists() and not (project.out / "powers").exists()


def test_the_grid_is_read_without_running_the_script(tmp_path):
    script = tmp_path / "powers.py"
    script.write_text(POWERS.replace("import matplotlib", "raise SystemExit\nimport matplotlib"))
    grid = explore.read(script, "powers.py")
    assert grid.default == {"k": 2, "scale": 1.0}
    assert [p.name for p in grid.parameters] == ["k", "scale"]
    assert grid.parameters[1].shown(0.5) == "0.5\u00a0cm" and grid.parameters[0].shown(3) == "3"
    assert [tuple(p.values()) for p in grid.points()] == POINTS
    script.write_text(STATIC)
    assert explore.read(script) is None  # not explorable


# --- the figure block -----------------------------------------------------------------


@pytest.mark.slow
def test_the_block_writes_hidden_labelled_controls_at_the_default(tmp_path, monkeypatch):
    import tiny
    from bs4 import BeautifulSoup
    from test_figure_blocks import EXTENSIONS
    from test_plugins_tiny import TINY_PACKAGE

    monkeypatch.delitem(tiny.ENV, "MLNOTES_FIGURE_CACHE", raising=False)  # the project's own
    page = "# Powers\n\n/// figure | powers\nThe curve.\n///\n\n/// figure | line\nA line.\n///\n"
    line = STATIC.replace('"""A line."""', '"""A line."""\nALT = "A line."')
    files = {
        **TINY_PACKAGE,
        "mlnotes/alpha.py": "A = 1\n",
        "scripts/figures/powers.py": POWERS,
        "scripts/figures/line.py": line,
        "docs/index.md": "# Home\n",
        "docs/notes/powers.md": page,
    }
    tree = tiny.project(
        tmp_path,
        files,
        plugins=["autorefs", {"mlnotes-figures": {"jobs": 1}}],
        markdown_extensions=EXTENSIONS,
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr[-3000:]
    soup = BeautifulSoup(built.text("notes/powers/index.html"), "html.parser")
    figure = soup.select_one("figure#fig-powers")
    assert "mlnotes-explore" in figure["class"]
    assert soup.select_one("figure#fig-line").get("data-explore") is None  # a static figure
    assert not soup.select("figure#fig-line input, figure#fig-line .mlnotes-explore-values")
    # JavaScript off: today's figure, the controls and the values line hidden
    images = [img["src"] for img in figure.select(":scope > p img")]
    assert images == [
        "../../figures/powers.svg#only-light",
        "../../figures/powers-dark.svg#only-dark",
    ]
    controls = figure.select_one(".mlnotes-explore-controls")
    assert controls.has_attr("hidden")
    values = figure.select_one("figcaption .mlnotes-explore-values")
    assert values.has_attr("hidden") and values["aria-live"] == "polite"
    assert values.get_text() == "At x = 3 the curve is at 9."
    assert figure.select_one("figcaption p").get_text().startswith("Figure 1:")
    sliders = controls.select("input")
    assert [s["id"] for s in sliders] == ["fig-powers-k", "fig-powers-scale"]
    for slider, label, index, count, shown in (
        (sliders[0], "k, the exponent", "1", 3, ["1", "2", "3"]),
        (sliders[1], "Scale", "1", 2, ["0.5\u00a0cm", "1.0\u00a0cm"]),
    ):
        assert slider["type"] == "range" and slider["min"] == "0" and slider["step"] == "1"
        assert slider["max"] == str(count - 1) and slider["value"] == index  # the default
        assert controls.select_one(f"label[for={slider['id']}]").get_text() == label
        assert json.loads(slider["data-values"]) == shown
        assert slider["aria-valuetext"] == shown[int(index)]
        assert controls.select_one(f"output[for={slider['id']}]").get_text() == shown[int(index)]
    data = json.loads(figure["data-explore"])
    manifest = explore.read_manifest(tree / "docs" / "figures", "powers")["points"]
    assert data["frames"] == [e["files"] for e in manifest.values()]
    assert data["captions"] == [e["caption"] for e in manifest.values()]
    assert data["frames"][3] == ["powers.svg", "powers-dark.svg"]  # k=2, scale=1.0
    for light, dark in data["frames"]:  # every frame is in the site, beside the default
        assert (built.site / "figures" / light).is_file() and (
            built.site / "figures" / dark
        ).is_file()


def test_a_pages_serve_key_follows_its_explorable_figures_manifest(tmp_path):
    """`make serve` re-renders a page when the frames or caption values of a figure it
    shows change (its manifest), not only when the figure's script does."""
    from types import SimpleNamespace

    from mlnotes_site.plugins.incremental import signatures

    page = SimpleNamespace(content_bytes=b"/// figure | powers\nC.\n///\n", src_uri="notes/p.md")
    manifest = explore.manifest_path(tmp_path / "docs" / "figures", "powers")
    missing = signatures.scan_page(tmp_path, page, []).signature
    manifest.parent.mkdir(parents=True)
    manifest.write_text('{"points": {"k=1": {"caption": "One."}}}')
    first = signatures.scan_page(tmp_path, page, []).signature
    manifest.write_text('{"points": {"k=1": {"caption": "Two."}}}')
    assert len({missing, first, signatures.scan_page(tmp_path, page, []).signature}) == 3


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("(1, 2, 3)", "tuple(range(1, 4))"), "not a literal dict"),
        (("(1, 2, 3)", "(1,)"), "parameter 'k': its grid must be a tuple of at least two values"),
        (("(1, 2, 3)", "(1, 2, 2)"), "parameter 'k': its grid repeats a value"),
        (
            (
                "(1, 2, 3)",
                repr(tuple(range(1, 17))),  # 16 x 2 points
            ),
            "its grid has 32 points, more than 30",
        ),
        (("(0.5, 1.0)", "('a b', 1.0)"), "parameter 'scale': grid value 'a b' cannot name a file"),
        (("(0.5, 1.0)", "(0.5, True)"), "parameter 'scale': grid value True is not a number"),
        (
            ('"format": "{:.1f}"', '"format": "{:d}"'),
            "parameter 'scale': format '{:d}' cannot show 0.5",
        ),
        (
            ("def make_figure(k=2, scale=1.0)", "def make_figure(k=2, scale=SCALE)"),
            "make_figure's default for 'scale' is not a literal",
        ),
        (("def make_figure", "def draw"), "the script defines no make_figure function"),
    ],
)
def test_a_bad_explore_is_an_error_naming_the_script_and_the_parameter(tmp_path, edit, message):
    script = tmp_path / "powers.py"
    script.write_text(POWERS.replace(*edit))
    assert script.read_text() != POWERS
    with pytest.raises(explore.ExploreError) as error:
        explore.read(script, "scripts/figures/powers.py")
    assert str(error.value).startswith("scripts/figures/powers.py: EXPLORE: ")
    assert message in str(error.value), error.value
