"""The site's build: the MkDocs hooks (mkdocs.yml), the figure builder and the PDF printer."""
