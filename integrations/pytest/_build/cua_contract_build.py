"""A PEP 517 / PEP 660 build backend for this one pure-Python package, standard library only.

It reads the [project] table of pyproject.toml and writes a wheel (the `cua_contract_pytest`
package, its metadata and its pytest11 entry point), an editable wheel, or an sdist. No build
dependency has to be downloaded, so `pip install` works without a package index.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "cua_contract_pytest"
SDIST_FILES = ["pyproject.toml", "README.md", "_build/cua_contract_build.py"]


def _read_pyproject():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        text = f.read()
    try:
        import tomllib  # Python 3.11+
    except ImportError:
        return _read_toml_subset(text.decode("utf-8"))
    return tomllib.loads(text.decode("utf-8"))


def _read_toml_subset(text):
    """Tables, quoted keys, strings and arrays of strings: all pyproject.toml here uses (Python < 3.11)."""
    data, table = {}, None
    for raw in text.splitlines():
        line = raw.split(" #")[0].strip() if not raw.strip().startswith("#") else ""
        if not line:
            continue
        header = re.match(r"^\[([^\]]+)\]$", line)
        if header:
            table = data
            for part in header.group(1).split("."):
                table = table.setdefault(part.strip(), {})
            continue
        key, value = line.split("=", 1)
        key = key.strip().strip('"')
        value = value.strip()
        if value.startswith("["):
            table[key] = re.findall(r'"([^"]*)"', value)
        else:
            table[key] = value.strip('"')
    return data


def _project():
    return _read_pyproject()["project"]


def _dist_name(project):
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + project["name"],
        "Version: " + project["version"],
        "Summary: " + project.get("description", ""),
        "License: " + project.get("license", ""),
        "Requires-Python: " + project.get("requires-python", ""),
    ]
    lines += ["Requires-Dist: " + d for d in project.get("dependencies", [])]
    lines += ["Project-URL: %s, %s" % (k, v) for k, v in project.get("urls", {}).items()]
    readme = os.path.join(ROOT, project.get("readme", "README.md"))
    body = ""
    if os.path.isfile(readme):
        lines.append("Description-Content-Type: text/markdown")
        with open(readme, encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


def _entry_points(project):
    out = []
    for group, entries in project.get("entry-points", {}).items():
        out.append("[%s]" % group)
        out += ["%s = %s" % (name, target) for name, target in entries.items()]
        out.append("")
    return "\n".join(out)


def _package_files():
    base = os.path.join(ROOT, PACKAGE)
    for name in sorted(os.listdir(base)):
        if name.endswith(".py"):
            yield PACKAGE + "/" + name, os.path.join(base, name)


def _write_wheel(directory, files):
    project = _project()
    dist = _dist_name(project)
    info = "%s-%s.dist-info" % (dist, project["version"])
    name = "%s-%s-py3-none-any.whl" % (dist, project["version"])
    entries = list(files) + [
        (info + "/METADATA", _metadata(project).encode("utf-8")),
        (info + "/WHEEL", b"Wheel-Version: 1.0\nGenerator: cua_contract_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        (info + "/entry_points.txt", _entry_points(project).encode("utf-8")),
    ]
    record = []
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for arcname, data in entries:
            wheel.writestr(arcname, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append("%s,sha256=%s,%d" % (arcname, digest, len(data)))
        record.append(info + "/RECORD,,")
        wheel.writestr(info + "/RECORD", "\n".join(record) + "\n")
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = []
    for arcname, path in _package_files():
        with open(path, "rb") as f:
            files.append((arcname, f.read()))
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    pth = (ROOT + "\n").encode("utf-8")
    return _write_wheel(wheel_directory, [(PACKAGE + "_editable.pth", pth)])


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = "%s-%s" % (_dist_name(project), project["version"])
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        paths = SDIST_FILES + [arc for arc, _ in _package_files()]
        for rel in paths:
            full = os.path.join(ROOT, rel)
            if os.path.isfile(full):
                tar.add(full, arcname=base + "/" + rel)
        pkg_info = _metadata(project).encode("utf-8")
        member = tarfile.TarInfo(base + "/PKG-INFO")
        member.size = len(pkg_info)
        tar.addfile(member, io.BytesIO(pkg_info))
    return name
