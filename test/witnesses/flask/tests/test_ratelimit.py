import unittest

from helpers import START, AppMixin

MINUTE_END = (int(START) // 60 + 1) * 60
DAY_END = (int(START) // 86400 + 1) * 86400


class RateLimitTests(AppMixin, unittest.TestCase):
    def headers(self, resp):
        return tuple(int(resp.headers[h]) for h in
                     ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"))

    def test_headers_describe_window_with_fewer_left(self):
        resp = self.get("/v1/categories", key="free-key-123")
        self.assertEqual(self.headers(resp), (60, 59, MINUTE_END))
        resp = self.get("/v1/categories", key="tiny-ent-key")  # 10/min, 5/day
        self.assertEqual(self.headers(resp), (5, 4, DAY_END))

    def test_tie_describes_day_window(self):
        limiter = self.app.extensions["petstore"].limiter
        from petstore.config import ApiKey
        key = ApiKey("x", "enterprise", 3, 3)
        decision = limiter.check_key(key, START)
        self.assertEqual((decision.limit, decision.remaining, decision.reset), (3, 2, DAY_END))

    def test_plan_limits(self):
        for key, limit in (("free-key-123", 60), ("pro-key-456", 300), ("biz-key-789", 1000),
                           ("ent-key-000", 5000)):
            resp = self.get("/v1/store/orders", key=key)
            self.assertEqual(int(resp.headers["X-RateLimit-Limit"]), limit, key)

    def test_minute_limit_then_429_then_reset(self):
        for i in range(60):
            resp = self.get("/v1/categories", key="free-key-123")
            self.assertEqual(resp.status_code, 200)
        self.assertEqual(self.headers(resp), (60, 0, MINUTE_END))
        self.clock.advance(10)
        resp = self.get("/v1/categories", key="free-key-123")
        body = self.assertError(resp, 429, "rate_limit_exceeded")
        self.assertNotIn("free-key-123", body["message"])
        self.assertEqual(int(resp.headers["Retry-After"]), MINUTE_END - int(self.clock.now))
        self.assertEqual(self.headers(resp), (60, 0, MINUTE_END))
        # other keys are independent
        self.assertEqual(self.get("/v1/categories", key="pro-key-456").status_code, 200)
        # a new minute starts afresh; the 429s counted in no window (day: 60 used)
        self.clock.now = MINUTE_END
        resp = self.get("/v1/categories", key="free-key-123")
        self.assertEqual(resp.status_code, 200)
        self.assertEqual(self.headers(resp), (60, 59, MINUTE_END + 60))
        self.assertEqual(self.app.extensions["petstore"].limiter._keys["free-key-123"].day_count, 61)

    def test_every_outcome_counts(self):
        self.get("/v1/categories", key="tiny-ent-key")                        # 200
        self.get("/nowhere", key="tiny-ent-key")                              # 404
        self.req("PUT", "/v1/categories", key="tiny-ent-key")                 # 405
        self.post_raw(b"{", key="tiny-ent-key")                               # 400
        resp = self.post_raw(b"x", content_type="text/plain", key="tiny-ent-key")  # 415
        self.assertEqual(self.headers(resp), (5, 0, DAY_END))
        resp = self.get("/v1/categories", key="tiny-ent-key")
        self.assertError(resp, 429, "rate_limit_exceeded")
        self.assertEqual(int(resp.headers["Retry-After"]), DAY_END - int(START))
        self.assertIn("per-day", resp.get_json()["message"])
        self.clock.advance(120)  # the minute resets, the day does not
        self.assertEqual(self.get("/v1/categories", key="tiny-ent-key").status_code, 429)

    def test_ban_after_repeated_requests(self):
        limiter = self.app.extensions["petstore"].limiter
        limiter.ban_after, limiter.ban_seconds = 3, 300
        for _ in range(60):
            self.get("/v1/categories", key="free-key-123")
        for _ in range(3):
            self.assertError(self.get("/v1/categories", key="free-key-123"), 429, "rate_limit_exceeded")
        resp = self.get("/v1/categories", key="free-key-123")
        self.assertError(resp, 429, "temporarily_banned")
        self.assertEqual(resp.headers["Retry-After"], "300")
        self.clock.advance(100)  # a new minute, but still banned
        resp = self.get("/v1/categories", key="free-key-123")
        self.assertError(resp, 429, "temporarily_banned")
        self.assertEqual(resp.headers["Retry-After"], "200")
        self.clock.advance(200)
        self.assertEqual(self.get("/v1/categories", key="free-key-123").status_code, 200)


if __name__ == "__main__":
    unittest.main()
