"""The endpoint's side of c2sp.org/tlog-witness: each new checkpoint submitted to the witnesses
of the operator's tlog-policy, in parallel, and the cosignatures that verify kept.

Each witness that has a URL (its submission prefix) gets POST <url>/add-checkpoint with the
old size this process last had it cosign (0 at first) and the consistency proof from that size.
A witness that answers 409 says its latest size (text/x.tlog.size): the submission is made once
more from that size, unless it is above the checkpoint's. A witness that is down, slow or
refuses is logged and skipped: a cosignature is never worth holding up the log for, so one call
waits at most `timeout_s` in all, and never raises.
"""

from __future__ import annotations

import concurrent.futures
import logging
import threading
from collections.abc import Callable

import httpx

from engine.tlog.note import Note, NoteError, Signature, parse_note, parse_signatures, verified_by
from engine.tlog.policy import Policy, Witness
from engine.tlog.proof import consistency_body
from web.endpoint.log.signer import verify

log = logging.getLogger("web.endpoint")
Prove = Callable[[int], list[bytes]]
SIZE = "text/x.tlog.size"


class Refused(Exception):
    """A witness that gave no cosignature this time, and why."""


class Witnesses:
    """The witnesses of a policy, asked for cosignatures on each checkpoint."""

    def __init__(self, policy: Policy, timeout_s: float = 5.0) -> None:
        self.witnesses = [w for w in policy.witnesses.values() if w.url]
        self.timeout_s = timeout_s
        self._sizes: dict[str, int] = {}  # the size each witness last cosigned for us
        self._lock = threading.Lock()
        self._client = httpx.Client(timeout=timeout_s)
        workers = max(1, 2 * len(self.witnesses))  # room for a call while a slow one times out
        self._pool = concurrent.futures.ThreadPoolExecutor(workers, "witness")

    def cosign(self, checkpoint: str, size: int, prove: Prove) -> list[Signature]:
        """The witnesses' verified cosignatures of a signed checkpoint (its note's text) of
        `size` leaves; prove(old) is the consistency proof from old to size."""
        try:
            note = parse_note(checkpoint)
        except NoteError as e:
            log.warning("not submitted to the witnesses: %s", e)
            return []
        asked = {
            self._pool.submit(self._ask, w, note, checkpoint, size, prove): w
            for w in self.witnesses
        }
        done, late = concurrent.futures.wait(asked, timeout=self.timeout_s)
        found: dict[str, list[Signature]] = {}
        for future in done:
            witness = asked[future]
            try:
                found[witness.name] = future.result()
            except Refused as e:
                log.warning("witness %s did not cosign %d: %s", witness.name, size, e)
            except Exception:
                log.exception("witness %s: submitting checkpoint %d failed", witness.name, size)
        for future in late:
            log.warning("witness %s: no answer within %ss", asked[future].name, self.timeout_s)
        return [s for w in self.witnesses for s in found.get(w.name, [])]

    def _ask(
        self, witness: Witness, note: Note, checkpoint: str, size: int, prove: Prove
    ) -> list[Signature]:
        """One witness's cosignatures (Refused if it gives none)."""
        with self._lock:
            old = self._sizes.get(witness.name, 0)
        if old > size:
            raise Refused(f"it cosigned {old} leaves already")
        answer = self._post(witness, old, prove(old), checkpoint)
        if answer.status_code == 409:
            theirs = self._their_size(answer)
            if theirs < old:  # it cosigned `old` for us before: its state went back
                log.warning(
                    "witness %s is back at %d after cosigning %d", witness.name, theirs, old
                )
            if theirs > size:
                raise Refused(f"it cosigned {theirs} leaves already")
            answer = self._post(witness, theirs, prove(theirs), checkpoint)
        if answer.status_code != 200:
            raise Refused(f"HTTP {answer.status_code}: {answer.text.strip()[:200]}")
        try:
            answered = Note(note.text, tuple(parse_signatures(answer.text)))
            ok = witness.key in verified_by(answered, [witness.key], verify)
        except NoteError as e:
            raise Refused(f"its answer does not verify: {e}") from e
        if not ok:
            raise Refused("its answer has no cosignature of its key")
        with self._lock:
            self._sizes[witness.name] = max(size, self._sizes.get(witness.name, 0))
        mine = (witness.key.name, witness.key.id)
        return [s for s in answered.signatures if (s.name, s.id) == mine]

    def _post(
        self, witness: Witness, old: int, proof: list[bytes], checkpoint: str
    ) -> httpx.Response:
        url = f"{(witness.url or '').rstrip('/')}/add-checkpoint"
        try:
            return self._client.post(url, content=consistency_body(old, proof, checkpoint))
        except httpx.HTTPError as e:
            raise Refused(f"{type(e).__name__} {e}") from e

    @staticmethod
    def _their_size(answer: httpx.Response) -> int:
        """The witness's latest size from a 409's text/x.tlog.size body."""
        text = answer.text
        if answer.headers.get("content-type", "").split(";")[0].strip() != SIZE:
            raise Refused(f"a 409 without a {SIZE} body")
        if not text.endswith("\n") or not text[:-1].isdigit():
            raise Refused(f"a 409 whose body is not a size: {text[:40]!r}")
        return int(text[:-1])

    def close(self) -> None:
        """Stop: close the connections, leave any late answer unread."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._client.close()
