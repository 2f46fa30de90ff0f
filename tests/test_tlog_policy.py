"""engine/tlog/policy.py: c2sp.org/tlog-policy's example read and its quorum evaluated, and the
format's rules enforced."""

from __future__ import annotations

import pytest

from engine.tlog import policy
from engine.tlog.note import COSIGNATURE, ED25519, Key
from engine.tlog.policy import PolicyError


def key(name: str, kind: int = COSIGNATURE, seed: int = 0) -> Key:
    return Key(name, kind, bytes([seed]) * 32)


LOG = key("log.example", ED25519, 99)
W = {n: key(f"{n}.example", seed=i + 1) for i, n in enumerate(["X1", "X2", "X3", "Y1", "Y2", "Y3"])}
EXAMPLE = f"""# the spec's example
log {LOG.vkey()} https://log.example/

witness X1 {W["X1"].vkey()}
witness X2 {W["X2"].vkey()}
witness X3 {W["X3"].vkey()}
group X-witnesses 2 X1 X2 X3
witness Y1 {W["Y1"].vkey()}
witness Y2 {W["Y2"].vkey()}
\twitness  Y3 {W["Y3"].vkey()}
group Y-witnesses any Y1 Y2 Y3

group X-and-Y all X-witnesses Y-witnesses
quorum X-and-Y
"""


def test_the_specs_example() -> None:
    p = policy.parse(EXAMPLE)
    assert p.logs == [(LOG, "https://log.example/")]
    assert p.quorum == "X-and-Y"
    assert p.satisfied({"X1", "X3", "Y2"})
    assert not p.satisfied({"X1", "Y2"})
    assert not p.satisfied({"X1", "X2", "X3"})
    assert p.names_of([W["X1"], W["Y3"]]) == {"X1", "Y3"}
    assert policy.parse(p.format()).satisfied({"X1", "X2", "Y1"})


def test_quorum_none() -> None:
    assert policy.parse("quorum none\n").satisfied(set())


@pytest.mark.parametrize(
    "text",
    [
        "",  # no quorum
        "quorum X1\n",  # undefined
        f"witness X1 {W['X1'].vkey()}\nwitness X1 {W['X2'].vkey()}\nquorum X1\n",
        f"witness X1 {W['X1'].vkey()}\nwitness X2 {W['X1'].vkey()}\nquorum X1\n",
        f"witness X1 {W['X1'].vkey()}\ngroup G 2 X1\nquorum G\n",
        f"witness X1 {W['X1'].vkey()}\ngroup G 1 X1 X1\nquorum G\n",
        f"witness X1 {W['X1'].vkey()}\nquorum X1\nquorum X1\n",
        f"witness X1 {LOG.vkey()}\nquorum X1\n",  # a log key as a witness's
        f"log {W['X1'].vkey()}\nquorum none\n",
        "frobnicate\nquorum none\n",
        "quorum none\x01\n",
    ],
)
def test_rules_are_enforced(text: str) -> None:
    with pytest.raises(PolicyError):
        policy.parse(text)
