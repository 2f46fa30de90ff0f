"""Signed notes (c2sp.org/signed-note), checkpoints (c2sp.org/tlog-checkpoint) and Ed25519
cosignatures (c2sp.org/tlog-cosignature v1).

A note is text ending in a newline, a blank line, and signature lines
"— <key name> base64(key ID || signature)". A key is named by its verifier key (vkey)
"<name>+<hex key ID>+base64(type || public key)": type 0x01 signs notes (the log's key),
0x04 cosigns checkpoints (a witness's: the signature is an 8-byte time and an Ed25519
signature over "cosignature/v1\\ntime <t>\\n" and the checkpoint's text).

Checking a signature is the caller's `Verify(public key, message, signature) -> bool`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.tlog.tree import EMPTY_ROOT, HASH_SIZE

ED25519 = 0x01
COSIGNATURE = 0x04
DASH = "\u2014"
MAX_SIGNATURES = 64
Verify = Callable[[bytes, bytes, bytes], bool]


class NoteError(ValueError):
    """A note, checkpoint, key or signature that is malformed or does not verify."""


def key_id(name: str, kind: int, public: bytes) -> bytes:
    """A key's 4-byte ID: SHA-256(name || 0x0A || type || public key)[:4]."""
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public).digest()[:4]


def _valid_name(name: str) -> bool:
    return bool(name) and not any(c.isspace() or c == "+" for c in name)


@dataclass(frozen=True)
class Key:
    """A verifier key: its name, type (ED25519 or COSIGNATURE) and 32-byte public key."""

    name: str
    kind: int
    public: bytes

    @property
    def id(self) -> bytes:
        return key_id(self.name, self.kind, self.public)

    def vkey(self) -> str:
        """The key as a vkey string."""
        body = base64.b64encode(bytes([self.kind]) + self.public).decode()
        return f"{self.name}+{self.id.hex()}+{body}"

    @classmethod
    def parse(cls, text: str) -> Key:
        """A key from its vkey string (NoteError if malformed or its ID does not match)."""
        parts = text.strip().split("+", 2)  # (base64 may hold a "+")
        if len(parts) != 3 or not _valid_name(parts[0]) or len(parts[1]) != 8:
            raise NoteError(f"not a verifier key: {text!r}")
        try:
            raw = base64.b64decode(parts[2], validate=True)
            kid = bytes.fromhex(parts[1])
        except (binascii.Error, ValueError) as e:
            raise NoteError(f"not a verifier key: {text!r}") from e
        if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE):
            raise NoteError(f"a verifier key of an unknown type: {text!r}")
        key = cls(parts[0], raw[0], raw[1:])
        if key.id != kid:
            raise NoteError(f"a verifier key whose ID does not match its key: {text!r}")
        return key


@dataclass(frozen=True)
class Signature:
    """One signature line: the key name, the key ID and the signature bytes."""

    name: str
    id: bytes
    signature: bytes

    def line(self) -> str:
        body = base64.b64encode(self.id + self.signature).decode()
        return f"{DASH} {self.name} {body}\n"


@dataclass(frozen=True)
class Note:
    """A signed note: its text (ending in a newline) and its signature lines."""

    text: str
    signatures: tuple[Signature, ...]

    def format(self) -> str:
        return self.text + "\n" + "".join(s.line() for s in self.signatures)

    def with_signatures(self, more: Iterable[Signature]) -> Note:
        """This note with more signatures, skipping one the note has from the same key."""
        have = {(s.name, s.id) for s in self.signatures}
        added = [s for s in more if (s.name, s.id) not in have]
        return Note(self.text, self.signatures + tuple(added))


def parse_signature(line: str) -> Signature:
    """A signature line (without its newline)."""
    parts = line.split(" ")
    if len(parts) != 3 or parts[0] != DASH or not _valid_name(parts[1]):
        raise NoteError(f"not a signature line: {line!r}")
    try:
        raw = base64.b64decode(parts[2], validate=True)
    except binascii.Error as e:
        raise NoteError(f"not a signature line: {line!r}") from e
    if len(raw) < 5:
        raise NoteError(f"a signature too short: {line!r}")
    return Signature(parts[1], raw[:4], raw[4:])


def parse_signatures(text: str) -> list[Signature]:
    """Signature lines, each ending in a newline (a witness's answer)."""
    if not text.endswith("\n"):
        raise NoteError("signature lines must end in a newline")
    return [parse_signature(line) for line in text[:-1].split("\n")]


def parse_note(text: str) -> Note:
    """A signed note (NoteError if malformed)."""
    if any(ord(c) < 0x20 and c != "\n" for c in text):
        raise NoteError("a note has a control character")
    if not text.endswith("\n"):
        raise NoteError("a note must end in a newline")
    split = text.rfind("\n\n")
    if split < 0:
        raise NoteError("a note has no signatures")
    body, lines = text[: split + 1], text[split + 2 : -1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise NoteError("a note has too many signatures")
    return Note(body, tuple(parse_signature(line) for line in lines))


def cosigned_message(text: str, time: int) -> bytes:
    """What a witness's Ed25519 cosignature signs: its header, its time and the checkpoint."""
    return f"cosignature/v1\ntime {time}\n{text}".encode()


def verified_by(note: Note, keys: Sequence[Key], verify: Verify) -> dict[Key, int | None]:
    """The known keys whose signatures on the note verify, each with its cosignature's time
    (None for a note signature). A known key's signature that fails makes the whole note
    NoteError (signed-note); unknown keys' signatures are ignored."""
    found: dict[Key, int | None] = {}
    by_id = {(k.name, k.id): k for k in keys}
    for sig in note.signatures:
        key = by_id.get((sig.name, sig.id))
        if key is None:
            continue
        if key.kind == COSIGNATURE:
            if len(sig.signature) != 8 + 64:
                raise NoteError(f"{key.name}'s cosignature is malformed")
            time = int.from_bytes(sig.signature[:8], "big")
            message, raw = cosigned_message(note.text, time), sig.signature[8:]
        else:
            time, message, raw = None, note.text.encode(), sig.signature
        if not verify(key.public, message, raw):
            raise NoteError(f"{key.name}'s signature does not verify")
        found[key] = time
    return found


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint's text: the log's origin, the tree's size and root, any extension lines."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def text(self) -> str:
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode()]
        return "\n".join([*lines, *self.extensions]) + "\n"

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        """A checkpoint from a note's text (NoteError if malformed)."""
        lines = text.split("\n")
        if len(lines) < 4 or lines[-1] != "" or any(not line for line in lines[:-1]):
            raise NoteError("a checkpoint needs an origin, a size and a root, each on a line")
        origin, size, root = lines[0], lines[1], lines[2]
        if not size.isdigit() or (size != "0" and size.startswith("0")):
            raise NoteError(f"a checkpoint's size is not a number: {size!r}")
        try:
            raw = base64.b64decode(root, validate=True)
        except binascii.Error as e:
            raise NoteError("a checkpoint's root is not base64") from e
        if len(raw) != HASH_SIZE:
            raise NoteError("a checkpoint's root is not a SHA-256 hash")
        if int(size) == 0 and raw != EMPTY_ROOT:
            raise NoteError("an empty tree's root must be SHA-256 of nothing")
        return cls(origin, int(size), raw, tuple(lines[3:-1]))


def open_checkpoint(
    text: str, log: Key, verify: Verify, witnesses: Sequence[Key] = ()
) -> tuple[Checkpoint, Note, dict[Key, int | None]]:
    """A signed checkpoint checked: signed by the log's key for its origin; the witnesses
    (of `witnesses`) whose cosignatures verify, with their times (NoteError otherwise)."""
    note = parse_note(text)
    checkpoint = Checkpoint.parse(note.text)
    if checkpoint.origin != log.name:
        raise NoteError(f"the checkpoint is for {checkpoint.origin}, not {log.name}")
    found = verified_by(note, [log, *witnesses], verify)
    if log not in found:
        raise NoteError(f"the checkpoint is not signed by {log.name}'s key")
    del found[log]
    return checkpoint, note, found
