"""The fenced code blocks of a Markdown document, so tests can run what the docs show."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)


@dataclass(frozen=True)
class Block:
    """One fenced block: its info string (``json request``), its text and the line it starts on."""

    info: str
    text: str
    line: int

    @property
    def where(self) -> str:
        return f"line {self.line}"


def fenced_blocks(doc: Path, info_prefix: str = "") -> list[Block]:
    """Every fenced block of ``doc`` whose info string starts with ``info_prefix``, in document order."""
    text = doc.read_text(encoding="utf-8")
    out = []
    for match in _FENCE.finditer(text):
        info = match.group(1).strip()
        if info.startswith(info_prefix):
            out.append(Block(info, match.group(2), text.count("\n", 0, match.start()) + 1))
    return out
