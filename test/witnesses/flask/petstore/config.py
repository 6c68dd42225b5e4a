"""API keys and plan limits, loaded from the KEYS_FILE JSON array."""
import json
import logging
from dataclasses import dataclass

log = logging.getLogger("petstore")

# (requests per minute, requests per day), from the spec.
PLAN_LIMITS = {
    "free": (60, 1000),
    "pro": (300, 10000),
    "business": (1000, 100000),
}
ENTERPRISE = "enterprise"


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class ApiKey:
    key: str
    plan: str
    per_minute: int
    per_day: int


def _limit(entry, name, default, index):
    value = entry.get(name)
    if value is None:
        log.warning("keys file entry %d: enterprise key without %s; using %d", index, name, default)
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError("keys file entry %d: %s must be a non-negative integer" % (index, name))
    return value


def parse_keys(entries):
    """Turn the decoded JSON array into {key string: ApiKey}."""
    if not isinstance(entries, list):
        raise ConfigError("keys file must hold a JSON array")
    keys = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ConfigError("keys file entry %d is not an object" % index)
        key, plan = entry.get("key"), entry.get("plan")
        if not isinstance(key, str) or not key:
            raise ConfigError("keys file entry %d: key must be a non-empty string" % index)
        if not isinstance(plan, str):
            raise ConfigError("keys file entry %d: plan must be a string" % index)
        plan = plan.strip().lower()
        if plan == ENTERPRISE:
            default_minute, default_day = PLAN_LIMITS["business"]
            per_minute = _limit(entry, "perMinute", default_minute, index)
            per_day = _limit(entry, "perDay", default_day, index)
        elif plan in PLAN_LIMITS:
            per_minute, per_day = PLAN_LIMITS[plan]
        else:
            raise ConfigError("keys file entry %d: unknown plan" % index)
        if key in keys:
            log.warning("keys file entry %d repeats an earlier key; the later entry wins", index)
        keys[key] = ApiKey(key, plan, per_minute, per_day)
    return keys


def load_keys_file(path):
    with open(path, "rb") as fh:
        try:
            entries = json.loads(fh.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ConfigError("keys file is not valid UTF-8 JSON: %s" % exc) from None
    return parse_keys(entries)
