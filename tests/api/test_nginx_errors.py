"""Every error nginx answers itself (nginx/warpost.conf.in) is an RFC 9457
problem document, application/problem+json, like warpostd's own; warpostd's
answers pass through unchanged; static files keep their caching headers and
carry the security headers."""
import gzip
import json
import os
import re
import socket
import sys
import threading
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import warpost as wp  # noqa: E402

CSP = ("default-src 'self'; script-src 'self' "
       "'sha256-B4vAsQoq7k0aYJZ9gwrPGHYoeIafGxrtg9VvSTULt+8='; img-src 'self' data:; "
       "style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "content-security-policy": CSP,
}


def assert_nginx_problem(reply, status, slug):
    """A problem document from nginx: also not cached, not sniffed."""
    doc = wp.assert_problem(reply, status, slug)
    if not doc["detail"]:
        raise AssertionError("empty detail: %r" % (reply,))
    if reply.headers.get("cache-control") != "no-store":
        raise AssertionError("expected Cache-Control: no-store: %r" % (reply,))
    if reply.headers.get("x-content-type-options") != "nosniff":
        raise AssertionError("expected X-Content-Type-Options: nosniff: %r" % (reply,))
    return doc


class SilentFcgi:
    """A Unix socket that accepts FastCGI connections and never answers:
    nginx times out on it (504)."""

    def __init__(self):
        self.dir = wp.make_tmpdir("wp-silent-fcgi-")
        self.path = os.path.join(self.dir, "silent.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(self.path)
        os.chmod(self.path, 0o666)   # nginx's workers may run as nobody
        self.sock.listen(16)
        self.conns = []
        self.stopped = False
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self.stopped:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(c)

    def stop(self):
        self.stopped = True
        for c in self.conns:
            c.close()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        wp.remove_tmpdir(self.dir)


class NginxErrorsTest(wp.NginxTestCase):
    """self.fcgi + self.nginx: warpostd's FastCGI front behind the shipped
    nginx configuration."""

    start_server = False

    def get(self, method, path, body=None, headers=None):
        return self.nginx.request(method, path, body, headers)

    # -- what nginx refuses before warpostd sees it -----------------------

    def test_trace_is_405(self):
        for path in ("/", "/app.js", "/api/health"):
            with self.subTest(path=path):
                assert_nginx_problem(self.get("TRACE", path), 405, "method-not-allowed")

    def test_10k_path_is_414(self):
        for prefix in ("/", "/api/"):
            with self.subTest(prefix=prefix):
                r = self.get("GET", prefix + "a" * 10240)
                assert_nginx_problem(r, 414, "uri-too-long")

    def test_10k_authorization_is_431(self):
        r = self.get("GET", "/api/me", headers={"Authorization": "Bearer " + "a" * 10240})
        assert_nginx_problem(r, 431, "header-too-large")

    def test_60k_if_none_match_is_431(self):
        for path in ("/app.js", "/api/health"):
            with self.subTest(path=path):
                r = self.get("GET", path, headers={"If-None-Match": '"%s"' % ("x" * 61440)})
                assert_nginx_problem(r, 431, "header-too-large")

    def test_post_to_static_file_is_405_with_allow(self):
        for method in ("POST", "PUT", "DELETE"):
            with self.subTest(method=method):
                r = self.get(method, "/app.js", b'{"a":1}', {"Content-Type": "application/json"})
                assert_nginx_problem(r, 405, "method-not-allowed")
                self.assertEqual(wp.allow_set(r), {"GET", "HEAD"}, r)

    def test_missing_static_file_is_404(self):
        for path in ("/no-such-file.html", "/no/such/dir/", "/no-such.js"):
            with self.subTest(path=path):
                assert_nginx_problem(self.get("GET", path), 404, "not-found")
        r = self.get("HEAD", "/no-such-file.html")
        self.assertEqual(r.status, 404, r)
        self.assertEqual(r.media_type, wp.PROBLEM_TYPE, r)
        self.assertEqual(r.body, b"", r)

    def test_directory_without_index_is_403(self):
        subdirs = [d for d in sorted(os.listdir(self.nginx.web_root))
                   if os.path.isdir(os.path.join(self.nginx.web_root, d))
                   and not os.path.exists(os.path.join(self.nginx.web_root, d, "index.html"))]
        if not subdirs:
            self.skipTest("web/ has no sub-directory without an index.html")
        assert_nginx_problem(self.get("GET", "/%s/" % subdirs[0]), 403, "forbidden")

    def test_nul_in_path_is_400_bad_path(self):
        assert_nginx_problem(self.get("GET", "/app.js%00"), 400, "bad-path")

    def test_malformed_request_line_is_400(self):
        r = wp.raw_request(self.nginx.port, b"GARBAGE\r\n\r\n")
        assert_nginx_problem(r, 400, "bad-path")

    def test_body_over_the_proxy_limit_is_413(self):
        body = b'{"name":"' + b"x" * (2 * 1024 * 1024) + b'"}'
        r = self.get("POST", "/api/players", body, {"Content-Type": "application/json"})
        assert_nginx_problem(r, 413, "body-too-large")

    def test_unknown_transfer_encoding_is_400_bad_framing(self):
        # nginx's own answer would be 501; warpostd calls an ambiguous body
        # length bad-framing (400), and so does nginx now
        for te in (b"gzip", b"chunked\r\nContent-Length: 3"):
            with self.subTest(te=te):
                r = wp.raw_request(self.nginx.port, b"POST /api/players HTTP/1.1\r\nHost: x\r\n"
                                   b"Transfer-Encoding: " + te + b"\r\nConnection: close\r\n\r\nabc")
                assert_nginx_problem(r, 400, "bad-framing")

    def test_http2_request_line_is_400(self):
        r = wp.raw_request(self.nginx.port, b"GET / HTTP/2.0\r\nHost: x\r\n\r\n")
        assert_nginx_problem(r, 400, "invalid-request")

    def test_failed_if_match_on_static_file_is_412(self):
        r = self.get("GET", "/app.js", headers={"If-Match": '"no-such-etag"'})
        assert_nginx_problem(r, 412, "precondition-failed")

    def test_range_is_ignored_on_static_files(self):
        with open(os.path.join(self.nginx.web_root, "app.js"), "rb") as f:
            whole = f.read()
        for rng in ("bytes=0-9", "bytes=%d-" % (len(whole) + 100)):
            with self.subTest(range=rng):
                r = self.get("GET", "/app.js", headers={"Range": rng})
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.body, whole)

    # -- warpostd's own answers pass unchanged ------------------------------

    def test_warpostd_problems_pass_unchanged(self):
        r = self.get("GET", "/api/no-such-route")
        doc = wp.assert_problem(r, 404, "not-found")
        self.assertNotEqual(doc["detail"], "There is no file at this path.", r)
        r = self.get("POST", "/api/health")
        doc = wp.assert_problem(r, 405, "method-not-allowed")
        self.assertNotIn("static file", doc["detail"], r)
        self.assertIn("GET", wp.allow_set(r), r)
        r = self.get("GET", "/api/health")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.media_type, "application/json", r)

    # -- static files ------------------------------------------------------

    def test_content_named_files_are_kept_a_year(self):
        """The bundle's files (named by a hash of their content) are kept by
        browsers for a year; every other file is revalidated (nginx's map,
        the same rule as warpostd's srv/core/static.c)."""
        root = wp.make_tmpdir("wp-nginx-web-")
        self.addCleanup(wp.remove_tmpdir, root)
        files = {"app-0123456789ab.js": "public, max-age=31536000, immutable",
                 "style-0123456789ab.css": "public, max-age=31536000, immutable",
                 "app-0123456789AB.js": "no-cache", "app.js": "no-cache",
                 "index.html": "no-cache"}
        wp.write_files(root, {name: "/* %s */\n" % name for name in files})
        nginx = wp.Nginx(self.fcgi.socket_path, web_root=root)
        self.addCleanup(nginx.stop)
        nginx.start()
        for name, want in files.items():
            with self.subTest(name=name):
                r = nginx.request("GET", "/" + name)
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.headers.get("cache-control"), want, r)
                for k, v in SECURITY_HEADERS.items():
                    self.assertEqual(r.headers.get(k), v, (k, r))

    def test_content_named_files_are_sent_compressed(self):
        """The bundle's files go out as the gzip copy the build wrote beside
        each (NAME.gz, scripts/webbuild/build.mjs; nginx's gzip_static), to
        a client that accepts gzip; to one that does not, as they are."""
        root = wp.make_tmpdir("wp-nginx-web-")
        self.addCleanup(wp.remove_tmpdir, root)
        body = b"export const board = 'drawn';\n" * 40
        name = "app-0123456789ab.js"
        wp.write_files(root, {name: body, name + ".gz": gzip.compress(body, 9)})
        nginx = wp.Nginx(self.fcgi.socket_path, web_root=root)
        self.addCleanup(nginx.stop)
        nginx.start()
        r = nginx.request("GET", "/" + name, headers={"Accept-Encoding": "gzip, deflate, br"})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.headers.get("content-encoding"), "gzip", r)
        self.assertEqual(r.headers.get("vary"), "Accept-Encoding", r)
        self.assertEqual(gzip.decompress(r.body), body)
        self.assertEqual(r.headers.get("cache-control"), "public, max-age=31536000, immutable", r)
        self.assertEqual(r.media_type, "text/javascript", r)
        r = nginx.request("GET", "/" + name)
        self.assertEqual(r.status, 200, r)
        self.assertNotIn("content-encoding", r.headers, r)
        self.assertEqual(r.body, body)

    def test_static_files_keep_caching_and_send_security_headers(self):
        for name in ("index.html", "app.js", "style.css"):
            with self.subTest(name=name):
                r = self.get("GET", "/" + name)
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.headers.get("cache-control"), "no-cache", r)
                etag = r.headers.get("etag")
                self.assertTrue(etag, r)
                for k, v in SECURITY_HEADERS.items():
                    self.assertEqual(r.headers.get(k), v, (k, r))
                r2 = self.get("GET", "/" + name, headers={"If-None-Match": etag})
                self.assertEqual(r2.status, 304, r2)
                self.assertEqual(r2.headers.get("etag"), etag, r2)
                for k, v in SECURITY_HEADERS.items():
                    self.assertEqual(r2.headers.get(k), v, (k, r2))
        r = self.get("GET", "/")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.headers.get("content-security-policy"), CSP, r)


class NginxGatewayErrorsTest(unittest.TestCase):
    """502 and 504: nginx in front of a socket that is absent, and of one
    that never answers. No warpostd or database is needed."""

    def start_nginx(self, socket_path, templates=None):
        n = wp.Nginx(socket_path, templates=templates)
        self.addCleanup(n.stop)
        n.start()
        return n

    def test_absent_socket_is_502(self):
        d = wp.make_tmpdir("wp-no-fcgi-")
        self.addCleanup(wp.remove_tmpdir, d)
        n = self.start_nginx(os.path.join(d, "absent.sock"))
        for path in ("/api/health", "/metrics"):
            with self.subTest(path=path):
                assert_nginx_problem(n.request("GET", path), 502, "bad-gateway")
        r = n.request("POST", "/api/players", {"name": "x"})
        assert_nginx_problem(r, 502, "bad-gateway")
        # static files are still served
        self.assertEqual(n.request("GET", "/app.js").status, 200)

    def test_silent_backend_is_504(self):
        # The shipped configuration waits 75 s for warpostd (long-polls last
        # up to 60 s); this copy of it waits 1 s and is otherwise the same.
        tpl = wp.make_tmpdir("wp-nginx-tpl-")
        self.addCleanup(wp.remove_tmpdir, tpl)
        for name in ("nginx.conf.in", "warpost.conf.in"):
            with open(os.path.join(wp.NGINX_DIR, name)) as f:
                text = f.read()
            if name == "warpost.conf.in":
                text, n = re.subn(r"fastcgi_read_timeout \d+s;", "fastcgi_read_timeout 1s;", text)
                self.assertEqual(n, 1, "fastcgi_read_timeout not found in warpost.conf.in")
            with open(os.path.join(tpl, name), "w") as f:
                f.write(text)
        silent = SilentFcgi()
        self.addCleanup(silent.stop)
        n = self.start_nginx(silent.path, templates=tpl)
        r = n.request("GET", "/api/health", timeout=20)
        assert_nginx_problem(r, 504, "gateway-timeout")


class NginxConfigTest(unittest.TestCase):
    """The error pages of the template, read as text: every status nginx
    may answer itself has one, and each leads to a valid problem document."""

    @classmethod
    def setUpClass(cls):
        with open(os.path.join(wp.NGINX_DIR, "warpost.conf.in")) as f:
            cls.text = f.read()

    def locations(self):
        """{uri: (status, document)} of the internal problem locations."""
        out = {}
        rx = re.compile(r"location = (/__warpost_problem/[a-z-]+) \{(.*?)\n    \}", re.S)
        for uri, body in rx.findall(self.text):
            self.assertIn("internal;", body, uri)
            self.assertIn("default_type application/problem+json;", body, uri)
            m = re.search(r"return (\d{3}) '(.*)';", body)
            self.assertIsNotNone(m, uri)
            doc = json.loads(m.group(2).replace("\\'", "'"))
            out[uri] = (int(m.group(1)), doc)
        return out

    def error_pages(self, block):
        return {int(code): (int(over) if over else None, uri) for code, over, uri in
                re.findall(r"^\s*error_page (\d{3}) (?:=(\d{3}) )?(\S+);", block, re.M)}

    def test_every_error_page_leads_to_a_problem(self):
        locs = self.locations()
        self.assertTrue(locs)
        for uri, (status, doc) in locs.items():
            with self.subTest(uri=uri):
                self.assertEqual(set(doc), {"type", "title", "status", "detail"}, doc)
                self.assertEqual(doc["status"], status, doc)
                self.assertRegex(doc["type"], r"^urn:warpost:problem:[a-z0-9]+(-[a-z0-9]+)*$")
                self.assertTrue(doc["title"] and doc["detail"], doc)
        server = self.text.split("    location ", 1)[0]
        static = re.search(r"    location / \{(.*?)\n    \}", self.text, re.S).group(1)
        pages_server = self.error_pages(server)
        pages_static = self.error_pages(static)
        want = {400, 403, 404, 405, 412, 413, 414, 494, 500, 501, 502, 503, 504, 505}
        self.assertEqual(set(pages_server), want)
        # `location /` has error pages of its own, so it must repeat them all
        self.assertEqual(set(pages_static), want)
        for pages in (pages_server, pages_static):
            for code, (over, uri) in pages.items():
                with self.subTest(code=code, uri=uri):
                    self.assertIn(uri, locs)
                    self.assertEqual(locs[uri][0], over or code)
        self.assertEqual(pages_server[504][1], "/__warpost_problem/gateway-timeout")
        self.assertEqual(locs["/__warpost_problem/gateway-timeout"][1]["type"],
                         "urn:warpost:problem:gateway-timeout")


if __name__ == "__main__":
    wp.main()
