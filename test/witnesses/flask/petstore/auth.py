"""Bearer API-key authentication and quota, run before routing for every request."""
import re

from flask import current_app, g, request

from .errors import ApiError

CHALLENGE = 'Bearer realm="petstore"'


def _token_from_header(value):
    """Return the bearer token, or None when no bearer credential was sent.

    An absent or empty header, a bare `Bearer`, or another scheme (Basic, ...)
    counts as "no API key" (RFC 6750 section 3.1)."""
    if value is None:
        return None
    try:  # WSGI hands header values over as latin-1; keys are UTF-8 text
        value = value.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        pass
    parts = re.split(r"[ \t]+", value.strip(" \t"), maxsplit=1)
    if parts[0].lower() != "bearer":
        return None
    token = parts[1] if len(parts) > 1 else ""
    return token or None


def _rate_limited(decision):
    window = "per-minute" if decision.window == "minute" else "per-day"
    if decision.code == "temporarily_banned":
        message = ("This API key is temporarily banned for repeating requests after 429; "
                   "retry after %d s." % decision.retry_after)
    else:
        message = "The %s limit of %d requests is used up; retry after %d s." % (
            window, decision.limit, decision.retry_after)
    return ApiError(429, decision.code, message, {"Retry-After": str(decision.retry_after)})


def authenticate_and_count():
    """before_request hook: authentication and quota come before routing and validation."""
    state = current_app.extensions["petstore"]
    now = state.clock()
    token = _token_from_header(request.headers.get("Authorization"))
    api_key = state.keys.get(token) if token is not None else None

    if api_key is None:
        decision = state.limiter.check_anonymous(request.remote_addr or "", now)
        g.rate_decision = decision
        if not decision.allowed:
            raise _rate_limited(decision)
        if token is None:
            raise ApiError(401, "missing_api_key",
                           "No API key: send Authorization: Bearer <API_KEY>.",
                           {"WWW-Authenticate": CHALLENGE})
        raise ApiError(401, "invalid_api_key", "The API key is not valid.",
                       {"WWW-Authenticate": CHALLENGE + ', error="invalid_token", '
                                                        'error_description="The API key is not valid"'})

    decision = state.limiter.check_key(api_key, now)
    g.rate_decision = decision
    if not decision.allowed:
        raise _rate_limited(decision)
    g.api_key = api_key


def add_rate_limit_headers(response):
    """after_request hook: every answer describes the window it was counted in."""
    decision = g.get("rate_decision")
    if decision is not None:
        for name, value in decision.headers().items():
            response.headers[name] = value
    return response
