"""Print the post and the notes pages of a built site as one PDF: the printable book.

    python -m mlnotes_site.printer [SITE_DIR] [--output mlnotes.pdf] [--site-url URL]

`make pdf` runs it on the site that `make site` has just built (SITE_DIR and the output
default to `site/` and `mlnotes.pdf` in the current directory). SITE_DIR is served on a
free localhost port and Debian's Chromium (/usr/bin/chromium, through Playwright)
prints ONE document: a title page, a table of contents with page numbers, then the
article of each page of `CHAPTERS` in reading order, with the site's own stylesheets
(docs/stylesheets/print.css included) in the light palette, plus scripts/mlnotes_site/printer.css
(title page, contents, chapter breaks, page numbers). One document, not one PDF per page
merged afterwards, so that Chromium writes every link between pages as a link inside
the PDF, the outline (bookmarks) from the headings and a tagged PDF.

How the pages are joined:
- the ids of chapter n get the prefix `c<n>-` (so they stay unique) and every link is
  rewritten: to a page of the book, it jumps inside the PDF; to another page of the site
  (API reference, notebooks, sources), it goes to the deployed site, the build's
  `site_url` (read from the pages' canonical links) unless --site-url says otherwise;
- display equations are numbered per page, as on the site: MathJax typesets each
  chapter on its own after `MathJax.texReset()`, at the width of the printed page, so
  its line breaks fit the paper; a chapter that arrives already typeset is left as is;
- every `details` block is printed open: a correction's Check block under it, as the
  site's print stylesheet does (the evidence stays beside the claim it supports);
- the table of contents needs page numbers that CSS cannot give in Chromium
  (no `target-counter()`): the book is printed once, the page of each contents entry
  read from the PDF's named destinations (pypdf), and printed again with the numbers.

A standalone script rather than a MkDocs plugin: it prints the *finished* site (pages,
figures, fonts and MathJax in place) in a browser, so it can only run after a build,
and a build should not need Chromium; like the offline zip, the PDF is something
`make site` then serves when it exists (mlnotes-assets, scripts/mlnotes_site/plugins/assets.py, links it).
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from importlib import resources
from pathlib import Path

# The book, in reading order: the post, then the notes pages, as in the site's nav.
# (Not the post's companion page, notes/sinusoidal-embeddings-in-practice/: it is the
# site's addition, not the author's notes; the post's links to it go to the site.)
CHAPTERS = (
    "blog/sinusoidal-embeddings/",
    "notes/probability/",
    "notes/linear-algebra/",
    "notes/cnn/",
)
# The book's title (its title page; mlnotes-cite's entry for the book, plugins/cite.py).
BOOK_TITLE = "Machine-learning study notes"
BOOK_CSS = resources.files(__package__) / "printer.css"  # package data
# The printed page: A4, and the width MathJax breaks long equations to (CSS px, 96/in).
PAGE_FORMAT = "A4"
PAGE_WIDTH_MM, MARGIN_MM = 210, 18
CONTENT_WIDTH_PX = round((PAGE_WIDTH_MM - 2 * MARGIN_MM) / 25.4 * 96)
BOOK_PATH = "__mlnotes_book__.html"  # where the book is "served" (Playwright route), never a file

# Runs in the book's page: assemble it. Returns what Python reports or fails on.
ASSEMBLE = r"""
async ({chapters, siteUrl, css, title: bookTitle}) => {
  const base = new URL("./", location.href);            // the served site's root
  const inBook = new Map(chapters.map((p, i) => [p, i + 1]));
  const docs = [];
  for (const path of chapters) {
    const url = new URL(path, base).href;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    if (!doc.querySelector("article")) throw new Error(`${path}: no <article>`);
    docs.push({path, url, doc});
  }
  const first = docs[0].doc;

  // <head>: every stylesheet of every page (Material's, the site's, any typeset math's
  // styles), then MathJax (its configuration, then MathJax itself), then the book's own css.
  const seen = new Set();
  for (const {url, doc} of docs) {
    for (const el of doc.head.querySelectorAll("link[rel=stylesheet], style")) {
      const key = el.tagName === "LINK" ? new URL(el.getAttribute("href"), url).href : el.textContent;
      if (seen.has(key)) continue;
      seen.add(key);
      const copy = document.importNode(el, true);
      if (el.tagName === "LINK") copy.href = key;
      document.head.append(copy);
      if (el.tagName === "LINK") await new Promise((ok) => { copy.onload = ok; copy.onerror = ok; });
    }
  }
  const style = document.createElement("style");
  style.textContent = css;
  document.head.append(style);
  const author = (first.querySelector("meta[name=author]") || {}).content || "";
  const canonical = first.querySelector("link[rel=canonical]");
  const deployed = siteUrl || (canonical ? new URL("../".repeat(chapters[0].split("/").length - 1), canonical.href).href : base.href);
  document.title = `${first.querySelector("meta[property='og:site_name']")?.content || "mlnotes"}: the post and the notes` + (author ? `, by ${author}` : "");
  document.documentElement.lang = first.documentElement.lang || "en";
  // the light palette (Material's body attributes, scheme forced to `default`)
  for (const attr of first.body.attributes) document.body.setAttribute(attr.name, attr.value);
  document.body.setAttribute("data-md-color-scheme", "default");
  document.body.classList.add("mlnotes-book");

  const book = document.createElement("div");
  book.className = "md-typeset mlnotes-book__content";
  document.body.append(book);

  // Links: inside the book -> #c<n>-<id>; elsewhere on the site -> the deployed site.
  const pagePath = (u) => {
    let p = decodeURIComponent(u.pathname).slice(base.pathname.length);
    return p.replace(/index\.html$/, "");
  };
  const rewrite = (href, from, n) => {
    if (href.startsWith("#")) return `#c${n}-${decodeURIComponent(href.slice(1))}`;
    const u = new URL(href, from);
    if (u.origin !== base.origin) return u.href;
    const path = pagePath(u);
    const k = inBook.get(path);
    if (k) return u.hash ? `#c${k}-${decodeURIComponent(u.hash.slice(1))}` : `#c${k}`;
    return new URL(path + u.search + u.hash, deployed).href;
  };
  const MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December";
  const chaptersInfo = [];
  for (const [i, {path, url, doc}] of docs.entries()) {
    const n = i + 1;
    const article = doc.querySelector("article");
    // what only a screen has: permalinks, buttons, scripts, the excerpt marker; and the page's
    // "Cite this page" block (plugins/cite.py), which cites the page at its address
    article.querySelectorAll(".headerlink, .md-content__button, script, .md-source-file, .mlnotes-cite-this").forEach((e) => e.remove());
    for (const el of article.querySelectorAll("[src]")) el.setAttribute("src", new URL(el.getAttribute("src"), url).href);
    for (const el of article.querySelectorAll("[data-preview]")) el.removeAttribute("data-preview");
    for (const el of article.querySelectorAll("details")) el.open = true;
    const section = document.createElement("section");
    section.className = "mlnotes-chapter";
    section.id = `c${n}`;
    section.dataset.page = path;
    section.append(...Array.from(article.childNodes).map((node) => document.importNode(node, true)));
    book.append(section);
    // the dates: a post's (Material's blog metadata), or the notes' (their first paragraph)
    let dates = Array.from(doc.querySelectorAll(".md-post__meta time, .md-post time")).map((t) => t.textContent.trim());
    let kind = "Post";
    if (!dates.length) {
      kind = "Notes";
      const intro = [];
      for (const el of section.children) { if (el.tagName === "H2") break; intro.push(el.textContent); }
      dates = intro.join(" ").replace(/\s+/g, " ").match(new RegExp(`(?:${MONTHS}) \\d{1,2},? \\d{4}`, "g")) || [];
    }
    dates = [...new Set(dates.map((d) => d.replace(/,? (\d{4})$/, ", $1")))]
      .sort((a, b) => Date.parse(a) - Date.parse(b));
    const h1 = section.querySelector("h1");
    chaptersInfo.push({n, path, title: h1 ? h1.textContent.trim() : path, kind, dates,
                       url: new URL(path, deployed).href});

    // math: this chapter alone, numbering from (1) as on its page
    if (window.MathJax && MathJax.typesetPromise && section.querySelector(".arithmatex")) {
      MathJax.texReset();
      await MathJax.typesetPromise([section]);
    }
    // ids and links, after typesetting (MathJax writes the equations' ids and \eqref links)
    for (const el of section.querySelectorAll("[id]")) el.id = `c${n}-${el.id}`;
    for (const el of section.querySelectorAll("[href]")) el.setAttribute("href", rewrite(el.getAttribute("href"), url, n));
    for (const attr of ["aria-describedby", "aria-labelledby", "aria-controls", "for"]) {
      for (const el of section.querySelectorAll(`[${attr}]`)) {
        el.setAttribute(attr, el.getAttribute(attr).split(/\s+/).map((id) => `c${n}-${id}`).join(" "));
      }
    }
  }
  await document.fonts.ready;

  // title page and contents (h1 and h2 of each chapter), page numbers filled in later
  const title = document.createElement("section");
  title.className = "mlnotes-title";
  const esc = (s) => s.replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  const copyright = first.querySelector(".md-copyright__highlight");
  const dated = (c) => c.dates.length ? `${c.kind === "Post" ? "post of" : "notes of"} ${c.dates.length > 1 ? c.dates.slice(0, -1).join(", ") + " and " + c.dates.at(-1) : c.dates[0]}` : "";
  title.innerHTML = `
    <p class="mlnotes-title__site">${esc(first.querySelector("meta[property='og:site_name']")?.content || "mlnotes")}</p>
    <h1 class="mlnotes-title__title">${esc(bookTitle)}</h1>
    <p class="mlnotes-title__author">${esc(author)}</p>
    <ol class="mlnotes-title__chapters">${chaptersInfo.map((c) =>
      `<li><strong>${esc(c.title)}</strong><br><span>${esc(dated(c))}</span></li>`).join("")}</ol>
    <div class="mlnotes-title__about">
      <p>Printed from the site <a href="${esc(deployed)}">${esc(deployed)}</a>, where every page
      below is also online. The author's notes stand as written; where they are wrong, a
      <em>Correction</em> follows the passage, and its <em>Check</em> (the evidence: doctests the
      site's tests run, figures) is printed under it. What the site adds is labelled
      <em>added on this site</em>. Figures are redrawn from the <code>mlnotes</code> package;
      links to its API reference and to the notebooks go to the site.</p>
      ${copyright ? `<p>${esc(copyright.textContent.trim())}</p>` : ""}
    </div>`;
  const toc = document.createElement("nav");
  toc.className = "mlnotes-toc";
  toc.setAttribute("aria-label", "Contents");
  let items = "";
  for (const c of chaptersInfo) {
    const section = document.getElementById(`c${c.n}`);
    const h1 = section.querySelector("h1");
    items += `<li class="mlnotes-toc__chapter"><a href="#${h1.id}"><span class="mlnotes-toc__text">${c.n}. ${esc(c.title)}</span><span class="mlnotes-toc__page" data-target="${h1.id}"></span></a><ol>`;
    for (const h2 of section.querySelectorAll("h2")) {
      items += `<li><a href="#${h2.id}"><span class="mlnotes-toc__text">${esc(h2.textContent.trim())}</span><span class="mlnotes-toc__page" data-target="${h2.id}"></span></a></li>`;
    }
    items += "</ol></li>";
  }
  toc.innerHTML = `<h2 class="mlnotes-toc__title" id="contents">Contents</h2><ol>${items}</ol>`;
  book.prepend(title, toc);

  // checks: every in-document link has its target; ids are unique; math typeset
  const ids = new Set();
  const duplicates = [];
  for (const el of document.querySelectorAll("[id]")) { if (ids.has(el.id)) duplicates.push(el.id); ids.add(el.id); }
  const broken = Array.from(document.querySelectorAll("a[href^='#']"))
    .map((a) => decodeURIComponent(a.getAttribute("href").slice(1)))
    .filter((id) => !ids.has(id));
  const mathErrors = document.querySelectorAll("mjx-merror").length;
  const untypeset = document.querySelectorAll(".arithmatex:not(:has(mjx-container))").length;
  const overflowing = Array.from(document.querySelectorAll(".mlnotes-book__content div.arithmatex, .mlnotes-book__content pre, .mlnotes-book__content table"))
    .filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => `${el.closest(".mlnotes-chapter")?.dataset.page}: ${el.tagName.toLowerCase()} ${el.scrollWidth}px in ${el.clientWidth}px: ${el.textContent.trim().slice(0, 60)}`);
  return {chapters: chaptersInfo, deployed, duplicates, broken, mathErrors, untypeset, overflowing};
}
"""

# Fill the contents' page numbers: {id: page number}.
FILL_PAGES = r"""
(pages) => {
  const missing = [];
  for (const span of document.querySelectorAll(".mlnotes-toc__page")) {
    const page = pages[span.dataset.target];
    if (page === undefined) missing.push(span.dataset.target); else span.textContent = String(page);
  }
  return missing;
}
"""


class BookError(RuntimeError):
    """The book could not be printed as it should (a broken link, untypeset math, ...)."""


def destinations(pdf: bytes) -> dict[str, int]:
    """The PDF's named destinations (Chromium names them by element id) -> 1-based page."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    return {
        str(name).lstrip("/"): reader.get_destination_page_number(dest) + 1
        for name, dest in reader.named_destinations.items()
    }


def print_book(site: Path, output: Path, site_url: str | None = None, log=print) -> dict:
    """Print the chapters of the built `site` into `output` (a PDF); return what was printed.

    Args:
        site: a built site (`mkdocs build` output folder).
        output: the PDF to write.
        site_url: where links to pages outside the book go; default: the build's
            `site_url`, from the pages' canonical links.
        log: called with one progress line per step.

    Returns:
        dict with `chapters` (path, title, dates), `deployed` (the site address links
        use), `pages` (the PDF's page count) and `seconds`.

    Raises:
        FileNotFoundError: a chapter's page is not in `site`.
        BookError: a link inside the book has no target, ids collide, or math failed.
    """
    from mlnotes_site.chromium import CHROMIUM, CHROMIUM_ARGS, serve
    from playwright.sync_api import sync_playwright

    start = time.perf_counter()
    site = Path(site)
    for path in CHAPTERS:
        if not (site / path / "index.html").is_file():
            raise FileNotFoundError(
                f"{site / path / 'index.html'} is missing: build the site first (make site)"
            )
    css = BOOK_CSS.read_text(encoding="utf-8")
    with serve(site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": CONTENT_WIDTH_PX, "height": 1000})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.emulate_media(media="print", color_scheme="light")
            page.route(
                base + BOOK_PATH,
                lambda route: route.fulfill(
                    content_type="text/html; charset=utf-8",
                    body="<!doctype html><html><head><meta charset='utf-8'></head><body></body></html>",
                ),
            )
            page.goto(base + BOOK_PATH)
            # MathJax: the site's configuration, then MathJax itself, from the first page.
            page.add_script_tag(url=base + "javascripts/mathjax-config.js")
            page.add_script_tag(url=base + "javascripts/mathjax/tex-chtml.js")
            page.wait_for_function(
                "() => window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=60000
            )
            page.evaluate("() => MathJax.startup.promise")
            log(f"[pdf] assembling {len(CHAPTERS)} pages and typesetting their math")
            info = page.evaluate(
                ASSEMBLE,
                {"chapters": list(CHAPTERS), "siteUrl": site_url, "css": css, "title": BOOK_TITLE},
            )
            problems = []
            if info["broken"]:
                problems.append(
                    f"links without a target in the book: {sorted(set(info['broken']))[:10]}"
                )
            if info["duplicates"]:
                problems.append(f"ids used twice: {sorted(set(info['duplicates']))[:10]}")
            if info["mathErrors"] or info["untypeset"]:
                problems.append(
                    f"math: {info['mathErrors']} MathJax errors, {info['untypeset']} expressions not typeset"
                )
            if errors:
                problems.append(f"JavaScript errors: {errors[:5]}")
            if problems:
                raise BookError("; ".join(problems))
            for line in info["overflowing"]:
                log(f"[pdf] wider than the page (scrolls on the site, clipped on paper): {line}")
            options = {
                "format": PAGE_FORMAT,
                "margin": {side: f"{MARGIN_MM}mm" for side in ("top", "right", "bottom", "left")},
                "print_background": True,
                "outline": True,  # bookmarks from the headings
                "tagged": True,  # a structure tree for screen readers
            }
            log("[pdf] printing (1/2: page numbers for the contents)")
            first = page.pdf(**options)
            missing = page.evaluate(FILL_PAGES, destinations(first))
            if missing:
                raise BookError(
                    f"contents entries whose target the PDF does not name: {missing[:10]}"
                )
            log("[pdf] printing (2/2)")
            pdf = page.pdf(**options)
        finally:
            browser.close()
    # The same number of pages both times, else the contents' numbers may be off.
    from pypdf import PdfReader

    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    if pages != len(PdfReader(io.BytesIO(first)).pages):
        raise BookError("filling in the contents' page numbers changed the page count")
    second = destinations(pdf)
    moved = {k: (v, second.get(k)) for k, v in destinations(first).items() if second.get(k) != v}
    if moved:
        raise BookError(f"targets moved between the two printings: {list(moved.items())[:5]}")
    output = Path(output)
    output.write_bytes(pdf)
    info.update(pages=pages, seconds=round(time.perf_counter() - start, 1))
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "site", type=Path, nargs="?", default=Path("site"), help="the built site (default: site/)"
    )
    parser.add_argument(
        "-o", "--output", type=Path, default=Path("mlnotes.pdf"), help="default: mlnotes.pdf"
    )
    parser.add_argument(
        "--site-url", help="where links to the rest of the site go (default: the build's site_url)"
    )
    args = parser.parse_args(argv)
    try:
        info = print_book(args.site, args.output, args.site_url)
    except (BookError, FileNotFoundError) as exc:
        print(f"[pdf] failed: {exc}", file=sys.stderr)
        return 1
    size = args.output.stat().st_size / 1e6
    print(
        f"[pdf] wrote {args.output} ({info['pages']} pages, {size:.1f} MB) in {info['seconds']} s; "
        f"links to the rest of the site go to {info['deployed']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
