"""The wire schema: every message the product's processes exchange, documented and validated here.

The one package the camera service, the engine and the tablets all import (standard library only, and
:mod:`engine.i18n` so that a refusal reads in the language the process speaks).
Receivers call :func:`decode` (or ``Cls.from_json``), which validates every field and raises
:class:`WireError` naming the field path and the problem (docs/wire-protocol.md).

- :mod:`engine.wire.fields`: :class:`WireError` and the field readers; :mod:`engine.wire.schema`: the
  declarative schema nested payloads are checked with.
- :mod:`engine.wire.envelope`: the envelope (``topic``, ``version``, ``seq``, ``sent_at``), the
  :class:`Message` base and the topic registry (:func:`register`, :func:`decode`).
- :mod:`engine.wire.vision_messages`: the camera service's ``tracks``, ``heartbeat``, ``preview`` and
  snapshot, and :class:`TrackState`; :mod:`engine.wire.dice_messages`: its ``dice`` (the dice trays);
  :mod:`engine.wire.dice_answer`: what the engine read in them for the pending roll (in ``table``).
- :mod:`engine.wire.engine_messages` and :mod:`engine.wire.table_messages`: what the engine publishes;
  :mod:`engine.wire.game_state`: the schema of the game the tablets draw.
- :mod:`engine.wire.commands`: commands to the engine and its replies.

Clone pattern (ZeroMQ Guide): a subscriber subscribes, asks for a snapshot, then applies only updates
whose ``seq`` is higher than the snapshot's; ``game.state`` carries what changed since the previous one.
"""

from engine.wire.commands import (
    ENGINE_COMMANDS,
    GM_CODE_KEY,
    GM_OPS,
    MAX_GAME_ID,
    MAX_NAME_CHARS,
    MAX_REQUEST_BYTES,
    TOPIC_ENGINE_REPLY,
    EngineReply,
    EngineRequest,
    encode_reply,
    encode_request,
    parse_reply,
    parse_request,
)
from engine.wire.dice_answer import DICE_ANSWER_STATES, DICE_MODES, DICE_OPS, DiceAnswer
from engine.wire.dice_messages import TOPIC_DICE, DiceMessage, DieDoubt, DieKind, DieSeen, TraySeen
from engine.wire.engine_messages import (
    DEFAULT_ENGINE_COMMANDS,
    DEFAULT_ENGINE_PUB,
    TOPIC_ENGINE_HEARTBEAT,
    TOPIC_GAME_EVENTS,
    TOPIC_GAME_SCENARIO,
    TOPIC_GAME_STATE,
    EngineHeartbeat,
    EngineMessage,
    GameEventsMessage,
    GameScenarioMessage,
    GameStateMessage,
)
from engine.wire.envelope import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Envelope,
    Message,
    decode,
    known_topics,
    parse_envelope,
    register,
)
from engine.wire.fields import WireError
from engine.wire.game_state import DECIDERS, PROMPT_KINDS, check_game
from engine.wire.table_messages import (
    CAMERA_LINK_STATUSES,
    TOPIC_TABLE,
    TOPIC_TABLE_VIEW,
    CameraLink,
    FigureSighting,
    TableMessage,
    TableViewMessage,
)
from engine.wire.vision_messages import (
    CAMERA_STATUSES,
    SEEN_STATES,
    TOPIC_HEARTBEAT,
    TOPIC_PREVIEW,
    TOPIC_TRACKS,
    TOPIC_VISION_SNAPSHOT,
    TOPIC_VISION_SNAPSHOT_REQUEST,
    TRACK_STATES,
    Heartbeat,
    MarkerTrack,
    PreviewMessage,
    TracksMessage,
    TrackState,
    VisionSnapshot,
    VisionSnapshotRequest,
)

__all__ = [
    "CAMERA_LINK_STATUSES", "CAMERA_STATUSES", "DECIDERS", "DEFAULT_ENGINE_COMMANDS", "DEFAULT_ENGINE_PUB",
    "DICE_ANSWER_STATES", "DICE_MODES", "DICE_OPS", "ENGINE_COMMANDS",
    "GM_CODE_KEY", "GM_OPS", "MAX_GAME_ID", "MAX_MESSAGE_BYTES", "MAX_NAME_CHARS", "MAX_REQUEST_BYTES",
    "PROMPT_KINDS", "PROTOCOL_VERSION",
    "SEEN_STATES", "TOPIC_DICE", "TOPIC_ENGINE_HEARTBEAT", "TOPIC_ENGINE_REPLY", "TOPIC_GAME_EVENTS",
    "TOPIC_GAME_SCENARIO", "TOPIC_GAME_STATE", "TOPIC_HEARTBEAT", "TOPIC_PREVIEW", "TOPIC_TABLE",
    "TOPIC_TABLE_VIEW", "TOPIC_TRACKS", "TOPIC_VISION_SNAPSHOT", "TOPIC_VISION_SNAPSHOT_REQUEST", "TRACK_STATES",
    "CameraLink", "DiceAnswer", "DiceMessage", "DieDoubt", "DieKind", "DieSeen",
    "EngineHeartbeat", "EngineMessage", "EngineReply", "EngineRequest", "Envelope",
    "FigureSighting", "GameEventsMessage", "GameScenarioMessage", "GameStateMessage", "Heartbeat", "MarkerTrack",
    "Message", "PreviewMessage", "TableMessage", "TableViewMessage", "TrackState", "TracksMessage",
    "TraySeen", "VisionSnapshot", "VisionSnapshotRequest", "WireError", "check_game", "decode", "encode_reply",
    "encode_request", "known_topics", "parse_envelope", "parse_reply", "parse_request", "register",
]
