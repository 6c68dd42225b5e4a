"""The operations, under the /v1 base path."""
import calendar
from email.utils import formatdate

from flask import Blueprint, current_app, jsonify, request

from .errors import ApiError
from .validation import parse_json, parse_pet_id, read_json_body, validate_new_category

api = Blueprint("api", __name__, url_prefix="/v1")

PET_ENDPOINT = "api.get_pet"
DEPRECATED_AT = calendar.timegm((2026, 7, 1, 0, 0, 0))   # @1782864000
SUNSET_AT = calendar.timegm((2027, 7, 1, 0, 0, 0))       # x-sunset: 2027-07-01T00:00:00Z
SUNSET_HTTP_DATE = formatdate(SUNSET_AT, usegmt=True)    # Thu, 01 Jul 2027 00:00:00 GMT
DEPRECATION_HEADERS = {
    "Deprecation": "@%d" % DEPRECATED_AT,
    "Sunset": SUNSET_HTTP_DATE,
    "Link": ('<https://api.petstore.example.com/docs/deprecations#get-pet>; rel="deprecation", '
             '<https://api.petstore.example.com/docs/deprecations#sunset-policy>; rel="sunset"'),
}


def _state():
    return current_app.extensions["petstore"]


@api.get("/categories", provide_automatic_options=False)
def list_categories():
    return jsonify(_state().store.list_categories())


@api.post("/categories", provide_automatic_options=False)
def create_category():
    name, description, has_description = validate_new_category(parse_json(read_json_body()))
    category = _state().store.add_category(name, description, has_description)
    return jsonify(category), 201


@api.get("/pets/<petId>", provide_automatic_options=False)
def get_pet(petId):  # noqa: N803 - the spec's parameter name
    if _state().clock() >= SUNSET_AT:
        raise ApiError(410, "gone", "GET /pets/{petId} was retired on %s." % SUNSET_HTTP_DATE)
    pet_id = parse_pet_id(petId)
    pet = _state().store.get_pet(pet_id)
    if pet is None:
        raise ApiError(404, "not_found", "No pet has id %d." % pet_id)
    return jsonify(pet)


@api.get("/store/orders", provide_automatic_options=False)
def list_orders():
    return jsonify(_state().store.list_orders())


def add_deprecation_headers(response):
    """after_request hook: every answer of GET /pets/{petId} (and only it) is marked deprecated."""
    rule = request.url_rule
    if rule is not None and rule.endpoint == PET_ENDPOINT and request.method in ("GET", "HEAD"):
        response.headers.update(DEPRECATION_HEADERS)
    return response


def require_one_host():
    """before_request hook, first of all: RFC 9112 §3.2 "A server MUST respond with a 400 (Bad Request)
    status code to any HTTP/1.1 request message that lacks a Host header field and to any request message
    that contains more than one Host header field line". gunicorn passes both on (two fields joined with
    a comma); the contract suite's host_field_required_once found it."""
    host = request.environ.get("HTTP_HOST")
    missing = host is None and request.environ.get("SERVER_PROTOCOL") == "HTTP/1.1"
    if missing or (host is not None and "," in host):
        raise ApiError(400, "invalid_request", "The request needs exactly one Host field.")
