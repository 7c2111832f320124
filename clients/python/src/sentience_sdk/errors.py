"""The package's exceptions."""

from __future__ import annotations

from typing import Optional


class SentienceError(Exception):
    """The extension answered with an error (bad options, a bad query, no
    extension on this page…); the message is the extension's own."""


class NotAvailableError(SentienceError):
    """``window.sentience`` is not on this page: not a web page (about:blank,
    chrome://), or the browser was started without the extension."""


class QueryError(SentienceError):
    """A query that does not parse or type-check; ``position`` is the 0-based
    character where the problem is, when known."""

    def __init__(self, message: str, position: Optional[int] = None) -> None:
        super().__init__(message)
        self.position = position


class NavigatedError(SentienceError):
    """The page navigated while a call was running in it (its document, and
    the call with it, are gone). Actions turn this into ``outcome="navigated"``."""


class WaitTimeout(SentienceError, AssertionError):
    """``wait_for`` / ``expect`` gave up; the message says what the page had."""
