"""Pet Store service: Flask app factory."""
import os
import time
from dataclasses import dataclass, field
from typing import Callable, Dict

from flask import Flask
from werkzeug.routing import Map

from . import auth, errors, routes
from .raw_path import KeepEncodedSlashes
from .config import ApiKey, load_keys_file
from .ratelimit import RateLimiter
from .store import Store


class _ExactPathMap(Map):
    """'//v1//categories' is an unknown path (404), not a redirect to '/v1/categories'."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("merge_slashes", False)
        super().__init__(*args, **kwargs)


class _PetStoreFlask(Flask):
    url_map_class = _ExactPathMap


@dataclass
class ServiceState:
    keys: Dict[str, ApiKey]
    clock: Callable[[], float] = time.time
    limiter: RateLimiter = field(default_factory=RateLimiter)
    store: Store = field(default_factory=Store)


def create_app(keys=None, keys_file=None, clock=time.time, limiter=None):
    """Build the app. `keys` is {key: ApiKey}; otherwise they come from `keys_file`
    (default: the KEYS_FILE environment variable). `clock` returns Unix seconds."""
    if keys is None:
        keys_file = keys_file or os.environ.get("KEYS_FILE")
        keys = load_keys_file(keys_file) if keys_file else {}

    app = _PetStoreFlask(__name__, static_folder=None)
    app.json.sort_keys = False
    app.extensions["petstore"] = ServiceState(keys=keys, clock=clock,
                                              limiter=limiter or RateLimiter())

    app.before_request(routes.require_one_host)
    app.before_request(auth.authenticate_and_count)
    app.after_request(routes.add_deprecation_headers)
    app.after_request(auth.add_rate_limit_headers)
    app.register_blueprint(routes.api)
    app.wsgi_app = KeepEncodedSlashes(app.wsgi_app)
    errors.register(app)
    return app
