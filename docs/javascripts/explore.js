// Explorable figures: `<figure class="mlnotes-explore">`, written by the figure block
// (scripts/mlnotes_site/plugins/figure_blocks.py) when the figure's script has EXPLORE.
// The HTML holds everything: per parameter a native range over its grid's indices (hidden
// until shown here: with JavaScript off the figure is the static default), and on the
// figure `data-explore`, {"frames": [[light, dark], ...], "captions": [...]}, one entry per
// grid point, the last parameter varying fastest. A frame's file is named relative to the
// folder of the default drawing, so its URL is the default image's own `src` with the file
// name replaced: right wherever the site is served, and from file:// (no fetch()).
// Frames load when the reader first touches a control, not with the page: then the frames
// of the palette shown; moving a control swaps the shown palette's image and the values.
{
  const init = (figure) => {
    if ("exploreReady" in figure.dataset) return; // once: at load and on document$ both
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
    let loaded = null; // the preloaded frames, kept: their parsed SVG stays in the cache
    const preload = () => {
      if (loaded) return;
      const shown = images.filter(({ img }) => img.offsetParent !== null);
      // A step must not move the page below the figure: on these long pages (thousands of
      // typeset glyphs, each clipped) that repaints and re-layers all of it: 0.6 to 1.6 s a
      // step for Monty Hall on notes/probability at 4x slowed CPU (2026-11-28). So the figure
      // gets a layer of its own, and the drawing's box keeps the size and shape of the one
      // shown now (a frame a little wider or taller is fitted inside).
      const { naturalWidth: w, naturalHeight: h } = shown[0]?.img ?? {};
      figure.style.willChange = "transform";
      if (w && h)
        for (const { img } of images)
          Object.assign(img.style, { width: w + "px", aspectRatio: w + "/" + h, objectFit: "contain" });
      loaded = (shown.length ? shown : images).flatMap((image) =>
        data.frames.map((_, i) => {
          const frame = new Image();
          frame.src = url(i, image);
          frame.decode().catch(() => {}); // fetched and parsed from now on, for the steps to come
          return frame;
        }),
      );
    };
    // Only the palette shown swaps its drawing (Material hides the other's image, display:
    // none): a hidden image given a frame would fetch and parse it, on the main thread, in
    // the step. The other palette's image follows when it is shown (`sync`).
    const place = (image, i) => {
      const src = url(i, image);
      if (image.img.getAttribute("src") !== src) image.img.setAttribute("src", src);
    };
    const sync = () => {
      const i = point();
      for (const image of images) if (image.img.offsetParent !== null) place(image, i);
    };
    const show = () => {
      const i = point();
      for (const image of images) {
        if (image.img.offsetParent !== null) place(image, i);
        // the script's ALT describes the default; another point is described by its values
        image.img.alt = i === initial ? image.alt : data.captions[i];
      }
      inputs.forEach((input, k) => {
        const value = values[k][+input.value];
        input.setAttribute("aria-valuetext", value);
        input.nextElementSibling.value = value; // its <output>
      });
      if (text) text.textContent = data.captions[i];
    };
    for (const input of inputs) {
      for (const type of ["pointerdown", "focus", "keydown"]) input.addEventListener(type, preload);
      input.addEventListener("input", show);
    }
    figure.querySelector(".mlnotes-explore-controls").hidden = false;
    // The values line is as tall as its longest sentence at any width: every sentence is
    // laid in the same grid cell, hidden from sight and from screen readers, under the one
    // shown, so a step never changes the figure's height (which moves the page below it).
    let text = line;
    if (line) {
      text = document.createElement("span");
      text.textContent = line.textContent;
      const sizers = data.captions.map((caption) => {
        const sizer = document.createElement("span");
        sizer.textContent = caption;
        sizer.ariaHidden = "true";
        sizer.style.cssText = "visibility: hidden; grid-area: 1 / 1";
        return sizer;
      });
      text.style.gridArea = "1 / 1";
      line.replaceChildren(text, ...sizers);
      line.style.display = "grid";
      line.hidden = false;
    }
    if (point() !== initial) show(); // knobs a restored form state moved
    // a print shows the default, which the caption describes, then the reader's point again
    addEventListener("beforeprint", () => {
      for (const image of images) {
        image.img.setAttribute("src", url(initial, image));
        image.img.alt = image.alt;
      }
    });
    addEventListener("afterprint", show);
    // the reader's palette changed: Material's toggle, or the system's preference
    new MutationObserver(sync).observe(document.body, {
      attributeFilter: ["data-md-color-scheme"],
    });
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", sync);
  };
  const initAll = () => document.querySelectorAll("figure.mlnotes-explore").forEach(init);
  // The page this script arrived with, now (loaded at the end of <body>): from file://
  // Material 9.8's document$ never emits when navigation.instant is on (its instant
  // navigation, off there, completes document$ at once, without a value).
  initAll();
  // Each page that instant navigation brings in (Material's bundle is loaded before this).
  document$.subscribe(initAll);
}
