r"""The figure block and figure references: the Markdown extension of `mlnotes-figures`.

A figure is one block; its body is the caption (Markdown):

    /// figure | cnn_output_size
        with: [mlnotes.cnn.conv_output_size]
    (added on this site) The output size as a function of the padding and of the stride.
    ///

It writes `<figure id="fig-cnn_output_size">` with the light and dark drawings of
`scripts/figures/cnn_output_size.py` (`docs/figures/cnn_output_size.svg`, `-dark.svg`,
both `alt` the script's `ALT` string), the caption numbered "Figure N:" in the page's
order and ending "Drawn by scripts/figures/cnn_output_size.py with `conv_output_size`.",
and the script's listing, collapsed, under it (`<details id="script-cnn_output_size">`).
Options: `id` (the figure's id and label, default `fig-<script>`), `with` (the `mlnotes`
functions the caption names, linked to the API reference). A script with `EXPLORE`
(explore.py) adds, from the builder's manifest, a hidden labelled slider per parameter and
a values line in the caption (`_controls`), which docs/javascripts/explore.js shows.

The text refers to a figure by label, `[][fig-cnn_output_size]`: a link reading
"Figure N". To a figure of the same page it is written in the tree. Each figure is
registered with autorefs (`register_anchor`, title "Figure N"), which resolves a link
to another page's figure (marked `data-preview`, as Material's preview extension marks
the same-page ones); its text is filled in once every page is converted
(`fill_references`, mlnotes-figures' `on_env`, before autorefs'). A label no page has is
autorefs' warning naming the page and the label: the strict build fails.
"""

from __future__ import annotations

import ast
import html
import json
import os
import posixpath
import re
import xml.etree.ElementTree as etree
from pathlib import Path

from markdown import Markdown
from markdown.inlinepatterns import InlineProcessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString
from mkdocs.plugins import get_plugin_logger
from pymdownx.blocks import BlocksExtension
from pymdownx.blocks.block import Block, type_html_identifier

from mlnotes_site import explore, markup, project_root
from mlnotes_site.figure_builder import FigureProject

log = get_plugin_logger("figures")

THEMES = (("", "only-light"), ("-dark", "only-dark"))  # file suffix, Material's URL fragment

REFERENCE = r"\[\]\[(fig-[\w-]+)\]"  # `[][fig-x]`: empty text, a figure's label
MARK = "data-mlnotes-figure-ref"  # on a reference between the inline parse and numbering


def alt_text(script: Path) -> str | None:
    """The script's module-level `ALT = "..."` (what the figure shows, in words), read
    without running it; None if it has none."""
    for node in ast.parse(script.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "ALT" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            return value if isinstance(value, str) else None
    return None


def script(root: Path, name: str) -> Path:
    """The script of figure `name` in the project in `root` (as the figure builder reads it)."""
    return FigureProject.at(root).scripts / f"{name}.py"


def drawn_by(name: str, shown: str, functions: list[str]) -> str:
    """The caption's last sentence, in Markdown: the script (`shown`, a link to its
    listing) and the `mlnotes` functions it draws with (links to the API reference)."""
    link = f'<a href="#script-{name}">{shown}</a>'
    refs = [f"[`{f.rsplit('.', 1)[-1]}`][{f}]" for f in functions]
    if not refs:
        return f"Drawn by {link}."
    listed = refs[0] if len(refs) == 1 else ", ".join(refs[:-1]) + " and " + refs[-1]
    return f"Drawn by {link} with {listed}."


def _names(value) -> list[str]:
    """The `with` option: a list of dotted names (or one)."""
    names = [value] if isinstance(value, str) else list(value)
    if not all(isinstance(n, str) and re.fullmatch(r"[\w.]+", n) for n in names):
        raise ValueError(f"not a list of dotted names: {value!r}")
    return names


def _sentinel(label: str) -> str:
    """The text of a reference to another page's figure until its number is known."""
    return f"\ue000{label}\ue001"


class _Page:
    """What one Markdown conversion (a page, or a docstring of it) knows of its figures."""

    def __init__(self, extension: FigureBlocksExtension):
        self.extension = extension
        self.figures: list[tuple[etree.Element, str]] = []  # (figure, label), parse order

    @property
    def page(self):
        """The page being converted (autorefs' `current_page`), None without autorefs."""
        autorefs = self.extension.autorefs()
        return autorefs.current_page if autorefs is not None else None

    def where(self, name: str | None = None) -> str:
        """The page's file as a message names it (`docs/notes/cnn.md`), with the line of
        the first block that shows figure `name` when there is one."""
        page = self.page
        if page is None:
            return "(a page)"
        if not page.file.abs_src_path:
            return page.file.src_uri
        shown = self.extension.project.shown(Path(page.file.abs_src_path))
        line = markup.figure_block_line(page.file.content_string, name) if name else None
        return f"{shown}:{line}" if line else shown

    def drawing(self, name: str, suffix: str) -> str:
        """The drawing's path relative to the page's source, as an image in it would be."""
        page = self.page
        folder = posixpath.dirname(page.file.src_uri) if page is not None else ""
        return posixpath.relpath(f"{self.extension.drawings}/{name}{suffix}.svg", folder or ".")

    def shown(self, name: str) -> str:
        """The script's path as the page shows it (relative to the project)."""
        return self.extension.project.shown(self.extension.project.scripts / f"{name}.py")

    def script(self, name: str) -> Path | None:
        path = self.extension.project.scripts / f"{name}.py"
        if path.is_file():
            return path
        log.error(
            f"{self.where(name)}: a figure block names {self.shown(name)}, which does not exist"
        )
        return None

    def alt(self, name: str) -> str:
        path = self.script(name)
        if path is None:
            return name
        try:
            alt = alt_text(path)
        except (SyntaxError, ValueError) as error:
            alt, problem = None, f"its ALT cannot be read ({error})"
        else:
            problem = "it has no module-level ALT string (the alt text of its drawings)"
        if not alt:
            log.error(f"{self.where(name)}: figure {name}: {self.shown(name)}: {problem}")
            return name
        return alt


def _explorable(state: _Page, name: str) -> tuple[explore.Explore, dict] | None:
    """The grid of figure `name` and its manifest's points, in the grid's order, if its
    script is explorable; None otherwise. A grid whose frames are not all drawn (the
    figure failed, or figures are not drawn: mlnotes-figures `enabled: false`) is the
    static figure, with an error (the builder says why when it failed)."""
    path = state.extension.project.scripts / f"{name}.py"
    if not path.is_file():
        return None
    try:
        grid = explore.read(path, state.shown(name))
    except explore.ExploreError as error:
        log.error(f"{state.where(name)}: figure {name}: {error}")
        return None
    if grid is None:
        return None
    manifest = explore.read_manifest(state.extension.project.out, name) or {"points": {}}
    points = [manifest["points"].get(grid.point_id(point)) for point in grid.points()]
    if not all(isinstance(p, dict) and isinstance(p.get("caption"), str) for p in points):
        log.error(
            f"{state.where(name)}: figure {name} is explorable but its frames are not all "
            f"drawn ({explore.manifest_path(state.extension.project.out, name)}): shown static"
        )
        return None
    return grid, points


def _controls(figure: etree.Element, label: str, grid: explore.Explore, points: list[dict]) -> None:
    """An explorable figure's controls, hidden until the page's script shows them
    (docs/javascripts/explore.js): per parameter a labelled native range over its grid's
    indices, with the value (and unit) as `aria-valuetext` and in an `<output>`; and on
    the figure, its frames and caption values (`data-explore`, JSON), in the grid's order."""
    figure.set("class", "mlnotes-explore")
    figure.set(
        "data-explore",
        json.dumps(
            {"frames": [p["files"] for p in points], "captions": [p["caption"] for p in points]},
            ensure_ascii=False,
            separators=(",", ":"),
        ),
    )
    box = etree.SubElement(figure, "div", {"class": "mlnotes-explore-controls", "hidden": "hidden"})
    for parameter in grid.parameters:
        control = etree.SubElement(box, "div", {"class": "mlnotes-explore-control"})
        ident = f"{label}-{parameter.name}"
        etree.SubElement(control, "label", {"for": ident}).text = AtomicString(parameter.label)
        index = parameter.grid.index(grid.default[parameter.name])
        shown = [parameter.shown(v) for v in parameter.grid]
        etree.SubElement(
            control,
            "input",
            {
                "type": "range",
                "id": ident,
                "min": "0",
                "max": str(len(parameter.grid) - 1),
                "step": "1",
                "value": str(index),
                "aria-valuetext": shown[index],
                "data-values": json.dumps(shown, ensure_ascii=False, separators=(",", ":")),
            },
        )
        output = etree.SubElement(control, "output", {"for": ident})
        output.text = AtomicString(shown[index])


class FigureBlock(Block):
    """`/// figure | <script name>`: the figure, its numbered caption and its listing."""

    NAME = "figure"
    ARGUMENT = True
    OPTIONS = {"id": ("", type_html_identifier), "with": ([], _names)}

    def on_create(self, parent: etree.Element) -> etree.Element:
        state: _Page = self.config["page"]
        self.name = self.argument.strip()
        self.label = self.options["id"] or f"fig-{self.name}"
        if not self.label.startswith("fig-"):
            log.warning(f"{state.where()}: figure {self.name}: its id {self.label} needs `fig-`")
        self.parent = parent
        figure = etree.SubElement(parent, "figure", {"id": self.label})
        images = etree.SubElement(figure, "p")
        alt = state.alt(self.name)
        for suffix, fragment in THEMES:
            src = f"{state.drawing(self.name, suffix)}#{fragment}"
            etree.SubElement(images, "img", {"alt": alt, "src": src}).tail = "\n"
        images[-1].tail = None
        self.explore = _explorable(state, self.name)
        if self.explore is not None:
            _controls(figure, self.label, *self.explore)
        self.caption = etree.SubElement(figure, "figcaption")
        state.figures.append((figure, self.label))
        return figure

    def on_add(self, block: etree.Element) -> etree.Element:
        return self.caption

    def on_end(self, block: etree.Element) -> None:
        # The caption's last paragraph ends with the "Drawn by" sentence. Its text is still
        # Markdown here (the inline parse comes after the blocks'): the links in it are
        # parsed as the caption's own are.
        last = self.caption[-1] if len(self.caption) else None
        if last is None or last.tag != "p":
            last = etree.SubElement(self.caption, "p")
        state: _Page = self.config["page"]
        shown = state.shown(self.name)
        text = (last.text or "").rstrip()
        last.text = f"{text} {drawn_by(self.name, shown, self.options['with'])}".lstrip()
        if self.explore is not None:  # the values at the shown point, said when they change
            grid, points = self.explore
            values = etree.SubElement(
                self.caption,
                "p",
                {"class": "mlnotes-explore-values", "aria-live": "polite", "hidden": "hidden"},
            )
            values.text = AtomicString(points[grid.points().index(grid.default)]["caption"])
        # the listing, right under the figure, as `??? example "scripts/figures/x.py"`
        # with the script in a fenced block would be
        details = etree.SubElement(
            self.parent, "details", {"id": f"script-{self.name}", "class": "example"}
        )
        etree.SubElement(details, "summary").text = AtomicString(shown)
        path = state.extension.project.scripts / f"{self.name}.py"
        if path.is_file():
            _listing(self.md, details, path.read_text(encoding="utf-8"))


def _listing(md: Markdown, parent: etree.Element, source: str) -> None:
    """`source` as a fenced Python block of the page: highlighted by the page's own fenced
    code preprocessor (pymdownx.superfences, or Markdown's fenced_code), as registered."""
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", source)), default=0))
    lines = [f"{fence}python", *source.splitlines(), fence]
    if "fenced_code_block" not in md.preprocessors:  # no fenced code: a plain block
        code = etree.SubElement(etree.SubElement(parent, "pre"), "code")
        code.text = AtomicString(source)
        return
    md.parser.parseChunk(parent, "\n".join(md.preprocessors["fenced_code_block"].run(lines)))


class _References(InlineProcessor):
    """`[][fig-x]`: a reference to figure `fig-x`, numbered by `_Numbers`."""

    def handleMatch(self, m: re.Match, data: str):  # noqa: N802 (Python-Markdown's name)
        return etree.Element("a", {MARK: m.group(1)}), m.start(0), m.end(0)


class _Numbers(Treeprocessor):
    """After the inline parse: number the page's figures in order, register each with
    autorefs, and give each reference its figure's number."""

    def __init__(self, md: Markdown, state: _Page):
        super().__init__(md)
        self.state = state

    def run(self, root: etree.Element) -> None:
        state, extension = self.state, self.state.extension
        mine = {id(figure): label for figure, label in state.figures}
        numbers: dict[str, int] = {}
        for figure in root.iter("figure"):
            label = mine.get(id(figure))
            if label is None:
                continue
            if label in numbers:
                log.warning(f"{state.where()}: two figures have the label {label}")
            numbers[label] = n = len(numbers) + 1
            caption = figure.find("figcaption/p")
            prefix = etree.Element("span", {"class": "caption-prefix"})
            prefix.text = f"Figure {n}:"
            prefix.tail = f" {caption.text or ''}"
            caption.text = None
            caption.insert(0, prefix)
        page, autorefs = state.page, extension.autorefs()
        if page is not None and autorefs is not None:
            for label, n in numbers.items():
                autorefs.register_anchor(page, label, title=f"Figure {n}")
        for link in root.iter("a"):
            label = link.attrib.pop(MARK, None)
            if label is None:
                continue
            if label in numbers:
                link.set("href", f"#{label}")
                link.text = f"Figure {numbers[label]}"
            elif page is None or autorefs is None:
                log.error(f"{state.where()}: [][{label}]: a figure of another page needs autorefs")
                link.text = label
            else:  # autorefs' reference (its `<autoref>` markup), the number filled on_env
                link.tag = "autoref"
                link.attrib.update({"identifier": label, "data-preview": ""})
                link.text = _sentinel(label)
                extension.pending.setdefault(page.file.src_uri, set()).add(label)
        for paragraph in root.iter("p"):  # a block the parser did not take (a bad option)
            if re.match(r"\s*/{3,}\s*figure\b", paragraph.text or ""):
                log.warning(f"{state.where()}: not a figure block: {paragraph.text[:80]!r}")
        state.figures.clear()  # mkdocstrings converts every docstring with one instance


class FigureBlocksExtension(BlocksExtension):
    """The figure block and `[][fig-x]` references, for the figures of `project` and the
    pages of `docs_dir`; the autorefs plugin is looked up in `plugins` when needed
    (mkdocstrings may add it after this extension is made)."""

    def __init__(self, project: FigureProject, docs_dir: Path, plugins, **kwargs):
        super().__init__(**kwargs)
        self.project = project
        self.drawings = Path(os.path.relpath(project.out, Path(docs_dir).resolve())).as_posix()
        self.plugins = plugins
        self.pending: dict[str, set[str]] = {}  # page -> labels of other pages' figures

    def autorefs(self):
        return self.plugins.get("autorefs") if self.plugins is not None else None

    def extendMarkdownBlocks(self, md: Markdown, block_mgr) -> None:  # noqa: N802
        state = _Page(self)  # one per conversion: MkDocs makes a Markdown instance a page
        block_mgr.register(FigureBlock, {"page": state})
        # before Markdown's own reference links (170), which leave `[][x]` undefined
        md.inlinePatterns.register(_References(REFERENCE, md), "mlnotes-figure-ref", 175)
        # after the inline parse (20) and the blocks' (19.99); before the table of
        # contents (5) and MkDocs' and Material's link processors (0)
        md.treeprocessors.register(_Numbers(md, state), "mlnotes-figure-numbers", 9)

    def fill_references(self, files) -> None:
        """Write each reference to another page's figure as "Figure N" (the title its
        page registered with autorefs); a label no page has is left for autorefs to
        report."""
        autorefs = self.autorefs()
        for file in files.documentation_pages():
            labels = self.pending.get(file.src_uri)
            page = file.page
            if not labels or page is None or not page.content:
                continue
            for label in labels:
                try:
                    title = autorefs.get_item_url(label)[1]
                except KeyError:
                    title = None
                page.content = page.content.replace(_sentinel(label), html.escape(title or label))


def extension(config) -> FigureBlocksExtension:
    """The extension for the MkDocs `config`, added to its Markdown extensions."""
    project = FigureProject.at(project_root(config))
    ext = FigureBlocksExtension(project, config.docs_dir, config.plugins)
    config.markdown_extensions.append(ext)
    return ext
