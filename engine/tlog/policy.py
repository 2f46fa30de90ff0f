"""Whose signatures make a checkpoint good (c2sp.org/tlog-policy): the logs, the witnesses,
and the quorum of witnesses that must have cosigned it.

    log <vkey> [<url>]
    witness <name> <vkey> [<url>]
    group <name> all|any|<k> <member>...
    quorum <name>|none
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from engine.tlog.note import COSIGNATURE, ED25519, Key, NoteError


class PolicyError(ValueError):
    """A policy file that does not follow c2sp.org/tlog-policy."""


@dataclass(frozen=True)
class Witness:
    name: str
    key: Key
    url: str | None = None


@dataclass
class Policy:
    logs: list[tuple[Key, str | None]] = field(default_factory=list)
    witnesses: dict[str, Witness] = field(default_factory=dict)
    groups: dict[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict)
    quorum: str = "none"

    def satisfied(self, cosigned: Collection[str]) -> bool:
        """Whether the witnesses named (those whose cosignatures verified) make the quorum."""
        return self.quorum == "none" or self._witnessed(self.quorum, set(cosigned))

    def _witnessed(self, name: str, cosigned: set[str]) -> bool:
        if name in self.witnesses:
            return name in cosigned
        k, members = self.groups[name]
        return sum(self._witnessed(m, cosigned) for m in members) >= k

    def witness_keys(self) -> list[Key]:
        return [w.key for w in self.witnesses.values()]

    def names_of(self, keys: Collection[Key]) -> set[str]:
        """The policy's names of the witnesses with these keys."""
        return {name for name, w in self.witnesses.items() if w.key in keys}

    def format(self) -> str:
        lines = [" ".join(filter(None, ["log", key.vkey(), url])) for key, url in self.logs]
        for w in self.witnesses.values():
            lines.append(" ".join(filter(None, ["witness", w.name, w.key.vkey(), w.url])))
        for name, (k, members) in self.groups.items():
            lines.append(" ".join(["group", name, str(k), *members]))
        lines.append(f"quorum {self.quorum}")
        return "\n".join(lines) + "\n"


def parse(text: str) -> Policy:
    """A policy from its text (PolicyError if it breaks the format's rules)."""
    policy = Policy()
    names: set[str] = set()
    quorum: str | None = None
    for number, raw in enumerate(text.split("\n"), 1):
        if any(c < " " and c != "\t" for c in raw) or "\x7f" in raw:
            raise PolicyError(f"line {number}: a control character")
        words = raw.replace("\t", " ").split()
        if not words or words[0].startswith("#"):
            continue
        try:
            kind, args = words[0], words[1:]
            if kind == "log" and 1 <= len(args) <= 2:
                key = Key.parse(args[0])
                if key.kind != ED25519 or any(k.public == key.public for k, _ in policy.logs):
                    raise PolicyError(f"line {number}: a log key must be a new Ed25519 key")
                policy.logs.append((key, args[1] if len(args) == 2 else None))
            elif kind == "witness" and 2 <= len(args) <= 3:
                name, key = args[0], Key.parse(args[1])
                if name in names or name == "none":
                    raise PolicyError(f"line {number}: {name} is defined twice")
                if key.kind != COSIGNATURE:
                    raise PolicyError(f"line {number}: a witness key must be a cosignature key")
                if any(w.key.public == key.public for w in policy.witnesses.values()):
                    raise PolicyError(f"line {number}: a witness key listed twice")
                names.add(name)
                policy.witnesses[name] = Witness(name, key, args[2] if len(args) == 3 else None)
            elif kind == "group" and len(args) >= 3:
                name, threshold, members = args[0], args[1], tuple(args[2:])
                if name in names or name == "none":
                    raise PolicyError(f"line {number}: {name} is defined twice")
                if any(m not in names for m in members) or len(set(members)) != len(members):
                    raise PolicyError(f"line {number}: a member undefined or listed twice")
                if threshold == "all":
                    k = len(members)
                elif threshold == "any":
                    k = 1
                elif threshold.isdigit() and 1 <= int(threshold) <= len(members):
                    k = int(threshold)
                else:
                    raise PolicyError(f"line {number}: a group's threshold is all, any or 1..n")
                names.add(name)
                policy.groups[name] = (k, members)
            elif kind == "quorum" and len(args) == 1:
                if quorum is not None:
                    raise PolicyError(f"line {number}: a second quorum line")
                if args[0] != "none" and args[0] not in names:
                    raise PolicyError(f"line {number}: the quorum names {args[0]}, undefined")
                quorum = args[0]
            else:
                raise PolicyError(f"line {number}: not a policy line: {raw.strip()}")
        except NoteError as e:
            raise PolicyError(f"line {number}: {e}") from e
    if quorum is None:
        raise PolicyError("a policy needs a quorum line")
    policy.quorum = quorum
    return policy
