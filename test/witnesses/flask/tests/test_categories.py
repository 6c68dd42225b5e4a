import json
import unittest

from helpers import AppMixin

SEEDED = [
    {"id": 1, "name": "dog", "description": "Dogs of every breed"},
    {"id": 2, "name": "cat", "description": "Cats of every breed"},
    {"id": 3, "name": "rabbit", "description": "Rabbits and hares"},
]


class CategoryTests(AppMixin, unittest.TestCase):
    def list(self):
        resp = self.get("/v1/categories")
        self.assertEqual(resp.status_code, 200)
        self.assertEqual(resp.mimetype, "application/json")
        return resp.get_json()

    def test_seeded(self):
        self.assertEqual(self.list(), SEEDED)

    def test_create_with_and_without_description(self):
        resp = self.post({"name": "hamster", "description": "Small rodents kept as pets"})
        self.assertEqual(resp.status_code, 201)
        self.assertRateHeaders(resp)
        self.assertEqual(resp.get_json(),
                         {"id": 4, "name": "hamster", "description": "Small rodents kept as pets"})
        resp = self.post({"name": "parrot"})
        self.assertEqual(resp.get_json(), {"id": 5, "name": "parrot"})
        resp = self.post({"name": "parrot", "description": ""})
        self.assertEqual(resp.get_json(), {"id": 6, "name": "parrot", "description": ""})
        self.assertEqual([c["id"] for c in self.list()], [1, 2, 3, 4, 5, 6])
        self.assertEqual(self.list()[4], {"id": 5, "name": "parrot"})

    def test_strings_stored_exactly(self):
        name = "  \U0001F436 dög\u2028 \\ \"q\" \x01 "
        resp = self.post({"name": name})
        self.assertEqual(resp.status_code, 201)
        self.assertEqual(resp.get_json()["name"], name)
        self.assertEqual(self.list()[-1]["name"], name)

    def test_length_limits_count_characters(self):
        self.assertEqual(self.post({"name": "\U0001F436" * 100}).status_code, 201)
        self.assertEqual(self.post({"name": "x", "description": "é" * 500}).status_code, 201)
        self.assertError(self.post({"name": "x" * 101}), 400, "invalid_request")
        self.assertError(self.post({"name": "x", "description": "d" * 501}), 400, "invalid_request")

    def test_invalid_bodies(self):
        bad = [
            {}, {"description": "no name"}, {"name": ""}, {"name": "   "}, {"name": "\u3000\ufeff"},
            {"name": None}, {"name": 5}, {"name": ["dog"]}, {"name": "x", "description": None},
            {"name": "x", "description": 3}, {"name": "x", "extra": 1}, {"Name": "x"},
            {"name": "x", "Description": "y"}, {"name": "x", "ID": 9}, {"name": "x", "id": 9},
            [], ["name"], "dog", 1, None,
        ]
        for body in bad:
            with self.subTest(body=body):
                self.assertError(self.post(body), 400, "invalid_request")
        self.assertEqual(self.list(), SEEDED)

    def test_invalid_json_and_encoding(self):
        bad = [
            b"{", b"{'name': 'x'}", b'{"name": "x"} trailing', b'{"name": NaN}',
            b'{"name": "x", "description": Infinity}', b'{"name": "a", "name": "b"}',
            b'{"name": "\xff"}', b'{"name": "\xed\xa0\x80"}', b'\xef\xbb\xbf{"name": "x"}',
            b'{"name": "\\ud800"}', b'{"name": "a\\udc00b"}', b'{"name": "a\\u0000"}',
            b'{"name": "x", "description": "\\ud83d"}', b"[" * 5000 + b"]" * 5000,
        ]
        for raw in bad:
            with self.subTest(raw=raw[:40]):
                self.assertError(self.post_raw(raw), 400, "invalid_request")
        self.assertEqual(self.list(), SEEDED)

    def test_surrogate_pair_escape_is_a_character(self):
        resp = self.post_raw(b'{"name": "\\ud83d\\ude00"}')
        self.assertEqual(resp.status_code, 201)
        self.assertEqual(resp.get_json()["name"], "\U0001F600")

    def test_media_type(self):
        body = json.dumps({"name": "x"})
        for ctype in ("text/plain", "application/x-www-form-urlencoded", "application/jsonx",
                      "application/merge-patch+json", "application/json; charset=latin-1"):
            with self.subTest(ctype=ctype):
                self.assertError(self.post_raw(body, content_type=ctype), 415,
                                 "unsupported_media_type")
        self.assertError(self.post_raw(body, content_type=None), 415, "unsupported_media_type")
        for ctype in ("application/json; charset=utf-8", "Application/JSON", "application/json;charset=UTF-8"):
            with self.subTest(ctype=ctype):
                self.assertEqual(self.post_raw(body, content_type=ctype).status_code, 201)

    def test_empty_body(self):
        self.assertError(self.post_raw(b""), 400, "invalid_request")
        self.assertError(self.post_raw(b"", content_type=None), 400, "invalid_request")

    def test_body_size_limit(self):
        filler = "x" * (16384 - len(json.dumps({"name": "n", "description": ""})))
        exact = json.dumps({"name": "n", "description": filler}).encode()
        self.assertEqual(len(exact), 16384)
        # fits in the byte limit, but the description is too long: 400, not 413
        self.assertError(self.post_raw(exact), 400, "invalid_request")
        self.assertError(self.post_raw(exact + b" "), 413, "payload_too_large")
        self.assertEqual(self.list(), SEEDED)

    def test_body_over_limit_without_content_length(self):
        import io
        raw = b'{"name": "' + b"y" * 20000 + b'"}'
        resp = self.req("POST", "/v1/categories", headers={"Content-Type": "application/json"},
                        environ_overrides={"wsgi.input": io.BytesIO(raw), "wsgi.input_terminated": True})
        self.assertError(resp, 413, "payload_too_large")

    def test_undeclared_query_and_headers_change_nothing(self):
        resp = self.get("/v1/categories?limit=1&offset=2&sort=-id",
                        headers={"Accept": "text/html", "X-HTTP-Method-Override": "DELETE"})
        self.assertEqual(resp.get_json(), SEEDED)
        resp = self.req("POST", "/v1/categories?name=q", data=json.dumps({"name": "n"}),
                        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})
        self.assertEqual(resp.get_json(), {"id": 4, "name": "n"})


if __name__ == "__main__":
    unittest.main()
