// Instant navigation on any host and port (loaded in <head>, before Material's bundle).
//
// Material's instant navigation only intercepts a click on a link that is listed in
// sitemap.xml. The sitemap's URLs are absolute, built from `site_url`
// (http://127.0.0.1:8000/); Material rebases their protocol and hostname onto the page
// it runs in, but not the port or the path (Material 9, integrations/sitemap
// resolve()). Served anywhere else (another port, a subfolder of a static host), no
// link matches and every click is a full page load. The maintainers' answer is "set
// site_url to where the site is deployed" (squidfunk/mkdocs-material#6704), which a
// site meant to be read offline from any folder or port cannot know at build time.
//
// So: as Material parses the sitemap (DOMParser, "text/xml"), rewrite each <loc> from
// `site_url` onto the site's real root, the `base` of Material's own configuration.
(function () {
  const parse = DOMParser.prototype.parseFromString;
  DOMParser.prototype.parseFromString = function (text, type) {
    const doc = parse.call(this, text, type);
    try {
      if (type === "text/xml" && doc.documentElement && doc.documentElement.localName === "urlset") {
        rebase(doc);
      }
    } catch (err) {
      console.warn("mlnotes: sitemap left as built:", err);
    }
    return doc;
  };

  function rebase(doc) {
    const config = document.getElementById("__config");
    if (!config) return;
    const root = new URL(JSON.parse(config.textContent).base, location.href).href;
    const locs = [...doc.getElementsByTagName("loc")];
    if (!locs.length) return;
    // the shortest URL is the home page, i.e. site_url itself
    const built = locs.map(l => l.textContent.trim()).reduce((a, b) => (b.length < a.length ? b : a));
    if (built === root) return;
    for (const loc of locs) {
      const url = loc.textContent.trim();
      if (url.startsWith(built)) loc.textContent = root + url.slice(built.length);
    }
  }
})();
