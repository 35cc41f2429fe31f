r"""The `mlnotes-equations` plugin (mkdocs.yml `plugins:`): equation <-> code links.

A docstring names the equation(s) it computes in a Google-style section::

    Equation:
        notes/cnn.md#eq:cnn-output-size

one `page#label` a line: the page's path under `docs/` and the `\label{...}` of a display
equation on it (one such section a docstring; `Equations:` is the same section).

- `docstrings`: a Griffe extension, `EquationsExtension`, parses the section into data on
  the documented object, and the plugin collects and checks every reference (a page or a
  label that does not exist is a warning, naming the function, so a strict build fails);
- the mkdocstrings-python template `templates/python/material/docstring/admonition.html.jinja`
  (mkdocstrings' `custom_templates`) renders each reference as a cross-reference of
  mkdocs-autorefs, `page.md#label`, which the plugin registers as an anchor of its page:
  autorefs makes the link (relative to the API page; unresolved, the strict build fails),
  and the plugin gives it its text, "equation (N) of <page title>", once every page is
  numbered (`on_env`);
- `tree`: a Markdown extension after pymdownx.arithmatex puts "Computed by <function>"
  under an equation a docstring names, wraps each labelled display block in an element
  with its label as id, and numbers the blocks and `\eqref`s as MathJax does, for
  Material's instant previews (javascripts/apparatus.js typesets them);
- `plugin`: the events, and what the other plugins ask (`page_numbers`, `computed_by`,
  `citing_renumbered`); it also moves an empty anchor before a correction box onto the box.

Options
-------
    plugins:
      - mlnotes-equations:
          enabled: true
          package: mlnotes               # the package whose docstrings name equations

    plugins:
      - mkdocstrings:
          custom_templates: scripts/mlnotes_site/templates
          handlers:
            python:
              options:
                extensions:
                  - mlnotes_site.plugins.equations:EquationsExtension
"""

from __future__ import annotations

from mlnotes_site.plugins.equations.docstrings import (
    EquationRef,
    EquationsExtension,
    collect_equation_refs,
    docstring_equations,
    load_package,
    section_equations,
    validate_equation_refs,
)
from mlnotes_site.plugins.equations.plugin import EquationsConfig, EquationsPlugin
from mlnotes_site.plugins.equations.tree import EquationsMarkdown, numbered_rows

__all__ = [
    "EquationRef",
    "EquationsConfig",
    "EquationsExtension",
    "EquationsMarkdown",
    "EquationsPlugin",
    "collect_equation_refs",
    "docstring_equations",
    "load_package",
    "numbered_rows",
    "section_equations",
    "validate_equation_refs",
]
