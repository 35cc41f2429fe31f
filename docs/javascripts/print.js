// Print in the light palette: a page read in the dark palette (slate) printed its light
// text on paper without the dark background that browsers leave out of a print
// (squidfunk/mkdocs-material#1973 asks Material for this; it opens `details` blocks on
// print, docs/stylesheets/print.css says, but keeps the palette). Material's light
// palette is `default`: switch to it before printing and back afterwards, as Material
// itself opens and closes the `details` blocks, on the same events.
if (!window.mlnotesPrintPalette) {
  window.mlnotesPrintPalette = true;
  let scheme = null;
  window.addEventListener("beforeprint", () => {
    scheme = document.body.getAttribute("data-md-color-scheme");
    document.body.setAttribute("data-md-color-scheme", "default");
  });
  window.addEventListener("afterprint", () => {
    if (scheme !== null) document.body.setAttribute("data-md-color-scheme", scheme);
    scheme = null;
  });
}
