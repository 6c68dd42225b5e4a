"""Error bodies and Flask error handlers: every error is a JSON `Error`."""
from flask import current_app, jsonify
from werkzeug.exceptions import HTTPException

# Machine-readable codes for statuses Werkzeug itself may raise.
CODES_BY_STATUS = {
    400: "invalid_request",
    401: "invalid_api_key",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    410: "gone",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limit_exceeded",
    431: "request_header_fields_too_large",
    500: "internal_error",
}

GENERIC_MESSAGES = {
    400: "The request is invalid.",
    404: "No resource exists at this path.",
    408: "The request was not received in time.",
    413: "The request body is over the limit of 16384 bytes.",
    415: "Content-Type must be application/json.",
    431: "The request header fields are too large.",
    500: "The service failed to answer; the failure is logged.",
}


class ApiError(Exception):
    """An error answer raised by hooks and views."""

    def __init__(self, status, code, message, headers=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = dict(headers or {})


def error_response(status, code, message, headers=None):
    resp = jsonify({"code": code, "message": message, "status": status})
    resp.status_code = status
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


def handle_api_error(err):
    return error_response(err.status, err.code, err.message, err.headers)


def handle_http_exception(exc):
    status = exc.code or 500
    if status == 405:
        allowed = sorted(exc.valid_methods or [])
        return error_response(
            405, "method_not_allowed",
            "This method is not allowed on this path; allowed: %s." % ", ".join(allowed),
            {"Allow": ", ".join(allowed)})
    if status >= 500:
        return error_response(500, "internal_error", GENERIC_MESSAGES[500])
    code = CODES_BY_STATUS.get(status)
    if code is None:  # any other 4xx Werkzeug might raise
        status, code = 400, "invalid_request"
    return error_response(status, code, GENERIC_MESSAGES.get(status, "The request is invalid."))


def handle_unexpected(exc):
    if isinstance(exc, HTTPException):
        return handle_http_exception(exc)
    current_app.logger.exception("unhandled error")
    return error_response(500, "internal_error", GENERIC_MESSAGES[500])


def register(app):
    app.register_error_handler(ApiError, handle_api_error)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)
