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
    });
  });
}
