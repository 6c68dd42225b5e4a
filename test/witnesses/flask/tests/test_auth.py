import unittest

from helpers import AppMixin


class AuthTests(AppMixin, unittest.TestCase):
    def test_missing_key(self):
        resp = self.get("/v1/categories", key=None)
        self.assertError(resp, 401, "missing_api_key")
        self.assertEqual(resp.headers["WWW-Authenticate"], 'Bearer realm="petstore"')

    def test_invalid_key(self):
        resp = self.get("/v1/categories", key="not-a-real-key")
        self.assertError(resp, 401, "invalid_api_key")
        self.assertIn('error="invalid_token"', resp.headers["WWW-Authenticate"])
        self.assertNotIn(b"not-a-real-key", resp.data)
        self.assertNotIn("not-a-real-key", str(resp.headers))

    def test_other_schemes_and_empty_bearer_are_missing(self):
        for value in ("", "Bearer", "Bearer   ", "Basic Zm9vOmJhcg==", "free-key-123"):
            resp = self.req("GET", "/v1/categories", key=None, headers={"Authorization": value})
            self.assertError(resp, 401, "missing_api_key")

    def test_scheme_is_case_insensitive(self):
        for value in ("bearer free-key-123", "BEARER  free-key-123", "Bearer\tfree-key-123"):
            resp = self.req("GET", "/v1/categories", key=None, headers={"Authorization": value})
            self.assertEqual(resp.status_code, 200, value)

    def test_auth_comes_before_routing(self):
        self.assertError(self.get("/nowhere", key=None), 401, "missing_api_key")
        self.assertError(self.req("DELETE", "/v1/categories", key=None), 401, "missing_api_key")
        self.assertError(self.post_raw(b"{", key=None), 401, "missing_api_key")

    def test_401_counts_in_no_key_window(self):
        first = self.get("/v1/categories", key="free-key-123")
        self.get("/v1/categories", key="wrong")
        self.get("/v1/categories", key=None)
        second = self.get("/v1/categories", key="free-key-123")
        self.assertEqual(int(first.headers["X-RateLimit-Remaining"]) - 1,
                         int(second.headers["X-RateLimit-Remaining"]))

    def test_401_headers_describe_the_anonymous_limit(self):
        one = self.get("/v1/categories", key=None)
        two = self.get("/v1/categories", key="bad")
        self.assertEqual(one.headers["X-RateLimit-Limit"], "600")
        self.assertEqual(int(one.headers["X-RateLimit-Remaining"]) - 1,
                         int(two.headers["X-RateLimit-Remaining"]))

    def test_anonymous_limit_per_address(self):
        limiter = self.app.extensions["petstore"].limiter
        limiter.anonymous_per_minute = 3
        for _ in range(3):
            self.assertEqual(self.get("/v1/categories", key="guess").status_code, 401)
        resp = self.get("/v1/categories", key="guess")
        self.assertError(resp, 429, "rate_limit_exceeded")
        self.assertGreaterEqual(int(resp.headers["Retry-After"]), 1)
        # another address and valid keys are unaffected
        other = self.client.get("/v1/categories", environ_base={"REMOTE_ADDR": "10.0.0.9"})
        self.assertEqual(other.status_code, 401)
        self.assertEqual(self.get("/v1/categories").status_code, 200)
        self.clock.advance(60)
        self.assertEqual(self.get("/v1/categories", key="guess").status_code, 401)

    def test_forwarded_for_does_not_change_the_client(self):
        limiter = self.app.extensions["petstore"].limiter
        limiter.anonymous_per_minute = 1
        self.get("/v1/categories", key=None)
        resp = self.get("/v1/categories", key=None, headers={"X-Forwarded-For": "10.1.1.1"})
        self.assertEqual(resp.status_code, 429)


if __name__ == "__main__":
    unittest.main()
