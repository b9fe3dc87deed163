"""Static files come from memory with a gzip copy made once, negotiated by
Accept-Encoding, each with its own ETag (issue 17, "Static files from
memory")."""
import gzip
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402


class StaticGzipTest(wp.ServerTestCase):
    def test_static_gzip_negotiated(self):
        port = self.server.port
        plain = wp.request(port, "GET", "/app.js")
        self.assertEqual(plain.status, 200)
        self.assertNotIn("content-encoding", plain.headers)
        self.assertEqual(plain.headers.get("vary"), "Accept-Encoding")
        for ae in ("gzip", "br, gzip;q=0.5", "deflate, gzip"):
            gz = wp.request(port, "GET", "/app.js", headers={"Accept-Encoding": ae})
            self.assertEqual(gz.headers.get("content-encoding"), "gzip", ae)
            self.assertEqual(gzip.decompress(gz.body), plain.body)
            self.assertLess(len(gz.body), len(plain.body))
            self.assertNotEqual(gz.headers["etag"], plain.headers["etag"])
        for ae in ("gzip;q=0", "identity", "br"):
            r = wp.request(port, "GET", "/app.js", headers={"Accept-Encoding": ae})
            self.assertNotIn("content-encoding", r.headers, ae)
            self.assertEqual(r.body, plain.body)
        r = wp.request(port, "GET", "/app.js", headers={"Accept-Encoding": "gzip",
                                                 "If-None-Match": gz.headers["etag"]})
        self.assertEqual((r.status, r.body), (304, b""))
        r = wp.request(port, "GET", "/app.js", headers={"If-None-Match": gz.headers["etag"]})
        self.assertEqual(r.status, 200, "the gzip ETag does not validate the plain file")


if __name__ == "__main__":
    wp.main()
