// Typeset the math in Material's tooltips: instant previews (links with `data-preview`:
// a section or an equation of another page) and footnote tooltips (citations).
//
// Material builds a preview from the target page's HTML as served, before MathJax
// (Material 9.8.1, src/templates/assets/javascripts/components/content/link/index.ts:
// it clones the target and its section into a tooltip), and appends it to <body> as
// `.md-tooltip2`. It emits no document$ for it, so Material's MathJax recipe never
// typesets it and the TeX shows raw. No upstream issue asks for this yet (searched
// squidfunk/mkdocs-material; the nearest, mkdocs/mkdocs#3936 and
// squidfunk/mkdocs-material#8036, are about math in the table of contents). So: watch
// <body> for tooltips and
// typeset each one once. The preview of an equation is the copy that Material makes of
// its target as an <h3>: unwrap it, and typeset the block with the equation numbers its
// own page gives it (`data-eqn-start`, counted by scripts/mlnotes_site/apparatus.py), without its
// \label (which would be "multiply defined" when the preview is shown again).
(function () {
  if (window.mlnotesApparatus) return; // notebook pages load the site scripts twice
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
  // equation's wrapper, or a correction box: scripts/mlnotes_site/apparatus.py), show the block
  // itself, and only it, not the rest of its section.
  function prepare(tooltip) {
    for (const h3 of tooltip.querySelectorAll("h3")) {
      const first = h3.firstElementChild;
      if (first && /^(DIV|DETAILS|P|SUMMARY)$/.test(first.tagName)) {
        // a correction box: rebuild it as it is on its page (its tag and class)
        const box = document.createElement(first.dataset.box === "details" ? "details" : "div");
        box.className = `${first.dataset.boxClass || ""} mlnotes-block-preview`.trim();
        if (box.tagName === "DETAILS") box.open = true;
        box.append(...h3.childNodes);
        h3.replaceWith(box);
        while (box.nextElementSibling) box.nextElementSibling.remove();
      }
    }
    for (const el of tooltip.querySelectorAll(".arithmatex")) {
      // an \eqref to the previewed page: its number there (data-eqrefs, from the hook)
      const numbers = Object.fromEntries((el.dataset.eqrefs || "").split(";").filter(Boolean).map((p) => p.split("=")));
      el.textContent = el.textContent
        .replace(/\\label\{[^}]*\}/g, "")
        .replace(/\\eqref\{([^}]*)\}/g, (ref, label) => (label in numbers ? `\\text{(${numbers[label]})}` : ref));
    }
  }

  function typeset(tooltip) {
    if (tooltip.dataset.mlnotesTypeset || !window.MathJax || !MathJax.startup) return;
    tooltip.dataset.mlnotesTypeset = "pending";
    prepare(tooltip);
    if (!tooltip.querySelector(".arithmatex")) {
      tooltip.dataset.mlnotesTypeset = "done";
      return;
    }
    MathJax.startup.promise
      .then(() => {
        const tags = texTags();
        const first = tooltip.querySelector("[data-eqn-start]");
        const saved = tags && [tags.counter, tags.allCounter];
        if (tags && first) tags.counter = tags.allCounter = Number(first.dataset.eqnStart);
        return MathJax.typesetPromise([tooltip]).finally(() => {
          if (saved) [tags.counter, tags.allCounter] = saved;
        });
      })
      .then(() => (tooltip.dataset.mlnotesTypeset = "done"))
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

// A link to an equation (#eq:label, the wrapper mlnotes-apparatus puts around it) lands before
// MathJax has typeset the page: the browser (or Material's instant navigation) scrolls
// to the raw TeX, and typesetting then moves the equation. Scroll to it again once the
// page is typeset (mathjax-config.js counts typesets in window.mlnotesTypeset; it does
// the same for MathJax's own #mjx-eqn anchors).
(function () {
  if (window.mlnotesEquationAnchors) return;
  window.mlnotesEquationAnchors = true;
  let wanted = null;

  function want(hash) {
    const id = decodeURIComponent(hash.slice(1));
    if (!id.startsWith("eq:")) return;
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
