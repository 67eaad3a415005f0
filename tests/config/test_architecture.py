"""No import cycle between modules anywhere in games/ and accounts/, read from the source (no
Django needed), counting imports inside functions too: a lazy import only hides a cycle.

The layers (the engine and bots pure, the web on top, accounts apart from games, …) are
import-linter's contracts in pyproject.toml, which `lint-imports` checks (docs/layers.md).
Its cycle contract (`acyclic_siblings`) compares whole packages, whose modules may still
import each other both ways, so cycles are looked for here, between modules."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "accounts")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules `name` imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)  # `from pkg import module`
    resolved = set()
    for target in targets:
        while target and target not in known:  # `games.engine.Refusal` is the module games.engine
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.add(target)
    return resolved


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def _is_ancestor(package: str, module: str) -> bool:
    return module.startswith(package + ".")


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, if any. A module importing its own package's __init__ (Python
    runs it first anyway) is not one."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if _is_ancestor(target, node):
                continue
            if state.get(target) == 1:
                return stack[stack.index(target) :] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle_in_games_and_accounts():
    assert _cycle(_graph()) is None, " → ".join(_cycle(_graph()))


def test_the_cycle_check_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
