// MathJax 3 configuration, served by the site itself (no CDN).
//
// Loaded before MathJax on every page (extra_javascript), and again by the
// notebook pages' own template (mkdocs-jupyter's custom_mathjax_url): the guard
// keeps the second load from replacing a MathJax that has already started.
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
    options: {
      // typeset only math: arithmatex spans and notebook markdown cells
      ignoreHtmlClass: ".*|",
      processHtmlClass: "arithmatex|jp-RenderedMarkdown|jp-MarkdownOutput",
    },
    startup: {
      // the first page: typeset, then tell the browser tests that math is done
      pageReady: () =>
        MathJax.startup.defaultPageReady().then(() => {
          window.mlnotesTypeset = (window.mlnotesTypeset || 0) + 1;
        }),
    },
  };
}

// Material's instant navigation swaps the page without reloading the scripts:
// typeset the new content, and reset equation numbers and labels per page so that
// numbering restarts on each page and labels are never "multiply defined".
// (Material's docs also call MathJax.startup.output.clearCache() here; with CHTML
// output that drops the glyph styles of math already typeset, and it renders blank.)
if (!window.mlnotesMathJaxSubscribed && window.document$) {
  window.mlnotesMathJaxSubscribed = true;
  document$.subscribe(() => {
    if (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) return;
    MathJax.startup.promise.then(() => {
      MathJax.typesetClear();
      MathJax.texReset();
      return MathJax.typesetPromise();
    }).then(() => {
      window.mlnotesTypeset = (window.mlnotesTypeset || 0) + 1;
    });
  });
}
