"""Every built page is valid HTML to the W3C Nu Html Checker, as a crawler or a card reader
reads it, but for the errors listed in tests/html_exceptions.yml as upstream's own.

The checker is npm's `vnu-jar` (package.json, installed by `npm ci`), run by the Java that
Debian ships (`default-jre-headless`, which `.ci/run` installs): one JVM for every page of
the session's strict build (conftest.py). A missing checker or Java fails, never skips.
"""

from __future__ import annotations

import fnmatch
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
EXCEPTIONS = Path(__file__).with_name("html_exceptions.yml")
# not pages: MathJax's and Material's assets, the search index's folder
NOT_PAGES = ("assets/", "javascripts/", "search/")


def java() -> str:
    found = shutil.which("java")
    if not found:
        pytest.fail(
            "java not found: the HTML checker needs it (Debian: apt-get install "
            "default-jre-headless; .ci/run installs it)"
        )
    if not VNU.is_file():
        pytest.fail(f"{VNU} not found: it comes from package.json (vnu-jar), `npm ci` installs it")
    return found


def check(paths: list[Path]) -> list[dict]:
    """The checker's errors on the files `paths` (one JVM), as its JSON messages."""
    result = subprocess.run(
        [java(), "-jar", str(VNU), "--format", "json", "--errors-only", "--stdout"]
        + [str(p) for p in paths],
        capture_output=True,
        text=True,
        timeout=900,
    )
    try:
        messages = json.loads(result.stdout)["messages"]
    except (ValueError, KeyError):
        pytest.fail(
            f"the checker wrote no JSON report:\n{result.stdout[-2000:]}{result.stderr[-2000:]}"
        )
    return messages


def pages(site: Path) -> list[Path]:
    return sorted(
        p for p in site.rglob("*.html") if not p.relative_to(site).as_posix().startswith(NOT_PAGES)
    )


def load_exceptions() -> list[dict]:
    return yaml.safe_load(EXCEPTIONS.read_text(encoding="utf-8"))


def matches(entry: dict, page: str, message: dict) -> bool:
    if message.get("type") != "error":
        return False
    if not re.search(entry["message"], message.get("message", "")):
        return False
    if not any(fnmatch.fnmatch(page, glob) for glob in entry.get("pages", ["*"])):
        return False
    return "extract" not in entry or bool(re.search(entry["extract"], message.get("extract", "")))


def page_of(message: dict, site: Path) -> str:
    url = message.get("url", "")
    path = Path(url.removeprefix("file:"))
    try:
        return path.resolve().relative_to(site.resolve()).as_posix()
    except ValueError:
        return url


@pytest.fixture(scope="module")
def report(site):
    found = pages(site.path)
    return found, check(found)


def test_the_checker_saw_every_page(site, report):
    found, messages = report
    assert len(found) >= 20 and any(p.name == "404.html" for p in found)
    assert {p.relative_to(site.path).as_posix() for p in found} >= {
        "index.html",
        "blog/sinusoidal-embeddings/index.html",
        "notes/probability/index.html",
        "reference/linalg/index.html",
        "notebooks/cnn/index.html",
    }
    unreadable = [m for m in messages if m.get("type") == "non-document-error"]
    assert not unreadable, unreadable[:5]


def test_no_error_but_the_listed_upstream_ones(site, report):
    _, messages = report
    entries = load_exceptions()
    unlisted = [
        m for m in messages if not any(matches(e, page_of(m, site.path), m) for e in entries)
    ]
    shown = "\n".join(
        f"{page_of(m, site.path)}:{m.get('lastLine')}: {m.get('message')}\n    {m.get('extract', '')!r}"
        for m in unlisted[:30]
    )
    assert not unlisted, (
        f"{len(unlisted)} errors the site must fix (or list, if upstream's):\n{shown}"
    )


def test_every_listed_exception_still_occurs(site, report):
    """An entry that matches nothing is stale: upstream fixed it, delete the entry."""
    _, messages = report
    stale = [
        e["message"]
        for e in load_exceptions()
        if not any(matches(e, page_of(m, site.path), m) for m in messages)
    ]
    assert not stale, f"listed in {EXCEPTIONS.name} but no longer reported: {stale}"


def test_every_exception_says_whose_it_is_and_where_it_is_tracked():
    for entry in load_exceptions():
        assert {"message", "owner", "upstream", "why"} <= set(entry), entry
        re.compile(entry["message"])
        upstream = entry["upstream"]
        if isinstance(upstream, str):
            assert upstream.startswith("none found ("), entry
        else:
            assert upstream and all(
                re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+/(issues|pull)/\d+", u)
                for u in upstream
            ), entry


@pytest.mark.slow
def test_the_checker_reports_what_the_site_used_to_have(tmp_path):
    """Not a no-op: the errors issue 33 found (an unescaped quote in a description, a
    duplicated id, an anchor with `name` and no `href`, a data: URI with a fragment) are
    reported, and none of them is listed as upstream's."""
    page = tmp_path / "page.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title>'
        '<meta name="description" content="the "quoted" words"></head><body>'
        '<p id="x">a</p><p id="x">b</p><p><a id="l1" name="l1"></a></p>'
        '<p><img alt="plot" src="data:image/png;base64,iVBORw0KGgo=#only-light"></p>'
        "</body></html>",
        encoding="utf-8",
    )
    messages = check([page])
    texts = [m["message"] for m in messages if m.get("type") == "error"]
    for expected in (
        "Duplicate ID “x”",
        "Element “a” is missing required attribute “href”",
        "Fragment is not allowed for data: URIs",
        'Quote “"” in attribute name',
    ):
        assert any(expected in t for t in texts), (expected, texts)
    entries = load_exceptions()
    assert not [m for m in messages if any(matches(e, "page.html", m) for e in entries)]


def test_the_overridden_site_meta_is_materials_with_the_two_values_escaped():
    """overrides/main.html copies Material's `site_meta` block to escape the description and
    the author: the copy is the installed Material's block but for those two escapes, so an
    upgrade that changes the block fails here instead of being hidden by the copy."""
    import material

    def block(text: str) -> list[str]:
        found = re.search(r"{% block site_meta %}(.*?){% endblock %}", text, re.S)
        assert found, "no site_meta block"
        return [line.strip() for line in found.group(1).splitlines() if line.strip()]

    theirs = block((Path(material.__file__).parent / "templates" / "base.html").read_text())
    ours = block((ROOT / "overrides" / "main.html").read_text(encoding="utf-8"))
    escaped = [line for line in ours if " | e }}" in line]
    assert len(escaped) == 4, escaped  # description and author, from the page or the site
    assert [line.replace(" | e }}", " }}") for line in ours] == theirs
