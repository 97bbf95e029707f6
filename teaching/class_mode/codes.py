"""Join codes, student tokens and the lecturer's key (pure: the standard library only).

A join code is read off a projector and typed on a phone, so its alphabet leaves out
every character that looks like another one: 0/O, 1/I/L, 2/Z, 5/S, 8/B. That leaves 25
characters, so there are 25**6 (about 244 million) codes; with joins to codes that do
not exist rate-limited (rooms/limits.py), guessing one is hopeless.

The lecturer's key and recovery code are never stored: the database keeps their
SHA-256 digests only (`digest`). Both are long random strings, so an unsalted digest
is enough: there is no dictionary to try.
"""

from __future__ import annotations

import hashlib
import re
import secrets

ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"  # no 0/O, 1/I/L, 2/Z, 5/S, 8/B
CODE_LENGTH = 6
RECOVERY_LENGTH = 12
TOKEN_LENGTH = 32
_TOKEN_PATTERN = re.compile(rf"[A-Za-z0-9_-]{{{TOKEN_LENGTH}}}")
_SEPARATORS = str.maketrans("", "", " -\t")


def _random_characters(count: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(count))


def new_code() -> str:
    """A fresh join code: 6 characters from ALPHABET, such as K7QX3M."""
    return _random_characters(CODE_LENGTH)


def normal_code(text: str) -> str:
    """A typed join code in its stored form: upper case, spaces and dashes dropped.

    ValueError with a reason fit for the page (it never repeats the typed text)."""
    cleaned = str(text).translate(_SEPARATORS).upper()
    if not cleaned:
        raise ValueError("Type the join code shown on the projector, such as K7QX3M.")
    if len(cleaned) != CODE_LENGTH:
        raise ValueError(
            f"A join code is {CODE_LENGTH} letters or digits, such as K7QX3M "
            f"(this has {len(cleaned)})."
        )
    if any(character not in ALPHABET for character in cleaned):
        raise ValueError(
            "A join code uses only these letters and digits: "
            f"{ALPHABET} (no 0, O, 1, I, L, 2, Z, 5, S, 8 or B)."
        )
    return cleaned


def new_token() -> str:
    """A student's token: 32 url-safe characters (192 random bits), kept in the
    browser's storage so a reload keeps the same answers."""
    return secrets.token_urlsafe(TOKEN_LENGTH * 3 // 4)


def valid_token(text) -> bool:
    """Whether `text` (from a browser's storage: user input) is a token's shape."""
    return isinstance(text, str) and _TOKEN_PATTERN.fullmatch(text) is not None


def new_secret() -> str:
    """The lecturer's key: 43 url-safe characters (256 random bits)."""
    return secrets.token_urlsafe(32)


def new_recovery_code() -> str:
    """12 characters from ALPHABET (about 56 random bits), for opening a room on
    another device; shown once, grouped as XXXX-XXXX-XXXX (`grouped`)."""
    return _random_characters(RECOVERY_LENGTH)


def grouped(recovery_code: str) -> str:
    """'ACDE7FGH9JKM' -> 'ACDE-7FGH-9JKM' (easier to read out and type)."""
    return "-".join(recovery_code[i : i + 4] for i in range(0, len(recovery_code), 4))


def normal_recovery_code(text: str) -> str:
    """A typed recovery code in its stored form (upper case, no spaces or dashes); the
    text as given when it is not one (it will then match nothing)."""
    cleaned = str(text).translate(_SEPARATORS).upper()
    if len(cleaned) == RECOVERY_LENGTH and all(c in ALPHABET for c in cleaned):
        return cleaned
    return str(text)


def digest(secret: str) -> str:
    """SHA-256 of `secret`, 64 hex digits: what the database keeps instead of it."""
    return hashlib.sha256(str(secret).encode("utf-8")).hexdigest()
