"""The grammars the build reads from Markdown sources (scripts/mlnotes_site/markup.py),
each checked against the extension that owns it: what mkdocstrings and pymdownx.snippets
do with the same text."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import markdown
import pytest

from mlnotes_site import markup

PAGE = """\
# API

::: mlnotes.cnn
    options:
      show_source: false

    handler: python

Text.

## ::: mlnotes.linalg.project
"""


def test_autodoc_blocks_are_mkdocstrings_blocks_with_their_options():
    blocks = markup.autodoc_blocks(PAGE)
    assert [(b.identifier, b.line) for b in blocks] == [
        ("mlnotes.cnn", 3),
        ("mlnotes.linalg.project", 11),
    ]
    first = PAGE[blocks[0].start : blocks[0].end]
    assert first.startswith("::: mlnotes.cnn\n") and first.endswith("handler: python\n")
    assert PAGE[blocks[0].end :].startswith("\nText.")


def test_a_module_is_found_under_the_handlers_paths(tmp_path):
    (tmp_path / "src" / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "__init__.py").write_text("")
    (tmp_path / "src" / "pkg" / "sub" / "__init__.py").write_text("")
    (tmp_path / "src" / "pkg" / "sub" / "mod.py").write_text("def f(): pass\n")
    paths = [tmp_path, tmp_path / "src"]
    found = markup.find_module("pkg.sub.mod.f", paths)
    assert found.files == [
        tmp_path / "src/pkg/sub/mod.py",
        tmp_path / "src/pkg/__init__.py",
        tmp_path / "src/pkg/sub/__init__.py",
    ]
    assert found.members == ["f"]
    assert markup.find_module("pkg.sub", paths).files[0] == tmp_path / "src/pkg/sub/__init__.py"
    # not written yet: as mkdocstrings would, a member of the package it is in
    other = markup.find_module("pkg.sub.other", paths)
    assert other.files[0] == tmp_path / "src/pkg/sub/__init__.py" and other.members == ["other"]
    (tmp_path / "src" / "pkg" / "__init__.py").unlink()  # a namespace package
    assert markup.find_module("pkg.other", paths).files == []
    assert markup.module_files("pkg.other", paths) == []
    assert markup.find_module("numpy.linalg", paths) is None  # not the project's


SNIPPETS = """\
--8<-- "a.py"
    --8<-- 'b.py:3:5'
;--8<-- "escaped.py"
--8<-- "c.md:section"
--8<--
d.txt
;commented.txt
https://example.org/e.txt
--8<--
--8<-- "https://example.org/f.txt"
"""


def test_snippet_lines_are_those_pymdownx_snippets_includes(tmp_path):
    found = markup.snippets(SNIPPETS)
    assert [(s.path, s.line) for s in found] == [
        ("a.py", 1),
        ("b.py", 2),
        ("c.md", 4),
        ("d.txt", 6),
    ]
    # the same text through pymdownx.snippets: it includes exactly those files
    for name in ("a.py", "b.py", "c.md", "d.txt"):
        lines = "x\n" * 6 if name == "b.py" else f"from {name}\n"
        if name == "c.md":
            lines = "--8<-- [start:section]\nfrom c.md\n--8<-- [end:section]\n"
        (tmp_path / name).write_text(lines)
    html = markdown.markdown(
        SNIPPETS,
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": {"base_path": [str(tmp_path)]}},
    )
    assert all(f"from {n}" in html for n in ("a.py", "c.md", "d.txt")), html
    assert "escaped.py" in html and "commented" not in html


def test_a_snippet_left_out_is_shown_as_written_or_dropped(tmp_path):
    inline = markup.without_snippet('    --8<-- "missing.py"')
    block = markup.without_snippet("missing.txt")
    assert markup.snippets(f"{inline}\n--8<--\n{block}\n--8<--\n") == []
    html = markdown.markdown(
        f"```\n{inline.strip()}\n```\n\n--8<--\n{block}\n--8<--\n",
        extensions=["pymdownx.snippets", "pymdownx.superfences"],
        extension_configs={
            "pymdownx.snippets": {"base_path": [str(tmp_path)], "check_paths": True}
        },
    )
    assert '--8&lt;-- "missing.py"' in html and "missing.txt" not in html


def test_a_snippet_is_looked_up_in_the_base_paths_in_order(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    (second / "x.py").write_text("")
    assert markup.snippet_file("x.py", [first, second]) == second / "x.py"
    (first / "x.py").write_text("")
    assert markup.snippet_file("x.py", [first, second]) == first / "x.py"
    assert markup.snippet_file("../one/x.py", [second]) is None  # outside its base path
    assert markup.snippet_file("y.py", [first, second]) is None


def test_the_base_paths_and_module_paths_come_from_the_configuration(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    handlers = {"python": {"paths": ["src", "."]}}
    config = SimpleNamespace(
        mdx_configs={"pymdownx.snippets": {"base_path": ["docs", "."]}},
        config_file_path=str(tmp_path / "site" / "mkdocs.yml"),
        plugins={"mkdocstrings": SimpleNamespace(config=SimpleNamespace(handlers=handlers))},
    )
    # snippets resolves its base paths against the working directory, mkdocstrings its
    # paths against mkdocs.yml's folder
    assert markup.snippet_bases(config) == [tmp_path / "docs", tmp_path]
    assert markup.module_paths(config) == [tmp_path / "site/src", tmp_path / "site/."]
    bare = SimpleNamespace(mdx_configs={}, config_file_path=None, plugins={})
    assert markup.snippet_bases(bare) == [Path(tmp_path)]
    assert markup.module_paths(bare) == [Path(".")]


@pytest.mark.parametrize(
    "text, names",
    [
        ("![a](../figures/x.svg#only-light)\n![a](../figures/x-dark.svg#only-dark)", ["x"]),
        ("![a](figures/y_z.svg) and ![b](figures/w.svg)", ["y_z", "w"]),
        ("figures/v.png", []),
    ],
)
def test_figure_names(text, names):
    assert markup.figure_names(text) == names
