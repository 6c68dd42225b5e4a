"""Routing on the path as sent, where WSGI's decoded PATH_INFO would merge segments."""
import re
from urllib.parse import unquote_to_bytes, urlsplit

ENCODED_SLASH = re.compile(r"(%2[fF])")


class KeepEncodedSlashes:
    """WSGI middleware. PATH_INFO arrives percent-decoded, so `/v1/pets%2F1` would route as `/v1/pets/1`
    and `/v1/pets/%2F` as `/v1/pets//`. A `%2F` is data inside one segment, not a separator (RFC 3986
    §2.2, §6.2.2.2), so the path is routed as gunicorn received it (RAW_URI), decoded but for `%2F`."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        raw = environ.get("RAW_URI") or environ.get("REQUEST_URI") or ""
        path = urlsplit(raw).path if "://" in raw else raw.split("?", 1)[0]
        if ENCODED_SLASH.search(path):
            environ["PATH_INFO"] = "".join(
                part if ENCODED_SLASH.fullmatch(part) else unquote_to_bytes(part).decode("latin-1")
                for part in ENCODED_SLASH.split(path)
            )
        return self.app(environ, start_response)
