"""Source lines stay readable: no line of the project's Python files is longer than 120 characters (the
house limit; long markup such as the replay page lives in data files under ``bean_env/data``)."""
from __future__ import annotations

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIMIT = 120
FOLDERS = ("bean_env", "agents", "training", "benchmarks", "tests")


def test_no_python_line_longer_than_the_limit():
    too_long = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if len(line) > LIMIT:
                    too_long.append(f"{path.relative_to(ROOT)}:{number} ({len(line)} characters)")
    assert not too_long, "lines longer than 120 characters:\n" + "\n".join(too_long)


def test_the_check_sees_the_source_tree():
    checked = [p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py")]
    assert len(checked) > 100 and ROOT / "bean_env" / "engine" / "game.py" in checked
