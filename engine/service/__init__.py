"""The engine as a service: ZeroMQ hub between the camera services, the rules and the tablets.

``hexa engine`` (:mod:`engine.service.cli`) runs :class:`engine.service.server.EngineServer`, which
owns every socket; :class:`engine.service.session.EngineSession` holds the journaled game and the
table without sockets; tablets use :class:`engine.service.client.EngineClient`. Topics, ports and
message layouts: :mod:`engine.service.server` and :mod:`engine.wire`.
"""
