"""Assembles core's Lua scripts the way core's ``io.delayq.script.LuaSource`` does.

Core keeps one Lua file per operation in ``src/main/resources/delayq/lua`` and shared helpers in its
``include/`` folder, pasted in where a script has a line ``--@include name.lua``. Protocol 3's scripts
(docs/protocol3.md) are the files of ``p3/``; their helpers come from ``p3/include/`` first, then from
``include/`` (core's ``io.delayq.bucket.BucketScript``), and they are named ``p3/<name>``. The package's build
backend (``delayq_build.py``) runs :func:`assemble` over core's folder and ships the result as
``_scripts.json``: the library never carries a copy of the scripts kept by hand. The interop tests compare every
assembled script's SHA-1 with the one core's Java code computes.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Dict, Sequence

_INCLUDE = re.compile(r"^--@include (\S+)$", re.MULTILINE)
#: protocol 3's folder under core's, and the prefix of its scripts' names
PROTOCOL3 = "p3"


def _read(path: Path) -> str:
    # bytes, not text mode: newline translation would change the script and its SHA-1
    return path.read_bytes().decode("utf-8")


def _include(name: str, folders: Sequence[Path], script: Path) -> str:
    """The helper ``name`` from the first of ``folders`` that holds it."""
    for folder in folders:
        if (folder / name).is_file():
            return _read(folder / name)
    raise FileNotFoundError(f"Lua include {name} of {script} is in none of {[str(f) for f in folders]}")


def _assemble_folder(folder: Path, include_folders: Sequence[Path], prefix: str = "") -> Dict[str, str]:
    """Every ``*.lua`` file of ``folder`` (not its subfolders), named ``prefix`` + its name without ``.lua``."""
    return {prefix + file.stem: _INCLUDE.sub(lambda m: _include(m.group(1), include_folders, file), _read(file))
            for file in sorted(folder.glob("*.lua"))}


def assemble(lua_dir: Path) -> Dict[str, str]:
    """Protocol 2's scripts by name (``enqueue``), and protocol 3's by ``p3/`` and name (``p3/enqueue``), with
    includes resolved. Both are required: a library without protocol 3's would fail only on such a queue."""
    scripts = _assemble_folder(lua_dir, [lua_dir / "include"])
    if not scripts:
        raise FileNotFoundError(f"no Lua scripts in {lua_dir}")
    p3 = lua_dir / PROTOCOL3
    bucketed = _assemble_folder(p3, [p3 / "include", lua_dir / "include"], PROTOCOL3 + "/")
    if not bucketed:
        raise FileNotFoundError(f"no protocol-3 Lua scripts in {p3}")
    scripts.update(bucketed)
    return scripts


def write(lua_dir: Path, target: Path) -> None:
    """Writes the assembled scripts as JSON (the file the package loads at import)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({"scripts": assemble(lua_dir)}, indent=1, sort_keys=True), encoding="utf-8")
