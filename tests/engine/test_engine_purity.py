"""The engine core imports no OpenCV, ZeroMQ or Kivy (only its service shell may touch sockets)."""

import subprocess
import sys

CHECK = r"""
import importlib, pkgutil, sys
import engine
skipped = ("engine.service",)
for info in pkgutil.walk_packages(engine.__path__, "engine."):
    if info.name.startswith(skipped) or info.name == "engine.__main__":
        continue
    importlib.import_module(info.name)
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("cv2", "zmq", "kivy"))
print(",".join(bad))
"""


def test_engine_core_imports_no_opencv_zeromq_or_kivy() -> None:
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "", f"engine core pulled in: {out.stdout.strip()}"
