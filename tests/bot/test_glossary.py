"""The catalogues speak the communities' words (bot/locale/GLOSSARY.md): each term where the
English uses it, never a forbidden word, one register, no colon dodging a declension."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.i18n import TRANSLATED, po_text

GLOSSARY = Path(__file__).resolve().parents[2] / "bot" / "locale" / "GLOSSARY.md"
LANGUAGES = {"Polish (pl)": "pl", "Russian (ru)": "ru", "Ukrainian (uk)": "uk"}


@dataclass(frozen=True)
class Term:
    english: str
    says: re.Pattern[str] | None  # on the English msgid
    must: re.Pattern[str] | None  # on every translation of such an entry
    never: re.Pattern[str] | None  # on every translation in the language


@dataclass(frozen=True)
class Entry:
    msgid: str
    forms: tuple[str, ...]


def _cells(line: str) -> list[str]:
    """A markdown table row's cells (``\\|`` inside a cell is a literal ``|``)."""
    cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [cell.strip().replace("\\|", "|") for cell in cells]


def _pattern(cell: str) -> re.Pattern[str] | None:
    if cell in {"—", ""}:
        return None
    assert cell.startswith("`") and cell.endswith("`"), cell
    return re.compile(cell[1:-1], re.IGNORECASE)


def _tables() -> dict[str, list[list[str]]]:
    """Each section's table rows (header and rule lines left out), by section title."""
    tables: dict[str, list[list[str]]] = {}
    section = ""
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif line.startswith("|") and not line.startswith("|---"):
            tables.setdefault(section, []).append(_cells(line))
    return {title: rows[1:] for title, rows in tables.items()}  # rows[0] is the header


def terms(locale: str) -> list[Term]:
    """The glossary's terms for ``locale``."""
    title = next(title for title, code in LANGUAGES.items() if code == locale)
    return [
        Term(row[0], _pattern(row[2]), _pattern(row[3]), _pattern(row[4]))
        for row in _tables()[title]
    ]


def never_forms(locale: str) -> list[tuple[re.Pattern[str], str]]:
    """The forms the glossary forbids in ``locale`` (register, gender, colon dodges)."""
    found = []
    for language, cell, why in _tables()["Forms never used"]:
        if language == locale:
            pattern = _pattern(cell)
            assert pattern is not None
            found.append((pattern, why))
    return found


def entries(locale: str) -> list[Entry]:
    """Every translated entry of ``locale``'s catalogue (plural forms together)."""
    catalogue = read_po(io.StringIO(po_text(locale)), locale=locale)
    result = []
    for message in catalogue:
        if not message.id:
            continue
        msgid = message.id[0] if message.pluralizable else message.id
        forms = tuple(message.string) if message.pluralizable else (message.string,)
        result.append(Entry(msgid, forms))
    return result


def test_the_glossary_has_every_language_and_the_game_terms() -> None:
    for locale in TRANSLATED:
        named = [term.english for term in terms(locale)]
        for needed in ("dot", "ring", "empty ring", "base", "capture", "grounding", "stop", "end"):
            assert any(name.startswith(needed) for name in named), (locale, needed)
        for needed in ("resign", "takeback", "cross", "board", "clock", "rated"):
            assert any(name.startswith(needed) for name in named), (locale, needed)
        assert never_forms(locale) or locale == "pl", locale


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_catalogue_uses_the_glossarys_terms(locale: str) -> None:
    checked = 0
    for term in terms(locale):
        if term.says is None or term.must is None:
            continue
        for entry in entries(locale):
            if term.says.search(entry.msgid):
                checked += 1
                for form in entry.forms:
                    assert term.must.search(form), (term.english, entry.msgid, form)
    assert checked > 50, checked


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_catalogue_never_says_a_forbidden_word(locale: str) -> None:
    forbidden = [(t.never, t.english) for t in terms(locale) if t.never is not None]
    forbidden += never_forms(locale)
    for entry in entries(locale):
        for form in entry.forms:
            for pattern, why in forbidden:
                found = pattern.search(form)
                assert found is None, (why, found.group(0) if found else "", form)


@pytest.mark.parametrize(
    ("locale", "sentence", "why"),
    [
        ("ru", "Я перезапускаюсь: попробуй через минуту.", "imperatives"),
        ("uk", "Спробуй ще раз, коли твій хід.", "addressed as"),
        ("pl", "Zakończyłeś.", "masculine"),
        ("pl", "Różowy zdobywa: {n}.", "colon"),
        ("ru", "{user} играет против: {name}", "colon"),
        ("ru", "начало: двойной крест", "cross"),
        ("ru", "сдача", "resign"),
        ("uk", "Час на хід (за замовчуванням: час сервера)", "default"),
        ("pl", "Puste otoczenie", "ring"),
        ("pl", "Ogłosiłeś stop.", "stop"),
    ],
)
def test_a_translation_in_the_old_words_would_fail(locale: str, sentence: str, why: str) -> None:
    forbidden = [(t.never, t.english) for t in terms(locale) if t.never is not None]
    forbidden += never_forms(locale)
    hits = [reason for pattern, reason in forbidden if pattern.search(sentence)]
    assert any(why in reason for reason in hits), (sentence, hits)


def test_the_ukrainian_congratulation_takes_no_name_in_the_vocative() -> None:
    entry = next(e for e in entries("uk") if e.msgid == "{result}. Well played, {name}!")
    assert "гра, {name}" not in entry.forms[0]
