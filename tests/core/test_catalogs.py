"""The translations stay complete: every string a person reads goes through gettext,
and every language's catalog holds exactly the strings the code has, all translated.

When one of these fails, docs/translations.md has the three pybabel commands that fix it."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from jinja2 import Environment
from jinja2.ext import i18n

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "organizer" / "core" / "translations"
LANGUAGES = ("de", "fr", "es", "nl")
#: While the templates are being moved onto gettext (in progress), the catalogs cannot be
#: complete; this list shrinks to nothing, and the catalog checks then hold for good.
PENDING = set((Path(__file__).parent / "pending.txt").read_text().split())
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]")


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """What the code asks to translate today, as ``pybabel extract`` finds it."""
    if PENDING:
        pytest.skip(f"{len(PENDING)} files are still being moved onto gettext")
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F", "pyproject.toml", "-o", str(pot),
                    "--no-location", "--sort-output", "."], cwd=ROOT, check=True)
    with pot.open("rb") as handle:
        return read_po(handle)


def _ids(catalog: Catalog) -> set[str]:
    return {message.id if isinstance(message.id, str) else message.id[0] for message in catalog if message.id}


def _catalog(language: str) -> Catalog:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=language)


def test_the_template_in_the_repository_is_current(extracted: Catalog) -> None:
    if PENDING:
        pytest.skip(f"{len(PENDING)} templates are still being moved onto gettext")
    with (TRANSLATIONS / "messages.pot").open("rb") as handle:
        committed = read_po(handle)
    assert _ids(committed) == _ids(extracted), "run pybabel extract (docs/translations.md)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_has_every_string_and_no_stale_one(extracted: Catalog, language: str) -> None:
    if PENDING:
        pytest.skip(f"{len(PENDING)} templates are still being moved onto gettext")
    catalog = _catalog(language)
    missing = sorted(_ids(extracted) - _ids(catalog))
    stale = sorted(_ids(catalog) - _ids(extracted))
    assert not missing, f"{language}: {len(missing)} strings have no entry, e.g. {missing[:5]}"
    assert not stale, f"{language}: {len(stale)} entries the code no longer has, e.g. {stale[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_string_is_translated_with_the_same_placeholders(language: str) -> None:
    if PENDING:
        pytest.skip(f"{len(PENDING)} templates are still being moved onto gettext")
    problems = []
    for message in _catalog(language):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        if message.fuzzy or not all(strings):
            problems.append(f"untranslated or fuzzy: {ids[0]!r}")
            continue
        every = set(PLACEHOLDER.findall(" ".join(ids)))
        for index, text in enumerate(strings):
            # each form keeps the names of its own source form (the singular for the first, the
            # plural for the others); it may leave out %(num)d ("one card") but never invent a name
            wanted = set(PLACEHOLDER.findall(ids[min(index, len(ids) - 1)]))
            found = set(PLACEHOLDER.findall(text))
            if not found <= every or not (wanted - {"num"}) <= found:
                problems.append(f"placeholders differ: {ids[0]!r} -> {text!r}")
    assert not problems, f"{language}: {len(problems)} problems, e.g. {problems[:5]}"


def _messages(catalog: Catalog) -> dict[object, object]:
    """What a catalog says: each message id (with its context) and its translation, the header left out."""
    def frozen(value: object) -> object:
        return tuple(value) if isinstance(value, list | tuple) else value

    return {(message.context, frozen(message.id)): frozen(message.string) for message in catalog
            if message.id and not message.fuzzy}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_says_what_the_source_catalog_says(language: str) -> None:
    """The app reads the compiled catalog; it must translate exactly what the .po file translates.
    The comparison is of messages, not bytes, so any Babel release that compiles it passes."""
    if PENDING:
        pytest.skip(f"{len(PENDING)} templates are still being moved onto gettext")
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo").open("rb") as handle:
        compiled = read_mo(handle)
    assert _messages(compiled) == _messages(_catalog(language)), f"run pybabel compile for {language} (docs/translations.md)"


# --- No visible text outside the translation calls ------------------------------------------

#: Words a template may show untranslated, each for a reason.
UNTRANSLATED = {
    "Arboretum",  # the game's name in every edition
}
#: Attributes a person reads or hears (a screen reader speaks aria-label and title).
#: Elements whose text is not prose: scripts, styles, and commands or code shown as typed.
SKIPPED = {"script", "style", "code", "kbd"}
READ_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-description"}
WORD = re.compile(r"[^\W\d_]{2,}")


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self._skip += 1
        values = dict(attrs)
        for name, value in attrs:
            read = name in READ_ATTRIBUTES or (name == "value" and values.get("type") in {"submit", "button", "reset"})
            if read and value:
                self._check(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._check(data)

    def _check(self, text: str) -> None:
        words = [word for word in WORD.findall(text.replace("\x00", " ")) if word not in UNTRANSLATED]
        if words:
            self.found.append(" ".join(text.split())[:60])


def _template_text(source: str) -> str:
    """The template's markup with every Jinja expression, tag and trans block replaced by a NUL."""
    environment = Environment(extensions=[i18n])
    parts: list[str] = []
    depth = 0
    # "{% trans %}" lexes as block_begin, whitespace, name: the whitespace is no text
    tokens = [token for token in environment.lex(source) if token[1] != "whitespace"]
    for index, (_line, kind, value) in enumerate(tokens):
        if kind == "name" and index and tokens[index - 1][1] == "block_begin":
            if value == "trans":
                depth += 1
            elif value == "endtrans":
                depth -= 1
        if kind == "data" and not depth:
            parts.append(value)
        elif kind in {"variable_begin", "block_begin"}:
            parts.append("\x00")
    return "".join(parts)


TEMPLATES = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "templates").rglob("*.html"))


@pytest.mark.parametrize("template", TEMPLATES)
def test_templates_show_no_text_outside_translation_calls(template: str) -> None:
    parser = _VisibleText()
    parser.feed(_template_text((ROOT / template).read_text()))
    parser.close()
    found = [text.replace("\x00", "…") for text in parser.found]
    if template in PENDING:
        assert found, f"{template} is done: take it off tests/core/pending.txt"
        pytest.xfail(f"{len(found)} texts still to move onto gettext")
    assert not found, f"{len(found)} untranslated texts, e.g.\n" + "\n".join(found[:25])


MODULES = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "organizer").rglob("*.py"))


@pytest.mark.parametrize("module", MODULES)
def test_flashed_messages_are_translated(module: str) -> None:
    """A message flashed as a plain or f-string literal would reach every reader in English."""
    problems = []
    for node in ast.walk(ast.parse((ROOT / module).read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "flash":
            if node.args and isinstance(node.args[0], ast.Constant | ast.JoinedStr):
                problems.append(f"{module}:{node.lineno}")
    if module in PENDING:
        assert problems, f"{module} is done: take it off tests/core/pending.txt"
        pytest.xfail(f"{len(problems)} flashed messages still to translate")
    assert not problems, problems
