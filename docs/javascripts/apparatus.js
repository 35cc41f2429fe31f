// Typeset the math in Material's tooltips: instant previews (links with `data-preview`:
// a section or an equation of another page) and footnote tooltips (citations).
//
// Material builds a preview from the target page's HTML as served, before MathJax, and
// appends it to <body> as `.md-tooltip2`; nothing typesets it, so the TeX shows raw.
// Material's own MathJax recipe only re-typesets on document$ (a page change), not on a
// tooltip (squidfunk/mkdocs-material#8036 asks the same for the table of contents:
// rich content outside the article is not rendered). So: watch <body> for tooltips and
// typeset each one once. The preview of an equation is the copy that Material makes of
// its target as an <h3>: unwrap it, and typeset the block with the equation numbers its
// own page gives it (`data-eqn-start`, counted by scripts/site/apparatus.py), without its
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

  function prepare(tooltip) {
    // an equation preview: Material copied the target (our wrapper) into an <h3>
    for (const h3 of tooltip.querySelectorAll("h3")) {
      if (h3.querySelector(".arithmatex")) {
        const box = document.createElement("div");
        box.className = "mlnotes-equation-preview";
        box.append(...h3.childNodes);
        h3.replaceWith(box);
        // keep only the equation (and its "Computed by" line), not the rest of the section
        while (box.nextElementSibling) box.nextElementSibling.remove();
      }
    }
    for (const el of tooltip.querySelectorAll(".arithmatex")) {
      el.textContent = el.textContent.replace(/\\label\{[^}]*\}/g, "");
    }
  }

  function typeset(tooltip) {
    if (tooltip.dataset.mlnotesTypeset || !window.MathJax || !MathJax.startup) return;
    if (!tooltip.querySelector(".arithmatex")) return;
    tooltip.dataset.mlnotesTypeset = "pending";
    prepare(tooltip);
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
