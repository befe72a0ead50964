"""The import rule of STYLE.md: the engine is standard library only and does no I/O."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"

# Modules that do I/O, keep time or talk to the outside; the engine imports none of them.
FORBIDDEN = {
    "asyncio",
    "sqlite3",
    "aiosqlite",
    "discord",
    "socket",
    "ssl",
    "PIL",
    "aiohttp",
    "subprocess",
    "time",
    "datetime",
    "os",
    "io",
    "pathlib",
    "shutil",
    "tempfile",
    "threading",
    "multiprocessing",
    "logging",
    "urllib",
    "http",
    "importlib",
    "renderer",
    "ai",
    "bot",
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            names.add("__import__")
    return names


def test_engine_files_import_only_the_standard_library_and_no_io() -> None:
    files = sorted(ENGINE.glob("*.py"))
    assert files, "no engine files found"
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            assert name != "__import__", f"{path.name} imports dynamically"
            assert top not in FORBIDDEN, f"{path.name} imports {name}"
            assert top == "engine" or top in sys.stdlib_module_names, (
                f"{path.name} imports {name}, which is not in the standard library"
            )


def test_importing_the_engine_loads_no_io_module() -> None:
    code = (
        "import sys; before = set(sys.modules); import engine, engine.sgf; "
        "print('\\n'.join(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    loaded = {name.split(".")[0] for name in out}
    assert "engine" in loaded
    assert not loaded & (FORBIDDEN - {"io"}), loaded & FORBIDDEN


def test_import_linter_contracts() -> None:
    """The contracts in pyproject.toml (layers, and the engine's forbidden modules)."""
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("import-linter is not installed (extra `test`)")
    result = subprocess.run(
        [exe, "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "The engine does no I/O KEPT" in result.stdout, result.stdout + result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
