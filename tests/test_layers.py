"""The layers of the code, checked on every import statement of every module (relative imports
resolved, imports inside functions included), by role:

- the engine stands alone: no web framework, no database, no PDF library, nothing of the organizer;
- the printing library renders plain data: no web framework, no database;
- the organizer is one package per feature over a shared core, in one declared order
  (:data:`FEATURES`): a feature imports the core, the engine, the printing library and only the
  features below it, never one above;
- inside a feature only its views (``views.py``, ``*_views.py``) and the few WSGI middlewares
  and page helpers listed in :data:`WEB_MODULES` import the web framework; its services never do;
- the core's modules that serve requests are listed (:data:`WEB_MODULES`); the rest of the core
  knows no web framework either;
- no import cycle among the organizer's modules, an import inside a function included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ("flask", "flask_htmx", "flask_wtf", "flask_login", "flask_babel", "werkzeug", "click", "jinja2", "markupsafe")
DATABASE = ("sqlmodel", "sqlalchemy", "alembic", "psycopg")
#: library functions that happen to live in a web package (password hashing), not the framework
NOT_THE_FRAMEWORK = ("werkzeug.security",)

#: The organizer's features, lowest first: each may import the ones before it, never one after.
FEATURES = ("core", "scoring", "accounts", "events", "players", "rounds", "finals", "standings", "public", "signup",
            "live", "prints",
            "exchange", "club", "offline", "venue")
#: The app-level modules above every feature: the factory, the command lines, the demo event.
APP_LEVEL = ("organizer", "organizer.app", "organizer.cli", "organizer.arboretum_command", "organizer.live_gunicorn",
             "organizer.demo")

#: Modules that serve requests without being a feature's views: the core's request-side helpers,
#: the WSGI middlewares in front of the app and the live pages' shared rendering.
WEB_MODULES = frozenset({
    "organizer.core.db",  # the request's session
    "organizer.core.pages",  # a whole page or its HTMX fragment
    "organizer.core.error_pages",
    "organizer.core.security",  # sign-in, headers, CSRF
    "organizer.core.i18n",  # the request's language, Flask-Babel
    "organizer.core.templating",  # Jinja filters and globals
    "organizer.core.extensions",
    "organizer.core.permissions",  # each endpoint's need, checked before the request
    "organizer.core.public_urls",  # links from the public address, for pages and QR codes
    "organizer.core.proxy",  # WSGI middleware: the client behind the proxy
    "organizer.accounts.qr",  # a QR code as markup for a page
    "organizer.live.pages",  # a seat's screen, shared by live, practice and replay views
    "organizer.live.fastpoll",  # WSGI middleware
    "organizer.live.practice_gate",  # WSGI middleware
    "organizer.live.stream",  # WSGI middleware
})


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(path: Path) -> list[tuple[int, str]]:
    """Every module an import statement names, as an absolute dotted name ("from package import
    module" names the module)."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            for alias in node.names:
                full = f"{name}.{alias.name}"
                out.append((node.lineno, full if _is_module(full) else name))
    return out


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def organizer_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted((ROOT / "organizer").rglob("*.py"))
            if "migrations" not in path.relative_to(ROOT).parts}


def _is_under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _web(name: str) -> bool:
    return name.split(".")[0] in WEB and name not in NOT_THE_FRAMEWORK


def _feature(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "organizer" and parts[1] in FEATURES else None


def test_relative_imports_are_resolved() -> None:
    # the resolver itself: a relative import inside the printing package names its absolute module
    names = [name for _, name in imported_names(ROOT / "organizer" / "printing" / "scorepad.py")]
    assert any(name.startswith("organizer.printing.") for name in names)


def test_every_module_has_a_place() -> None:
    # a module outside the features, the printing library and the app level is a new layer
    # nobody declared
    homeless = [m for m in organizer_modules() if _feature(m) is None and not _is_under(m, "organizer.printing")
                and m not in APP_LEVEL]
    assert homeless == []


def test_the_engine_stands_alone() -> None:
    forbidden = WEB + DATABASE + ("reportlab", "organizer")
    problems = [f"{source.relative_to(ROOT)}:{line} imports {name}"
                for source in sorted((ROOT / "engine").rglob("*.py"))
                for line, name in imported_names(source)
                if name.split(".")[0] in forbidden and name not in NOT_THE_FRAMEWORK]
    assert problems == [], "the engine reaches outside its layer:\n" + "\n".join(problems)


def test_the_printing_library_knows_no_web_and_no_database() -> None:
    # the PDFs speak the reader's language through the framework-free translate module
    allowed = ("organizer.printing", "organizer.core.translate")
    problems = []
    for source in sorted((ROOT / "organizer" / "printing").rglob("*.py")):
        for line, name in imported_names(source):
            outside = name.startswith("organizer") and not any(_is_under(name, a) for a in allowed)
            if (name.split(".")[0] in WEB + DATABASE and name not in NOT_THE_FRAMEWORK) or outside:
                problems.append(f"{source.relative_to(ROOT)}:{line} imports {name}")
    assert problems == [], "organizer.printing reaches outside its layer:\n" + "\n".join(problems)


@pytest.mark.parametrize("feature", FEATURES)
def test_a_feature_imports_only_the_features_below_it(feature: str) -> None:
    below = FEATURES[: FEATURES.index(feature) + 1]
    problems = []
    for module, source in organizer_modules().items():
        if _feature(module) != feature:
            continue
        for line, name in imported_names(source):
            if not name.startswith("organizer"):
                continue
            other = _feature(name)
            ok = other in below or (_is_under(name, "organizer.printing") and feature != "core")
            if not ok:
                problems.append(f"{source.relative_to(ROOT)}:{line} imports {name}")
    assert problems == [], f"{feature} imports what stands above it:\n" + "\n".join(problems)


@pytest.mark.parametrize("feature", FEATURES)
def test_only_views_know_the_web_framework(feature: str) -> None:
    problems = []
    for module, source in organizer_modules().items():
        if _feature(module) != feature:
            continue
        leaf = module.rsplit(".", 1)[-1]
        if leaf == "views" or leaf.endswith("_views") or module in WEB_MODULES:
            continue
        problems.extend(f"{source.relative_to(ROOT)}:{line} imports {name}"
                        for line, name in imported_names(source) if _web(name))
    assert problems == [], f"{feature}'s services import the web framework:\n" + "\n".join(problems)


def test_the_listed_web_modules_exist_and_need_the_web() -> None:
    # the list stays as short as it can be: a module that no longer imports the web framework
    # leaves it
    modules = organizer_modules()
    assert sorted(WEB_MODULES - set(modules)) == []
    assert sorted(m for m in WEB_MODULES if not any(_web(name) for _, name in imported_names(modules[m]))) == []


def import_graph() -> dict[str, set[str]]:
    """Each organizer module -> the organizer modules it imports (a package's ``__init__`` included
    when a name is imported from it)."""
    modules = organizer_modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, source in modules.items():
        for _, name in imported_names(source):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                graph[module].add(name)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` (its modules in order), or [] when it has none."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    graph = import_graph()
    # a package importing its own submodules (to connect receivers) is how Python loads them,
    # not a dependency of the submodule on the package
    for module in graph:
        graph[module] = {t for t in graph[module] if not module.startswith(t + ".")}
    cycle = find_cycle(graph)
    assert cycle == [], "import cycle: " + " -> ".join(cycle)


def test_no_test_module_imports_another() -> None:
    """Shared test code lives in fixtures, conftest files and support modules, never in a test
    module: a test module is collected once, and what it holds is its own tests."""
    problems = []
    for source in sorted((ROOT / "tests").rglob("*.py")):
        for line, name in imported_names(source):
            if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_"):
                problems.append(f"{source.relative_to(ROOT)}:{line} imports {name}")
    assert problems == [], "\n".join(problems)
