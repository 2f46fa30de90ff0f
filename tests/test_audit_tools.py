"""The auditors' tools stay independent of the code they audit: `build.py audit-pool` imports
only the standard library and httpx, `build.py verify` also cryptography (its Ed25519), never
the endpoint's nor the engine's code (tests/endpoint/pools/test_reveal.py and
test_verify.py run them)."""

from __future__ import annotations

import pytest

from tests.test_import_rules import ROOT, STDLIB, imports

ALLOWED = {
    "tools/cmd_audit_pool.py": {"httpx"},
    "tools/cmd_verify.py": {"httpx", "cryptography"},
}


@pytest.mark.parametrize("path", sorted(ALLOWED))
def test_audit_tools_import_only_the_standard_library_and_their_clients(path: str) -> None:
    allowed = STDLIB | ALLOWED[path]
    found = [
        (line, name) for line, name in imports(ROOT / path) if name.split(".")[0] not in allowed
    ]
    assert found == []
