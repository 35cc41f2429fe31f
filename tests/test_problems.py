"""mlnotes-problems' reading of a page under `make serve` (scripts/mlnotes_site/plugins/problems.py):
a file the page includes or documents that does not exist is left out, and named with the
page's file and line, where pymdownx.snippets or mkdocstrings would stop the build.
tests/test_serve_problems.py and tests/test_serve_missing_files.py serve a tiny project with it."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import markdown

from mlnotes_site.plugins import problems

SOURCE = """\
---
title: A page
---

# A page

--8<-- "scripts/figures/new.py"

```python
--8<-- "scripts/figures/old.py"
```

::: pkg.mod

::: pkg.old.g

::: pkg.old.f
"""


def _serve(root: Path) -> tuple[problems.ProblemsPlugin, SimpleNamespace]:
    plugin = problems.ProblemsPlugin()
    plugin.load_config({})
    plugin.on_startup(command="serve", dirty=True)
    config = SimpleNamespace(
        config_file_path=str(root / "mkdocs.yml"),
        mdx_configs={"pymdownx.snippets": {"base_path": [str(root)]}},
        plugins={},
    )
    plugin.on_config(config)
    return plugin, config


def _page(root: Path, text: str) -> SimpleNamespace:
    path = root / "docs" / "p.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    file = SimpleNamespace(
        src_uri="p.md", abs_src_path=str(path), content_string=text, dest_uri="p/index.html"
    )
    return SimpleNamespace(file=file)


def test_missing_files_are_left_out_and_named_with_the_pages_line(tmp_path):
    (tmp_path / "scripts" / "figures").mkdir(parents=True)
    (tmp_path / "scripts" / "figures" / "old.py").write_text("ONE_OLD = 1\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "old.py").write_text("def f():\n    pass\n")
    plugin, config = _serve(tmp_path)
    page = _page(tmp_path, SOURCE)
    body = SOURCE.split("---\n", 2)[2].lstrip("\n")  # what MkDocs hands the plugin
    out = plugin.on_page_markdown(body, page=page, config=config, files=None)
    line = {
        name: SOURCE.splitlines().index(text) + 1
        for name, text in [
            ("new", '--8<-- "scripts/figures/new.py"'),
            ("mod", "::: pkg.mod"),
            ("g", "::: pkg.old.g"),
        ]
    }
    assert plugin.pages["p.md"] == [
        f"docs/p.md:{line['new']}: --8<-- 'scripts/figures/new.py': no such file under "
        f"pymdownx.snippets' base_path (.)",
        f"docs/p.md:{line['g']}: ::: pkg.old.g: pkg/old.py has no g",
        f"docs/p.md:{line['mod']}: ::: pkg.mod: no module pkg/mod.py (nor `mod` in pkg/__init__.py)",
    ]
    # the rest of the page is as written: pymdownx.snippets includes what exists, shows the
    # missing line as written, and mkdocstrings gets only the blocks it can document
    html = markdown.markdown(
        out,
        extensions=["pymdownx.snippets", "pymdownx.superfences", "admonition"],
        extension_configs={
            "pymdownx.snippets": {"base_path": [str(tmp_path)], "check_paths": True}
        },
    )
    assert "ONE_OLD" in html and '--8&lt;-- "scripts/figures/new.py"' in html
    assert re.findall(r"^::: (\S+)", out, re.M) == ["pkg.old.f"]
    assert '<div class="admonition failure">' in html


def test_under_a_build_the_page_is_left_alone(tmp_path):
    plugin = problems.ProblemsPlugin()
    plugin.load_config({})
    plugin.on_startup(command="build", dirty=False)
    page = _page(tmp_path, SOURCE)
    assert plugin.on_page_markdown(SOURCE, page=page, config=None, files=None) == SOURCE
