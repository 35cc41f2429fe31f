// Notebook code and outputs that scroll sideways can be reached with the keyboard, like
// Material's own code blocks (squidfunk/mkdocs-material#1514 made those focusable; the
// cells mkdocs-jupyter renders are not Material's code blocks). Loaded after Material's
// bundle (extra_javascript), so its document$ exists.
document$.subscribe(() => {
  for (const el of document.querySelectorAll(".highlight-ipynb, .jp-OutputArea-output pre")) {
    if (el.scrollWidth > el.clientWidth && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
  }
});
