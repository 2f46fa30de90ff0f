"""What the witness's tests share: a test-side log (an RFC 6962 tree over leaf hashes the test
makes, its checkpoints signed with a test log key, its consistency proofs) and a real witness,
`build.py witness serve` in a subprocess on a free port, with its own key and state file."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.tlog import tree
from engine.tlog.note import ED25519, Checkpoint, Key, Note, Signature
from engine.tlog.proof import consistency_body

ROOT = Path(__file__).resolve().parent.parent


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """Ed25519, as every check in these tests makes it."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except InvalidSignature:
        return False
    return True


def raw(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )


@dataclass
class TestLog:
    """A log kept by the test: leaves appended, checkpoints signed with its key."""

    origin: str = "example.test/lottery-log"
    private: Ed25519PrivateKey = field(default_factory=Ed25519PrivateKey.generate)
    nodes: dict[tree.Node, bytes] = field(default_factory=dict)
    size: int = 0

    __test__ = False  # not a pytest class

    @property
    def key(self) -> Key:
        return Key(self.origin, ED25519, raw(self.private))

    def read(self, nodes: Sequence[tree.Node]) -> list[bytes]:
        return [self.nodes[n] for n in nodes]

    def grow(self, count: int, tag: str = "sale") -> TestLog:
        """Append `count` leaves (their data names the tag and the index)."""
        for _ in range(count):
            leaf = tree.leaf_hash(f"{tag} {self.size}".encode())
            self.nodes.update(tree.appended(self.size, leaf, self.read))
            self.size += 1
        return self

    def root(self, size: int | None = None) -> bytes:
        return tree.tree_hash(self.size if size is None else size, self.read)

    def prove(self, old: int, size: int | None = None) -> list[bytes]:
        return tree.prove_consistency(self.size if size is None else size, old, self.read)

    def checkpoint(self, size: int | None = None, root: bytes | None = None) -> str:
        """The signed checkpoint (a note) of the tree at `size`, or of any root given."""
        size = self.size if size is None else size
        text = Checkpoint(self.origin, size, self.root(size) if root is None else root).text()
        return self.sign(text)

    def sign(self, text: str) -> str:
        key = self.key
        signature = Signature(key.name, key.id, self.private.sign(text.encode()))
        return Note(text, (signature,)).format()

    def body(self, old: int, size: int | None = None) -> str:
        """An add-checkpoint request from old to size, with a valid proof."""
        return consistency_body(old, self.prove(old, size), self.checkpoint(size))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class RunningWitness:
    """A witness server in a subprocess: its URL, its vkey, its files."""

    url: str
    vkey: str
    key_file: Path
    state: Path
    process: subprocess.Popen[bytes]

    @property
    def key(self) -> Key:
        return Key.parse(self.vkey)


def new_witness_key(folder: Path, name: str) -> tuple[Path, str]:
    """`build.py witness new-key`: the key file and the vkey it printed."""
    key_file = folder / (name.replace("/", "_") + ".pem")
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools",
            "witness",
            "new-key",
            "--name",
            name,
            "--key",
            str(key_file),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    return key_file, made.stdout.strip()


@contextlib.contextmanager
def witness_server(
    key_file: Path, name: str, state: Path, logs: Sequence[Key], vkey: str = ""
) -> Iterator[RunningWitness]:
    """`build.py witness serve` on a free port until the block ends."""
    port = free_port()
    command = [sys.executable, "-m", "tools", "witness", "serve", "--key", str(key_file)]
    command += ["--name", name, "--state", str(state), "--listen", f"127.0.0.1:{port}"]
    for log in logs:
        command += ["--log", log.vkey()]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{url}/{'0' * 64}/checkpoint", timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None, "the witness exited"
                assert time.monotonic() < deadline, "the witness never answered"
                time.sleep(0.1)
        assert process.stdout is not None
        printed = process.stdout.readline().decode()  # "witness <vkey> of <origins> on <url>"
        yield RunningWitness(url, vkey or printed.split()[1], key_file, state, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
