"""tools/bench/load_engines.py without a browser: where a cold visit's worker spent its start."""

from __future__ import annotations


def test_bench_engines_says_where_each_cold_visit_s_worker_spent_its_start() -> None:
    from tools.bench.load_engines import worker_medians, worker_timeline

    def visit(ready: int, wasm_end: int, again: bool = False) -> dict[str, object]:
        """A cold visit's stats.worker as the page keeps it (ms from navigation)."""
        wasm = {"path": "/p/pyodide.asm.wasm", "start": 300, "firstByte": 320, "end": wasm_end,
                "bytes": 2_700_000, "bodyBytes": 2_699_000}  # fmt: skip
        spans = [
            {"name": "pyodide-module", "start": 200, "end": 280},
            {"name": "wasm-instantiate", "start": 290, "end": 291},  # Pyodide's small module
            {"name": "python-start", "start": 280, "end": ready - 300},
            {"name": "wasm-instantiateStreaming", "start": 700, "end": 1500},
        ]
        downloads = [wasm, {**wasm, "start": 800, "end": 900}] if again else [wasm]
        return {"ready_ms": ready, "worker": {"downloads": downloads, "spans": spans}}

    slow = worker_timeline(visit(4_000, 1_400, again=True))
    # Python's start in three: to the (longest) instantiation, the instantiation, after it.
    assert slow["python_start_ms"] == {"to_wasm": 420, "wasm": 800, "after_wasm": 2_200}
    assert [d[0] for d in slow["downloads"]] == ["/p/pyodide.asm.wasm"] * 2  # fetched twice
    assert slow["downloads"][0] == ["/p/pyodide.asm.wasm", 300, 1_400, 2_700_000]
    medians = worker_medians([slow, worker_timeline(visit(2_000, 600))])
    assert medians["/p/pyodide.asm.wasm"] == 300  # of 1,100, 100 and 300 ms
    assert medians["python-start"] == 2_420 and medians["wasm-instantiateStreaming"] == 800
    no_steps = {"ready_ms": 1, "worker": {"downloads": [], "spans": []}}
    assert worker_timeline(no_steps)["python_start_ms"] is None
