// Check TeX with the site's own MathJax (npm `mathjax`, pinned in package.json), in Node.
//
// Reads one JSON object per line on stdin, {"id": ..., "tex": "...", "display": bool},
// and writes one per line on stdout, {"id": ..., "error": null | "the TeX error"}.
// The configuration is the pages' (docs/javascripts/mathjax-config.js): every TeX package
// the browser's tex-chtml.js can autoload, AMS numbering; but an error is reported instead
// of being typeset in red (formatError throws; `noundefined`, which typesets an undefined
// macro in red without an error, is left out). Used by scripts/mlnotes_site/tex.py.
import readline from 'node:readline';
import MathJax from 'mathjax';

await MathJax.init({
  loader: {load: ['input/tex', 'adaptors/liteDOM']},
  tex: {
    packages: {'[+]': ['ams'], '[-]': ['noundefined']},
    tags: 'ams',
    formatError: (jax, err) => { throw err; },
  },
  startup: {typeset: false},
});

const lines = readline.createInterface({input: process.stdin});
for await (const line of lines) {
  if (!line.trim()) continue;
  const {id, tex, display} = JSON.parse(line);
  let error = null;
  try {
    await MathJax.tex2mmlPromise(tex, {display: !!display});
    MathJax.texReset();  // each expression on its own: labels and equation numbers start over
  } catch (err) {
    error = String(err && err.message || err);
    try { MathJax.texReset(); } catch (_) { /* keep going */ }
  }
  process.stdout.write(JSON.stringify({id, error}) + '\n');
}
