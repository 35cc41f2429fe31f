// The math in Material's tooltips: instant previews (links with `data-preview`: a section
// or an equation of another page) and footnote tooltips (citations).
//
// Material builds a preview from the target page's HTML as served (Material 9.8.1,
// src/templates/assets/javascripts/components/content/link/index.ts: it clones the
// target and its section into a tooltip), and appends it to <body> as `.md-tooltip2`.
// The pages' math is typeset when the site is built (scripts/mlnotes_site/plugins/typeset.py),
// so the clone shows it typeset, with the numbers its own page gives it; what it lacks is
// that page's math stylesheet (the <style class="mlnotes-math-styles"> at the start of
// its article: the glyphs and fonts its math uses), which is added to the tooltip. So:
// watch <body> for tooltips and complete each one once. The preview of an equation or a
// correction box is the copy that Material makes of its target as an <h3>: unwrap it.
//
// Math still in TeX (every page, when mlnotes-typeset is disabled) is typeset here with MathJax when the page has it, with the
// equation numbers its own page gives it (`data-eqn-start`, counted by
// scripts/mlnotes_site/plugins/equations/), without its \label (which would be "multiply defined"
// when the preview is shown again). No MathJax on the page: nothing to typeset.
(function () {
  if (window.mlnotesApparatus) return; // once, whatever loads this file again
  window.mlnotesApparatus = true;

  function texTags() {
    try {
      const jax = MathJax.startup.document.inputJax;
      const tex = Array.isArray(jax) ? jax.find((j) => j.parseOptions) : Object.values(jax).find((j) => j.parseOptions);
      return tex.parseOptions.tags;
    } catch (err) {
      return null;
    }
  }

  // Material copies the preview's target into an <h3>. When the target is a block (an
  // equation's wrapper, a figure, or a box with an id: its first child says which,
  // scripts/mlnotes_site/box_previews.py and plugins/equations/), show the block
  // itself, and only it, not the rest of its section.
  function prepare(tooltip) {
    for (const h3 of tooltip.querySelectorAll("h3")) {
      const first = h3.firstElementChild;
      if (first && (first.dataset.box || /^(DIV|DETAILS|P|SUMMARY)$/.test(first.tagName))) {
        // a box: rebuild it as it is on its page (its tag and class)
        const tag = { details: "details", p: "p" }[first.dataset.box] || "div";
        const box = document.createElement(tag);
        box.className = `${first.dataset.boxClass || ""} mlnotes-block-preview`.trim();
        if (box.tagName === "DETAILS") box.open = true;
        box.append(...h3.childNodes);
        h3.replaceWith(box);
        while (box.nextElementSibling) box.nextElementSibling.remove();
      }
    }
    for (const el of tooltip.querySelectorAll(".arithmatex")) {
      if (el.querySelector("mjx-container")) continue; // typeset when the site was built
      // an \eqref to the previewed page: its number there (data-eqrefs, from the hook)
      const numbers = Object.fromEntries((el.dataset.eqrefs || "").split(";").filter(Boolean).map((p) => p.split("=")));
      el.textContent = el.textContent
        .replace(/\\label\{[^}]*\}/g, "")
        .replace(/\\eqref\{([^}]*)\}/g, (ref, label) => (label in numbers ? `\\text{(${numbers[label]})}` : ref));
    }
  }

  // The math stylesheet of the page at `url`, its font URLs made absolute; "" if none.
  const sheets = new Map();
  function mathStyles(url) {
    const page = url.href.split("#")[0];
    if (!sheets.has(page)) {
      sheets.set(page, fetch(page)
        .then((r) => (r.ok ? r.text() : ""))
        .then((text) => {
          const style = new DOMParser().parseFromString(text, "text/html").querySelector("style.mlnotes-math-styles");
          return style ? style.textContent.replace(/url\("([^"]+)"\)/g, (m, u) => `url("${new URL(u, page).href}")`) : "";
        })
        .catch(() => ""));
    }
    return sheets.get(page);
  }

  // the link the tooltip belongs to: the one hovered or focused
  function linkOf() {
    const links = [...document.querySelectorAll("a[href]:hover, a[href]:focus")];
    return links.length ? new URL(links[links.length - 1].href, location.href) : null;
  }

  function typeset(tooltip) {
    if (tooltip.dataset.mlnotesTypeset) return;
    const source = linkOf();
    tooltip.dataset.mlnotesTypeset = "pending";
    prepare(tooltip);
    // an \eqref typeset on its page links to an equation of that page, not of this one
    if (source && source.pathname !== location.pathname) {
      for (const a of tooltip.querySelectorAll('mjx-container a[href^="#"]')) a.href = new URL(a.getAttribute("href"), source).href;
    }
    const done = () => (tooltip.dataset.mlnotesTypeset = "done");
    const typesetDone = tooltip.querySelector(".arithmatex mjx-container");
    const styles = typesetDone && source && source.pathname !== location.pathname ? mathStyles(source) : Promise.resolve("");
    const styled = styles.then((css) => {
      if (!css) return;
      const style = document.createElement("style");
      style.className = "mlnotes-preview-math-styles";
      style.textContent = css;
      tooltip.prepend(style);
    });
    const tex = [...tooltip.querySelectorAll(".arithmatex")].some((el) => !el.querySelector("mjx-container"));
    if (!tex || !(window.MathJax && MathJax.startup && MathJax.startup.promise)) {
      styled.then(done);
      return;
    }
    Promise.all([styled, MathJax.startup.promise])
      .then(() => {
        const tags = texTags();
        const first = tooltip.querySelector("[data-eqn-start]");
        const saved = tags && [tags.counter, tags.allCounter];
        if (tags && first) tags.counter = tags.allCounter = Number(first.dataset.eqnStart);
        return MathJax.typesetPromise([tooltip]).finally(() => {
          if (saved) [tags.counter, tags.allCounter] = saved;
        });
      })
      .then(done)
      .catch((err) => console.warn("mlnotes: preview not typeset:", err));
  }

  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof HTMLElement && node.classList.contains("md-tooltip2")) typeset(node);
      }
    }
  }).observe(document.body, { childList: true });
})();

// On a page whose math the browser typesets (MathJax loaded): a link to an equation
// (#eq:label, the wrapper mlnotes-equations puts around it) lands before MathJax has
// typeset the page: the browser (or Material's instant navigation) scrolls
// to the raw TeX, and typesetting then moves the equation. Scroll to it again once the
// page is typeset (mathjax-config.js counts typesets in window.mlnotesTypeset; it does
// the same for MathJax's own #mjx-eqn anchors).
(function () {
  if (window.mlnotesEquationAnchors) return;
  window.mlnotesEquationAnchors = true;
  let wanted = null;

  function want(hash) {
    const id = decodeURIComponent(hash.slice(1));
    // math typeset when the site was built: the browser (or Material) scrolled to it
    if (!id.startsWith("eq:") || !window.MathJax) return;
    wanted = { id, after: window.mlnotesTypeset || 0, until: Date.now() + 15000 };
    const poll = () => {
      if (!wanted || wanted.id !== id) return;
      if ((window.mlnotesTypeset || 0) > wanted.after) {
        const target = document.getElementById(id);
        if (target) target.scrollIntoView({ block: "center" });
        wanted = null;
      } else if (Date.now() < wanted.until) {
        setTimeout(poll, 100);
      }
    };
    poll();
  }

  want(location.hash);
  document.addEventListener("click", (ev) => {
    const link = ev.target instanceof Element && ev.target.closest("a[href*='#eq:']");
    if (link) want(new URL(link.href).hash);
  }, true);
})();
