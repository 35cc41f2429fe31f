// Instant navigation and instant previews wherever the site is served (Material's
// `navigation.instant`, and the `data-preview` links: material.extensions.preview and
// javascripts/apparatus.js).
//
// Material navigates instantly to, and previews, only a link listed in sitemap.xml, whose
// URLs are built from `site_url`; it moves them onto the protocol and host name of the
// page, not its port or path. Its maintainers' answer is that `site_url` must be the
// address the site is served from (squidfunk/mkdocs-material#6704, #6792), so a copy
// served from anywhere else (a local port, another folder) reloads the whole page on
// every click and shows no preview.
{
  // The site's root, from the page this script was loaded with: instant navigation keeps
  // that page's configuration, whose `base` is relative to it.
  const root = new URL(JSON.parse(document.getElementById("__config").textContent).base, location.href);
  const ownPage = url => url.origin === location.origin && url.pathname.startsWith(root.pathname);

  // A click that Material left alone, on a link to a page of this site, is handed to
  // Material's own `location$` with the history entry Material would push.
  document.addEventListener("click", ev => {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    if (location.protocol === "file:" || !window.location$) return;  // as Material: no fetch from disk
    const link = ev.target instanceof Element ? ev.target.closest("a[href]") : null;
    if (!link || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.href);
    // pages (notes/cnn/), not files (figures, notebooks, the feed) nor anchors on this page
    if (!ownPage(url)) return;
    if (!url.pathname.endsWith("/") || url.pathname === location.pathname) return;
    ev.preventDefault();
    history.replaceState({ x: scrollX, y: scrollY }, "");
    history.pushState(null, "", url);
    window.location$.next(url);
  });

  // Previews, where Material shows none: the root Material's sitemap names (site_url, the
  // canonical link less this page's path, on this page's protocol and host name) is not
  // where the site is served, or there is none (no site_url: the sitemap names no page). The preview is built as Material builds it (9.8.1,
  // components/content/link/index.ts): the link's target in its fetched page, copied into
  // an <h3> with the rest of its section, in a `.md-tooltip2` (Material's styles), on mouse
  // hover and keyboard focus; a tap simply navigates. apparatus.js typesets it.
  const canonical = document.querySelector('link[rel="canonical"]');
  const here = location.pathname.slice(root.pathname.length);
  const siteUrl = canonical && canonical.href.endsWith(here) && new URL(canonical.href.slice(0, canonical.href.length - here.length));
  if (siteUrl) Object.assign(siteUrl, { protocol: location.protocol, hostname: location.hostname });
  if (!(siteUrl && siteUrl.href === root.href) && location.protocol !== "file:" && !window.mlnotesPreviews) {
    window.mlnotesPreviews = true;  // notebook pages load the site's scripts twice
    const pages = new Map();  // page URL -> its parsed document
    let shown = null;         // { link, node, timer }

    const fetchPage = url => {
      if (!pages.has(url)) {
        pages.set(url, fetch(url).then(r => (r.ok ? r.text() : Promise.reject(r.status)))
          .then(text => new DOMParser().parseFromString(text, "text/html")));
      }
      return pages.get(url).catch(() => null);
    };

    const place = (link, node) => {
      const host = link.getBoundingClientRect();
      const above = host.y >= innerHeight / 2;  // where there is more room, as Material
      node.style.setProperty("--md-tooltip-host-x", `${host.x + scrollX}px`);
      node.style.setProperty("--md-tooltip-host-y", `${host.y + scrollY}px`);
      node.style.setProperty("--md-tooltip-x", `${host.width / 2}px`);
      node.style.setProperty("--md-tooltip-y", `${above ? -16 - node.offsetHeight : 16 + host.height}px`);
      node.classList.toggle("md-tooltip2--top", above);
      node.classList.toggle("md-tooltip2--bottom", !above);
    };

    const hide = (delay = 250) => {
      const entry = shown;
      if (!entry) return;
      clearTimeout(entry.timer);
      entry.timer = setTimeout(() => {
        if (shown === entry) shown = null;
        if (!entry.node) return;
        entry.node.classList.remove("md-tooltip2--active");
        setTimeout(() => entry.node.remove(), 250);
      }, delay);
    };

    const show = async link => {
      if (shown && shown.link === link) return clearTimeout(shown.timer);
      hide(0);
      const entry = (shown = { link });
      const url = new URL(link.href);
      url.hash = "";
      const doc = await fetchPage(url.href);
      const target = doc && doc.querySelector(link.hash ? `article [id="${link.hash.slice(1)}"]` : "article h1");
      if (!target || shown !== entry) return;
      const heading = document.createElement("h3");
      heading.innerHTML = target.innerHTML;
      const inner = document.createElement("div");
      inner.className = "md-tooltip2__inner md-typeset";
      inner.append(heading);
      for (let el = target.nextElementSibling; el && !/^H[1-6]$/.test(el.tagName); el = el.nextElementSibling) {
        inner.append(el.cloneNode(true));
      }
      for (const el of inner.querySelectorAll("[href], [src]")) {
        for (const key of ["href", "src"]) {
          if (el.hasAttribute(key)) el.setAttribute(key, new URL(el.getAttribute(key), url).href);
        }
      }
      const node = (entry.node = document.createElement("div"));
      node.className = "md-tooltip2";
      node.setAttribute("role", "dialog");
      node.append(inner);
      node.addEventListener("mouseenter", () => clearTimeout(entry.timer));
      node.addEventListener("mouseleave", () => hide());
      document.body.append(node);
      place(link, node);
      new ResizeObserver(() => place(link, node)).observe(inner);  // typeset math resizes it
      requestAnimationFrame(() => node.classList.add("md-tooltip2--active"));
    };

    const previewLink = el => {
      const link = el instanceof Element ? el.closest(".md-content a[data-preview][href]") : null;
      return link && ownPage(new URL(link.href)) ? link : null;
    };
    document.addEventListener("pointerover", ev => {
      const link = ev.pointerType === "mouse" && previewLink(ev.target);
      if (link) show(link);
    });
    document.addEventListener("pointerout", ev => {
      const link = previewLink(ev.target);
      if (link && !link.contains(ev.relatedTarget)) hide();
    });
    document.addEventListener("focusin", ev => {
      const link = previewLink(ev.target);
      if (link) show(link);
    });
    document.addEventListener("focusout", ev => {
      if (previewLink(ev.target)) hide();
    });
    if (window.document$) window.document$.subscribe(() => hide(0));  // instant navigation
  }
}

// A search result tapped on a phone lands where it links. Below 60em Material locks the
// page while search is open (body[data-md-scrolllock], position: fixed), unlocks it 100 ms
// (a timer) after search closes and scrolls back to the offset the page had when the lock
// was set (9.8.1, patches/scrolllock/index.ts); the search's backdrop, a circle scaled 45
// to 75 times (by the screen's width), then shrinks for 0.4 s, and while it reaches past
// the screen a phone's browser widens the page (zooms it out) a little longer, which moves
// or stops a scroll made then (measured in Chromium 156, mobile emulation). Instant
// navigation scrolls the new page as soon as it is swapped in (integrations/instant/
// index.ts): to the offset saved in its history entry if there is one (saved while the page
// was locked: 0), else to its anchor or its top. That scroll was lost on a page still
// locked, moved by the widened page, or replaced by the old page's offset, and the address
// kept the heading Material's navigation.tracking read from the old page as it unlocked.
// No upstream issue found. Here, after a tap on a search result, once its page is in,
// unlocked, the backdrop still and the page its own width again, the page is scrolled to
// the link's anchor (or the top), and the address and the offset saved for Back are the
// link's and that one.
if (!window.mlnotesSearchLanding && window.document$) {
  window.mlnotesSearchLanding = true;
  let shownPath = location.pathname;  // the page shown: the address changes before it is
  window.document$.subscribe(() => { shownPath = location.pathname; });
  let taps = 0;
  document.addEventListener("click", ev => {
    if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    const link = ev.target instanceof Element ? ev.target.closest(".md-search-result a[href]") : null;
    const search = document.querySelector(".md-search");
    if (!link || link.target || !search || location.protocol === "file:") return;
    const url = new URL(link.href), samePage = url.pathname === shownPath;
    const width = window.innerWidth;  // the page's width, not yet widened by the backdrop
    const tap = ++taps;
    // Another page has arrived when Material's document$ emits again (it replays the page
    // shown to a new subscriber), after Material's own scroll (subscribed before it).
    let arrived = samePage ? performance.now() : 0, seen = 0;
    const page = samePage ? null : window.document$.subscribe(() => { if (seen++) arrived = performance.now(); });
    const land = () => {
      // stop on another tap, on going elsewhere, or 10 s after the page arrived
      if (tap !== taps || location.pathname !== url.pathname || (arrived && performance.now() - arrived > 10000))
        return void page?.unsubscribe();
      const still = !document.body.hasAttribute("data-md-scrolllock") &&
        !search.getAnimations({ subtree: true }).length && window.innerWidth === width;
      if (!(arrived && still)) return void requestAnimationFrame(land);
      page?.unsubscribe();
      const target = url.hash && document.getElementById(decodeURIComponent(url.hash.slice(1)));
      if (target) target.scrollIntoView();
      else window.scrollTo(0, 0);
      history.replaceState({ x: window.scrollX, y: window.scrollY }, "", url);
    };
    requestAnimationFrame(land);
  }, true);  // capture: before Material or the click handler above change the address

  // Back or forward to another page of the site, to the position saved in its history
  // entry. Material (9.8.2) scrolls there once the page has arrived, reading the entry
  // then; but when the entry's address names a part of the page (#...: navigation.tracking
  // puts the heading read last there) it also scrolls at once, on the page still shown,
  // and what it saves while the page is on its way (the position, 100 ms after a scroll;
  // the heading tracked) goes into the entry gone back to. A page that took longer than
  // that to arrive was shown elsewhere: the post, its HTML delayed by 600 ms, at its top.
  // The position saved is kept here and scrolled to once the page has arrived, after
  // Material's own scroll (Material's document$ replays the page shown, then emits the
  // page arrived).
  if (location.protocol !== "file:" && !window.mlnotesBackForward) {
    window.mlnotesBackForward = true;  // notebook pages load the site's scripts twice
    addEventListener("popstate", ev => {
      const saved = ev.state, path = location.pathname;
      if (!window.document$ || !saved || typeof saved.y !== "number") return;
      let seen = 0;
      const arrival = window.document$.subscribe(() => {
        if (!seen++) return;  // the page shown, replayed
        arrival.unsubscribe();
        if (location.pathname !== path) return;  // gone elsewhere since
        if (Math.abs(window.scrollY - saved.y) > 1) window.scrollTo(saved.x || 0, saved.y);
        history.replaceState(saved, "");
      });
    });
  }
}
