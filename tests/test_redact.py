"""The redactor every outside error text passes through (testgen.redact)."""

from __future__ import annotations

import pytest

from testgen.redact import MARK, public_url, redact, register_secret, secret_values

ENV = {
    "OPENAI_API_KEY": "sk-proj-Zx81Qm2Lw9Tr4Yu7Io3Pa6Sd5Fg0Hj1K",
    "HF_TOKEN": "hf_abcdefghijklmnopqrstuvwx",
    "ACME_SECRET": "plain-looking-value-42",
    "MY_SERVICE_KEY": "another.value.9999",
    "SHORT_TOKEN": "abc",  # too short to be a secret: replacing it would mangle text
    "HOME": "/root/a-long-home-directory",  # not a secret name
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Incorrect API key: sk-proj-Zx81Qm2Lw9Tr4Yu7Io3Pa6Sd5Fg0Hj1K.", "Incorrect API key: [redacted]."),
        ("401: token hf_abcdefghijklmnopqrstuvwx is invalid", "401: token [redacted] is invalid"),
        ("echo plain-looking-value-42 and another.value.9999", "echo [redacted] and [redacted]"),
        ("Authorization: Bearer qwertyuiop, next", "Authorization: Bearer [redacted], next"),
        ("authorization=Basic dXNlcjpwYXNz;", "authorization=Basic [redacted];"),
        ('{"Authorization": "Bearer x y z", "n": 1}', '{"Authorization": "[redacted]", "n": 1}'),
        ("{'api-key': 'k1', 'x-api-key': 'k2'}", "{'api-key': '[redacted]', 'x-api-key': '[redacted]'}"),
        ("GET /search?q=bikes&api_key=abc123&n=2", "GET /search?q=bikes&api_key=[redacted]&n=2"),
        ("url https://h/x?key=abc123#top", "url https://h/x?key=[redacted]#top"),
        ("a stray sk-ant-api03-abcdefghijklmnop token", "a stray [redacted] token"),
        # a known value inside a header is replaced once, not again by the header rule
        ("(Authorization: Bearer plain-looking-value-42; next)", "(Authorization: Bearer [redacted]; next)"),
        ("?token=plain-looking-value-42&x=1", "?token=[redacted]&x=1"),
        # ordinary text is left alone
        ("primary key=3 and token count 5", "primary key=3 and token count 5"),
        ("abc is /root/a-long-home-directory", "abc is /root/a-long-home-directory"),
        ("the sk-8 model", "the sk-8 model"),
        ("", ""),
    ],
)
def test_redact(text: str, expected: str) -> None:
    assert redact(text, environ=ENV) == expected


def test_known_values_longest_first_and_registered_ones() -> None:
    env = {"A_TOKEN": "secret-value-1", "B_TOKEN": "secret-value-12"}
    assert secret_values(env)[:2] == ["secret-value-12", "secret-value-1"]
    assert redact("secret-value-12", environ=env) == MARK  # not "[redacted]2"
    register_secret("header-value-for-target")
    register_secret("short")  # ignored
    assert redact("got header-value-for-target, short", environ={}) == f"got {MARK}, short"
    assert redact("one-off-secret-value here", ["one-off-secret-value", None], environ={}) == f"{MARK} here"


@pytest.mark.parametrize(
    ("url", "public"),
    [
        ("https://user:secret@example.org:8443/rag?key=abc#top", "https://example.org:8443/rag"),
        ("http://127.0.0.1/v1/chat", "http://127.0.0.1/v1/chat"),
        ("http://token@host/path?x=1", "http://host/path"),
        ("http://host:99999/path", "http://host/path"),  # a port out of range is dropped, not raised
    ],
)
def test_public_url_drops_credentials_query_and_fragment(url: str, public: str) -> None:
    assert public_url(url) == public
