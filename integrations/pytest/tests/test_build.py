"""The distribution's build backend (_build/cua_contract_build.py): what pip gets from it."""
import os
import sys
import tarfile
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "_build"))

import cua_contract_build as backend  # noqa: E402


class Build(unittest.TestCase):
    def test_wheel_holds_the_package_its_metadata_and_the_pytest11_entry_point(self):
        with tempfile.TemporaryDirectory() as out:
            name = backend.build_wheel(out)
            self.assertEqual(name, "cua_contract_pytest-0.1.0-py3-none-any.whl")
            with zipfile.ZipFile(os.path.join(out, name)) as wheel:
                files = set(wheel.namelist())
                self.assertTrue({"cua_contract_pytest/__init__.py", "cua_contract_pytest/plugin.py", "cua_contract_pytest/runner.py"} <= files)
                self.assertFalse([f for f in files if "tests/" in f or f.endswith(".pyc")])
                info = "cua_contract_pytest-0.1.0.dist-info/"
                metadata = wheel.read(info + "METADATA").decode()
                self.assertIn("Name: cua-contract-pytest\n", metadata)
                self.assertIn("Requires-Dist: pytest>=7\n", metadata)
                entry_points = wheel.read(info + "entry_points.txt").decode()
                self.assertIn("[pytest11]\ncua_contract_pytest.plugin = cua_contract_pytest.plugin\n", entry_points)
                record = wheel.read(info + "RECORD").decode().splitlines()
                self.assertEqual(len(record), len(files))

    def test_sdist_and_editable(self):
        with tempfile.TemporaryDirectory() as out:
            with tarfile.open(os.path.join(out, backend.build_sdist(out))) as sdist:
                names = sdist.getnames()
            self.assertIn("cua_contract_pytest-0.1.0/pyproject.toml", names)
            self.assertIn("cua_contract_pytest-0.1.0/_build/cua_contract_build.py", names)
            self.assertIn("cua_contract_pytest-0.1.0/PKG-INFO", names)
            with zipfile.ZipFile(os.path.join(out, backend.build_editable(out))) as wheel:
                self.assertEqual(wheel.read("cua_contract_pytest_editable.pth").decode().strip(), backend.ROOT)

    def test_the_fallback_reader_reads_pyproject_as_tomllib_does(self):
        try:
            import tomllib
        except ImportError:
            self.skipTest("tomllib needs Python 3.11")
        with open(os.path.join(backend.ROOT, "pyproject.toml"), "rb") as f:
            text = f.read().decode()
        self.assertEqual(backend._read_toml_subset(text), tomllib.loads(text))


if __name__ == "__main__":
    unittest.main()
