"""Assembles core's Lua scripts the way core's ``io.delayq.script.LuaScript`` does.

Core keeps one Lua file per operation in ``src/main/resources/delayq/lua`` and shared helpers in its
``include/`` folder, pasted in where a script has a line ``--@include name.lua``. The package's build
backend (``delayq_build.py``) runs :func:`assemble` over core's folder and ships the result as
``_scripts.json``: the library never carries a copy of the scripts kept by hand. The interop tests compare every
assembled script's SHA-1 with the one core's Java code computes.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Dict

_INCLUDE = re.compile(r"^--@include (\S+)$", re.MULTILINE)


def _read(path: Path) -> str:
    # bytes, not text mode: newline translation would change the script and its SHA-1
    return path.read_bytes().decode("utf-8")


def assemble(lua_dir: Path) -> Dict[str, str]:
    """Every ``*.lua`` file of ``lua_dir`` (not ``include/``), by name without ``.lua``, with includes resolved."""
    scripts: Dict[str, str] = {}
    for file in sorted(lua_dir.glob("*.lua")):
        raw = _read(file)
        scripts[file.stem] = _INCLUDE.sub(lambda m: _read(lua_dir / "include" / m.group(1)), raw)
    if not scripts:
        raise FileNotFoundError(f"no Lua scripts in {lua_dir}")
    return scripts


def write(lua_dir: Path, target: Path) -> None:
    """Writes the assembled scripts as JSON (the file the package loads at import)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({"scripts": assemble(lua_dir)}, indent=1, sort_keys=True), encoding="utf-8")
