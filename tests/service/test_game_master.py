"""The game master's commands on the wire and who the engine takes for the GM, without a rule set in sight."""

from __future__ import annotations

import json

import pytest

from engine import wire
from engine.service.game_master import GameMaster, new_gm_code


def _parse(**request: object) -> wire.EngineRequest:
    return wire.parse_request(json.dumps(request))


def test_gm_commands_are_checked_on_receipt() -> None:
    ok = _parse(cmd="gm", op="terrain", cell="C2", terrain="blocking", gm_code="abc")
    assert ok.args == {"op": "terrain", "cell": "C2", "terrain": "blocking", "gm_code": "abc"}
    assert _parse(cmd="gm", op="ruling", key="sight:A1:B2", value=None).args["value"] is None
    assert _parse(cmd="gm", op="calculate", calculator="duel").args["calculator"] == "duel"
    with pytest.raises(wire.WireError, match=r"gm\.op: .*terrain, place, out, ruling, calculate"):
        _parse(cmd="gm", op="smite")
    with pytest.raises(wire.WireError, match=r"gm\.cell"):
        _parse(cmd="gm", op="terrain", cell=3, terrain="blocking")
    with pytest.raises(wire.WireError, match=r"gm\.to"):
        _parse(cmd="gm", op="place", figure="orc")
    with pytest.raises(wire.WireError, match=r"gm\.input"):
        _parse(cmd="gm", op="calculate", calculator="duel", input=[1])
    with pytest.raises(wire.WireError, match="gm_code"):
        _parse(cmd="snapshot", gm_code=5)
    with pytest.raises(wire.WireError, match="too long for a GM code"):
        _parse(cmd="snapshot", gm_code="x" * 65)
    with pytest.raises(wire.WireError, match=r"query\.cell"):
        _parse(cmd="query", what="area", figure="rose", cell={"q": 1})


def test_the_gm_is_the_code_or_the_named_key_and_nothing_else() -> None:
    code = new_gm_code()
    assert len(code) >= 12 and code != new_gm_code()
    master = GameMaster(code, key_id="KEY")
    assert master.is_gm(code, None) and master.is_gm(None, "KEY")
    assert not master.is_gm(None, None) and not master.is_gm("guess", "OTHER") and not master.is_gm("", None)
    assert not GameMaster(code).is_gm(None, "KEY")  # no tablet named: a key alone is nobody
