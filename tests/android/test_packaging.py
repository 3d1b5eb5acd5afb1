"""The APK's buildozer.spec agrees with the code: the tablet app imports nothing desktop-only, the spec's
``requirements`` are exactly the third-party packages it imports, and the spec copies every module it needs."""

from __future__ import annotations

import configparser
import fnmatch
import json
import re
import subprocess
import sys
from importlib.metadata import packages_distributions
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "buildozer.spec"
PYTHON_RECIPES = {"python3", "hostpython3"}  # the interpreter itself, not a package the code imports
FILE_PACKAGES = {"japanize-kivy"}  # read, never imported: the Japanese font file it ships (engine/fonts.py)


def probe(*modules: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.android.tablet_imports", *modules], cwd=ROOT,
                          capture_output=True, text=True, timeout=180)


def imported() -> dict[str, Any]:
    proc = probe()
    assert proc.returncode == 0, f"the tablet app does not import without the desktop-only packages:\n{proc.stderr}"
    return dict(json.loads(proc.stdout.splitlines()[-1]))


def spec() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(SPEC, encoding="utf-8")
    return parser["app"]


def spec_list(key: str) -> list[str]:
    return [v.strip() for v in spec()[key].replace("\n", " ").split(",") if v.strip()]


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_names() -> set[str]:
    return {normal(re.split(r"[=<>!~]", r, maxsplit=1)[0]) for r in spec_list("requirements")} - PYTHON_RECIPES


def distribution(top: str) -> str:
    """The distribution that installs a top-level import name (``zmq`` → ``pyzmq``)."""
    names = packages_distributions().get(top)
    assert names, f"{top} is imported by the tablet app but no installed distribution provides it"
    return normal(names[0])


def copied(path: str) -> bool:
    """Whether buildozer copies this file into the APK (source.exclude_dirs, .exclude_patterns, .include_exts)."""
    excluded = [d.lower().rstrip("/") + "/" for d in spec_list("source.exclude_dirs")]
    folder = path.rsplit("/", 1)[0].lower() + "/" if "/" in path else ""
    return (not any(folder.startswith(d) for d in excluded)
            and not any(fnmatch.fnmatch(path.lower(), p) for p in spec_list("source.exclude_patterns"))
            and path.rsplit(".", 1)[-1].lower() in spec_list("source.include_exts"))


def test_the_tablet_app_imports_with_the_desktop_only_packages_unimportable() -> None:
    found = imported()
    assert "companion_app/ui/app.py" in found["files"] and "main.py" in found["files"]
    assert not [f for f in found["files"] if f.startswith(("vision/", "calibration/", "companion_app/demo/"))]


def test_the_check_fails_on_a_module_that_pulls_in_a_desktop_only_package() -> None:
    proc = probe("engine.service.map_registration")  # registers the map from camera points: numpy
    assert proc.returncode != 0 and "numpy is desktop-only" in proc.stderr


def test_the_spec_requires_exactly_the_third_party_packages_the_app_imports() -> None:
    found = imported()
    needed = {distribution(top) for top in found["third_party"]} | set(found["stdlib_recipes"]) | FILE_PACKAGES
    assert requirement_names() == needed, (f"buildozer.spec requirements name {sorted(requirement_names())}; the "
                                           f"tablet app imports {sorted(needed)}: make the requirements line say so")


def test_the_spec_copies_every_module_and_screen_the_app_loads() -> None:
    screens = [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "companion_app" / "ui" / "kv").glob("*.kv"))]
    assert screens
    files = imported()["files"] + screens
    left_out = [f for f in files if not copied(f)]
    assert not left_out, f"buildozer.spec leaves out what the app loads: {left_out}"
    assert not copied("vision/detection.py") and not copied("companion_app/demo/launcher.py")


def test_the_apk_carries_the_apps_japanese_catalogue() -> None:
    assert copied("companion_app/locale/ja/LC_MESSAGES/messages.po")


def test_the_apk_carries_the_tablets_keys_and_never_the_engines_secret() -> None:
    assert copied("keys/server.key") and copied("keys/clients/tablet.key_secret")
    assert not copied("keys/server.key_secret") and not copied("keys/authorized/tablet.key")


def test_the_apk_entry_point_starts_the_real_app() -> None:
    assert spec()["source.dir"] == "."
    proc = subprocess.run([sys.executable, "main.py", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: hexa app"), proc.stdout + proc.stderr


def test_the_apk_version_is_the_projects() -> None:
    pattern, source = spec()["version.regex"], spec()["version.filename"].replace("%(source.dir)s", str(ROOT))
    match = re.search(pattern, Path(source).read_text(encoding="utf-8"), re.MULTILINE)
    assert match is not None and re.fullmatch(r"\d+\.\d+\.\d+", match.group(1))
