// Typeset a page's math when the site is built, with the site's own MathJax (npm `mathjax`,
// pinned in package.json) in Node, so that a page shows its math without JavaScript.
//
// One persistent process. Reads one JSON object per line on stdin, a PAGE:
//   {"id": ..., "items": [{"tex": "...", "display": bool}, ...]}   (the page's math, in order)
// and writes one line per page on stdout:
//   {"id": ..., "items": [{"html": "<mjx-container ...>...</mjx-container>", "error": null | "..."}],
//    "css": "the stylesheet these items need"}
//
// The page's expressions are typeset as ONE MathJax document, as the browser does it
// (docs/javascripts/mathjax-config.js): AMS numbering continues from one expression to the
// next, and \eqref/\ref resolve to a \label anywhere on the page, also one defined after
// the reference (MathDocument.compile recompiles an expression whose reference was not yet
// known once the others are compiled: Tags.finishEquation's `recompile`). Numbering and
// labels start over on each page (the input jax's reset), as on the site.
//
// The TeX configuration is the pages' (every package the browser's tex-chtml.js can
// autoload, AMS numbering); an error is reported (formatError records it, and the
// expression is typeset as its TeX source in an merror so that the page still reads),
// `noundefined` is left out so that an undefined macro is an error, as in
// scripts/build/tex_check.mjs.
//
// Output: argv[2] is "chtml" (the default: the site's choice, by measurement, see
// typeset.py) or "svg"; argv[3] is the SVG font cache ("local", "global", "none"). Each <mjx-container> carries its
// assistive MathML (<mjx-assistive-mml>, MathJax's `assistiveMml` render action: what the
// browser's configuration gives screen readers today).
//
// There is no width at build time (liteDOM's metrics: a container 80em wide... as wide as
// MathJax assumes): no line breaking; a display equation wider than its column scrolls in
// its own box (div.arithmatex, docs/stylesheets/extra.css).
import readline from 'node:readline';
import MathJax from 'mathjax';

const OUTPUT = (process.argv[2] || 'chtml').toLowerCase();
if (!['svg', 'chtml'].includes(OUTPUT)) throw new Error(`output must be svg or chtml, not ${OUTPUT}`);

// the expression being compiled, and its error (formatError is called by the TeX input jax)
let currentErrors = null;

await MathJax.init({
  loader: {
    load: ['input/tex', `output/${OUTPUT}`, 'adaptors/liteDOM', 'a11y/assistive-mml'],
    // the font's dynamic data (glyphs outside the always-loaded ranges)
    paths: {fonts: '@mathjax'},
  },
  tex: {
    packages: {'[+]': ['ams'], '[-]': ['noundefined']},
    inlineMath: [['\\(', '\\)']],
    displayMath: [['\\[', '\\]']],
    processEscapes: false,
    processEnvironments: false,
    tags: 'ams',
    formatError: (jax, err) => {
      if (currentErrors) currentErrors.push(String(err && err.message || err));
      return jax.formatError(err);
    },
  },
  output: {
    // the browser measures the page font's ex height (Roboto): MathJax then scales its own
    // font to match, 119.6% in Chromium; liteDOM cannot measure, so give it Roboto's ratio
    exFactor: 0.5287,
    displayOverflow: 'overflow',
    linebreaks: {inline: false},
  },
  svg: {fontCache: process.argv[3] || 'local'},
  options: {
    enableAssistiveMml: true,
  },
  startup: {typeset: false, document: '<html><head></head><body></body></html>'},
});

delete MathJax.config.options.menuOptions;  // set by a11y/assistive-mml for the menu, which is not loaded
const adaptor = MathJax.startup.adaptor;
const tex = MathJax.startup.input[0];
const output = MathJax.startup.output;

// An equation with a matrix keeps its natural width (the browser configuration's postFilter:
// MathJax 4 squeezes a too-wide table; with no width at build time this never triggers, but
// keep the attribute so that the output is the browser's).
const MATRIX = /\\begin\{(?:[pbBvV]?matrix|smallmatrix|array)\*?\}/;
tex.postFilters.add(({math, data}) => {
  if (math.display && MATRIX.test(math.math)) data.root.attributes.set('maxwidth', '10000em');
});

function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

async function typesetPage(items) {
  // one element per expression, its TeX between the delimiters FindTeX looks for
  const body = items.map((item, i) =>
    item.display
      ? `<div id="m${i}">\\[${escapeHtml(item.tex)}\\]</div>`
      : `<p id="m${i}">\\(${escapeHtml(item.tex)}\\)</p>`).join('\n');
  const html = `<!DOCTYPE html><html><head></head><body>${body}</body></html>`;
  tex.reset(0);                // numbering and labels start over on each page
  // the stylesheet: this page's glyphs only
  if (output.clearCache) output.clearCache(); else output.clearFontCache();
  const doc = MathJax.startup.getDocument(html);
  const errors = items.map(() => []);
  // compile each expression with its own error list: wrap compileMath
  const compileMath = doc.compileMath.bind(doc);
  doc.compileMath = (math) => {
    const i = Number(adaptor.getAttribute(adaptor.parent(math.start.node), 'id').slice(1));
    currentErrors = errors[i];
    try { compileMath(math); } finally { currentErrors = null; }
  };
  await doc.renderPromise();
  const out = items.map((item, i) => {
    const el = adaptor.getElement(`#m${i}`, adaptor.body(doc.document));
    const containers = adaptor.childNodes(el).filter((n) => adaptor.kind(n) === 'mjx-container');
    const rest = adaptor.childNodes(el).filter((n) => adaptor.kind(n) !== 'mjx-container');
    const errs = [...new Set(errors[i])];
    if (containers.length !== 1 || rest.some((n) => adaptor.kind(n) !== '#text' || adaptor.value(n).trim())) {
      errs.push(`expected one typeset expression, got ${containers.length}`);
    }
    return {html: containers.map((n) => adaptor.outerHTML(n)).join(''), error: errs.length ? errs.join('; ') : null};
  });
  let css = adaptor.textContent(output.styleSheet(doc));
  const cache = adaptor.getElement('#MJX-SVG-global-cache', adaptor.body(doc.document));
  if (cache) css = adaptor.outerHTML(cache) + '\n' + css;
  MathJax.startup.handler.documentClass; // keep a reference: documents are garbage collected
  return {items: out, css};
}

const lines = readline.createInterface({input: process.stdin});
for await (const line of lines) {
  if (!line.trim()) continue;
  const {id, items} = JSON.parse(line);
  let answer;
  try {
    answer = {id, ...(await typesetPage(items || []))};
  } catch (err) {
    answer = {id, items: (items || []).map(() => ({html: '', error: String(err && err.stack || err)})), css: ''};
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
