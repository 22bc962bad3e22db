"""The words and number formats of one language, for messages and the working in words.

A :class:`Translator` wraps a gettext catalog and formats numbers and dates with the locale's CLDR
data through Babel. The catalogs, English included, are the ``.po`` files in ``web/locale``, read
by :func:`read_catalog` with the standard library alone, so the command line says its sentences
from the same catalogs as the web without loading the web, Jinja or Babel (docs/codes.md).
:data:`ENGLISH`, the command line's, reads its catalog on its first sentence and writes numbers and
dates by CLDR's English patterns without loading Babel's locale data, which would cost the command
line ~25 ms at each start; Spanish and Catalan write numbers so too (:data:`DECIMAL_SYMBOLS`);
property tests hold both to Babel's output.
"""

from __future__ import annotations

import datetime as dt
import functools
import gettext
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from babel import Locale

#: Where the catalogs are: ``<language>/LC_MESSAGES/messages.po`` under the package's ``web/locale``.
CATALOGS = ("web", "locale")


class PoCatalog(gettext.GNUTranslations):
    """A gettext catalog read from a ``.po`` file's text, as Babel compiles one: a message without
    a translation (or marked fuzzy) is left out, so its id is said; an empty plural form is the id's.
    Message contexts (``msgctxt``) and the header's ``Plural-Forms`` are kept."""

    def _parse(self, fp: IO[bytes]) -> None:  # type: ignore[override]  # a .po file, not a .mo
        self._catalog: dict[Any, str] = {}
        self._info: dict[str, str] = {}
        self._charset = "utf-8"
        self.plural = lambda n: int(n != 1)
        for entry in _entries(fp.read().decode("utf-8")):
            self._add(entry)

    def _add(self, entry: dict[str, Any]) -> None:
        msgid = entry.get("msgid")
        if msgid is None or ("fuzzy" in entry["flags"] and msgid):
            return
        if "msgctxt" in entry:
            msgid = f"{entry['msgctxt']}\x04{msgid}"
        if not msgid:  # the header
            self._info = dict(line.partition(": ")[::2] for line in entry["msgstr"].splitlines() if line)
            forms = self._info.get("Plural-Forms", "")
            if "plural=" in forms:
                self.plural = gettext.c2py(forms.split("plural=", 1)[1].rstrip().rstrip(";"))
            return
        if "msgid_plural" in entry:
            ids = (msgid, entry["msgid_plural"])
            for index, text in sorted(entry["plurals"].items()):
                self._catalog[(ids[0], index)] = text or ids[min(index, 1)].split("\x04")[-1]
        elif entry.get("msgstr"):
            self._catalog[msgid] = entry["msgstr"]


def _entries(text: str) -> list[dict[str, Any]]:
    """The entries of a ``.po`` file: each a dict of its keywords (plural forms under ``plurals``)
    and its ``flags``; obsolete (``#~``) entries left out."""
    entries: list[dict[str, Any]] = []
    entry: dict[str, Any] = {"flags": set(), "plurals": {}}
    key: tuple[str, int | None] | None = None

    def close() -> None:
        nonlocal entry, key
        if "msgid" in entry:
            entries.append(entry)
        entry, key = {"flags": set(), "plurals": {}}, None

    for line in _translated_lines(text):
        line = line.strip()
        if line.startswith("#,"):
            if "msgid" in entry:
                close()
            entry["flags"].update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#") or not line:
            if line.startswith("#~") or not line:
                key = None
            continue
        elif line.startswith('"') and key is not None:
            _append(entry, key, _unquoted(line))
        else:
            word, _, value = line.partition(" ")
            if word in {"msgid", "msgctxt"} and ("msgstr" in entry or entry["plurals"]):
                close()
            name, _, index = word.partition("[")
            key = (name, int(index.rstrip("]")) if index else None)
            _append(entry, key, _unquoted(value))
    close()
    return entries


def _translated_lines(text: str) -> Iterator[str]:
    """The lines of the entries that may say something besides their id: an entry (a block between
    blank lines) with one ``msgstr ""`` as its last line is said by its id, and is passed over
    without reading (most of the English catalog: ~4 ms rather than ~20 at the command line's start)."""
    for block in text.split("\n\n"):
        if block.rstrip().endswith('\nmsgstr ""') and block.count("msgstr") == 1:
            continue
        yield from block.splitlines()
        yield ""


#: The escapes of a ``.po`` string (C's, as GNU gettext writes them).
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _unquoted(quoted: str) -> str:
    """The text of a ``.po`` string: ``"a \\"b\\" c"`` is ``a "b" c``."""
    text = quoted.strip()[1:-1]
    if "\\" not in text:
        return text
    out, start = [], 0
    while (mark := text.find("\\", start)) >= 0 and mark + 1 < len(text):
        out += [text[start:mark], _ESCAPES.get(text[mark + 1], text[mark : mark + 2])]
        start = mark + 2
    return "".join([*out, text[start:]])


def _append(entry: dict[str, Any], key: tuple[str, int | None], text: str) -> None:
    name, index = key
    if index is not None:
        entry["plurals"][index] = entry["plurals"].get(index, "") + text
    else:
        entry[name] = entry.get(name, "") + text


@functools.cache
def read_catalog(language: str) -> gettext.NullTranslations:
    """The catalog of ``language`` (``es``, ``ca``, ``en``), read once; none: the message ids.

    Found beside the package's modules (``importlib.resources`` would cost the command line ~40 ms)."""
    po = os.path.join(
        os.path.dirname(os.path.dirname(__file__)), *CATALOGS, language, "LC_MESSAGES", "messages.po"
    )
    if not os.path.isfile(po):
        return gettext.NullTranslations()
    with open(po, "rb") as source:
        return PoCatalog(source)


class _OnFirstUse(gettext.NullTranslations):
    """The catalog of a language, read when its first sentence is said (the command line's start)."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language

    def gettext(self, message: str) -> str:
        return read_catalog(self.language).gettext(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return read_catalog(self.language).ngettext(msgid1, msgid2, n)

    def pgettext(self, context: str, message: str) -> str:
        return read_catalog(self.language).pgettext(context, message)


@dataclass
class Translator:
    """The strings and number formats of one language."""

    language: str
    catalog: gettext.NullTranslations

    @property
    def locale(self) -> Locale:
        from babel import Locale

        return Locale.parse(self.language)

    def gettext(self, message: str, **values: object) -> str:
        text = self.catalog.gettext(message)
        return text % values if values else text

    def ngettext(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        text = self.catalog.ngettext(singular, plural, count)
        return text % {"num": count, **values}

    def number(self, value: Decimal | float | int | None, places: int = 2, *, signed: bool = False) -> str:
        """``value`` with up to ``places`` decimals (at least one when ``signed`` and fractional)."""
        if value is None:
            return "—"
        pattern = "0" if places == 0 else "0." + "#" * places
        if signed:
            pattern = "+" + pattern + ";-" + pattern
        return self._decimal(value, pattern)

    def fixed(self, value: Decimal | float, places: int = 2, *, signed: bool = False) -> str:
        """``value`` with exactly ``places`` decimals, as an expected score is printed (0.64)."""
        pattern = "0." + "0" * places if places else "0"
        if signed:
            pattern = "+" + pattern + ";-" + pattern
        return self._decimal(value, pattern)

    def change(self, value: Decimal | float | None) -> str:
        """A rating change unrounded: sign, one or two decimals (+7.2, +17.25)."""
        if value is None:
            return "—"
        return self._decimal(value, "+0.0#;-0.0#")

    def date(self, value: dt.date, style: str = "long") -> str:
        """A day as the locale writes it: in full (17 June 2022, 17 de junio de 2022) or ``medium``."""
        months = CLDR_MONTHS.get(self.language)
        if months is not None and style in {"long", "medium"}:  # without Babel's locale data
            pattern = months["pattern"][style == "medium"]
            month = months["medium" if style == "medium" else "long"][value.month - 1]
            return pattern.format(day=value.day, month=month, year=value.year)
        from babel.dates import format_date

        return format_date(value, format=style, locale=self.language)

    def whole(self, value: Decimal | int, *, signed: bool = False) -> str:
        return self._decimal(value, "+0;-0" if signed else "0")

    def _decimal(self, value: Decimal | float | int, pattern: str) -> str:
        point = DECIMAL_SYMBOLS.get(self.language)
        if point is not None:  # our patterns need only the symbol: no locale data to load
            return _pattern_decimal(value, pattern, point)
        from babel.numbers import format_decimal

        return format_decimal(Decimal(str(value)), format=pattern, locale=self.language)


#: CLDR's long (``d 'de' MMMM 'de' y``; ca ``d MMMM 'del' y``) and medium (``d MMM y``) dates of
#: Spanish and Catalan, their month names with Catalan's ``de``/``d’`` (CLDR's format-context
#: names), so that a day is written without Babel's locale data (a test holds them to Babel's).
CLDR_MONTHS: dict[str, dict[str, tuple[str, ...]]] = {
    "es": {
        "pattern": ("{day} de {month} de {year}", "{day} {month} {year}"),
        "long": (
            "enero", "febrero", "marzo", "abril", "mayo", "junio",
            "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre",
        ),
        "medium": ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"),
    },
    "ca": {
        "pattern": ("{day} {month} del {year}", "{day} {month} {year}"),
        "long": (
            "de gener", "de febrer", "de març", "d’abril", "de maig", "de juny",
            "de juliol", "d’agost", "de setembre", "d’octubre", "de novembre", "de desembre",
        ),
        "medium": (
            "de gen.", "de febr.", "de març", "d’abr.", "de maig", "de juny",
            "de jul.", "d’ag.", "de set.", "d’oct.", "de nov.", "de des.",
        ),
    },
}  # fmt: skip
#: CLDR's decimal symbol of each language of the catalogs (their minus and plus signs are ASCII's):
#: our patterns (``[+]0[.0…#…][;-…]``, no grouping) need nothing else, so numbers are written
#: without Babel's locale data, which costs ~20 ms to load (a test holds this to Babel's output).
DECIMAL_SYMBOLS = {"en": ".", "es": ",", "ca": ","}


def _pattern_decimal(value: Decimal | float | int, pattern: str, point: str) -> str:
    """``value`` by one of our patterns, ``[+]0[.0…#…][;-…]``, rounded half to even as Babel does."""
    positive = pattern.split(";")[0]
    signed = positive.startswith("+")
    _, _, decimals = positive.lstrip("+").partition(".")
    exact = Decimal(str(value))
    number = exact.quantize(Decimal(1).scaleb(-len(decimals)), ROUND_HALF_EVEN)
    text = f"{abs(number):f}"
    if "." in text:
        whole, fraction = text.split(".")
        fraction = fraction.rstrip("0").ljust(decimals.count("0"), "0")
        text = f"{whole}{point}{fraction}" if fraction else whole
    if exact.is_signed():  # also when it rounds to zero: -0.4 is "-0", as Babel writes it
        return "-" + text
    return ("+" if signed else "") + text


class English(Translator):
    """English as CLDR writes it (``1,500.5`` has no grouping in our patterns), without Babel."""

    MONTHS = (
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    )  # fmt: skip

    def date(self, value: dt.date, style: str = "long") -> str:
        """CLDR's English date, long ``MMMM d, y`` (October 1, 2025) or medium ``MMM d, y`` (Oct 1, 2025)."""
        month = self.MONTHS[value.month - 1]
        return f"{month if style == 'long' else month[:3]} {value.day}, {value.year}"


#: English, from its catalog (read on the first sentence): the command line's language.
ENGLISH = English("en", _OnFirstUse("en"))

#: A sentence said from its code's values, in a translator's language.
Template = Callable[[Translator, dict[str, object]], str]


def said(message: str) -> Template:
    """The template of a sentence that needs nothing but its values by name: ``message`` from the
    catalog of the translator's language, filled with the values given. ``said`` marks the
    sentence for the catalogs (scripts/update_catalogs.sh: ``-k said``)."""

    def say(t: Translator, values: dict[str, object]) -> str:
        return t.gettext(message, **values)

    return say


def said_plural(singular: str, plural: str, count: str) -> Template:
    """The template of a sentence about ``values[count]`` things (said as ``%(num)s``), in the
    plural form the translator's language takes for that number (``-k said_plural:1,2``)."""

    def say(t: Translator, values: dict[str, object]) -> str:
        number = values[count]
        return t.ngettext(singular, plural, number if isinstance(number, int) else int(str(number)), **values)

    return say


def said_word(words: Mapping[str, Template], key: str, t: Translator) -> str:
    """The word ``words`` has for ``key``, in ``t``'s language; a key it has none for, as it is."""
    say = words.get(key)
    return key if say is None else say(t, {})


def said_with_reason(template: Template, reasons: Mapping[str, Template]) -> Template:
    """``template`` with its ``reason`` value, a reason's code (chessrate.errors: the system's reason
    a file, an address or a host cannot be used), said in the same language: the words ``reasons``
    has for it, else the value as given."""

    def say(t: Translator, values: dict[str, object]) -> str:
        return template(t, {**values, "reason": said_word(reasons, str(values.get("reason")), t)})

    return say


def said_if(name: str, given: Template, otherwise: Template) -> Template:
    """``given`` when the values hold ``name``, else ``otherwise`` (a sentence with one value less)."""

    def say(t: Translator, values: dict[str, object]) -> str:
        return (given if name in values else otherwise)(t, values)

    return say


#: The languages of the catalogs, English first (the language of the message ids).
LANGUAGES = ("en", "es", "ca")
#: The locales that mean no translation (POSIX, "Locale"; GNU gettext, "The LANGUAGE variable").
_NO_LOCALE = {"C", "POSIX"}


def language_of_environment(environ: Mapping[str, str]) -> str:
    """The language of the catalogs the environment asks for, as gettext reads it, else English.

    GNU gettext's order (manual, "Locale Environment Variables"): ``LANGUAGE``, a colon-separated
    list of preferences (the first language we have wins), then the first set of ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG``. ``LANGUAGE`` is ignored when the locale is ``C`` or ``POSIX``
    ("The LANGUAGE variable"), which, as an empty environment, mean English. ``es_ES.UTF-8``,
    ``ca_ES@valencia`` and ``es`` are Spanish and Catalan; a language we have no catalog for is
    passed over for the next preference.
    """
    locale = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "")
    if _language_code(locale) in _NO_LOCALE:
        return "en"
    preferences = [*environ.get("LANGUAGE", "").split(":"), locale]
    for preference in preferences:
        code = _language_code(preference).lower()
        if code in LANGUAGES:
            return code
        if code.upper() in _NO_LOCALE:
            return "en"
    return "en"


def _language_code(locale: str) -> str:
    """``es_ES.UTF-8@euro`` → ``es``; ``C.UTF-8`` → ``C``."""
    return locale.strip().split("@")[0].split(".")[0].split("_")[0].split("-")[0]


def translator(language: str) -> Translator:
    """The :class:`Translator` of ``language``, its catalog read on its first sentence."""
    return ENGLISH if language == "en" else Translator(language, _OnFirstUse(language))
