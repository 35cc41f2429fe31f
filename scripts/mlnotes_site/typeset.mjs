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
// `noundefined` is left out so that an undefined macro is an error (the build's warning,
// scripts/mlnotes_site/plugins/typeset.py: the site's only TeX check).
//
// MathJax is the project's: argv[2] is its node_modules folder (typesetter.py finds it from the
// mkdocs.yml's folder). This file is package data of the installed mlnotes_site, so a bare
// `import 'mathjax'` would look for node_modules beside the package, not the project.
//
// Output: argv[3] is "chtml" (the default: the site's choice, by measurement: its markup is
// 5-6 times smaller gzipped than SVG's with the glyph paths in each expression, and its
// woff2 files are cached across pages) or "svg" (kept for measuring); argv[4] is the SVG
// font cache, "local" or "none" ("global" would need its <defs> put into the page).
//
// Each <mjx-container> carries its assistive MathML (<mjx-assistive-mml>, MathJax's
// `assistiveMml` render action: what the browser's configuration gives screen readers
// today, without the semantic enrichment the browser adds: the same MathML elements in
// Chromium's accessibility tree, fewer invisible operators and rows).
//
// There is no width at build time (liteDOM cannot measure): a display equation is typeset
// at its natural width, and one wider than its column scrolls in its own box
// (div.arithmatex, docs/stylesheets/extra.css), except on phones: see `PHONE_COLUMN` below.
// In-line math gets MathJax 4's in-line break points (linebreaks.inline: <mjx-break>
// between top-level operators, where the browser wraps the line as it wraps text), which
// need no width.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import readline from 'node:readline';
import {pathToFileURL} from 'node:url';

// A package of `nodeModules` as an ES module: the entry its package.json exports for `import`.
async function importPackage(nodeModules, name) {
  const folder = join(nodeModules, name);
  const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const root = typeof pkg.exports === 'object' && pkg.exports !== null ? pkg.exports['.'] ?? pkg.exports : pkg.exports;
  const entry = (typeof root === 'string' ? root : root?.import ?? root?.default) ?? pkg.module ?? pkg.main ?? 'index.js';
  return (await import(pathToFileURL(join(folder, entry)).href)).default;
}

if (!process.argv[2]) throw new Error('usage: node typeset.mjs NODE_MODULES [chtml|svg] [local|none]');
const MathJax = await importPackage(process.argv[2], 'mathjax');

const OUTPUT = (process.argv[3] || 'chtml').toLowerCase();
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
    linebreaks: {inline: true},
  },
  svg: {fontCache: ['local', 'none'].includes(process.argv[4]) ? process.argv[4] : 'local'},
  options: {
    enableAssistiveMml: true,
  },
  startup: {typeset: false, document: '<html><head></head><body></body></html>'},
});

delete MathJax.config.options.menuOptions;  // set by a11y/assistive-mml for the menu, which is not loaded
const adaptor = MathJax.startup.adaptor;
const STATE = MathJax._.core.MathItem.STATE;
const tex = MathJax.startup.input[0];
const output = MathJax.startup.output;
const INITIAL_CONTAINER_WIDTH = output.containerWidth;

// An equation with a matrix keeps its natural width (the browser configuration's postFilter:
// MathJax 4 squeezes a too-wide table; with no width at build time this never triggers, but
// keep the attribute so that the output is the browser's).
const MATRIX = /\\begin\{(?:[pbBvV]?matrix|smallmatrix|array)\*?\}/;
tex.postFilters.add(({math, data}) => {
  if (math.display && MATRIX.test(math.math)) data.root.attributes.set('maxwidth', '10000em');
});

// MathJax 4 puts the TeX of every node in a `data-latex` attribute (for its menu's "copy
// as TeX" and its explorer): keep it on the expression (<mjx-math>, and <math> in the
// assistive MathML), drop it from the nodes inside (a fifth of the markup: the post's
// page, 972 KB -> 792 KB raw, 72 -> 63 KB gzip).
// Also drop a style declaration whose value is NaN: typeset here, without a browser to
// measure, the rows of an equation's number get `height: NaNem` (MathJax 4.1.3's CHTML
// addLabelSpacing; in the browser the same rows get a length), which a browser ignores
// and the HTML checker rejects (tests/test_html.py).
function dropInnerLatex(node) {
  for (const child of adaptor.childNodes(node)) {
    const kind = adaptor.kind(child);
    if (kind === '#text' || kind === '#comment') continue;
    if (kind !== 'mjx-math' && kind !== 'math') adaptor.removeAttribute(child, 'data-latex');
    const style = adaptor.getAttribute(child, 'style');
    if (style && style.includes('NaN')) {
      const kept = style.split(';').map((d) => d.trim()).filter((d) => d && !d.includes('NaN'));
      if (kept.length) adaptor.setAttribute(child, 'style', kept.join('; ') + ';');
      else adaptor.removeAttribute(child, 'style');
    }
    dropInnerLatex(child);
  }
}

function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// Phones. Without a width at build time, a display equation keeps its natural width, and
// one wider than its column scrolls in its own box (div.arithmatex) with its number off to
// the right. The browser configuration line-breaks it instead, to the column less room for
// the number. So an equation wider than a 360 px phone's column gets a second rendering,
// line-broken as the browser would break it there (MathJax 4's line breaking with the
// column's width, and the configuration's "label room"), shown by a container query when
// the column is narrower than the equation (CSS in `NARROW_CSS`, rules per page).
const PHONE_COLUMN = 296;  // px: div.arithmatex's content box on a 360 px phone (Material + extra.css)
// Desktops. An equation a little wider than a desktop's column (about 650-700 px at 1280 px
// and more) would otherwise get the phone's rendering there, broken into many short lines
// (notes/probability (11)): it gets a third rendering, broken at this width, shown when the
// column is at least this wide and narrower than the equation.
const DESKTOP_COLUMN = 560;
const PHONE_EM = 16;       // px: .md-typeset's font size there
const SCALE = 1.196;       // MathJax's scale of its font to the page's (exFactor above)
const LABEL_ROOM = 3.2;    // em: mathjax-config.js's mlnotesLabelRoom

function renderDocument(items, narrow = null, column = PHONE_COLUMN) {
  // one element per expression, its TeX between the delimiters FindTeX looks for
  const body = items.map((item, i) =>
    item.display
      ? `<div id="m${i}">\\[${escapeHtml(item.tex)}\\]</div>`
      : `<p id="m${i}">\\(${escapeHtml(item.tex)}\\)</p>`).join('\n');
  const html = `<!DOCTYPE html><html><head></head><body>${body}</body></html>`;
  tex.reset(0);                // numbering and labels start over on each page
  const doc = MathJax.startup.getDocument(html);
  const errors = items.map(() => []);
  const index = (math) => Number(adaptor.getAttribute(adaptor.parent(math.start.node), 'id').slice(1));
  // compile each expression with its own error list
  const compileMath = doc.compileMath.bind(doc);
  doc.compileMath = (math) => {
    currentErrors = errors[index(math)];
    try { compileMath(math); } finally { currentErrors = null; }
  };
  if (narrow) {
    // the phone's metrics (after METRICS, 110), then the label room (120, as in the browser)
    // `narrow`: the expressions wanted; the others are compiled (their numbers and labels
    // count) but not typeset
    const phone = (math) => {
      if (!narrow.has(index(math))) { math.state(STATE.INSERTED); return; }
      if (!math.display || !math.metrics) return;
      math.setMetrics(PHONE_EM, PHONE_EM * 0.5287, column, SCALE);
      if (math.root.attributes.getExplicit('maxwidth')) return;  // a matrix: natural width
      let numbered = false;
      math.root.walkTree((node) => { if (node.isKind('mlabeledtr')) numbered = true; });
      if (numbered) math.root.attributes.set('maxwidth', `${Math.floor(column - LABEL_ROOM * PHONE_EM * SCALE)}px`);
    };
    doc.addRenderAction('mlnotesPhone', 115, (d) => { for (const math of d.math) phone(math); }, phone);
  }
  // the expressions' elements, in order (one walk: liteDOM's getElement by id is linear)
  const elements = () => adaptor.childNodes(adaptor.body(doc.document))
    .filter((n) => adaptor.kind(n) !== '#text' && adaptor.kind(n) !== '#comment');
  return {doc, errors, index, elements};
}

async function typesetPage(items) {
  // the stylesheet: this page's glyphs only
  if (output.clearCache) output.clearCache(); else output.clearFontCache();
  output.options.displayOverflow = 'overflow';
  // the line width the last line-broken equation left on the output jax (getLinebreakWidth
  // sets it only when it breaks, and full-width tables, numbered equations, use it)
  output.containerWidth = INITIAL_CONTAINER_WIDTH;
  const wide = renderDocument(items);
  await wide.doc.renderPromise();
  const wideElements = wide.elements();
  if (wideElements.length !== items.length) throw new Error(`${items.length} expressions, ${wideElements.length} elements`);
  const out = items.map((item, i) => {
    const el = wideElements[i];
    const containers = adaptor.childNodes(el).filter((n) => adaptor.kind(n) === 'mjx-container');
    const rest = adaptor.childNodes(el).filter((n) => adaptor.kind(n) !== 'mjx-container');
    const errs = [...new Set(wide.errors[i])];
    if (containers.length !== 1 || rest.some((n) => adaptor.kind(n) !== '#text' || adaptor.value(n).trim())) {
      errs.push(`expected one typeset expression, got ${containers.length}`);
    }
    // an \eqref or \ref to a label that no expression on the page defines: MathJax shows
    // "???" and says nothing; the build says it
    if (containers.some((n) => adaptor.outerHTML(n).includes('???')) && !item.tex.includes('???')) {
      const refs = [...item.tex.matchAll(/\\(?:eq)?ref\s*\{([^}]*)\}/g)].map((m) => m[1]);
      errs.push(`reference to a label not defined on the page: ${refs.join(', ') || '???'}`);
    }
    containers.forEach(dropInnerLatex);
    return {html: containers.map((n) => adaptor.outerHTML(n)).join(''), error: errs.length ? errs.join('; ') : null};
  });
  // display equations wider than a phone's column (px at a phone's font size), not matrices
  const tooWide = new Map();
  if (OUTPUT === 'chtml') {
    for (const math of wide.doc.math) {
      const i = wide.index(math);
      if (!math.display || out[i].error || math.root.attributes.getExplicit('maxwidth')) continue;
      const bbox = output.getBBox(math, wide.doc);
      const px = Math.ceil((bbox.L + bbox.w + bbox.R) * PHONE_EM * SCALE);
      if (px > PHONE_COLUMN) tooWide.set(i, px);
    }
  }
  // the line-broken renderings, after the wide one (an anchor lands at the equation's top):
  // for a column from `from` px up to `below` px (exclusive), broken at `column` px
  const ranges = [];
  for (const [column, from] of [[PHONE_COLUMN, 0], [DESKTOP_COLUMN, DESKTOP_COLUMN]]) {
    const wanted = new Map([...tooWide].filter(([, px]) => px > column));
    if (!wanted.size) continue;
    output.options.displayOverflow = 'linebreak';
    output.containerWidth = INITIAL_CONTAINER_WIDTH;
    const narrow = renderDocument(items, new Set(wanted.keys()), column);
    try { await narrow.doc.renderPromise(); } finally { output.options.displayOverflow = 'overflow'; }
    const narrowElements = narrow.elements();
    for (const [i, px] of wanted) {
      const el = narrowElements[i];
      const container = adaptor.childNodes(el).find((n) => adaptor.kind(n) === 'mjx-container');
      if (!container) continue;
      // a phone's rendering stops where a desktop's starts, for an equation that has both
      const below = column === PHONE_COLUMN && px > DESKTOP_COLUMN ? DESKTOP_COLUMN : px;
      dropInnerLatex(container);
      adaptor.addClass(container, 'mlnotes-narrow');
      adaptor.setAttribute(container, 'data-below', String(below));
      if (from) adaptor.setAttribute(container, 'data-from', String(from));
      ranges.push([from, below]);
      // its anchors stay on the wide rendering (hidden, not removed, on a phone)
      out[i].html += adaptor.outerHTML(container).replace(/ id="mjx-eqn[^"]*"/g, '');
    }
  }
  output.containerWidth = INITIAL_CONTAINER_WIDTH;
  let css = adaptor.textContent(output.styleSheet(wide.doc));
  if (ranges.length) css += narrowCss([...new Set(ranges.map((r) => r.join(',')))].map((r) => r.split(',').map(Number)));
  return {items: out, css};
}

// A narrow rendering shows when the column is narrower than the wide one (and, for a
// desktop's, at least as wide as the width it was broken at); the wide one is then hidden
// but keeps its box (visibility, not display: its \label anchors still scroll into view)
// and leaves the accessibility tree (visibility: hidden), so a screen reader reads the
// expression once.
function narrowCss(ranges) {
  const rules = [
    'div.arithmatex:has(> mjx-container.mlnotes-narrow) { container-type: inline-size; }',
    'mjx-container.mlnotes-narrow { display: none !important; }',
  ];
  for (const [from, below] of ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    // in em of the container's font (the widths are measured at 16 px; Material enlarges
    // the font on wide screens), and as ranges, so no fractional width falls between two
    const em = (px) => `${+(px / PHONE_EM).toFixed(4)}em`;
    const query = from ? `(${em(from)} <= width < ${em(below)})` : `(width < ${em(below)})`;
    const variant = `mjx-container.mlnotes-narrow[data-below="${below}"]` + (from ? `[data-from="${from}"]` : ':not([data-from])');
    rules.push(`@container ${query} {
  ${variant} { display: block !important; }
  mjx-container:not(.mlnotes-narrow):has(~ ${variant}) {
    visibility: hidden; overflow: hidden; margin: 0 !important;
    height: 0; min-height: 0; width: 0; min-width: 0 !important;
  }
}`);
  }
  return '\n' + rules.join('\n') + '\n';
}

// Notebook pages (mkdocs-jupyter): their markdown cells hold $...$ and $$...$$ as written,
// with no arithmatex wrapper. A FIND request, {"id": ..., "find": [html, ...]}, gives the
// page's notebook elements (scripts/mlnotes_site/typesetter.py: the outermost elements whose
// class is one of NOTEBOOK_CLASSES, in order); the answer, {"id": ..., "find": [html, ...],
// "errors": [...]}, gives each one back with its math in arithmatex wrappers, which the page
// is then typeset with, as every other page. The math is found as MathJax found it in the
// browser on these pages (the site's former mathjax-config.js): MathJax's own FindTeX
// and HTMLDomStrings, with its delimiters, escapes and environments, skipping pre, code,
// script and the other skipHtmlTags, and every element with a class not in
// NOTEBOOK_CLASSES (ignoreHtmlClass ".+"). An in-line expression becomes
// <span class="arithmatex">\(...\)</span>; a display one <div class="arithmatex">\[...\]</div>
// in place of the <p> it is alone in (what arithmatex writes for a $$ paragraph), else a
// <span class="arithmatex">\[...\]</span>; an escape (\$) its text.
const NOTEBOOK_CLASSES = 'jp-RenderedMarkdown|jp-MarkdownOutput|jp-RenderedLatex';
const findTex = new MathJax._.input.tex_ts.TeX({
  packages: ['base'],
  inlineMath: [['\\(', '\\)'], ['$', '$']],
  displayMath: [['\\[', '\\]'], ['$$', '$$']],
  processEscapes: true,
  processEnvironments: true,
});

function findPage(elements) {
  const html = `<!DOCTYPE html><html><head></head><body>${elements.join('')}</body></html>`;
  // MathJax's own HTMLDocument class (the registered handler's carries the assistive-MML
  // extension, whose options this document does not need)
  const doc = new MathJax._.handlers.html.HTMLDocument.HTMLDocument(adaptor.parse(html, 'text/html'), adaptor, {
    InputJax: [findTex],
    ignoreHtmlClass: '.+',
    processHtmlClass: NOTEBOOK_CLASSES,
  });
  const tops = () => adaptor.childNodes(adaptor.body(doc.document))
    .filter((n) => adaptor.kind(n) !== '#text' && adaptor.kind(n) !== '#comment');
  const errors = [];
  if (tops().length !== elements.length) {
    return {find: elements.map(() => null), errors: [`${elements.length} notebook elements sent, ${tops().length} parsed`]};
  }
  doc.findMath();
  const changed = new Set();
  const top = (node) => {
    while (adaptor.parent(node) && adaptor.parent(node) !== adaptor.body(doc.document)) node = adaptor.parent(node);
    return node;
  };
  for (const math of [...doc.math].reverse()) {
    const owner = top(math.start.node);
    changed.add(owner);
    if (math.display === null) {  // an escape: \$ is a dollar sign
      math.typesetRoot = adaptor.text(math.math);
      math.updateDocument(doc);
      continue;
    }
    const open = math.display ? '\\[' : '\\(';
    const close = math.display ? '\\]' : '\\)';
    const wrapper = adaptor.node(math.display ? 'div' : 'span', {class: 'arithmatex'}, [adaptor.text(open + math.math + close)]);
    math.typesetRoot = wrapper;
    math.updateDocument(doc);
    if (math.display) {
      const p = adaptor.parent(wrapper);
      const alone = adaptor.kind(p) === 'p' && adaptor.childNodes(p).every((n) =>
        n === wrapper || (adaptor.kind(n) === '#text' && !adaptor.value(n).trim()));
      if (alone) adaptor.replace(wrapper, p);
      else adaptor.replace(adaptor.node('span', {class: 'arithmatex'}, [adaptor.text(open + math.math + close)]), wrapper);
    }
  }
  return {find: tops().map((n) => (changed.has(n) ? adaptor.outerHTML(n) : null)), errors};
}

const lines = readline.createInterface({input: process.stdin});
for await (const line of lines) {
  if (!line.trim()) continue;
  const {id, items, find} = JSON.parse(line);
  let answer;
  if (find) {
    try {
      answer = {id, ...findPage(find)};
    } catch (err) {
      answer = {id, find: find.map(() => null), errors: [String(err && err.stack || err)], fatal: true};
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
    continue;
  }
  try {
    answer = {id, ...(await typesetPage(items || []))};
  } catch (err) {
    answer = {id, items: (items || []).map(() => ({html: '', error: String(err && err.stack || err)})), css: '', fatal: true};
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
