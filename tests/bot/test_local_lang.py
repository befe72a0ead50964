"""`dots-bot local --lang pl` and `--lang ru` play a game to the end in that
language (the real process, its input piped); without --lang the terminal's LANG decides."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# Pink surrounds Blue's C3 (a base: Pink 1), Blue ends, Pink plays on alone and ends; the
# confirmations are answered with the language's own "yes".
MOVES = ["C4", "move C3", "B3", "H8", "d3", "H7", "C 2", "end", "{yes}", "J1", "end", "{yes}"]


def play(tmp_path: Path, *args: str, yes: str, lang: str = "C.UTF-8") -> str:
    """Run `dots-bot local` with the game typed on stdin; everything it printed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "DOTS", "LC_"))}
    env |= {"LANG": lang, "LANGUAGE": "", "PYTHONIOENCODING": "utf-8", "TERM": "dumb"}
    typed = "\n".join(line.format(yes=yes) for line in MOVES) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "bot.main", "local", "--new", *args],
        input=typed,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("args", "lang", "yes", "said"),
    [
        (
            ("--lang", "pl"),
            "C.UTF-8",
            "t",
            [
                "Różowy stawia kropkę na C2. Różowy zdobywa 1 kropkę.",
                "Niebieski kończy i nie wykonuje już ruchów.",
                "Różowy może grać dalej w pojedynkę",
                "Wygrywa Różowy 1–0 (obie strony zakończyły). Dobra gra, Różowy!",
                "Koniec gry. Powtórka:",
                "R/N: kropki Różowego/Niebieskiego",
                " 3 . R n R . . . . . .",  # Blue's C3 captured
            ],
        ),
        (
            ("--lang", "ru"),
            "en_US.UTF-8",
            "д",
            [
                "Розовый ставит точку на C2. Розовый захватывает 1 точку.",
                "Синий заканчивает и больше не ходит.",
                "Розовый может продолжать один",
                "Побеждает Розовый 1–0 (обе стороны закончили). Отличная игра, Розовый!",
                "Партия окончена. Повтор:",
                "Р/С: точки Розового/Синего",
            ],
        ),
        (
            (),
            "uk_UA.UTF-8",
            "так",
            [
                "Рожевий ставить точку на C2.",
                "Перемагає Рожевий 1–0",
                "Партію закінчено.",
                "Р/С: точки Рожевого/Синього",
            ],
        ),
    ],
)
def test_the_terminal_plays_a_whole_game_in_the_language_asked_for(
    tmp_path: Path, args: tuple[str, ...], lang: str, yes: str, said: list[str]
) -> None:
    printed = play(tmp_path, *args, yes=yes, lang=lang)
    for sentence in said:
        assert sentence in printed, sentence
    assert "Pink" not in printed and "wins" not in printed  # no English left in the game
    assert list((tmp_path / "dots-pictures").glob("*.gif"))
