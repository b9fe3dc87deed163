"""Static files come from memory with a gzip copy made once, negotiated by
Accept-Encoding, each with its own ETag (issue 17, "Static files from
memory"); a content-named file (the bundle's) also with the brotli copy
its build wrote beside it (issue 32, "the board on a phone")."""
import gzip
import os
import shutil
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
        for ae in ("gzip", "br, gzip;q=0.5", "deflate, gzip", "x-gzip", "br,gzip"):
            gz = wp.request(port, "GET", "/app.js", headers={"Accept-Encoding": ae})
            self.assertEqual(gz.headers.get("content-encoding"), "gzip", ae)
            self.assertEqual(gzip.decompress(gz.body), plain.body)
            self.assertLess(len(gz.body), len(plain.body))
            self.assertNotEqual(gz.headers["etag"], plain.headers["etag"])
        # no brotli copy of a file not named by its content
        for ae in ("gzip;q=0", "identity", "br", "gzipped", "nogzip", "gzip;q=0.000"):
            r = wp.request(port, "GET", "/app.js", headers={"Accept-Encoding": ae})
            self.assertNotIn("content-encoding", r.headers, ae)
            self.assertEqual(r.body, plain.body)
        r = wp.request(port, "GET", "/app.js", headers={"Accept-Encoding": "gzip",
                                                 "If-None-Match": gz.headers["etag"]})
        self.assertEqual((r.status, r.body), (304, b""))
        r = wp.request(port, "GET", "/app.js", headers={"If-None-Match": gz.headers["etag"]})
        self.assertEqual(r.status, 200, "the gzip ETag does not validate the plain file")


BUNDLE = b"export const board = 'drawn';\n" * 40
# What the build wrote beside the bundle. The server sends the build's
# copy as it is and never decodes it, so any bytes smaller than the file
# stand for it here; tests/e2e/bundle.test.mjs has a browser decode the
# real one.
BUNDLE_BR = b"\x1b\x00brotli copy of the bundle"
# The build's gzip copy (NAME.gz, which nginx sends too): the same.
BUNDLE_GZ = b"\x1f\x8bgzip copy of the bundle"


class StaticBrotliTest(wp.ServerTestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = wp.make_tmpdir("wp-static-br-")
        cls.addClassCleanup(shutil.rmtree, cls.tmp, True)
        # written in this order: each copy after its file, as the build does
        root = wp.write_files(os.path.join(cls.tmp, "web"), {
            # the bundle and its copy
            "app-0123456789ab.js": BUNDLE,
            "app-0123456789ab.js.br": BUNDLE_BR,
            # a file not named by its content: a copy beside it is not its own
            "style.css": b"body { margin: 0; }\n" * 40,
            "style.css.br": BUNDLE_BR,
            # a copy older than its file (the file rewritten after the build)
            "old-0123456789ab.js": BUNDLE,
            "old-0123456789ab.js.br": BUNDLE_BR,
            # a copy that is a symbolic link (it could lead out of the root)
            "link-0123456789ab.js": BUNDLE,
            "elsewhere.br": BUNDLE_BR,
            # both copies the build writes
            "both-0123456789ab.js": BUNDLE,
            "both-0123456789ab.js.br": BUNDLE_BR,
            "both-0123456789ab.js.gz": BUNDLE_GZ,
            # a gzip copy beside a file not named by its content
            "plain.js": BUNDLE,
            "plain.js.gz": BUNDLE_GZ,
        })
        st = os.stat(os.path.join(root, "old-0123456789ab.js"))
        os.utime(os.path.join(root, "old-0123456789ab.js.br"),
                 ns=(st.st_atime_ns, st.st_mtime_ns - 10**9))
        os.symlink("elsewhere.br", os.path.join(root, "link-0123456789ab.js.br"))
        cls.web_root = root
        super().setUpClass()

    def get(self, path, ae=None, inm=None):
        h = {}
        if ae is not None:
            h["Accept-Encoding"] = ae
        if inm is not None:
            h["If-None-Match"] = inm
        return wp.request(self.server.port, "GET", path, headers=h)

    def test_brotli_copy_negotiated(self):
        path = "/app-0123456789ab.js"
        plain = self.get(path)
        gz = self.get(path, "gzip")
        self.assertEqual(plain.body, BUNDLE)
        self.assertEqual(gz.headers.get("content-encoding"), "gzip")
        # what Chromium sends: brotli is the smallest it takes
        for ae in ("gzip, deflate, br, zstd", "br", "br;q=1.0, gzip;q=0.5", "gzip,br"):
            r = self.get(path, ae)
            self.assertEqual(r.status, 200, ae)
            self.assertEqual(r.headers.get("content-encoding"), "br", ae)
            self.assertEqual(r.body, BUNDLE_BR, ae)
            self.assertEqual(r.headers.get("vary"), "Accept-Encoding")
            self.assertEqual(r.headers.get("cache-control"), "public, max-age=31536000, immutable")
        self.assertEqual(len({plain.headers["etag"], gz.headers["etag"], r.headers["etag"]}), 3,
                         "each representation its own ETag")
        # brotli refused, or a token that only contains "br": gzip, or the file
        for ae, want in (("br;q=0, gzip", "gzip"), ("br;q=0.0", None), ("brotli, gzip", "gzip"),
                         ("xbr", None), ("identity", None), ("", None)):
            r = self.get(path, ae)
            self.assertEqual(r.headers.get("content-encoding"), want, ae)
            self.assertEqual(gzip.decompress(r.body) if want else r.body, BUNDLE, ae)
        # the brotli ETag validates the brotli answer only
        br_etag = self.get(path, "br").headers["etag"]
        r = self.get(path, "br", br_etag)
        self.assertEqual((r.status, r.body), (304, b""))
        self.assertEqual(r.headers.get("etag"), br_etag)
        for ae in ("gzip", ""):
            r = self.get(path, ae, br_etag)
            self.assertEqual(r.status, 200, f"the brotli ETag does not validate {ae or 'the file'}")

    def test_the_builds_gzip_copy_is_sent_not_made_again(self):
        """A content-named file's NAME.gz is what gzip gets (warpostd does
        not compress what the build already did); beside any other file
        it is not taken, and warpostd makes its own."""
        path = "/both-0123456789ab.js"
        for ae, coding, body in (("gzip", "gzip", BUNDLE_GZ), ("br, gzip", "br", BUNDLE_BR),
                                 ("", None, BUNDLE)):
            r = self.get(path, ae)
            self.assertEqual(r.status, 200, ae)
            self.assertEqual(r.headers.get("content-encoding"), coding, ae)
            self.assertEqual(r.body, body, ae)
        r = self.get("/plain.js", "gzip")
        self.assertEqual(r.headers.get("content-encoding"), "gzip")
        self.assertEqual(gzip.decompress(r.body), BUNDLE)

    def test_no_copy_that_is_not_the_files_own(self):
        for path in ("/style.css", "/old-0123456789ab.js", "/link-0123456789ab.js"):
            r = self.get(path, "br, gzip")
            self.assertEqual(r.status, 200, path)
            self.assertEqual(r.headers.get("content-encoding"), "gzip", path)
            self.assertNotEqual(r.body, BUNDLE_BR, path)
            r = self.get(path, "br")
            self.assertNotIn("content-encoding", r.headers, path)


if __name__ == "__main__":
    wp.main()
