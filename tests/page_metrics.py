"""Reading metrics of a built page (issue 9's "Done when").

Visible words: text shown without expanding anything, code and math not counted.
Correction words: visible words inside admonitions whose title starts with "Correction".
Prompt lines: visible lines of code blocks that start with `>>>` or `...`.

Usage: python tests/page_metrics.py SITE_DIR page/path/ [page/path/ ...]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from bs4 import BeautifulSoup, Tag


def _hidden(el: Tag) -> bool:
    """Inside a collapsed <details> (other than its summary)."""
    summary = el if el.name == "summary" else el.find_parent("summary")
    for parent in el.parents:
        if parent.name == "details" and not parent.has_attr("open"):
            if (
                summary is not None and summary.parent is parent
            ):  # a closed details shows its summary
                continue
            return True
    return False


def metrics(html: str) -> dict:
    soup = BeautifulSoup(html, "html.parser")
    article = soup.select_one("article.md-content__inner") or soup.select_one("article")
    for junk in article.select(".headerlink, .md-source-file, script, style"):
        junk.decompose()
    prompt_lines = 0
    for pre in article.find_all("pre"):
        if _hidden(pre):
            continue
        for line in pre.get_text().splitlines():
            if re.match(r"\s*(>>>|\.\.\.)(\s|$)", line):
                prompt_lines += 1
    for el in article.select(
        "pre, code, .arithmatex, mjx-container, .highlight, .md-typeset__table pre"
    ):
        el.decompose()
    words = corr = 0
    for text in article.find_all(string=True):
        parent = text.parent
        if _hidden(parent):
            continue
        n = len(re.findall(r"[A-Za-zÀ-ÿ0-9][\w'’\-–]*", str(text)))
        words += n
        box = (
            parent
            if parent.name == "div" and "admonition" in parent.get("class", [])
            else parent.find_parent(
                lambda t: (
                    t.name in ("div", "details")
                    and "admonition" in t.get("class", [])
                    or t.name == "details"
                )
            )
        )
        while box is not None:
            title = box.find(["p", "summary"], class_="admonition-title") or box.find("summary")
            if title is not None and title.get_text().strip().lower().startswith("correction"):
                corr += n
                break
            box = box.find_parent(
                lambda t: (
                    t.name in ("div", "details")
                    and "admonition" in t.get("class", [])
                    or t.name == "details"
                )
            )
    return {
        "visible_words": words,
        "correction_words": corr,
        "correction_share": round(corr / words, 3) if words else 0.0,
        "visible_prompt_lines": prompt_lines,
    }


if __name__ == "__main__":
    site = Path(sys.argv[1])
    for page in sys.argv[2:]:
        print(page, metrics((site / page / "index.html").read_text(encoding="utf-8")))
