// Code that scrolls sideways can be reached with the keyboard (squidfunk/mkdocs-material#1514
// made Material's code blocks focusable, where the device hovers). Two kinds of code are not
// focusable when the page arrives:
// - the cells mkdocs-jupyter renders, which are not Material's code blocks;
// - Material's own blocks outside the viewport: Material mounts a block only once it is seen
//   (its content.lazy feature, mkdocs.yml), so an unseen block that scrolls has no tabindex
//   yet (axe-core: scrollable-region-focusable). They get Material's tabindex here, on the
//   same condition (hover), reading every width before writing any (one layout, not one per block).
// Loaded after Material's bundle (extra_javascript), so its document$ exists.
document$.subscribe(() => {
  let selector = ".highlight-ipynb, .jp-OutputArea-output pre";
  if (matchMedia("(hover)").matches) selector += ", .md-typeset pre > code";
  const wide = [...document.querySelectorAll(selector)].filter(
    (el) => !el.hasAttribute("tabindex") && el.scrollWidth > el.clientWidth,
  );
  for (const el of wide) el.setAttribute("tabindex", "0");
});
