"""docs/guarantees.md lists every exit status each command can give: the statuses found in the code by
reading it (the errors its modules raise, the statuses its run functions return) are all listed for
that command, and every status listed is one flowbot.exits knows."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from flowbot.exits import EXIT_STATUSES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "flowbot"
GUARANTEES = ROOT / "docs" / "guarantees.md"
SECTION = "Exit statuses by command"
EVERY = "every command"  # the table's row for what any command can end with
SIGNALS = "a signal"  # the status of an error class whose status is 128 + the signal's number


@dataclass
class Module:
    """One flowbot module as read: its syntax tree and the names it imports from flowbot."""

    name: str
    path: Path
    tree: ast.Module
    imported: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # local -> (module, name)


def _module_name(path: Path) -> str:
    """flowbot/modes/solve_files.py -> flowbot.modes.solve_files (a package's __init__ its package)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Module]:
    """Every module of flowbot, each with what it imports from flowbot (anywhere in it, functions too)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        found[_module_name(path)] = Module(
            _module_name(path), path, ast.parse(path.read_text(encoding="utf-8"))
        )
    for module in found.values():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("flowbot"):
                for alias in node.names:
                    whole = f"{node.module}.{alias.name}"
                    target = (whole, None) if whole in found else (node.module, alias.name)
                    module.imported[alias.asname or alias.name] = target
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in found:
                        module.imported[alias.asname or alias.name] = (alias.name, None)
    return found


def imports_of(module: Module) -> set[str]:
    """The flowbot modules one module imports."""
    return {target for target, _ in module.imported.values() if target in modules()}


def reachable(start: str) -> set[str]:
    """The modules a module imports, directly or through others (itself included)."""
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(imports_of(modules()[name]))
    return seen


@cache
def error_statuses() -> dict[str, int | str]:
    """Each FlowbotError class's name and the status it ends with (SIGNALS for 128 + a signal)."""
    bases: dict[str, list[str]] = {}
    own: dict[str, int | str | tuple[str, str]] = {}
    defined: dict[str, int] = {}  # how many classes have the name
    for module in modules().values():
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.ClassDef):
                continue
            defined[node.name] = defined.get(node.name, 0) + 1
            bases.setdefault(node.name, []).extend(
                base.id if isinstance(base, ast.Name) else base.attr
                for base in node.bases
                if isinstance(base, (ast.Name, ast.Attribute))
            )
            for statement in ast.walk(node):
                if not isinstance(statement, (ast.Assign, ast.AnnAssign)) or statement.value is None:
                    continue
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                for target in targets:
                    if isinstance(target, ast.Name) and target.id == "exit_code" and statement in node.body:
                        own[node.name] = _class_status(module, statement.value)
                    elif isinstance(target, ast.Attribute) and target.attr == "exit_code":
                        own[node.name] = _class_status(module, statement.value)  # set per instance

    def status(name: str, seen: frozenset[str] = frozenset()) -> int | str | None:
        """The class's own status, else its first base's that has one."""
        if isinstance(own.get(name), tuple):  # another class's: `exit_code = Other.exit_code`
            return None if own[name][1] in seen else status(own[name][1], seen | {name})
        if name in own:
            return own[name]
        later = [base for base in bases.get(name, []) if base not in seen]
        return next((found for base in later if (found := status(base, seen | {name})) is not None), None)

    def is_error(name: str, seen: frozenset[str] = frozenset()) -> bool:
        """A FlowbotError or a subclass of one (a base of the class's own name is another class)."""
        later = [base for base in bases.get(name, []) if base not in seen]
        return name == "FlowbotError" or any(is_error(base, seen | {name}) for base in later)

    errors = {name: status(name) for name in bases if is_error(name)}
    twice = sorted(name for name in errors if defined[name] > 1)
    assert not twice, f"error classes of one name: {twice}; the reading tells them apart by name"
    return errors


def _class_status(module: Module, value: ast.expr) -> int | str | tuple[str, str] | None:
    """What an error class's `exit_code = ...` sets: a number, a constant's number, SIGNALS, or
    ("class", name) for another class's `exit_code`."""
    if isinstance(value, ast.Constant) and type(value.value) is int:
        return value.value
    if isinstance(value, ast.BinOp) and getattr(value.left, "value", None) == 128:
        return SIGNALS  # 128 + the signal's number
    if isinstance(value, ast.Name):
        return _constant(module, value.id)
    if isinstance(value, ast.Attribute) and value.attr == "exit_code" and isinstance(value.value, ast.Name):
        return ("class", value.value.id)
    raise AssertionError(
        f"{module.path}: exit_code = {ast.unparse(value)}: the reading cannot tell its status"
    )


@cache
def _raised(name: str) -> list[tuple[int | str, str]]:
    """(status, where) for every FlowbotError the module raises by its class's name."""
    module = modules()[name]
    found = []
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            thrown = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            name = thrown.attr if isinstance(thrown, ast.Attribute) else getattr(thrown, "id", None)
            if name in error_statuses():
                found.append(
                    (error_statuses()[name], f"{module.path.relative_to(ROOT)}:{node.lineno} raises {name}")
                )
    return found


def _constant(module: Module, name: str) -> int | None:
    """The value of a module-level int constant (`EXIT_SOLVED = 0`, `A, B = 0, 1`), followed through
    an import."""
    if name in module.imported:
        source, original = module.imported[name]
        return _constant(modules()[source], original) if original and source in modules() else None
    for node in module.tree.body:
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            names = target.elts if isinstance(target, ast.Tuple) else [target]
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            for one, value in zip(names, values, strict=False):
                if isinstance(one, ast.Name) and one.id == name and isinstance(value, ast.Constant):
                    return value.value if type(value.value) is int else None
    return None


Found = tuple[list[int | str], list[tuple[Module, ast.FunctionDef]]]


def _joined(parts: list[Found]) -> Found:
    """The statuses and functions of several expressions together."""
    return [s for part in parts for s in part[0]], [f for part in parts for f in part[1]]


def _returned(module: Module, expression: ast.expr, function: ast.FunctionDef | None = None) -> Found:
    """What a `return` gives: the statuses it names (a number, a constant's, an error class's
    `exit_code`, on either side of a conditional, `max` of them, or what a local name was set to) and
    the flowbot functions whose status it passes on; `128 + signal` is a signal's."""
    if isinstance(expression, ast.IfExp):
        return _joined([_returned(module, side, function) for side in (expression.body, expression.orelse)])
    if isinstance(expression, ast.Constant) and type(expression.value) is int:
        return [expression.value], []
    if isinstance(expression, ast.BinOp) and getattr(expression.left, "value", None) == 128:
        return [SIGNALS], []
    if isinstance(expression, ast.Name):
        value = _constant(module, expression.id)
        if value is not None:
            return [value], []
        nodes = ast.walk(function) if function is not None else ()
        assigned = [
            node.value
            for node in nodes
            if isinstance(node, ast.Assign)
            and any(getattr(t, "id", None) == expression.id for t in node.targets)
        ]
        return _joined([_returned(module, value, None) for value in assigned])
    if isinstance(expression, ast.Call) and getattr(expression.func, "id", None) in ("max", "min"):
        return _joined([_returned(module, argument, function) for argument in expression.args])
    if isinstance(expression, ast.Attribute) and expression.attr == "exit_code":
        owner = getattr(expression.value, "id", None)
        return ([error_statuses()[owner]] if owner in error_statuses() else []), []
    if isinstance(expression, ast.Call):
        target = _callee(module, expression.func)
        if target is not None:
            return [], [target]
        # A call of no flowbot function passes on what its flowbot argument gives: asyncio.run(_serve())
        return _joined([_returned(module, argument, function) for argument in expression.args])
    return [], []


def _function(module: Module, name: str) -> tuple[Module, ast.FunctionDef] | None:
    """The function a name stands for in a module: defined there, or imported from flowbot."""
    for node in module.tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return module, node
    if name in module.imported:
        source, original = module.imported[name]
        if original is not None and source in modules():
            return _function(modules()[source], original)
    return None


def _callee(module: Module, called: ast.expr) -> tuple[Module, ast.FunctionDef] | None:
    """The flowbot function a call calls by name (`run_solve(...)`, `module.run(...)`), if it can tell."""
    if isinstance(called, ast.Name):
        return _function(module, called.id)
    if isinstance(called, ast.Attribute) and isinstance(called.value, ast.Name):
        owner = module.imported.get(called.value.id)
        if owner is not None and owner[1] is None and owner[0] in modules():
            return _function(modules()[owner[0]], called.attr)
    return None


def _statuses_returned(
    start: Module, functions: list[tuple[Module, ast.FunctionDef]] | None = None
) -> list[tuple[int | str, str]]:
    """(status, where) for what the command's run function (or the `functions` given) returns as its
    exit status, followed into the functions whose result it returns."""
    todo = functions or [
        found for name in ("run", "run_raw") if (found := _function(start, name)) is not None
    ]
    seen: set[int] = set()
    statuses = []
    while todo:
        module, function = todo.pop()
        if id(function) in seen:
            continue
        seen.add(id(function))
        for node in ast.walk(function):
            if isinstance(node, ast.Return) and node.value is not None:
                where = f"{module.path.relative_to(ROOT)}:{node.lineno} returns from {function.name}"
                named, passed_on = _returned(module, node.value, function)
                statuses += [(status, where) for status in named]
                todo.extend(passed_on)
    return statuses


def command_modules() -> dict[str, Module]:
    """Each command's name (its NAME) and its module in flowbot/commands."""
    found = {}
    for name, module in modules().items():
        if name.startswith("flowbot.commands."):
            for node in module.tree.body:
                if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "NAME" for t in node.targets):
                    found[node.value.value] = module
    return found


def statuses_in_code(command: str) -> dict[int | str, str]:
    """Every status the command's code can end with, each with one place that gives it."""
    start = command_modules()[command]
    found: dict[int | str, str] = {}
    for name in sorted(reachable(start.name)):
        for status, where in _raised(name):
            found.setdefault(status, where)
    for status, where in _statuses_returned(start):
        found.setdefault(status, where)
    return found


def documented() -> dict[str, set[int]]:
    """The table of docs/guarantees.md's section: the command (or EVERY) and the statuses listed."""
    text = GUARANTEES.read_text(encoding="utf-8")
    section = re.search(rf"^## {SECTION}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert section, f"docs/guarantees.md: no '## {SECTION}' section"
    rows = {}
    for line in section.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or line.startswith("|---") or cells[0] == "command":
            continue
        rows[cells[0].strip("`").removeprefix("flowbot ")] = {
            int(n) for n in re.findall(r"\b\d+\b", cells[1])
        }
    return rows


KNOWN = {status for statuses, _ in EXIT_STATUSES for status in statuses}
# Statuses the reading finds in a command's modules that are no exit of that command, and why.
NOT_EXITS = {
    ("serve", 2): "an upload that cannot be read is answered to the page (4xx), the server goes on",
    ("serve", 3): "a solver error is an upload's answer, not the server's exit",
    ("serve", 73): "serve writes no file; the error is in modules it shares with solve",
}


def test_every_command_has_a_row_and_every_row_a_command():
    rows = documented()
    assert EVERY in rows, f"docs/guarantees.md: no '{EVERY}' row"
    assert set(rows) - {EVERY} == set(command_modules()), "rows and commands differ"


def test_every_status_the_code_of_a_command_gives_is_listed_for_it():
    rows = documented()
    problems = []
    for command in sorted(command_modules()):
        listed = rows.get(command, set()) | rows[EVERY]
        for status, where in sorted(statuses_in_code(command).items(), key=str):
            if status == SIGNALS:
                missing = {129, 130, 143} - listed
                if missing:
                    problems.append(f"{command}: a signal's statuses {sorted(missing)} ({where})")
            elif status not in listed and (command, status) not in NOT_EXITS:
                problems.append(f"{command}: {status} is not listed ({where})")
    assert not problems, "docs/guarantees.md, '" + SECTION + "' lacks:\n" + "\n".join(problems)


def test_what_the_error_boundary_itself_returns_is_in_the_every_command_row():
    cli = modules()["flowbot.cli"]
    main = _function(cli, "main")
    assert main is not None
    found = _statuses_returned(cli, [main])
    assert {130, 141} <= {status for status, _ in found}
    missing = sorted({status for status, _ in found if isinstance(status, int)} - documented()[EVERY])
    assert not missing, f"flowbot/cli.py's main returns {missing}, not in the '{EVERY}' row"


def test_every_status_listed_is_one_flowbot_knows_and_every_known_one_is_listed():
    rows = documented()
    listed = set().union(*rows.values())
    assert listed <= KNOWN, f"listed but not in flowbot/exits.py: {sorted(listed - KNOWN)}"
    assert listed >= KNOWN, f"in flowbot/exits.py but listed for no command: {sorted(KNOWN - listed)}"


def test_the_reading_finds_what_it_must():
    """The reading itself: a raise deep in a mode, a constant's value, a class's own status, a return."""
    assert error_statuses()["CalibrationError"] == 8 and error_statuses()["Interrupted"] == SIGNALS
    assert error_statuses()["PuzzleError"] == 2  # FlowbotError's, inherited
    solve = statuses_in_code("solve")
    assert {0, 1, 2, 64, 73} <= set(solve) and "returns from exit_code" in solve[1]
    assert 8 in statuses_in_code("calibrate") and 7 in statuses_in_code("demo")
    assert 4 in statuses_in_code("scrape") and 13 not in statuses_in_code("solve")


def test_each_command_s_page_names_only_statuses_its_row_lists_and_links_the_row():
    rows = documented()
    problems = []
    for command in sorted(command_modules()):
        text = (ROOT / "docs" / "commands" / f"{command}.md").read_text(encoding="utf-8")
        section = re.search(r"^## Exit statuses\n(.*?)(?=^## |\Z)", text, re.S | re.M)
        if section is None or "guarantees.md#exit-statuses-by-command" not in section.group(1):
            problems.append(f"docs/commands/{command}.md: no '## Exit statuses' linking the guarantees' row")
            continue
        named = {int(n) for n in re.findall(r"(?<![\w.-])(\d{1,3})(?![\w.])", section.group(1))}
        stray = sorted(named - rows.get(command, set()) - rows[EVERY])
        if stray:
            problems.append(f"docs/commands/{command}.md names {stray}, not in its guarantees row")
    assert not problems, "\n".join(problems)


def test_every_error_class_s_status_is_in_the_exit_table_modes_too():
    """tests/test_exits.py imports the error classes through pkgutil, which does not walk into
    flowbot/modes (no __init__.py there): the reading sees every class, CalibrationError and
    DemoError among them."""
    statuses = {name: status for name, status in error_statuses().items() if status != SIGNALS}
    assert {"CalibrationError", "DemoError", "NumberMatchClearError"} <= set(statuses)
    unknown = sorted(f"{name} ({status})" for name, status in statuses.items() if status not in KNOWN)
    assert not unknown, f"error classes whose status flowbot/exits.py lacks: {', '.join(unknown)}"
