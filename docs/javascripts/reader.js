// Small accessibility fixes to Material's and the notebooks' markup, on every page
// (loaded with `defer` from overrides/main.html, so Material's document$ exists).
document$.subscribe(() => {
  // navigation.instant.progress: the progress bar has role=progressbar and no name
  const progress = document.querySelector(".md-progress");
  if (progress && !progress.hasAttribute("aria-label")) progress.setAttribute("aria-label", "Loading page");

  // Notebook code and outputs that scroll sideways can be reached with the keyboard,
  // like Material's own code blocks.
  for (const el of document.querySelectorAll(".highlight-ipynb, .jp-OutputArea-output pre")) {
    if (el.scrollWidth > el.clientWidth && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
  }
});
