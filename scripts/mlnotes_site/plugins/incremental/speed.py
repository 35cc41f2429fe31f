"""What makes a `--dirty` build quicker or quieter, with no effect on what it writes."""

from __future__ import annotations

import logging

import jinja2

from mlnotes_site.upstream import mkdocs as mkdocs_upstream


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled theme templates, kept across rebuilds (each rebuild makes a new Jinja
    environment, and compiling Material's templates again costs more than a page). Jinja
    checks each entry against its template's source, so an edited template is compiled
    again."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.store.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


class DirtyWarning(logging.Filter):
    """MkDocs warns on every `--dirty` build that the navigation may be wrong: with this
    plugin it is not (the titles and metadata of the pages not rendered are restored)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(mkdocs_upstream.DIRTY_WARNING)


def quiet_dirty_warning() -> None:
    """Filter MkDocs' dirty-build warning out of its build log (once a process)."""
    logger = logging.getLogger("mkdocs.commands.build")
    if not any(isinstance(f, DirtyWarning) for f in logger.filters):
        logger.addFilter(DirtyWarning())
