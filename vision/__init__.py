"""The camera service: frames in, marker poses in table millimetres out. It knows no map.

Public API, by module:

- :mod:`vision.detection` — ``MarkerDetector(dictionary).detect(frame) -> list[DetectedMarker]``; built
  from :mod:`vision.candidates` (where tags may be), :mod:`vision.refine` (edge-fit corners) and
  :mod:`vision.decoding` (bits, exact or against blurred codes), with :mod:`vision.sampling`'s
  compiled pixel sampling.
- :mod:`vision.mapping` — ``to_table(markers, camera_model, heights) -> list[TableMarker]``.
- :mod:`vision.tracking` — ``Tracker(TrackerConfig).update(table_markers, now) -> TrackUpdate``.
- :mod:`vision.sources` — frame sources (camera, video, image folder, synthetic table).
- :mod:`vision.service` — the loop; its docstring lists topics, ports and parameters.
- :mod:`vision.client` — ``TracksSubscriber`` and ``request_snapshot`` for receivers.
- :mod:`vision.synthetic` — the rendered table with ground truth (demo, tests, benchmarks).

Message layouts live in :mod:`engine.wire`.
"""
