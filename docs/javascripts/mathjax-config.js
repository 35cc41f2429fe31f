// MathJax 4 configuration, served by the site itself (no CDN).
//
// Every page's math, the notebook pages' too, is typeset when the site is built
// (scripts/mlnotes_site/plugins/typeset.py; typeset.mjs finds the notebook pages' math as
// the options below do). Loaded before MathJax only by `make pdf` (scripts/mlnotes_site/printer.py)
// and, with mlnotes-typeset's `enabled: false`, on every page (overrides/main.html). The
// guard keeps a second load from replacing a MathJax that has already started.
if (!(window.MathJax && window.MathJax.version)) {
  window.MathJax = {
    tex: {
      // arithmatex (generic) wraps page math in \( \) and \[ \]; notebooks use $ and $$.
      inlineMath: [["\\(", "\\)"], ["$", "$"]],
      displayMath: [["\\[", "\\]"], ["$$", "$$"]],
      processEscapes: true,
      processEnvironments: true,
      tags: "ams",               // \begin{equation} is numbered, \eqref links to it
    },
    output: {
      // Phones: a display equation wider than its column breaks into lines (MathJax 4's
      // line breaking; the default "overflow" would widen the page), and in-line math
      // breaks at its top-level relations and operators like text does.
      displayOverflow: "linebreak",
      linebreaks: { inline: true, width: "100%" },
    },
    loader: {
      // MathJax 4 loads its font (glyph data and woff2 files, package
      // @mathjax/mathjax-newcm-font) from `[fonts]`, by default the jsDelivr CDN. The
      // site serves it under its own MathJax (scripts/mlnotes_site/plugins/assets.py copies it there).
      paths: { fonts: "[mathjax]/fonts" },
    },
    options: {
      // Screen readers get the math as hidden MathML (MathJax 3's way), not MathJax 4's
      // default of speech text generated in a web worker: that worker made every page's
      // typeset promise wait for the speech of all its formulas (the post: 3 s with
      // MathML, 15-40 s with speech on a busy machine). The menu's settings win over the
      // enable* options, so both are set.
      enableSpeech: false,
      enableBraille: false,
      menuOptions: { settings: { speech: false, braille: false, assistiveMml: true } },
      // Typeset only math: arithmatex spans and notebook markdown cells (and LaTeX
      // outputs). Every element with a class is skipped, with its descendants, unless
      // the class is one of these. Not ".*|" (Material's docs): that also matches an
      // element without a class, so the <p> of a notebook markdown cell was skipped and
      // its $...$ left as text; arithmatex spans hold their TeX directly and did not care.
      renderActions: {
        // A numbered display equation is centred with room for its number on both
        // sides, but line breaking breaks it to the full width of its box, so on a
        // phone the number ended up past the box's right edge. Break such an equation
        // to the width less that room: 2 x 3.2em, a number up to "(99)" and the 0.8em
        // tagIndent. Runs after MathJax measures the box (METRICS, 110) and before it
        // lays the equation out (TYPESET, 150).
        mlnotesLabelRoom: [120,
          (doc) => { for (const math of doc.math) mlnotesLabelRoom(math); },
          (math) => mlnotesLabelRoom(math)],
      },
      ignoreHtmlClass: ".+",
      processHtmlClass: "arithmatex|jp-RenderedMarkdown|jp-MarkdownOutput|jp-RenderedLatex",
    },
    startup: {
      // MathJax 4 squeezes a table (a matrix, an array) that is wider than its box
      // into narrower columns (CommonMtable.adjustWideTable): with line breaking on it
      // breaks inside the cells (cos(ω₀k) over three lines), with it off the cells
      // overlap (mathjax/MathJax#3434). An equation with a matrix keeps its natural
      // width and scrolls in its own box (div.arithmatex, extra.css) instead: its
      // <math> gets a line width no equation reaches (`maxwidth` wins over
      // linebreaks.width), so nothing is squeezed or broken.
      ready: () => {
        MathJax.startup.defaultReady();
        const matrix = /\\begin\{(?:[pbBvV]?matrix|smallmatrix|array)\*?\}/;
        for (const jax of MathJax.startup.input) {
          jax.postFilters.add(({ math, data }) => {
            // data: the TeX parser's options; data.root: the <math> node it built
            if (math.display && matrix.test(math.math)) data.root.attributes.set("maxwidth", "10000em");
          });
        }
      },
      // the first page: typeset, then tell the browser tests that math is done
      pageReady: () =>
        MathJax.startup.defaultPageReady().then(() => {
          window.mlnotesTypeset = (window.mlnotesTypeset || 0) + 1;
          mlnotesShowEquation();
        }),
    },
  };
}

function mlnotesLabelRoom(math) {
  if (!math.display || !math.root || !math.metrics) return;
  if (math.root.attributes.getExplicit("maxwidth")) return;  // a matrix: see startup.ready
  let numbered = false;
  math.root.walkTree((node) => { if (node.isKind("mlabeledtr")) numbered = true; });
  if (!numbered) return;
  const { containerWidth, em, scale } = math.metrics;
  const room = 3.2 * em * scale;
  if (containerWidth > room) math.root.attributes.set("maxwidth", `${Math.floor(containerWidth - room)}px`);
}

// Material's instant navigation swaps the page without reloading the scripts:
// typeset the new content, and reset equation numbers and labels per page so that
// numbering restarts on each page and labels are never "multiply defined".
//
// It also removes every <head> element that the next page does not have, MathJax's
// CHTML stylesheet (<style id="MJX-CHTML-styles">) included. MathJax puts the sheet
// back when it typesets, but the rules it had added to it with insertRule (every glyph
// and construct first met after the first page) are lost with the detached sheet, and
// MathJax still believes they are there: letters render blank. clearCache() makes it
// forget, so the typeset below writes a complete new stylesheet for the page. It must
// run only when the sheet was removed: on a sheet still in the page it would do the same
// harm in reverse (a new sheet replacing one that math on the page still needs).
if (!window.mlnotesMathJaxSubscribed && window.document$) {
  window.mlnotesMathJaxSubscribed = true;
  document$.subscribe(() => {
    if (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) return;
    MathJax.startup.promise.then(() => {
      const output = MathJax.startup.output;
      const sheet = output && output.chtmlStyles;
      if (sheet && !sheet.isConnected) output.clearCache();
      MathJax.typesetClear();
      MathJax.texReset();
      return MathJax.typesetPromise();
    }).then(() => {
      window.mlnotesTypeset = (window.mlnotesTypeset || 0) + 1;
      mlnotesShowEquation();
    });
  });
}

// Equation anchors (#mjx-eqn:...) exist only once MathJax has typeset the page, but
// Material scrolls to a link's anchor as soon as it has injected the page, before the
// typeset: an \eqref clicked on a page just opened (Material re-fetches the page on the
// first in-page click) or a link to an equation from another page lands nowhere, and
// navigation.tracking soon rewrites the URL's hash to the section in view. Remember
// which equation was asked for, and show it once the page is typeset.
// (Notebook pages load this file a second time: register the listener once.)
if (!window.mlnotesEquationClicks) {
  window.mlnotesEquationClicks = true;
  window.mlnotesWantedEquation = decodeURIComponent(location.hash.slice(1));
  document.addEventListener("click", (ev) => {
    const link = ev.target instanceof Element && ev.target.closest("a[href*='#mjx-eqn']");
    if (link) window.mlnotesWantedEquation = decodeURIComponent(new URL(link.href).hash.slice(1));
  }, true);
}

function mlnotesShowEquation() {
  const id = window.mlnotesWantedEquation || "";
  window.mlnotesWantedEquation = "";
  if (!id.startsWith("mjx-eqn")) return;
  const target = document.getElementById(id);
  if (target) target.scrollIntoView({ block: "center" });
}
