"""Static files from WEB_ROOT: types, ETag/304, HEAD, and path traversal."""
import os
import random
import shutil
import socket
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402

# 1x1 transparent PNG
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")
SECRET = b"TOP-SECRET-" + os.urandom(8).hex().encode()

FILES = {
    "index.html": (b"<!doctype html><title>t</title><p>index " + os.urandom(4).hex().encode(),
                   "text/html; charset=utf-8"),
    "app.js": (b"console.log('hi');\n", "text/javascript; charset=utf-8"),
    "style.css": (b"body { color: red }\n", "text/css; charset=utf-8"),
    "img.svg": (b'<svg xmlns="http://www.w3.org/2000/svg"/>', "image/svg+xml"),
    "data.json": (b'{"a": 1}', "application/json"),
    "pic.png": (PNG, "image/png"),
    "blob.xyz": (b"\x00\x01\x02binary", "application/octet-stream"),
    "NOEXT": (b"no extension", "application/octet-stream"),
    "sub/page.js": (b"var x = 1;\n", "text/javascript; charset=utf-8"),
    "big.bin": (random.Random(7).randbytes(300 * 1024), "application/octet-stream"),
}


class StaticTest(wp.ServerTestCase):

    @classmethod
    def setUpClass(cls):
        # <tmp>/secret.txt (outside), <tmp>/web (WEB_ROOT) with symlinks out
        cls.tmp = wp.make_tmpdir("wp-static-")
        cls.addClassCleanup(shutil.rmtree, cls.tmp, True)
        root = wp.write_files(os.path.join(cls.tmp, "web"),
                              {name: data for name, (data, _) in FILES.items()})
        outside = os.path.join(cls.tmp, "outside")
        os.makedirs(outside)
        for p in (os.path.join(cls.tmp, "secret.txt"), os.path.join(outside, "secret.txt")):
            with open(p, "wb") as f:
                f.write(SECRET)
        os.symlink(os.path.join(cls.tmp, "secret.txt"), os.path.join(root, "leak.txt"))
        os.symlink("../secret.txt", os.path.join(root, "rel-leak.txt"))
        os.symlink(outside, os.path.join(root, "leakdir"))
        os.symlink("/etc/passwd", os.path.join(root, "passwd.txt"))
        cls.web_root = root
        super().setUpClass()

    def test_types_and_bodies(self):
        for name, (data, ctype) in FILES.items():
            with self.subTest(name=name):
                r = self.req("GET", "/" + name)
                self.assertEqual(r.status, 200, r)
                self.assertEqual(wp.norm_content_type(r.headers.get("content-type")),
                                 wp.norm_content_type(ctype), r)
                self.assertEqual(r.body, data, "body differs from the file")
                self.assertTrue(r.headers.get("etag"), r)
                self.assertEqual(r.headers.get("cache-control", "").lower(), "no-cache", r)

    def test_root_is_index(self):
        r = self.req("GET", "/")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(wp.norm_content_type(r.headers.get("content-type")),
                         "text/html;charset=utf-8", r)
        self.assertEqual(r.body, FILES["index.html"][0])

    def test_root_with_query(self):
        r = self.req("GET", "/?utm=1")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.body, FILES["index.html"][0])

    def test_etag_304(self):
        for name in ("index.html", "pic.png", "app.js"):
            with self.subTest(name=name):
                r = self.req("GET", "/" + name)
                etag = r.headers["etag"]
                r2 = self.req("GET", "/" + name, headers={"If-None-Match": etag})
                self.assertEqual(r2.status, 304, r2)
                self.assertEqual(r2.body, b"", r2)
                self.assertEqual(r2.headers.get("etag"), etag, r2)
                # a list holding it matches too (RFC 9110 13.1.2)
                r3 = self.req("GET", "/" + name, headers={"If-None-Match": '"nope", ' + etag})
                self.assertEqual(r3.status, 304, r3)
                r4 = self.req("GET", "/" + name, headers={"If-None-Match": '"not-the-etag"'})
                self.assertEqual(r4.status, 200, r4)
                self.assertEqual(r4.body, FILES[name][0])

    def test_304_has_no_body_on_the_wire(self):
        etag = self.req("GET", "/app.js").headers["etag"]
        raw = wp.raw_exchange(self.server.port, wp.http_request_bytes(
            "GET", "/app.js", {"If-None-Match": etag}))
        head, sep, rest = raw.partition(b"\r\n\r\n")
        self.assertTrue(raw.startswith(b"HTTP/1.1 304"), raw)
        self.assertEqual(rest, b"", raw)

    def test_etag_changes_with_content(self):
        path = os.path.join(self.web_root, "changing.txt")
        with open(path, "wb") as f:
            f.write(b"one")
        r1 = self.req("GET", "/changing.txt")
        self.assertEqual(r1.body, b"one")
        with open(path, "wb") as f:
            f.write(b"second version")
        r2 = self.req("GET", "/changing.txt")
        self.assertEqual(r2.body, b"second version")
        self.assertNotEqual(r1.headers["etag"], r2.headers["etag"])
        r3 = self.req("GET", "/changing.txt", headers={"If-None-Match": r1.headers["etag"]})
        self.assertEqual(r3.status, 200, r3)

    def test_a_file_replaced_by_rename_is_served_new(self):
        """A file kept in memory and answered from a kept response (issue
        17) is seen replaced the way deployments replace files: a new file
        renamed over it, or deleted and written again."""
        path = os.path.join(self.web_root, "swapped.txt")
        with open(path, "wb") as f:
            f.write(b"first")
        for _ in range(2):  # the second answer is the kept one
            self.assertEqual(self.req("GET", "/swapped.txt").body, b"first")
        with open(path + ".new", "wb") as f:
            f.write(b"renamed")
        os.replace(path + ".new", path)
        self.assertEqual(self.req("GET", "/swapped.txt").body, b"renamed")
        os.unlink(path)
        with open(path, "wb") as f:
            f.write(b"rewritten")
        self.assertEqual(self.req("GET", "/swapped.txt").body, b"rewritten")

    def test_head(self):
        for name in ("index.html", "pic.png", "big.bin"):
            with self.subTest(name=name):
                get = self.req("GET", "/" + name)
                raw = wp.raw_exchange(self.server.port, wp.http_request_bytes("HEAD", "/" + name))
                head, sep, rest = raw.partition(b"\r\n\r\n")
                self.assertTrue(sep, raw)
                self.assertEqual(rest, b"", "HEAD sent a body: %r" % raw[:300])
                r = wp.parse_reply(raw)
                self.assertEqual(r.status, 200, raw)
                for h in ("content-type", "etag", "cache-control"):
                    self.assertEqual(r.headers.get(h), get.headers.get(h), h)
                if "content-length" in r.headers:
                    self.assertEqual(int(r.headers["content-length"]), len(FILES[name][0]))

    def test_missing_file(self):
        for path in ("/nope.html", "/sub/nope.js", "/nope/", "/index.html/x"):
            with self.subTest(path=path):
                self.assertProblem(self.req("GET", path), 404, "not-found")

    def test_post_to_static_405(self):
        for path in ("/", "/index.html", "/app.js", "/nope.html"):
            with self.subTest(path=path):
                r = self.req("POST", path, {"a": 1})
                self.assertProblem(r, 405, "method-not-allowed")
                self.assertEqual(wp.allow_set(r), {"GET", "HEAD"}, r)
        for method in ("PUT", "DELETE"):
            r = self.req(method, "/index.html")
            self.assertProblem(r, 405, "method-not-allowed")
            self.assertEqual(wp.allow_set(r), {"GET", "HEAD"}, r)

    TRAVERSALS = [
        "/../etc/passwd",
        "/../../../../../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E%2Fetc%2Fpasswd",
        "/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/a/..%2f..%2fetc/passwd",
        "/sub/..%2f..%2f..%2f..%2f..%2fetc/passwd",
        "/..%5c..%5cetc%5cpasswd",
        "/.%2e/.%2e/.%2e/.%2e/etc/passwd",
        "//etc/passwd",
        "/%2fetc%2fpasswd",
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/sub/../../secret.txt",
        "/sub/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/sub%2f..%2f..%2fsecret.txt",
        "/leak.txt",
        "/rel-leak.txt",
        "/leakdir/secret.txt",
        "/passwd.txt",
        "/sub/../leak.txt",
    ]

    def test_traversal(self):
        for path in self.TRAVERSALS:
            with self.subTest(path=path):
                r = self.req("GET", path)
                self.assertIn(r.status, (400, 404), r)
                self.assertNotIn(SECRET, r.body)
                self.assertNotIn(b"root:x:0:0", r.body)
                self.assertEqual(r.media_type, wp.PROBLEM_TYPE, r)

    def test_traversal_raw(self):
        # as sent by a client that does not normalise anything
        for target in (b"/../secret.txt", b"/./../secret.txt", b"/sub/../../secret.txt",
                       b"/..\\secret.txt", b"/sub/..\\..\\secret.txt", b"\\..\\secret.txt",
                       b"../secret.txt", b"secret.txt", b"/web/../secret.txt"):
            with self.subTest(target=target):
                r = wp.raw_request(self.server.port, b"GET " + target + b" HTTP/1.1\r\n"
                                   b"Host: x\r\nConnection: close\r\n\r\n")
                self.assertIn(r.status, (400, 404, None), r)
                self.assertNotIn(SECRET, r.body)

    def test_head_traversal(self):
        r = self.req("HEAD", "/leak.txt")
        self.assertIn(r.status, (400, 404), r)

    def test_dot_paths_inside_root_still_work(self):
        # normalising that stays inside WEB_ROOT is not traversal; either
        # the file or a refusal is fine, never anything from outside
        for path in ("/sub/../index.html", "/./index.html"):
            with self.subTest(path=path):
                r = self.req("GET", path)
                self.assertIn(r.status, (200, 400, 404), r)
                if r.status == 200:
                    self.assertEqual(r.body, FILES["index.html"][0])

    def test_a_slow_reader_keeps_the_bytes_it_was_lent(self):
        """Issue 26, HTTP: static files are lent to the answer, not copied.
        A client reading slowly gets the whole version it asked for while
        the file is replaced, its new version served and the kept answers
        pushed out by other files: the bytes stay alive until the answer
        is sent (a file kept in memory, and one over the kept size, read
        for each request)."""
        for name, size in (("lent-kept.bin", 900 * 1024), ("lent-big.bin", 3 << 20)):
            with self.subTest(name=name):
                path = os.path.join(self.web_root, name)
                old = random.Random(size).randbytes(size)
                with open(path, "wb") as f:
                    f.write(old)
                s = socket.socket()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.settimeout(15)
                try:
                    s.connect(("127.0.0.1", self.server.port))
                    s.sendall(b"GET /%s HTTP/1.1\r\nHost: x\r\n\r\n" % name.encode())
                    self.assertTrue(s.recv(1, socket.MSG_PEEK), "the answer has begun")
                    with open(path + ".new", "wb") as f:
                        f.write(b"newer")
                    os.replace(path + ".new", path)
                    self.assertEqual(self.req("GET", "/" + name).body, b"newer")
                    for i in range(40):
                        other = "lent-other-%d.txt" % i
                        with open(os.path.join(self.web_root, other), "wb") as f:
                            f.write(b"other %d" % i)
                        for _ in range(2):
                            self.assertEqual(self.req("GET", "/" + other).status, 200)
                    r = wp.parse_reply(wp.read_reply(s, timeout=30))
                    self.assertEqual(r.status, 200, r)
                    self.assertTrue(r.body == old, "%d bytes of %d, not the version asked for"
                                    % (len(r.body), size))
                finally:
                    s.close()


class RepoWebRootTest(wp.ServerTestCase):
    """The real web/ directory of the repository is served."""

    def test_index(self):
        with open(os.path.join(wp.WEB_DIR, "index.html"), "rb") as f:
            want = f.read()
        r = self.req("GET", "/")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.body, want)


if __name__ == "__main__":
    wp.main()
