"""Build step: ship core's Lua scripts, assembled from core's files, inside the package.

Metadata lives in pyproject.toml; this file only adds the step that reads
``src/main/resources/delayq/lua`` of the delayq repository (two folders up) and writes
``delayq/_scripts.json`` into the build. Nothing generated is kept in git.
"""
import importlib.util
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
CORE_LUA = Path(os.environ.get("DELAYQ_CORE_LUA", HERE.parent.parent / "src" / "main" / "resources" / "delayq" / "lua"))


def _assembler():
    spec = importlib.util.spec_from_file_location("delayq_lua_build", HERE / "src" / "delayq" / "_lua.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithScripts(build_py):
    def run(self):
        super().run()
        if not CORE_LUA.is_dir():
            raise SystemExit(f"delayq: core's Lua scripts not found at {CORE_LUA}; build from a checkout of the "
                             "delayq repository (pip install ./clients/python) or set DELAYQ_CORE_LUA")
        _assembler().write(CORE_LUA, Path(self.build_lib) / "delayq" / "_scripts.json")


setup(cmdclass={"build_py": BuildWithScripts})
