"""The board's modules import one another without a cycle (docs/architecture.md: each module
can be read, and loaded, after those it needs).  Imports inside functions count too: on the
board a cycle there still means a module half made when the other reads it."""
import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"


def modules():
    out = {}
    for path in (FIRMWARE / "sowlight_fw").rglob("*.py"):
        parts = list(path.relative_to(FIRMWARE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(name, path, known):
    """The modules of `known` that module `name` imports (`from . import x` names the
    submodule x, not its package)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = base + ("." + node.module if node.module else "")
            subs = [base + "." + a.name for a in node.names if base + "." + a.name in known]
            found.update(subs)
            if len(subs) < len(node.names) and base in known:
                found.add(base)
    found.discard(name)
    return found


def cycle(graph):
    """One import cycle of `graph` as a list of modules, or None."""
    state = {}

    def visit(n, path):
        state[n] = "open"
        for d in sorted(graph[n]):
            if state.get(d) == "open":
                return path[path.index(d):] + [d]
            if d not in state:
                found = visit(d, path + [d])
                if found:
                    return found
        state[n] = "done"
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n, [n])
            if found:
                return found
    return None


def test_the_firmware_has_no_import_cycle():
    known = modules()
    assert "sowlight_fw.controller.games" in known and "sowlight_fw.link.codec" in known
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert "sowlight_fw.controller.mismatch" in graph["sowlight_fw.controller.presses"]
    found = cycle(graph)
    assert found is None, "an import cycle: " + " -> ".join(found)


def test_a_cycle_is_found_where_there_is_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None
