"""engine/tlog/note.py: c2sp.org/signed-note's own example, keys and checkpoints, witnesses'
cosignatures (signed here with `cryptography`, checked by the module through a Verify)."""

from __future__ import annotations

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from engine.tlog import note
from engine.tlog.note import COSIGNATURE, ED25519, Checkpoint, Key, NoteError, Signature
from engine.tlog.tree import EMPTY_ROOT, leaf_hash

SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
SPEC_NOTE = (
    "This is an example message.\n\n"
    "\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZX"
    "sYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"
)


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except InvalidSignature:
        return False
    return True


def make_key(name: str, kind: int) -> tuple[Ed25519PrivateKey, Key]:
    private = Ed25519PrivateKey.generate()
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return private, Key(name, kind, public)


def sign(private: Ed25519PrivateKey, key: Key, text: str) -> Signature:
    return Signature(key.name, key.id, private.sign(text.encode()))


def cosign(private: Ed25519PrivateKey, key: Key, text: str, time: int) -> Signature:
    raw = private.sign(note.cosigned_message(text, time))
    return Signature(key.name, key.id, time.to_bytes(8, "big") + raw)


def test_the_specs_example_verifies() -> None:
    key = Key.parse(SPEC_VKEY)
    assert (key.name, key.kind, key.vkey()) == ("example.com/foo", ED25519, SPEC_VKEY)
    parsed = note.parse_note(SPEC_NOTE)
    assert parsed.text == "This is an example message.\n"
    assert parsed.format() == SPEC_NOTE
    assert list(note.verified_by(parsed, [key], verify)) == [key]


def test_a_tampered_note_or_a_wrong_key_id_is_refused() -> None:
    key = Key.parse(SPEC_VKEY)
    with pytest.raises(NoteError, match="does not verify"):
        note.verified_by(note.parse_note(SPEC_NOTE.replace("example", "sample", 1)), [key], verify)
    with pytest.raises(NoteError, match="ID does not match"):
        Key.parse(SPEC_VKEY.replace("530d903a", "530d903b"))
    other = Key("example.com/foo", ED25519, bytes(32))  # same name, another key: ignored
    assert note.verified_by(note.parse_note(SPEC_NOTE), [other], verify) == {}


def test_a_key_whose_base64_holds_a_plus_parses() -> None:
    """Standard base64 uses "+": only a vkey's first two "+" separate its parts."""
    for kind in (ED25519, COSIGNATURE):
        key = Key("example.com/log", kind, bytes([0xFB]) * 32)
        assert key.vkey().count("+") > 2
        assert Key.parse(key.vkey()) == key
    with pytest.raises(NoteError):
        Key.parse("exa+mple.com/log+" + key.vkey().split("+", 1)[1])


@pytest.mark.parametrize(
    "text",
    [
        "no newline at the end",
        "text\n",  # no signatures
        "text\n\nnot a signature\n",
        "text\n\n\u2014 name@@ AAAA\n",
        "text\n\n\u2014 name AAAA\n",  # too short
        "te\x01xt\n\n\u2014 name AAAAAAAA\n",
    ],
)
def test_malformed_notes_are_refused(text: str) -> None:
    with pytest.raises(NoteError):
        note.parse_note(text)


def test_a_checkpoint_signed_and_cosigned() -> None:
    log_private, log = make_key("lottery.example/log", ED25519)
    w_private, witness = make_key("witness.example/w1", COSIGNATURE)
    checkpoint = Checkpoint("lottery.example/log", 3, leaf_hash(b"x"))
    text = checkpoint.text()
    assert Checkpoint.parse(text) == checkpoint
    signed = note.Note(text, (sign(log_private, log, text),))
    cosigned = signed.with_signatures([cosign(w_private, witness, text, 1_700_000_000)])
    got, _, witnessed = note.open_checkpoint(cosigned.format(), log, verify, [witness])
    assert got == checkpoint and witnessed == {witness: 1_700_000_000}
    # only the log's signature: no witness
    assert note.open_checkpoint(signed.format(), log, verify, [witness])[2] == {}
    # a cosignature made for another checkpoint fails the whole note
    other = cosign(w_private, witness, Checkpoint("lottery.example/log", 4, EMPTY_ROOT).text(), 1)
    with pytest.raises(NoteError, match="does not verify"):
        note.open_checkpoint(signed.with_signatures([other]).format(), log, verify, [witness])
    # a witness's key signing as the log does not count as the log
    forged = note.Note(text, (Signature(log.name, log.id, w_private.sign(text.encode())),))
    with pytest.raises(NoteError):
        note.open_checkpoint(forged.format(), log, verify)
    # the wrong origin
    _, elsewhere = make_key("elsewhere.example/log", ED25519)
    with pytest.raises(NoteError, match="not elsewhere"):
        note.open_checkpoint(signed.format(), elsewhere, verify)


@pytest.mark.parametrize(
    "text",
    [
        "origin\n3\n",
        "origin\n03\nAAAA\n",
        "origin\nx\nAAAA\n",
        "origin\n3\nAAAA\n",  # not 32 bytes
        "origin\n0\n" + "A" * 43 + "=\n",  # an empty tree's root must be SHA-256("")
        "origin\n\n3\n",
    ],
)
def test_malformed_checkpoints_are_refused(text: str) -> None:
    with pytest.raises(NoteError):
        Checkpoint.parse(text)
