"""Translation for code that knows no web framework (services, printing).

The services and the PDFs write sentences people read, but may not import Flask. They call
:func:`_` (and :func:`ngettext`); the app factory installs Flask-Babel's functions here, so a
message is translated into the language of the request (or of the event, for printed matter).
Without an app (the ``arboretum`` command, unit tests of a service) messages stay English.

``pybabel extract`` finds these calls by their names: ``_``, ``gettext``, ``ngettext``,
``lazy_gettext`` and the marker ``N_`` (a message kept in a constant and translated where it is
shown, with ``_(CONSTANT)``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, tzinfo
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel import Locale, dates, lists, numbers
from babel.support import LazyProxy

from engine.cards import SPECIES_CODES
from engine.errors import (
    ArboretumError,
    ArboretumShapeError,
    CardError,
    CaseError,
    DuplicateCardError,
    GameOverError,
    NotYourTurnError,
    PlacementError,
    StaleActionError,
)

#: The languages we ship, by code, each named in itself (so anyone can find their own).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "nl": "Nederlands",
}
DEFAULT_LANGUAGE = "en"


def valid_time_zone(name: str) -> bool:
    """Whether ``name`` is an IANA time zone this machine knows, like ``Europe/Berlin``."""
    if not name or name != name.strip():
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


@functools.cache
def _zones() -> tuple[str, ...]:
    # zoneinfo walks the time zone database's folders at every call; the zones a process knows
    # change only with a new tzdata, which a restart brings
    return tuple(sorted(available_timezones()))


def time_zone_names() -> list[str]:
    """Every IANA zone name, sorted (the event form's list)."""
    return list(_zones())


#: the areas of the IANA names that are places, preferred over the legacy ones ("US/Central",
#: "Singapore") when a city names both
_ZONE_AREAS = ("Africa/", "America/", "Antarctica/", "Arctic/", "Asia/", "Atlantic/", "Australia/", "Europe/",
               "Indian/", "Pacific/")


def _same_clock(names: Sequence[str]) -> bool:
    """Whether the zones keep the same time (aliases of one zone, as Europe/Istanbul and
    Asia/Istanbul), compared in midwinter and midsummer of this year and the next."""
    year = datetime.now(UTC).year
    moments = [datetime(y, m, 15, 12, tzinfo=UTC) for y in (year, year + 1) for m in (1, 7)]
    return len({tuple(moment.astimezone(ZoneInfo(name)).utcoffset() for moment in moments) for name in names}) == 1


def resolve_time_zone(typed: str) -> tuple[str | None, list[str]]:
    """The IANA zone that ``typed`` names: the name itself, in any case, or a city, the name's
    last part ("Berlin", "new york", "Buenos Aires"). Returns (zone, []) when one zone fits, or
    (None, the zones it might mean) when it names several that keep different times (none: an
    empty list)."""
    typed = typed.strip()
    if valid_time_zone(typed):
        return typed, []
    key = "_".join(typed.split()).casefold()
    if not key:
        return None, []
    names = _zones()
    whole = sorted(name for name in names if name.casefold() == key)
    if whole:
        return whole[0], []
    found = sorted(name for name in names if name.rsplit("/", 1)[-1].casefold() == key)
    places = [name for name in found if name.startswith(_ZONE_AREAS)] or found
    if not places:
        return None, []
    if len(places) == 1 or _same_clock(places):
        # aliases: the shortest name, as people write it (America/Buenos_Aires)
        return min(places, key=lambda name: (name.count("/"), name)), []
    return None, places


Gettext = Callable[..., str]
Ngettext = Callable[..., str]


def _english_gettext(message: str, **variables: Any) -> str:
    return message % variables if variables else message


def _english_ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    return (singular if num == 1 else plural) % variables


_installed: dict[str, Callable[..., str]] = {"gettext": _english_gettext, "ngettext": _english_ngettext}
_where: dict[str, Callable[[], Locale | None] | Callable[[], tzinfo | None]] = {}


def install(gettext_function: Gettext, ngettext_function: Ngettext,
            locale: Callable[[], Locale | None], time_zone: Callable[[], tzinfo | None]) -> None:
    """Called once by the app factory with Flask-Babel's functions: the request's (or event's)
    translations, locale and time zone."""
    _installed["gettext"] = gettext_function
    _installed["ngettext"] = ngettext_function
    _where["locale"] = locale
    _where["time_zone"] = time_zone


def current_locale() -> Locale:
    found = _where["locale"]() if "locale" in _where else None
    return found if isinstance(found, Locale) else Locale("en")


def current_time_zone() -> tzinfo:
    found = _where["time_zone"]() if "time_zone" in _where else None
    return found if isinstance(found, tzinfo) else UTC


def _aware(moment: datetime) -> datetime:
    """The database stores UTC without a zone."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def format_datetime(moment: datetime, format: str = "medium") -> str:
    """A stored (UTC) time in the current locale and time zone, e.g. "24 Nov 2026, 14:05:09"."""
    return dates.format_datetime(_aware(moment), format, tzinfo=current_time_zone(), locale=current_locale())


def format_time(moment: datetime, format: str = "short") -> str:
    return dates.format_time(_aware(moment), format, tzinfo=current_time_zone(), locale=current_locale())


def format_date(day: date, format: str = "medium") -> str:
    return dates.format_date(day, format, locale=current_locale())


def ordinal(number: int) -> str:
    """A place as people of the current language write it: 1st, 1., 1er, 1.º, 1e."""
    language = current_locale().language
    if language == "de":
        return f"{number}."
    if language == "fr":
        return "1er" if number == 1 else f"{number}e"
    if language == "es":
        return f"{number}.º"
    if language == "nl":
        return f"{number}e"
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def format_list(items: Sequence[str]) -> str:
    """Names as a list in the current language: "Ada, Ben and Cy", "Ada, Ben und Cy"."""
    return lists.format_list(list(items), locale=current_locale()) if items else ""


def format_number(number: int | float) -> str:
    """1234.5 as "1,234.5" in English, "1.234,5" in German."""
    return numbers.format_decimal(number, locale=current_locale())


def format_points(points: float | Fraction) -> str:
    """Tournament points as every page, projector and PDF prints them: two decimals in the
    reader's language ("0.67", "2.00"; "0,67" in German), so a column lines up and one figure
    reads the same wherever it is shown."""
    return str(numbers.format_decimal(float(points), format="#,##0.00", locale=current_locale()))


def format_rating(value: float) -> str:
    """A rating with one decimal, never "-0.0" or "-0": a value that rounds to zero is zero."""
    shown = round(float(value), 1) + 0.0  # + 0.0 turns -0.0 into 0.0
    return str(numbers.format_decimal(shown, format="#,##0.0", locale=current_locale()))


def gettext(message: str, **variables: Any) -> str:
    """``message`` in the current language, with ``%(name)s`` placeholders filled from ``variables``."""
    return _installed["gettext"](message, **variables)


_ = gettext


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """The singular or plural form for ``num`` in the current language; ``%(num)d`` is ``num``."""
    return _installed["ngettext"](singular, plural, num, **variables)


def lazy_gettext(message: str, **variables: Any) -> LazyProxy:
    """A message translated when it is shown, not when it is defined (module-level labels)."""
    return LazyProxy(gettext, message, enable_cache=False, **variables)


def N_(message: str) -> str:
    """Marks a message for extraction only; translate it where it is shown with ``_(message)``."""
    return message


#: The finals' stages (docs/finals.md) by the stored value of ``Round.stage``; a Swiss round is
#: named by its number instead
STAGE_NAMES: dict[str, str] = {
    "final": N_("Final table"),
    "semi_final": N_("Semi-finals"),
    "swiss": N_("Swiss rounds"),
}


def round_name(number: int, stage: str = "swiss") -> str:
    """A round as pages, logs and prints name it: "Round 3" for a Swiss round, its stage for a
    round of the finals ("Semi-finals", "Final table"), whose number says nothing to a player."""
    if stage != "swiss" and stage in STAGE_NAMES:
        return gettext(STAGE_NAMES[stage])
    return gettext("Round %(number)d", number=number)


#: The species' English names, as the engine knows them; each language's catalog gives the
#: name the edition published in that language (docs/translations.md lists the sources).
SPECIES_NAMES = (
    N_("Blue Spruce"), N_("Cassia"), N_("Cherry Blossom"), N_("Dogwood"), N_("Jacaranda"), N_("Maple"),
    N_("Oak"), N_("Royal Poinciana"), N_("Tulip Poplar"), N_("Willow"), N_("Crabapple"), N_("Lilac"),
    N_("Magnolia"), N_("Myrtle"), N_("Poinciana"), N_("Poplar"),
)


def species_name(species: str) -> str:
    """A species' name in the current language ("Blaufichte" for Blue Spruce in German)."""
    return gettext(species) if species in SPECIES_NAMES else species


#: Each level of a bot seat (the engine's bot levels) named in a sentence ("Bot (strong)"): the
#: live tables' seats and the audit log's entries say it
LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "strong": N_("strong")}


def species_from_text(text: str, allowed: Sequence[str]) -> str:
    """The engine's (English) name of the species typed as ``text``: its English name, its name
    in the current language or its two-letter code, any case ("eiche", "Ok" -> "Oak"). Text that
    names none of ``allowed`` comes back as typed, for the engine to refuse with its reason."""
    wanted = " ".join(text.split()).casefold()
    for species in allowed:
        if wanted in {species.casefold(), species_name(species).casefold(), SPECIES_CODES.get(species, "").casefold()}:
            return species
    return " ".join(text.split())


#: What a refusal by the rules engine means, by its class (most precise first). The engine's own
#: text names the cards and cells; it is technical and stays English after this sentence.
_ENGINE_ERRORS: tuple[tuple[type[ArboretumError], str], ...] = (
    (StaleActionError, N_("That move was made for a situation that has passed.")),
    (NotYourTurnError, N_("It is not your turn.")),
    (GameOverError, N_("The game is already over.")),
    (PlacementError, N_("A card cannot be planted there.")),
    (ArboretumShapeError, N_("An arboretum must be one connected group of cards.")),
    (DuplicateCardError, N_("The same card appears twice.")),
    (CardError, N_("A card is not right.")),
    (CaseError, N_("The score case is not right.")),
    (ArboretumError, N_("That breaks the rules.")),
)


def engine_error(error: ArboretumError) -> str:
    """A refusal by the engine as a person reads it: a translated sentence, then the engine's detail."""
    for kind, sentence in _ENGINE_ERRORS:
        if isinstance(error, kind):
            return gettext("%(sentence)s (%(detail)s)", sentence=gettext(sentence), detail=str(error))
    return str(error)
