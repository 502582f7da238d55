"""Core's Lua scripts as assembled at build time (``_scripts.json``, written by delayq_build.py from core's files)."""
from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Dict

from .errors import DelayQueueException


class Script:
    __slots__ = ("name", "source", "sha")

    def __init__(self, name: str, source: str) -> None:
        self.name = name
        self.source = source
        self.sha = hashlib.sha1(source.encode("utf-8")).hexdigest()


def _load() -> Dict[str, Script]:
    try:
        text = resources.files(__package__).joinpath("_scripts.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        raise DelayQueueException(
            "this delayq package holds no Lua scripts (delayq/_scripts.json is missing): it was not built by its "
            "build backend; install it from a delayq checkout with: pip install --no-build-isolation ./clients/python"
        ) from None
    return {name: Script(name, source) for name, source in json.loads(text)["scripts"].items()}


SCRIPTS: Dict[str, Script] = _load()


def script(name: str) -> Script:
    return SCRIPTS[name]
