import json

from petstore import create_app
from petstore.config import parse_keys

KEYS = [
    {"key": "free-key-123", "plan": "free"},
    {"key": "pro-key-456", "plan": "pro"},
    {"key": "biz-key-789", "plan": "business"},
    {"key": "ent-key-000", "plan": "enterprise", "perMinute": 5000, "perDay": 1000000},
    {"key": "tiny-ent-key", "plan": "enterprise", "perMinute": 10, "perDay": 5},
]
START = 1795000020.0  # some moment well before the sunset of GET /pets/{petId}


class FakeClock:
    def __init__(self, now=START):
        self.now = now

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


class AppMixin:
    def setUp(self):
        self.clock = FakeClock()
        self.app = create_app(keys=parse_keys(KEYS), clock=self.clock)
        self.client = self.app.test_client()

    def req(self, method, path, key="ent-key-000", headers=None, **kwargs):
        hdrs = dict(headers or {})
        if key is not None:
            hdrs["Authorization"] = "Bearer " + key
        return self.client.open(path, method=method, headers=hdrs, **kwargs)

    def get(self, path, **kwargs):
        return self.req("GET", path, **kwargs)

    def post_raw(self, data, content_type="application/json", **kwargs):
        headers = kwargs.pop("headers", {})
        if content_type is not None:
            headers["Content-Type"] = content_type
        return self.req("POST", "/v1/categories", data=data, headers=headers, **kwargs)

    def post(self, body, **kwargs):
        return self.post_raw(json.dumps(body), **kwargs)

    def assertError(self, resp, status, code):
        self.assertEqual(resp.status_code, status, resp.data)
        body = resp.get_json()
        self.assertEqual(set(body), {"code", "message", "status"})
        self.assertEqual(body["code"], code)
        self.assertEqual(body["status"], status)
        self.assertTrue(body["message"])
        self.assertRateHeaders(resp)
        return body

    def assertRateHeaders(self, resp):
        for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
            self.assertRegex(resp.headers.get(name, ""), r"^[0-9]+$", name)
