"""Request body reading and NewCategory validation."""
import json
import re

from flask import request

from .errors import ApiError

MAX_BODY_BYTES = 16384
NAME_MAX, DESCRIPTION_MAX = 100, 500
ID_MAX = 9223372036854775807

# ECMA-262 white space and line terminators: what `\s` means in the schema's `pattern: \S`.
ECMA_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
DIGITS = re.compile(r"[0-9]+")


def invalid(message):
    return ApiError(400, "invalid_request", message)


def read_json_body():
    """Return the raw request body, enforcing size (413) and media type (415)."""
    declared = request.content_length
    if declared is not None and declared > MAX_BODY_BYTES:
        raise _too_large()
    try:
        raw = request.stream.read(MAX_BODY_BYTES + 1)
    except Exception:  # broken framing or a client that went away mid-body
        raise invalid("body: the request body could not be read completely") from None
    if len(raw) > MAX_BODY_BYTES:
        raise _too_large()
    content_type = request.headers.get("Content-Type", "")
    if not content_type.strip() and not raw:
        raise invalid("body: a JSON object with a name is required")
    if request.mimetype != "application/json":
        raise ApiError(415, "unsupported_media_type", "Content-Type must be application/json.")
    charset = request.mimetype_params.get("charset")
    if charset is not None and charset.lower() not in ("utf-8", "utf8"):
        raise ApiError(415, "unsupported_media_type",
                       "Content-Type must be application/json with UTF-8 (or no charset).")
    if not raw:
        raise invalid("body: a JSON object with a name is required")
    return raw


def _too_large():
    return ApiError(413, "payload_too_large",
                    "The request body is over the limit of %d bytes." % MAX_BODY_BYTES)


def _reject_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError("duplicate property")
        seen[key] = value
    return seen


def _reject_constant(name):
    raise ValueError("not JSON: " + name)


def parse_json(raw):
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise invalid("body: not well-formed UTF-8, so not JSON") from None
    try:
        return json.loads(text, object_pairs_hook=_reject_duplicates,
                          parse_constant=_reject_constant)
    except RecursionError:
        raise invalid("body: JSON nested too deeply") from None
    except ValueError as exc:
        if str(exc) == "duplicate property":
            raise invalid("body: a property appears more than once") from None
        raise invalid("body: not well-formed JSON") from None


def _unstorable(text):
    return any(ch == "\x00" or "\ud800" <= ch <= "\udfff" for ch in text)


def _check_string(body, field, min_len, max_len, need_non_space):
    value = body[field]
    if not isinstance(value, str):
        raise invalid("body: %s must be a string" % field)
    if _unstorable(value):
        raise invalid("body: %s contains NUL or an unpaired surrogate, which cannot be stored" % field)
    if len(value) < min_len:
        raise invalid("body: %s must not be empty" % field)
    if len(value) > max_len:
        raise invalid("body: %s must be at most %d characters" % (field, max_len))
    if need_non_space and all(ch in ECMA_WHITESPACE for ch in value):
        raise invalid("body: %s must not be only whitespace" % field)
    return value


def validate_new_category(body):
    """Return (name, description, has_description) or raise a 400."""
    if not isinstance(body, dict):
        raise invalid("body: must be a JSON object")
    if any(key not in ("name", "description") for key in body):
        raise invalid("body: unknown property; only name and description are allowed")
    if "name" not in body:
        raise invalid("body: name is required")
    name = _check_string(body, "name", 1, NAME_MAX, True)
    if "description" in body:
        return name, _check_string(body, "description", 0, DESCRIPTION_MAX, False), True
    return name, None, False


def parse_pet_id(raw):
    """Return the pet id as an int, or raise a 400 if it is not a positive int64."""
    if (DIGITS.fullmatch(raw) is None or len(raw.lstrip("0")) > len(str(ID_MAX))
            or not 1 <= int(raw) <= ID_MAX):
        raise invalid("path: petId must be a positive integer (1 to %d)" % ID_MAX)
    return int(raw)
