"""scripts/compiled_counts.py on a tiny selection: the hand default counts each level, the compiled variant
counts where it did, the table has a row per family and backend and every count agrees with expected.json."""

from __future__ import annotations

import json

from support import ROOT, script


def test_the_compiled_counts_script_counts_where_the_hand_default_did_and_agrees(tmp_path, capsys, monkeypatch):
    counts = script("compiled_counts")
    monkeypatch.chdir(ROOT)
    runs = tmp_path / "runs.jsonl"
    argv = ["--family", "logic", "--family", "sigils", "--backends", "pysat,clingo,exactcover"]
    argv += ["--levels", "einstein,zebra-somewhere,gate-4x3", "--timeout", "30", "--jsonl", str(runs), "--quiet"]
    assert counts.main(argv) == 0
    out = capsys.readouterr().out
    rows = [line.split(" | ") for line in out.splitlines() if line.startswith("| logic") or line.startswith("| sigils")]
    # logic has no exactcover:compiled (its model states clauses): two rows; sigils three
    assert sorted((r[0][2:], r[1]) for r in rows) == [
        ("logic", "`clingo:compiled`"),
        ("logic", "`pysat:compiled`"),
        ("sigils", "`clingo:compiled`"),
        ("sigils", "`exactcover:compiled`"),
        ("sigils", "`pysat:compiled`"),
    ]
    assert {r[2] for r in rows if r[0] == "| logic"} == {"2/2"} and {r[2] for r in rows if r[0] == "| sigils"} == {
        "1/1"
    }
    assert "VERDICT: every compiled count agrees" in out and "DISAGREEMENT" not in out
    recorded = [json.loads(line) for line in runs.read_text().splitlines()]
    assert len(recorded) == 2 * (2 * 2 + 3 * 1) and all(r["mode"] == "count" and r["complete"] for r in recorded)

    # read back: nothing runs again, and a wrong expectation is reported loudly
    row = counts.measure(["logic"], ["pysat"], 30, 30, counts.Store(str(runs), resume=True), {"einstein"})[0]
    assert row.attempted == ["einstein"] and row.disagreements() == []
    row.expected["einstein"] = 2
    assert any("expected.json says 2" in line for line in row.disagreements())
