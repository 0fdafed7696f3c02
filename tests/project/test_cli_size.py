"""Issue 39, item 3: the command line only maps options (options → one library call → render), so it stays small:
at most 1,500 non-blank lines in ``src/clfeval/cli/``. Logic that is not option mapping lives below it."""

from __future__ import annotations

from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "src" / "clfeval" / "cli"
LIMIT = 1_500
#: The commands other parts of issue 39 cut (cv/holdout: the protocols branch; power, rank, plot: power/rank).
OTHERS = ("_experiment_cmd.py", "_power_cmd.py", "_rank_cmd.py", "_plot_cmd.py")
OWN_LIMIT = 1_200


def non_blank(text: str) -> int:
    """Lines holding anything but white space (as ``grep -cv '^\\s*$'`` counts them)."""
    return sum(1 for line in text.splitlines() if line.strip())


def sizes(skip: tuple[str, ...] = ()) -> dict[str, int]:
    return {str(p.relative_to(CLI)): non_blank(p.read_text(encoding="utf-8"))
            for p in sorted(CLI.rglob("*.py")) if p.name not in skip}


def verdict(found: dict[str, int], limit: int) -> str | None:
    """None within the limit, else the message: the total, then the files largest first."""
    total = sum(found.values())
    if total <= limit:
        return None
    listing = ", ".join(f"{name} {n}" for name, n in sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"src/clfeval/cli/ has {total} non-blank lines (at most {limit}): {listing}"


def test_the_counter_counts_non_blank_lines():
    probe = "a = 1\n\n   \n\tb = 2\n# c\n\n"
    assert non_blank(probe) == 3
    assert non_blank("") == 0 and non_blank("x") == 1


def test_the_verdict_can_fail():
    assert verdict({"a.py": 2, "b.py": 1}, 3) is None
    assert verdict({"a.py": 2, "b.py": 3}, 4) == "src/clfeval/cli/ has 5 non-blank lines (at most 4): b.py 3, a.py 2"


def test_the_command_line_is_at_most_1500_lines():
    message = verdict(sizes(), LIMIT)
    assert message is None, message


def test_the_files_beside_the_cut_commands_are_at_most_1200_lines():
    message = verdict(sizes(skip=OTHERS), OWN_LIMIT)
    assert message is None, message
