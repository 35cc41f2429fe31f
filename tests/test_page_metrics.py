"""The reading pages read as the author's notes (issue 9): on the post and each notes page,
words inside Correction boxes are at most 20 % of the words shown without expanding
anything, and at most 40 doctest prompt lines (`>>>`/`...`) are visible. The evidence
lives in collapsed Check blocks, which the doctest run still executes."""

from __future__ import annotations

import pytest

from page_metrics import metrics

READING = ["blog/sinusoidal-embeddings", "notes/probability", "notes/linear-algebra", "notes/cnn"]


@pytest.mark.parametrize("path", READING)
def test_corrections_and_prompts_do_not_crowd_out_the_notes(site, path):
    m = metrics((site.path / path / "index.html").read_text(encoding="utf-8"))
    assert m["visible_words"] > 500, m  # the page's text was found at all
    assert m["correction_words"] > 0, m  # and its Correction boxes
    assert m["correction_share"] <= 0.20, m
    assert m["visible_prompt_lines"] <= 40, m


def test_a_collapsed_check_is_not_counted_as_visible():
    html = """<article class="md-content__inner">
      <p>One two three four.</p>
      <div class="admonition warning"><p class="admonition-title">Correction: x</p><p>five six</p>
        <details class="example"><summary>Check</summary><pre><code>&gt;&gt;&gt; 1 + 1
2</code></pre><p>hidden words here</p></details></div>
      <pre><code>&gt;&gt;&gt; shown()</code></pre></article>"""
    m = metrics(html)
    assert m["visible_prompt_lines"] == 1
    assert m["visible_words"] == 4 + 2 + 2 + 1  # text, title "Correction: x", box, summary
    assert m["correction_words"] == 2 + 2 + 1
