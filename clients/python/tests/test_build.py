"""The package builds with the standard library alone: a fresh venv with no ``wheel`` (and, from Python 3.12,
no setuptools) installs it offline the way the README says; the wheel carries the metadata and core's scripts;
an sdist builds away from the checkout."""
import base64
import csv
import hashlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile
from pathlib import Path

import delayq
from delayq._lua import assemble

CLIENT = Path(__file__).resolve().parents[1]
CORE_LUA = CLIENT.parents[1] / "src" / "main" / "resources" / "delayq" / "lua"


def load_backend(folder: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, folder / "delayq_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def offline_pip_env() -> dict:
    """pip as on a machine where PyPI is out of reach: no index, no configured mirrors or wheel folders."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def run(*command: str, env=None) -> str:
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}")
    return done.stdout


class BuildTest(unittest.TestCase):
    def setUp(self):
        if not CORE_LUA.is_dir():
            self.skipTest(f"core's scripts are not at {CORE_LUA}")
        self.tmp = Path(tempfile.mkdtemp(prefix="delayq-py-build-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def test_a_fresh_venv_without_wheel_installs_the_package_with_the_readme_line_offline(self):
        venv = self.tmp / "venv"
        run(sys.executable, "-m", "venv", str(venv), env=offline_pip_env())
        python = str(venv / "bin" / "python")
        self.assertEqual(run(python, "-c", "import importlib.util; print(importlib.util.find_spec('wheel') is None)").strip(),
                         "True", "the new venv must not have the wheel package")
        # the README's line; --no-deps because this venv has no redis-py and no index to fetch it from
        run(python, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps", str(CLIENT), env=offline_pip_env())
        installed = json.loads(run(python, "-c", "import importlib.metadata as m, json; d = m.distribution('delayq'); "
                                                 "print(json.dumps({'version': d.version, 'python': d.metadata['Requires-Python'], "
                                                 "'requires': d.requires, 'scripts': d.locate_file('delayq/_scripts.json').read_text()}))"))
        self.assertEqual(installed["version"], delayq.__version__)
        self.assertEqual(installed["python"], ">=3.9")
        self.assertEqual(installed["requires"], ["redis>=4.3"])
        self.assertEqual(json.loads(installed["scripts"])["scripts"], assemble(CORE_LUA))

    def test_the_wheel_carries_the_metadata_every_module_and_cores_scripts_with_a_true_record(self):
        backend = load_backend(CLIENT, "delayq_build_checkout")
        name = backend.build_wheel(str(self.tmp))
        self.assertEqual(name, f"delayq-{delayq.__version__}-py3-none-any.whl")
        with zipfile.ZipFile(self.tmp / name) as wheel:
            entries = {n: wheel.read(n) for n in wheel.namelist()}
        info = f"delayq-{delayq.__version__}.dist-info"
        metadata = entries[f"{info}/METADATA"].decode()
        for line in ("Name: delayq", f"Version: {delayq.__version__}", "Requires-Python: >=3.9", "Requires-Dist: redis>=4.3",
                     "Classifier: Programming Language :: Python :: 3.9", "Classifier: Programming Language :: Python :: 3.13"):
            self.assertIn(line + "\n", metadata)
        modules = {f"delayq/{p.name}" for p in (CLIENT / "src" / "delayq").iterdir() if p.suffix in (".py", ".typed")}
        self.assertLessEqual(modules | {"delayq/_scripts.json"}, set(entries))
        self.assertEqual(json.loads(entries["delayq/_scripts.json"])["scripts"], assemble(CORE_LUA))
        record = {row[0]: row[1:] for row in csv.reader(io.StringIO(entries[f"{info}/RECORD"].decode()))}
        self.assertEqual(set(record), set(entries))
        for path, data in entries.items():
            if path != f"{info}/RECORD":
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual(record[path], [f"sha256={digest}", str(len(data))], path)

    def test_an_sdist_builds_a_wheel_with_the_same_scripts_away_from_the_checkout(self):
        sdist = load_backend(CLIENT, "delayq_build_checkout").build_sdist(str(self.tmp))
        with tarfile.open(self.tmp / sdist) as tar:
            tar.extractall(self.tmp / "unpacked", **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
        unpacked = self.tmp / "unpacked" / f"delayq-{delayq.__version__}"
        saved = os.environ.get("DELAYQ_CORE_LUA")
        os.environ["DELAYQ_CORE_LUA"] = str(self.tmp / "no-checkout-here")
        try:
            name = load_backend(unpacked, "delayq_build_sdist").build_wheel(str(self.tmp))
        finally:
            if saved is None:
                del os.environ["DELAYQ_CORE_LUA"]
            else:
                os.environ["DELAYQ_CORE_LUA"] = saved
        with zipfile.ZipFile(self.tmp / name) as wheel:
            self.assertEqual(json.loads(wheel.read("delayq/_scripts.json"))["scripts"], assemble(CORE_LUA))


if __name__ == "__main__":
    unittest.main()
