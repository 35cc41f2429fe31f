"""`make linkcheck` (scripts/dev/linkcheck.py, LinkChecker) reports a site's dead external
links and only those. No network here: the "external" site is a second localhost server,
with one page that is there and one that is not; the checked site also links its own
deployed address (its canonical link), which is not checked.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import linkcheck
from mlnotes_site.chromium import serve

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def external(tmp_path):
    folder = tmp_path / "external"
    folder.mkdir()
    (folder / "live.html").write_text("<!DOCTYPE html><title>live</title><p>here</p>")
    with serve(folder) as url:
        yield url


@pytest.fixture
def checked_site(tmp_path, external):
    site = tmp_path / "site"
    (site / "notes").mkdir(parents=True)
    (site / "index.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>home</title>'
        '<link rel="canonical" href="https://example.invalid/mlnotes/"></head><body>'
        '<p><a href="notes/">notes</a> <a href="https://example.invalid/mlnotes/notes/">'
        "the deployed notes</a></p></body></html>"
    )
    (site / "notes" / "index.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>notes</title>'
        f'</head><body><p><a href="{external}live.html">a paper</a> '
        f'<a href="{external}gone.html">a moved paper</a></p></body></html>'
    )
    return site


@pytest.mark.slow
def test_make_linkcheck_reports_the_dead_link_and_fails(checked_site, external, tmp_path):
    report = tmp_path / "report.txt"
    result = subprocess.run(
        ["make", "linkcheck", f"LINKCHECK_SITE={checked_site}", f"LINKCHECK_REPORT={report}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode != 0, result.stdout + result.stderr
    text = report.read_text(encoding="utf-8")
    assert f"{external}gone.html\n  404" in text
    assert "linked from /notes/" in text
    assert f"{external}live.html" not in text
    assert "example.invalid" not in text  # the site's own address is not checked
    assert text.startswith("6 links checked, 1 dead")


@pytest.mark.slow
def test_a_listed_exception_is_not_checked(checked_site, external, tmp_path):
    listed = tmp_path / "exceptions.txt"
    listed.write_text(
        f"# moved, and the publisher's robot check refuses robots\n^{external}gone\\.html$\n"
    )
    report = tmp_path / "report.txt"
    code = linkcheck.main([str(checked_site), "--exceptions", str(listed), "--report", str(report)])
    assert code == 0, report.read_text()
    assert report.read_text().startswith("6 links checked, 0 dead")


def test_the_kept_exceptions_file_parses():
    patterns = linkcheck.exceptions(linkcheck.EXCEPTIONS)
    assert isinstance(patterns, list)  # one regular expression a line, comments skipped
    text = linkcheck.EXCEPTIONS.read_text(encoding="utf-8")
    for pattern in patterns:
        before = text[: text.index(pattern)].rstrip().splitlines()
        assert before and before[-1].startswith("#"), f"{pattern}: no comment says why"
