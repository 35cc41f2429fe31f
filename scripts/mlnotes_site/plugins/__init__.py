"""The site's MkDocs plugins, one module each with its `Config` beside its plugin class,
registered by pyproject.toml's `mkdocs.plugins` entry points and configured under
`plugins:` in mkdocs.yml."""
