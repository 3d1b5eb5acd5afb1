"""How long tests wait for a state they expect.

Tests poll for the state they check and stop as soon as it holds, so a passing test never waits this out; it is
long because a loaded two-core machine can stall a process for seconds. Negative checks ("nothing arrives") keep
their own short limits.
"""

WAIT_S = 20.0
