// Code that scrolls sideways can be reached with the keyboard (squidfunk/mkdocs-material#1514
// made Material's code blocks focusable; Material does so where the device hovers). Two
// kinds of code are not focusable when the page arrives:
// - the cells mkdocs-jupyter renders, which are not Material's code blocks;
// - Material's own blocks not yet on screen: Material mounts a block only once it is seen
//   (its content.lazy feature, mkdocs.yml), and then sets or removes its tabindex as its
//   width changes; an unseen block that scrolls has none (axe-core:
//   scrollable-region-focusable). Such blocks get Material's tabindex here, on the same
//   condition (hover), as the page arrives, reading every width before writing any (not
//   again when the window is resized: Material checks a block again once it has been seen).
// Blocks in a closed <details> (the Check blocks) are measured when it opens: reading a width
// inside a closed one lays out its whole content, typeset math and all (0.3 s for the
// post's at 1280 px, 4x slowed, in a review's measurement). In a block: no globals.
{
  const makeFocusable = (root) => {
    let selector = ".highlight-ipynb, .jp-OutputArea-output pre";
    if (matchMedia("(hover)").matches) selector += ", .md-typeset pre > code";
    const wide = [...root.querySelectorAll(selector)].filter(
      (el) =>
        !el.hasAttribute("tabindex") &&
        !el.closest("details:not([open])") &&
        el.scrollWidth > el.clientWidth,
    );
    for (const el of wide) el.setAttribute("tabindex", "0");
  };
  // The page this script arrived with, now (loaded at the end of <body>): from file://
  // Material 9.8's document$ never emits when navigation.instant is on (explore.js too).
  makeFocusable(document);
  // Each page instant navigation brings in (Material's bundle is loaded before this); the
  // first page again, where the blocks already made focusable are not measured again
  document$.subscribe(() => makeFocusable(document));
  // "toggle" does not bubble; a listener that captures sees it
  document.addEventListener("toggle", (ev) => ev.target.open && makeFocusable(ev.target), true);
}
