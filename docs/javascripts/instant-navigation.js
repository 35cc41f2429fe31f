// Instant navigation wherever the site is served (Material's `navigation.instant`).
//
// Material intercepts a click only on a link listed in sitemap.xml, whose URLs are built
// from `site_url`; it moves them onto the protocol and host name of the page, not its port
// or path. Its maintainers' answer is that `site_url` must be the address the site is
// served from (squidfunk/mkdocs-material#6704, #6792), so a copy served from anywhere
// else (a local port, another folder) reloads the whole page on every click. A click that
// Material left alone, on a link to a page of this site, is handed to Material's own
// `location$` with the history entry Material would push.
{
  // The site's root, from the page this script was loaded with: instant navigation keeps
  // that page's configuration, whose `base` is relative to it.
  const root = new URL(JSON.parse(document.getElementById("__config").textContent).base, location.href);
  document.addEventListener("click", ev => {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    if (location.protocol === "file:" || !window.location$) return;  // as Material: no fetch from disk
    const link = ev.target instanceof Element ? ev.target.closest("a[href]") : null;
    if (!link || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.href);
    // pages (notes/cnn/), not files (figures, notebooks, the feed) nor anchors on this page
    if (url.origin !== location.origin || !url.pathname.startsWith(root.pathname)) return;
    if (!url.pathname.endsWith("/") || url.pathname === location.pathname) return;
    ev.preventDefault();
    history.replaceState({ x: scrollX, y: scrollY }, "");
    history.pushState(null, "", url);
    window.location$.next(url);
  });
}
