// Explorable figures: `<figure class="mlnotes-explore">`, written by the figure block
// (scripts/mlnotes_site/plugins/figure_blocks.py) when the figure's script has EXPLORE.
// The HTML holds everything: per parameter a native range over its grid's indices (hidden
// until shown here: with JavaScript off the figure is the static default), and on the
// figure `data-explore`, {"frames": [[light, dark], ...], "captions": [...]}, one entry per
// grid point, the last parameter varying fastest. A frame's file is named relative to the
// folder of the default drawing, so its URL is the default image's own `src` with the file
// name replaced: right wherever the site is served, and from file:// (no fetch()).
// Frames load when the reader first touches a control, not with the page: then the frames
// of the palette shown; moving a control swaps both palettes' images and the values.
{
  const init = (figure) => {
    if (figure.dataset.exploreReady) return;
    let data;
    try {
      data = JSON.parse(figure.dataset.explore);
    } catch (err) {
      return; // a figure we cannot read stays the static figure
    }
    figure.dataset.exploreReady = "";
    const images = [...figure.querySelectorAll(":scope > p img")].map((img) => {
      const [path, fragment] = img.getAttribute("src").split("#");
      const dark = fragment === "only-dark" ? 1 : 0; // Material's palette fragments
      return { img, dark, folder: path.slice(0, path.lastIndexOf("/") + 1), fragment, alt: img.alt };
    });
    const url = (i, image) =>
      image.folder + data.frames[i][image.dark] + (image.fragment ? "#" + image.fragment : "");
    const inputs = [...figure.querySelectorAll(".mlnotes-explore-controls input[type=range]")];
    const values = inputs.map((input) => JSON.parse(input.dataset.values));
    const line = figure.querySelector(".mlnotes-explore-values");
    const index = (key) => inputs.reduce((n, input) => n * (+input.max + 1) + +input[key], 0);
    const point = () => index("value");
    // the author's default, the drawing the alt text describes: the inputs' value attributes
    // (a browser that restores form state may have moved the knobs since)
    const initial = index("defaultValue");
    let loaded = false;
    const preload = () => {
      if (loaded) return;
      loaded = true;
      const shown = images.filter(({ img }) => img.offsetParent !== null);
      for (const image of shown.length ? shown : images)
        for (let i = 0; i < data.frames.length; i++) new Image().src = url(i, image);
    };
    const show = () => {
      const i = point();
      for (const image of images) {
        image.img.setAttribute("src", url(i, image));
        // the script's ALT describes the default; another point is described by its values
        image.img.alt = i === initial ? image.alt : data.captions[i];
      }
      inputs.forEach((input, k) => {
        const value = values[k][+input.value];
        input.setAttribute("aria-valuetext", value);
        input.nextElementSibling.value = value; // its <output>
      });
      if (line) line.textContent = data.captions[i];
    };
    for (const input of inputs) {
      for (const type of ["pointerdown", "focus", "keydown"]) input.addEventListener(type, preload);
      input.addEventListener("input", show);
    }
    figure.querySelector(".mlnotes-explore-controls").hidden = false;
    if (line) line.hidden = false;
    if (point() !== initial) show(); // knobs a restored form state moved
    // a print shows the default, which the caption describes, then the reader's point again
    addEventListener("beforeprint", () => {
      for (const image of images) {
        image.img.setAttribute("src", url(initial, image));
        image.img.alt = image.alt;
      }
    });
    addEventListener("afterprint", show);
  };
  const initAll = () => document.querySelectorAll("figure.mlnotes-explore").forEach(init);
  // The page this script arrived with, now (loaded at the end of <body>): from file://
  // Material 9.8's document$ never emits when navigation.instant is on (its instant
  // navigation, off there, completes document$ at once, without a value).
  initAll();
  // Each page that instant navigation brings in (Material's bundle is loaded before this).
  document$.subscribe(initAll);
}
