"""Screenshot pages of a built site in headless Chromium, in the light and dark palettes.

    python scripts/screenshot.py SITE_DIR PAGE [PAGE ...] [--out DIR] [--full]

PAGE is a path inside the site (`blog/sinusoidal-embeddings/`, `notes/probability/`).
The site is served on a free localhost port; each page is opened, MathJax is awaited,
and `<out>/<page>-light.png` and `<out>/<page>-dark.png` are written. Console errors
and MathJax errors are printed. Uses Debian's Chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import threading
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@contextmanager
def serve(site: Path):
    """Serve `site` on a free localhost port; yield the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test and tool output readable
        pass


# The TeX left as text in the article (code and typeset math removed): math MathJax did
# not typeset. Catches $$, \( \[, $...$ (notebook cells) and TeX macros.
LEFTOVER_TEX = r"""() => {
    const article = (document.querySelector('article') || document.body).cloneNode(true);
    article.querySelectorAll('pre, code, mjx-container, mjx-assistive-mml, script, style').forEach(e => e.remove());
    const hits = article.textContent.match(/\$\$|\$[^$\n]{1,200}\$|\\\(|\\\[|\\[a-zA-Z]{2,}\{|\\(frac|sum|left|mathbf|omega|theta|lambda|sigma|mu|pi|alpha)\b/g) || [];
    return hits.slice(0, 5);
}"""


def set_scheme(page, scheme: str) -> None:
    """Switch Material's palette to `default` (light) or `slate` (dark)."""
    page.evaluate(
        """(scheme) => {
            document.body.setAttribute('data-md-color-scheme', scheme);
            const input = document.querySelector(`input[data-md-color-scheme="${scheme}"]`);
            if (input) { input.checked = true; }
        }""",
        scheme,
    )


def wait_for_math(page, timeout: float = 20000) -> None:
    """Wait until MathJax has started and typeset the current page."""
    page.wait_for_function(
        "() => window.MathJax && MathJax.startup && MathJax.startup.promise && window.mlnotesTypeset > 0",
        timeout=timeout,
    )
    page.evaluate("() => MathJax.startup.promise.then(() => document.fonts.ready).then(() => true)")


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--out", type=Path, default=Path("/tmp/screenshots"))
    parser.add_argument("--full", action="store_true", help="the whole page, not the viewport")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with serve(args.site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.on("console", lambda m: m.type == "error" and print(f"console error: {m.text}"))
        page.on("pageerror", lambda e: print(f"page error: {e}"))
        for path in args.pages:
            page.goto(base + path.lstrip("/"))
            wait_for_math(page)
            errors = page.locator("mjx-merror").count()
            if errors:
                print(f"{path}: {errors} MathJax errors")
            leftover = page.evaluate(LEFTOVER_TEX)
            if leftover:
                print(f"{path}: untypeset TeX in the text: {leftover}")
            stem = path.strip("/").replace("/", "_") or "index"
            for scheme, label in (("default", "light"), ("slate", "dark")):
                set_scheme(page, scheme)
                page.wait_for_timeout(300)
                target = args.out / f"{stem}-{label}.png"
                page.screenshot(path=str(target), full_page=args.full)
                print(target)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
