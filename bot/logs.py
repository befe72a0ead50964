"""Logging that keeps secrets out of the log: the bot token, interaction tokens and the
password of a database URL.

At DEBUG discord.py logs every REST URL and every gateway event. An interaction's token sits
in its callback URL (``/interactions/<id>/<token>/callback``), in every follow-up URL
(``/webhooks/<application id>/<token>``) and in the INTERACTION_CREATE event (``"token"``);
for 15 minutes it lets anyone answer, edit and follow up as the bot. ``RedactSecrets`` on a
handler rewrites every record it passes, whichever logger it came from.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

REDACTED = "[redacted]"

# A token in a URL runs to the next slash, query, quote, space or bracket; one that starts
# with "[" is already redacted (a record passes the filter once per handler).
_URL_TOKEN = r"[\w.:=+-]+"
_PATTERNS = (
    re.compile(rf"(/webhooks/\d+/){_URL_TOKEN}"),
    re.compile(rf"(/interactions/\d+/){_URL_TOKEN}"),
    # A "token" field in JSON ("token": "...") or in a Python dict's repr ('token': '...').
    re.compile(r"""(["']token["']\s*:\s*["'])[^"']*"""),
)


# A URL's password: ``scheme://user:password@host`` (up to the last "@" before the host's
# end, as libpq reads it) and a ``password=`` query parameter.
_URL_PASSWORD = re.compile(
    r"(\b[a-zA-Z][\w+.-]*://[^:/?#@\s]*:)[^\s/?#]*@(?=[^@\s]*(?:[\s/?#'\"]|$))"
)
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&#\s'\"]*")
HIDDEN_PASSWORD = "***"


def without_password(text: str) -> str:
    """``text`` with the password of every URL in it (a ``DOTS_DATABASE`` URL, or a message
    that quotes one) shown as ``***``: the one way a URL is shown, in the log or anywhere."""
    text = _URL_PASSWORD.sub(rf"\g<1>{HIDDEN_PASSWORD}@", text)
    return _QUERY_PASSWORD.sub(rf"\g<1>{HIDDEN_PASSWORD}", text)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with interaction tokens, webhook tokens, URL passwords and each of
    ``secrets`` blanked out."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    for pattern in _PATTERNS:
        text = pattern.sub(rf"\g<1>{REDACTED}", text)
    return without_password(text)


class RedactSecrets(logging.Filter):
    """A handler filter that rewrites each record's message and traceback with ``redact``."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact the record in place; it is always let through."""
        message = record.getMessage()
        cleaned = redact(message, self.secrets)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            # Format the traceback now so that its text can be redacted too.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


# Loggers that print every statement's parameters at DEBUG: an outbox row's interaction
# token among them (a bare string no pattern can tell from any other).
PARAMETER_LOGGERS = ("aiosqlite",)


def redact_handlers(logger: logging.Logger, *, secrets: Iterable[str] = ()) -> RedactSecrets:
    """Put one ``RedactSecrets`` on every handler of ``logger`` (the root, usually), in place
    of any an earlier call put there; the loggers of statements' parameters stay above DEBUG."""
    for name in PARAMETER_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.INFO, logging.getLogger(name).level))
    guard = RedactSecrets(secrets)
    for handler in logger.handlers:
        unredact(handler)
        handler.addFilter(guard)
    return guard


def unredact(handler: logging.Handler) -> None:
    """Take every ``RedactSecrets`` off ``handler``."""
    for old in [f for f in handler.filters if isinstance(f, RedactSecrets)]:
        handler.removeFilter(old)
