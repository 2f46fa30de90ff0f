"""The log's key and trust policy: the operator's Ed25519 log key (LOTTERY_LOG_KEY or
LOTTERY_LOG_KEY_FILE; a development key under var/ otherwise, as the signing key), named by the
log's origin (LOTTERY_LOG_ORIGIN), which signs each checkpoint (c2sp.org/tlog-checkpoint), and
the c2sp.org/tlog-policy the site publishes (LOTTERY_LOG_POLICY_FILE; "quorum none" otherwise),
refused at start unless its log line is this key."""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.tlog import policy as tlog_policy
from engine.tlog.note import ED25519, Checkpoint, Key, Note, Signature
from web.endpoint.keys import load_private_key, raw_public
from web.endpoint.settings import Settings

DEV_KEY_NAME = "log-key.pem"


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """An Ed25519 signature checked (engine.tlog.note.Verify)."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class LogSigner:
    """The log's origin and private key: its verifier key, and checkpoints signed with it."""

    origin: str
    private: Ed25519PrivateKey

    @property
    def key(self) -> Key:
        """The log's verifier key (type 0x01, named by the origin)."""
        return Key(self.origin, ED25519, raw_public(self.private.public_key()))

    def sign(self, size: int, root: bytes) -> str:
        """The checkpoint of a tree of `size` leaves and this root, as a note signed by the log."""
        text = Checkpoint(self.origin, size, root).text()
        signature = Signature(self.origin, self.key.id, self.private.sign(text.encode()))
        return Note(text, (signature,)).format()


def load_signer(settings: Settings) -> LogSigner:
    """The log's signer from the settings (a development key under var/ when none is given)."""
    private = load_private_key(
        settings.var_dir / DEV_KEY_NAME,
        settings.log_key_file,
        settings.log_key_pem,
        "LOTTERY_LOG_KEY",
    )
    return LogSigner(settings.log_origin, private)


def load_policy(settings: Settings, log: Key) -> tuple[tlog_policy.Policy, str]:
    """The trust policy and its text as published: LOTTERY_LOG_POLICY_FILE's, or the log's key
    with no witnesses ("quorum none"). ValueError for a policy whose log line is not this log's
    key (checkpoints it would publish could never meet it)."""
    if settings.log_policy_file is None:
        text = f"log {log.vkey()}\nquorum none\n"
        origin = "the default policy"
    else:
        text = settings.log_policy_file.read_text(encoding="utf-8")
        origin = str(settings.log_policy_file)
    try:
        policy = tlog_policy.parse(text)
    except tlog_policy.PolicyError as error:
        raise ValueError(f"{origin}: {error}") from None
    if [key for key, _ in policy.logs] != [log]:
        raise ValueError(
            f"{origin}: its log line must be this endpoint's log key, {log.vkey()} "
            "(LOTTERY_LOG_KEY and LOTTERY_LOG_ORIGIN)"
        )
    return policy, text
