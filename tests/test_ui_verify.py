"""engine/ui/scenes/verify.py: the steps of a play's check as the lobby's VERIFY shows them."""

from __future__ import annotations

from engine.ui.scenes.verify import Step, run_steps


def test_a_step_whose_input_is_malformed_fails_under_its_own_name() -> None:
    # The token checked, but the endpoint's answer has no entry: the second step cannot run.
    steps = run_steps({"signature": {"ok": True, "kid": "k1"}, "payload": {}, "detail": {}})
    assert steps[0] == Step("Signature", True, "The token is signed by the endpoint's key k1.")
    assert steps[1:] == [
        Step("The play's entry", False, "What the endpoint sent for this step is malformed.")
    ]
