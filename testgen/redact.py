"""One redactor for every error text that comes from outside: a provider, the Hub, an HTTP target.

A server may quote the credentials it was sent (``Incorrect API key provided: sk-…``), a proxy may echo the
request headers, a URL may carry a token in its query string. Before such a text reaches a log line, a
summary, a results file, a report or a store row it passes through :func:`redact`, which replaces

* the value of every environment variable whose name marks a secret (``OPENAI_API_KEY``, ``HF_TOKEN``, any
  ``*_API_KEY``, ``*_KEY``, ``*_TOKEN``, ``*_SECRET``, ``*_PASSWORD``), and every value registered with
  :func:`register_secret` (keys from settings, header values of an HTTP target);
* the value of ``Authorization``, ``Proxy-Authorization``, ``api-key``, ``x-api-key`` and similar headers,
  as ``Name: value`` or as a JSON/Python mapping entry;
* ``api_key=…``, ``token=…``, ``access_token=…`` and similar query or form parameters;
* ``sk-…`` (OpenAI, Anthropic) and ``hf_…`` (Hugging Face) shaped tokens, wherever they stand,

with ``[redacted]``. Short values (under 8 characters: "no-key", "1", "true") are not treated as secrets:
replacing them would mangle ordinary text and protect nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

__all__ = ["MARK", "public_url", "redact", "register_secret", "secret_values"]

#: What a secret is replaced with.
MARK = "[redacted]"
_MIN_SECRET = 8

_SECRET_NAME = re.compile(r"(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$", re.IGNORECASE)
_HEADER_NAMES = r"(?:proxy-)?authorization|x-api-key|api-key|apikey|x-auth-token|x-goog-api-key|cookie"
# "Authorization: Bearer abc", "api-key=abc" in a header dump: everything up to the end of the value.
_HEADER_LINE = re.compile(
    rf"(?i)\b({_HEADER_NAMES})(\s*[:=]\s*)(?![\"'])((?:(?:bearer|basic|token)\s+)?+)(?!\[redacted\])[^\s,;\"'}}\]]+"
)
# {"Authorization": "Bearer abc"} or {'api-key': 'abc'}: the quoted value after the quoted name.
_HEADER_ITEM = re.compile(rf"(?i)([\"']({_HEADER_NAMES})[\"']\s*:\s*)([\"'])(?:(?!\3).)*\3")
_SECRET_PARAM = r"api[_-]?key|access[_-]?token|auth[_-]?token|token|secret|password"
# In a query string any of them, and plain "key"; elsewhere only the unmistakable names ("primary key=3" stays).
_QUERY_PARAM = re.compile(rf"(?i)([?&;](?:{_SECRET_PARAM}|key)=|\b(?:{_SECRET_PARAM})=)(?!\[redacted\])[^&\s\"'#]+")
_TOKEN_SHAPES = re.compile(r"\b(?:sk-[A-Za-z0-9_\-]{16,}|hf_[A-Za-z0-9]{16,})")

_registered: set[str] = set()


def register_secret(value: str | None) -> None:
    """Treat `value` (a key from settings, a header value) as secret in every later :func:`redact` call."""
    if value and len(value) >= _MIN_SECRET:
        _registered.add(value)


def secret_values(environ: Mapping[str, str] | None = None) -> list[str]:
    """Known secret values, longest first: secret-named environment variables and registered values."""
    env = os.environ if environ is None else environ
    values = {v for name, v in env.items() if _SECRET_NAME.search(name) and len(v) >= _MIN_SECRET}
    return sorted(values | _registered, key=lambda v: (-len(v), v))


def redact(text: str, extra: Iterable[str | None] = (), *, environ: Mapping[str, str] | None = None) -> str:
    """`text` with every secret it holds replaced by ``[redacted]`` (see the module docstring); `extra`
    adds values to hide in this call only."""
    if not text:
        return text
    known = secret_values(environ)
    known += sorted((v for v in extra if v and len(v) >= _MIN_SECRET), key=len, reverse=True)
    for value in known:
        if value in text:
            text = text.replace(value, MARK)
    text = _HEADER_ITEM.sub(lambda m: f"{m.group(1)}{m.group(3)}{MARK}{m.group(3)}", text)
    text = _HEADER_LINE.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}{MARK}", text)
    text = _QUERY_PARAM.sub(lambda m: f"{m.group(1)}{MARK}", text)
    return _TOKEN_SHAPES.sub(MARK, text)


def public_url(url: str) -> str:
    """`url` without user, password, query and fragment, which may hold credentials (a port out of range is
    dropped with them)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    host = parts.hostname or ""
    netloc = f"{host}:{port}" if port else host
    return parts._replace(netloc=netloc, query="", fragment="").geturl()
