import calendar
import unittest

from helpers import AppMixin

from petstore import create_app
from petstore.config import parse_keys

SUNSET = calendar.timegm((2027, 7, 1, 0, 0, 0))
DEPRECATION = ("Deprecation", "Sunset", "Link")


class PetTests(AppMixin, unittest.TestCase):
    def assertDeprecated(self, resp):
        self.assertEqual(resp.headers["Deprecation"], "@1782864000")
        self.assertEqual(resp.headers["Sunset"], "Thu, 01 Jul 2027 00:00:00 GMT")
        self.assertIn('rel="deprecation"', resp.headers["Link"])
        self.assertTrue(resp.headers["Link"].startswith("<"))

    def test_get_pet(self):
        resp = self.get("/v1/pets/1")
        self.assertEqual(resp.status_code, 200)
        self.assertEqual(resp.get_json()["name"], "Rex")
        self.assertEqual(resp.get_json()["category"]["name"], "dog")
        self.assertDeprecated(resp)

    def test_pet_errors_are_deprecated_too(self):
        resp = self.get("/v1/pets/42")
        self.assertEqual(self.assertError(resp, 404, "not_found")["message"], "No pet has id 42.")
        self.assertDeprecated(resp)
        for bad in ("abc", "0", "-1", "+1", "1.0", "1e3", "9223372036854775808", "\u0661"):
            with self.subTest(bad=bad):
                resp = self.get("/v1/pets/" + bad)
                self.assertError(resp, 400, "invalid_request")
                self.assertDeprecated(resp)
        self.assertEqual(self.get("/v1/pets/9223372036854775807").status_code, 404)
        resp = self.get("/v1/pets/1", key=None)
        self.assertError(resp, 401, "missing_api_key")
        self.assertDeprecated(resp)

    def test_gone_after_sunset(self):
        self.clock.now = SUNSET
        for path in ("/v1/pets/1", "/v1/pets/abc"):
            resp = self.get(path)
            self.assertError(resp, 410, "gone")
            self.assertDeprecated(resp)

    def test_no_other_operation_is_deprecated(self):
        for resp in (self.get("/v1/categories"), self.get("/v1/store/orders"),
                     self.post({"name": "x"}), self.req("POST", "/v1/pets/1"),
                     self.get("/v1/pets"), self.get("/v1/categories", key=None)):
            for name in DEPRECATION[:2]:
                self.assertNotIn(name, resp.headers)

    def test_orders(self):
        resp = self.get("/v1/store/orders")
        self.assertEqual(resp.status_code, 200)
        self.assertEqual([o["id"] for o in resp.get_json()], [1, 2])
        self.assertEqual(resp.get_json()[0]["status"], "delivered")


class ErrorTests(AppMixin, unittest.TestCase):
    def test_unknown_paths(self):
        for path in ("/", "/v1", "/v1/", "/categories", "/v1/categories/", "/v1//categories",
                     "/v1/pets", "/v1/pets/", "/v1/pets/1/x", "/v1/store", "/static/x", "/v2/categories"):
            with self.subTest(path=path):
                self.assertError(self.get(path), 404, "not_found")

    def test_method_not_allowed(self):
        cases = {"/v1/categories": "GET, HEAD, POST", "/v1/pets/1": "GET, HEAD",
                 "/v1/store/orders": "GET, HEAD"}
        for path, allow in cases.items():
            for method in ("PUT", "DELETE", "PATCH", "OPTIONS", "POST"):
                if path == "/v1/categories" and method == "POST":
                    continue
                with self.subTest(path=path, method=method):
                    resp = self.req(method, path)
                    self.assertError(resp, 405, "method_not_allowed")
                    self.assertEqual(resp.headers["Allow"], allow)

    def test_head(self):
        resp = self.req("HEAD", "/v1/categories")
        self.assertEqual(resp.status_code, 200)
        self.assertEqual(resp.data, b"")

    def test_internal_error_hides_internals(self):
        state = self.app.extensions["petstore"]

        def boom():
            raise RuntimeError("/secret/path.py database exploded")
        state.store.list_orders = boom
        import logging
        logging.disable(logging.CRITICAL)
        try:
            resp = self.get("/v1/store/orders")
        finally:
            logging.disable(logging.NOTSET)
        body = self.assertError(resp, 500, "internal_error")
        self.assertNotIn("secret", body["message"])
        self.assertNotIn(b"Traceback", resp.data)


class ConfigTests(unittest.TestCase):
    def test_keys_file(self):
        import json
        import os
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
            json.dump([{"key": "k1", "plan": "pro"},
                       {"key": "k2", "plan": "enterprise", "perMinute": 7, "perDay": 9}], fh)
        try:
            app = create_app(keys_file=fh.name)
        finally:
            os.unlink(fh.name)
        keys = app.extensions["petstore"].keys
        self.assertEqual((keys["k1"].per_minute, keys["k1"].per_day), (300, 10000))
        self.assertEqual((keys["k2"].per_minute, keys["k2"].per_day), (7, 9))

    def test_bad_keys(self):
        from petstore.config import ConfigError
        for bad in ({}, [1], [{"key": "", "plan": "pro"}], [{"key": "a", "plan": "gold"}],
                    [{"key": "a", "plan": "enterprise", "perMinute": -1, "perDay": 1}]):
            with self.subTest(bad=bad):
                with self.assertRaises(ConfigError):
                    parse_keys(bad)


if __name__ == "__main__":
    unittest.main()
