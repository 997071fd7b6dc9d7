"""The answers uvicorn's protocol gives itself, before any route runs.

A request whose headers or address are too large, or a connection over its
client's share, is refused by :mod:`ligretto.web.http_protocol` before the
app sees it: its headers are the problem (the reader's language is one of
them), or there is no request yet. So the answer is fixed bytes: under
``/api`` the API's error shape, elsewhere one short page in English, German
and Norwegian, as the shipped HAProxy answers its own refusals
(``deploy/haproxy.cfg``).
"""

from __future__ import annotations

import html
import http
import json
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Refusal:
    """An answer of the protocol: status, API code, and its sentences in en, de, nb."""

    status: int
    code: str
    title: tuple[str, str, str]
    text: tuple[str, str, str]
    retry_after: int | None = None

    def answer(self, api: bool) -> bytes:
        """The whole HTTP answer; it closes the connection."""
        if api:
            body = json.dumps(
                {"detail": self.text[0], "code": self.code}, ensure_ascii=False
            ).encode()
            content_type = b"application/json"
        else:
            body = self._page().encode()
            content_type = b"text/html; charset=utf-8"
        phrase = http.HTTPStatus(self.status).phrase.encode()
        headers = [
            b"HTTP/1.1 %d %s" % (self.status, phrase),
            b"content-type: " + content_type,
            b"content-length: %d" % len(body),
            b"connection: close",
            b"cache-control: no-store",
            b"x-content-type-options: nosniff",
            b"referrer-policy: no-referrer",
            b"content-security-policy: default-src 'none'; style-src 'self';"
            b" frame-ancestors 'none'",
        ]
        if self.retry_after is not None:
            headers.append(b"retry-after: %d" % self.retry_after)
        return b"\r\n".join(headers) + b"\r\n\r\n" + body

    def _page(self) -> str:
        en_title, de_title, nb_title = (html.escape(t) for t in self.title)
        en, de, nb = (html.escape(t) for t in self.text)
        return (
            "<!doctype html><html lang=en><meta charset=utf-8>"
            '<meta name=viewport content="width=device-width, initial-scale=1">'
            "<link rel=stylesheet href=/static/css/tafel.css>"
            f"<title>{en_title} · Ligretto</title><main><section class=panel>"
            f"<h1>{en_title}</h1><p>{en}</p>"
            f"<h2 lang=de>{de_title}</h2><p lang=de>{de}</p>"
            f"<h2 lang=nb>{nb_title}</h2><p lang=nb>{nb}</p>"
            "<p><a class=button href=/>Ligretto</a></p></section></main></html>"
        )


def kib(size: int) -> str:
    """``32 KiB`` (sizes here are whole KiB), else a byte count."""
    return f"{size // 1024} KiB" if size % 1024 == 0 else f"{size} bytes"


def headers_too_large(max_headers: int, max_head_bytes: int) -> Refusal:
    size = kib(max_head_bytes)
    return Refusal(
        431,
        "headers_too_large",
        (
            "Request headers too large",
            "Anfrage-Kopfzeilen zu groß",
            "For store forespørselshoder",
        ),
        (
            f"The request's headers are larger than the server reads (at most {max_headers}"
            f" headers, {size} together with the address). Nothing was changed.",
            f"Die Kopfzeilen der Anfrage sind größer, als der Server liest (höchstens"
            f" {max_headers} Kopfzeilen, {size} zusammen mit der Adresse). Es wurde nichts"
            " geändert.",
            f"Forespørselens hoder er større enn serveren leser (høyst {max_headers} hoder,"
            f" {size} sammen med adressen). Ingenting ble endret.",
        ),
    )


def url_too_long(max_url_bytes: int) -> Refusal:
    size = kib(max_url_bytes)
    return Refusal(
        414,
        "url_too_long",
        ("Address too long", "Adresse zu lang", "For lang adresse"),
        (
            f"The request's address is longer than the server reads (at most {size})."
            " Nothing was changed.",
            f"Die Adresse der Anfrage ist länger, als der Server liest (höchstens {size})."
            " Es wurde nichts geändert.",
            f"Adressen i forespørselen er lengre enn serveren leser (høyst {size})."
            " Ingenting ble endret.",
        ),
    )


def too_many_connections(retry_after: int) -> Refusal:
    return Refusal(
        429,
        "too_many_at_once",
        ("Too many connections", "Zu viele Verbindungen", "For mange tilkoblinger"),
        (
            "This device has more connections open than the server takes from one place."
            f" Nothing was changed. Please wait {retry_after} seconds and try again.",
            "Dieses Gerät hat mehr Verbindungen offen, als der Server von einer Stelle"
            f" annimmt. Es wurde nichts geändert. Bitte warte {retry_after} Sekunden und"
            " versuche es noch einmal.",
            "Denne enheten har flere tilkoblinger åpne enn serveren tar imot fra ett sted."
            f" Ingenting ble endret. Vent {retry_after} sekunder og prøv igjen.",
        ),
        retry_after,
    )
