"""The auditors' tools stay independent of the code they audit: `build.py audit-pool` imports
only the standard library and httpx (its recount, tools/audit/pool.py, the standard library
alone), `build.py verify` also cryptography (its Ed25519) and its steps (tools/audit/verify.py),
never the endpoint's nor the engine's code (tests/endpoint/pools/test_reveal.py and
test_verify.py run them). `build.py audit-log` and verify's log steps read the public log's
formats with engine/tlog alone (pure, the C2SP formats: an auditor checks it against the specs
in docs/log.md), and the pool's leaves with audit-pool's recount (tests/test_audit_log.py and
tests/test_verify_tlog_proof.py run them)."""

from __future__ import annotations

import pytest

from tests.test_import_rules import ROOT, STDLIB, imports

ALLOWED = {
    "tools/commands/audit_pool.py": {"httpx", "tools.audit.pool"},
    "tools/audit/pool.py": set(),
    "tools/commands/verify.py": {
        "httpx",
        "cryptography",
        "tools.audit.verify",
        "engine.tlog",
        "tools.audit.verify_tlog_proof",
    },
    "tools/audit/verify_tlog_proof.py": {
        "engine.tlog",
        "tools.audit.log",
        "tools.audit.pool",
        "tools.audit.verify",
    },
    "tools/audit/verify.py": {"httpx", "cryptography"},
    "tools/commands/audit_log.py": {
        "engine.tlog",
        "tools.audit.log",
        "tools.audit.log_records",
        "tools.audit.pool",
    },
    "tools/audit/log.py": {"httpx", "cryptography", "engine.tlog"},
    "tools/audit/log_records.py": {"engine.tlog", "tools.audit.pool"},
}


@pytest.mark.parametrize("path", sorted(ALLOWED))
def test_audit_tools_import_only_the_standard_library_and_their_clients(path: str) -> None:
    allowed = STDLIB | ALLOWED[path]
    found = [
        (line, name)
        for line, name in imports(ROOT / path)
        if not any(name == a or name.startswith(a + ".") for a in allowed)
    ]
    assert found == []
