"""The package's build backend (PEP 517 and PEP 660), written with the Python standard library alone.

setuptools builds wheels only with the ``wheel`` package beside it (before setuptools 70.1), and a venv of
Python 3.12 or later has no setuptools at all; where PyPI is out of reach neither can be fetched. This backend
needs neither, so ``pip install --no-build-isolation ./clients/python`` works on every supported Python with
nothing but pip. It also does what the package needs besides copying files: it assembles core's Lua scripts
from ``src/main/resources/delayq/lua`` of the delayq checkout (two folders up, or ``DELAYQ_CORE_LUA``; protocol
3's from its ``p3/`` folder, named ``p3/<name>``) into ``delayq/_scripts.json``, so the library never carries a
copy of the scripts kept by hand.

The backend itself runs on older Pythons too, so that pip can refuse one below ``REQUIRES_PYTHON`` by name.
"""
import base64
import hashlib
import importlib.util
import io
import json
import os
import re
import tarfile
import zipfile
from pathlib import Path

NAME = "delayq"
SUMMARY = "Producer for delayq delay queues in Redis: runs the same Lua scripts as the Java client"
REQUIRES_PYTHON = ">=3.9"
PYTHON_VERSIONS = ("3.9", "3.10", "3.11", "3.12", "3.13")
DEPENDENCIES = ("redis>=4.3",)
LICENSE = "Apache-2.0"

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "src" / NAME
SCRIPTS = "_scripts.json"
# Wheel entries carry this time, so that the same sources give the same wheel.
EPOCH = (1980, 1, 1, 0, 0, 0)


def version():
    """The package's ``__version__``: the one place the version is written."""
    text = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'^__version__ = "([^"]+)"$', text, re.MULTILINE).group(1)


def metadata():
    """The core metadata (METADATA of the wheel, PKG-INFO of the sdist)."""
    lines = ["Metadata-Version: 2.1", "Name: " + NAME, "Version: " + version(), "Summary: " + SUMMARY,
             "License: " + LICENSE, "Requires-Python: " + REQUIRES_PYTHON]
    lines += ["Requires-Dist: " + d for d in DEPENDENCIES]
    lines += ["Classifier: Programming Language :: Python :: 3"]
    lines += ["Classifier: Programming Language :: Python :: " + v for v in PYTHON_VERSIONS]
    lines += ["Classifier: Typing :: Typed", "Description-Content-Type: text/markdown"]
    return "\n".join(lines) + "\n\n" + (HERE / "README.md").read_text(encoding="utf-8")


def core_lua():
    return Path(os.environ.get("DELAYQ_CORE_LUA") or HERE.parent.parent / "src" / "main" / "resources" / "delayq" / "lua")


def scripts_json():
    """Core's scripts, assembled now from the checkout; in an unpacked sdist, the ones assembled when it was made."""
    lua = core_lua()
    if lua.is_dir():
        spec = importlib.util.spec_from_file_location("delayq_lua_build", str(PACKAGE / "_lua.py"))
        assembler = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(assembler)
        return json.dumps({"scripts": assembler.assemble(lua)}, indent=1, sort_keys=True).encode("utf-8")
    shipped = PACKAGE / SCRIPTS
    if (HERE / "PKG-INFO").is_file() and shipped.is_file():
        return shipped.read_bytes()
    raise SystemExit("delayq: core's Lua scripts not found at {}; build from a checkout of the delayq repository "
                     "(pip install ./clients/python) or set DELAYQ_CORE_LUA".format(lua))


def package_files():
    """The package's source files, by their path inside the package (not bytecode, not generated scripts)."""
    files = {}
    for path in sorted(PACKAGE.rglob("*")):
        relative = path.relative_to(PACKAGE).as_posix()
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc" and relative != SCRIPTS:
            files[relative] = path.read_bytes()
    return files


def dist_info():
    return "{}-{}.dist-info".format(NAME, version())


def wheel_name():
    return "{}-{}-py3-none-any.whl".format(NAME, version())


def dist_info_files():
    wheel = "Wheel-Version: 1.0\nGenerator: delayq_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    return {"METADATA": metadata().encode("utf-8"), "WHEEL": wheel.encode("utf-8"), "top_level.txt": (NAME + "\n").encode("utf-8")}


def write_wheel(directory, contents):
    """A wheel holding ``contents`` (archive path to bytes) and the dist-info files, with its RECORD."""
    info = dist_info()
    entries = dict(contents)
    entries.update({info + "/" + name: data for name, data in dist_info_files().items()})
    record = []
    for name, data in entries.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
        record.append("{},sha256={},{}".format(name, digest, len(data)))
    record.append(info + "/RECORD,,")
    entries[info + "/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    target = Path(directory) / wheel_name()
    with zipfile.ZipFile(str(target), "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in entries.items():
            entry = zipfile.ZipInfo(name, EPOCH)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return target.name


# PEP 517 hooks


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    target = Path(metadata_directory) / dist_info()
    target.mkdir(parents=True, exist_ok=True)
    for name, data in dist_info_files().items():
        (target / name).write_bytes(data)
    return target.name


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    contents = {NAME + "/" + path: data for path, data in package_files().items()}
    contents[NAME + "/" + SCRIPTS] = scripts_json()
    return write_wheel(wheel_directory, contents)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """Imports the package from ``src/``; its scripts are written there (git-ignored): run again after core's change."""
    (PACKAGE / SCRIPTS).write_bytes(scripts_json())
    return write_wheel(wheel_directory, {"__editable__.{}.pth".format(NAME): (str(HERE / "src") + "\n").encode("utf-8")})


def build_sdist(sdist_directory, config_settings=None):
    """The package's sources with core's scripts assembled now, so that the sdist builds away from a checkout."""
    base = "{}-{}".format(NAME, version())
    files = {name: (HERE / name).read_bytes() for name in ("pyproject.toml", "delayq_build.py", "README.md")}
    files.update({"src/{}/{}".format(NAME, path): data for path, data in package_files().items()})
    files["src/{}/{}".format(NAME, SCRIPTS)] = scripts_json()
    files["PKG-INFO"] = metadata().encode("utf-8")
    target = Path(sdist_directory) / (base + ".tar.gz")
    with tarfile.open(str(target), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(files):
            entry = tarfile.TarInfo(base + "/" + name)
            entry.size, entry.mode = len(files[name]), 0o644
            tar.addfile(entry, io.BytesIO(files[name]))
    return target.name
