"""What the fake records of each REST request, and how it answers errors and JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from aiohttp import web


class HTTPError(Exception):
    """Raised by a handler to answer with a Discord error body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str | None = None,
        *,
        errors: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(status, code, message)
        self.status = status
        self.code = code
        self.message = message
        # For 50035 "Invalid Form Body": which fields broke which rule, shaped like the body.
        self.errors = errors


@dataclass
class UploadedFile:
    """A file part of a multipart request."""

    field: str
    filename: str
    content_type: str | None
    data: bytes

    @property
    def is_png(self) -> bool:
        """Whether the bytes start with the PNG signature."""
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")


@dataclass
class Request:
    """One REST request as the fake saw it, with the status it answered."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    at: float
    time: datetime
    status: int = 0
    fault: bool = False

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.path} -> {self.status}>"


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON response with the bare Content-Type discord.py insists on (no charset)."""
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)
