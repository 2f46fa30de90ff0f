"""`build.py witness new-key | serve`: a c2sp.org/tlog-witness witness an independent party runs.

    build.py witness new-key --name NAME --key FILE
    build.py witness serve --key FILE --name NAME --state FILE --log VKEY [--log VKEY ...]
                           [--listen 127.0.0.1:PORT]

new-key makes the witness's Ed25519 key in a new PKCS#8 PEM file of mode 0600 (it never
overwrites one) and prints the witness's verifier key, the line a log's operator adds to its
tlog-policy file ("witness NAME VKEY URL"). serve runs the witness for the logs whose verifier
keys are given (their key names are their origins): POST /add-checkpoint and
GET /<sha256(origin) hex>/checkpoint, its state (the latest checkpoint cosigned for each log and
the refused checkpoints kept as evidence) in the SQLite file --state. docs/log.md, Witnesses.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import uvicorn

from engine.tlog.note import COSIGNATURE, ED25519, Key, NoteError
from tools.witness.keys import KeyFileError, load_key, new_key
from tools.witness.server import create_app
from tools.witness.state import State
from tools.witness.witness import Witness

DEFAULT_LISTEN = "127.0.0.1:8380"


def checked_name(parser: argparse.ArgumentParser, name: str) -> str:
    """The witness's name, if a key name may be it (no space, no '+')."""
    try:
        Key.parse(Key(name, COSIGNATURE, bytes(32)).vkey())
    except NoteError:
        parser.error(f"{name!r} cannot name a key: no spaces and no '+'")
    return name


def log_key(text: str) -> Key:
    """A log's verifier key from the command line (argparse's type)."""
    try:
        key = Key.parse(text)
    except NoteError as e:
        raise argparse.ArgumentTypeError(str(e)) from e
    if key.kind != ED25519:
        raise argparse.ArgumentTypeError(f"{key.name}'s key is not a log's Ed25519 note key")
    return key


def listen_address(text: str) -> tuple[str, int]:
    """HOST:PORT (argparse's type)."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"not HOST:PORT: {text!r}")
    return host.strip("[]"), int(port)


def main(argv: list[str]) -> int:
    """Make a witness key, or serve the witness."""
    parser = argparse.ArgumentParser(prog="build.py witness", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("new-key", help="make the witness's key, print its vkey")
    make.add_argument("--name", required=True, help="the witness's name, e.g. witness.example")
    make.add_argument("--key", required=True, type=Path, metavar="FILE", help="a new key file")
    serve = commands.add_parser("serve", help="serve add-checkpoint and the checkpoints")
    serve.add_argument("--key", required=True, type=Path, metavar="FILE")
    serve.add_argument("--name", required=True, help="the name the key was made with")
    serve.add_argument("--state", required=True, type=Path, metavar="FILE", help="SQLite file")
    serve.add_argument(
        "--log", required=True, action="append", type=log_key, metavar="VKEY", help="a log's vkey"
    )
    serve.add_argument("--listen", type=listen_address, default=DEFAULT_LISTEN, metavar="HOST:PORT")
    args = parser.parse_args(argv)
    name = checked_name(parser, args.name)
    try:
        cosigner = (
            new_key(args.key, name) if args.command == "new-key" else load_key(args.key, name)
        )
    except (KeyFileError, OSError) as e:
        print(f"witness: {e}", file=sys.stderr)
        return 1
    if args.command == "new-key":
        print(cosigner.key.vkey())
        return 0
    witness = Witness(cosigner, args.log, State(args.state))
    host, port = args.listen
    origins = ", ".join(sorted(witness.logs))
    print(f"witness {cosigner.key.vkey()} of {origins} on http://{host}:{port}/", flush=True)
    uvicorn.run(create_app(witness), host=host, port=port, log_level="warning", proxy_headers=False)
    return 0
