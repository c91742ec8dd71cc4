"""Regular expressions compiled once per machine, not once per process.

Why our own: CPython compiles a pattern in pure Python (parse, then code generation), and the
question reader holds about 380 of them — some 0.1 s of every fresh ``baton ask`` on a 2-core
machine went into compiling the same patterns again. No library keeps the compiled form across processes
(``re.Pattern`` pickles as its source and recompiles), so :func:`compile` keeps what the
compiler produced — the opcode list that ``_sre.compile`` takes, with the group tables — in
one file per Python version and ``_sre`` magic, and builds the pattern from it. ``_sre``
validates every opcode list it is given, the file carries a digest of its contents (an altered
or cut-short file is ignored), and anything unexpected (another interpreter, an unwritable
folder) falls back to :func:`re.compile`: the cache changes only speed. Like any cache of code,
it trusts its folder, which is the user's own.

Only fixed patterns written in Baton's code go through here; patterns built from a question or
a catalog use :func:`re.compile`, so the file cannot grow with what people ask. The file lives
under ``$BATON_CACHE_DIR`` (default ``$XDG_CACHE_HOME/baton`` or ``~/.cache/baton``) and is
written once, at exit, when a pattern was new.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import marshal
import os
import re
import sys
import tempfile
import threading
from array import array
from pathlib import Path
from typing import Any

__all__ = ["cache_file", "compile"]

_MAX_ENTRIES = 4000  # far above Baton's own patterns: a full file is rebuilt, not grown
_Entry = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]


class _Store:
    """This process's view of the file: the entries read at first use, and how many it added."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: dict[tuple[str, int], _Entry] | None = None
        self.added = 0


_store = _Store()


def _sre() -> Any:
    return importlib.import_module("_sre")


def cache_file() -> Path | None:
    """Where this interpreter's compiled patterns are kept, or None when there is no home."""
    base = os.environ.get("BATON_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    if base:
        folder = Path(base) if os.environ.get("BATON_CACHE_DIR") else Path(base) / "baton"
    else:
        try:
            folder = Path.home() / ".cache" / "baton"
        except RuntimeError:
            return None
    sre = _sre()
    tag = f"{sys.implementation.name}-{sys.version_info[0]}{sys.version_info[1]}-{sre.MAGIC}-{sre.CODESIZE}"
    return folder / f"patterns-{tag}.marshal"


_DIGEST = 16


def _digest(blob: bytes) -> bytes:
    return hashlib.blake2b(blob, digest_size=_DIGEST).digest()


def _load() -> dict[tuple[str, int], _Entry]:
    """The file's entries, or none when it is missing, cut short or altered (its digest differs)."""
    path = cache_file()
    if path is None:
        return {}
    try:
        raw = path.read_bytes()
        blob = raw[_DIGEST:]
        if raw[:_DIGEST] != _digest(blob):
            return {}
        data = marshal.loads(blob)
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


def _save() -> None:
    path = cache_file()
    if path is None or not _store.added or _store.entries is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _store.lock:
            blob = marshal.dumps(_store.entries)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".patterns-")
    except OSError:
        return  # a read-only home: patterns compile as before
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(_digest(blob) + blob)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)  # a full disk: nothing half-written is left behind


def _compiled_parts(pattern: str, flags: int) -> _Entry:
    """What ``re._compiler.compile`` hands to ``_sre.compile`` for ``pattern``."""
    compiler: Any = importlib.import_module("re._compiler")
    parsed = compiler._parser.parse(pattern, flags)
    code = compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    packed = array("I" if _sre().CODESIZE == 4 else "H", code).tobytes()
    return int(flags | parsed.state.flags), packed, parsed.state.groups - 1, groupindex, tuple(indexgroup)


def _build(pattern: str, entry: _Entry) -> re.Pattern[str]:
    flags, packed, groups, groupindex, indexgroup = entry
    code = array("I" if _sre().CODESIZE == 4 else "H", packed).tolist()
    compiled: re.Pattern[str] = _sre().compile(pattern, flags, code, groups, groupindex, indexgroup)
    return compiled


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, from the machine's cache when it holds the pattern."""
    key = (pattern, int(flags))
    with _store.lock:
        if _store.entries is None:
            _store.entries = _load()
            atexit.register(_save)
        entries = _store.entries
        entry = entries.get(key)
    if entry is not None:
        try:
            return _build(pattern, entry)
        except Exception:  # a damaged entry: drop it and compile again below
            with _store.lock:
                entries.pop(key, None)
                _store.added += 1
    try:
        entry = _compiled_parts(pattern, int(flags))
        compiled = _build(pattern, entry)
    except Exception:  # another interpreter's internals: compile as usual, keep nothing
        return re.compile(pattern, flags)
    with _store.lock:
        if len(entries) >= _MAX_ENTRIES:
            entries.clear()
        entries[key] = entry
        _store.added += 1
    return compiled
