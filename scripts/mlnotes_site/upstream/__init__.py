"""Adapters to what other packages do not offer as public API, one module per package.

Each module names the version it was written against (`PIN`, as pyproject.toml pins the
package) and checks, when the build starts, that the installed package still does what it
relies on, failing with a message that names the installed and the pinned version.
Everything else in the build uses the packages' public APIs only.

- `material`: where the social plugin looks for a card's font.
"""
