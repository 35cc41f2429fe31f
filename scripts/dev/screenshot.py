"""Screenshot pages of a built site in headless Chromium, in the light and dark palettes.

    python scripts/dev/screenshot.py SITE_DIR PAGE [PAGE ...] [--out DIR] [--full] [--no-js]

PAGE is a path inside the site (`blog/sinusoidal-embeddings/`, `notes/probability/`).
The site is served on a free localhost port; each page is opened, its math is awaited
(its fonts; MathJax too in a site built with mlnotes-typeset disabled), and `<out>/<page>-light.png` and `<out>/<page>-dark.png` are written. Console errors
and MathJax errors are printed. Uses Debian's Chromium (/usr/bin/chromium). `--no-js`:
with JavaScript disabled in the page (the files are then named `...-nojs-light.png`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mlnotes_site.chromium import (
    CHROMIUM,
    CHROMIUM_ARGS,
    LEFTOVER_TEX,
    serve,
    set_scheme,
    wait_for_math,
)


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--out", type=Path, default=Path("/tmp/screenshots"))
    parser.add_argument("--full", action="store_true", help="the whole page, not the viewport")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--no-js", action="store_true", help="JavaScript disabled in the page")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with serve(args.site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(
            viewport={"width": args.width, "height": args.height},
            java_script_enabled=not args.no_js,
        )
        page = context.new_page()
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
            stem = (path.strip("/").replace("/", "_") or "index") + ("-nojs" if args.no_js else "")
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
