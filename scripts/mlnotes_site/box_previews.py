"""A box with an id tells its instant preview what box it is (a Markdown extension).

Material's preview of a link to `#correction-pdf` copies the target's content into an
`<h3>` (Material 9.8, src/templates/assets/javascripts/components/content/link): the
box itself, its tag and class, is lost. So the first child of every box that has an
id (an admonition or a details block, which take it from `pymdownx.blocks`' `attrs`, a
figure's listing, a paragraph with `{: #id }`) records them as `data-box` and
`data-box-class`, from which javascripts/apparatus.js rebuilds the box in the tooltip.

    markdown_extensions:
      - mlnotes_site.box_previews
"""

from __future__ import annotations

import xml.etree.ElementTree as etree

from markdown import Extension
from markdown.treeprocessors import Treeprocessor


class _MarkBoxes(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        for box in root.iter():
            classes = (box.get("class") or "").split()
            is_box = box.tag in ("details", "p") or (box.tag == "div" and "admonition" in classes)
            if not is_box or not box.get("id") or not len(box):
                continue
            first = box[0]
            if box.tag == "p" and (box.text or "").strip():
                continue  # text before the first element: nothing to carry the marks
            first.set("data-box", box.tag)
            first.set("data-box-class", box.get("class") or "")


class BoxPreviewExtension(Extension):
    def extendMarkdown(self, md) -> None:  # noqa: N802 (Python-Markdown's name)
        # after attr_list (8), which gives a paragraph its `{: #id }`
        md.treeprocessors.register(_MarkBoxes(md), "mlnotes-box-previews", 7)


def makeExtension(**kwargs) -> BoxPreviewExtension:  # noqa: N802 (Python-Markdown's name)
    return BoxPreviewExtension(**kwargs)
