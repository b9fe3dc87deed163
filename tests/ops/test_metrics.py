"""/metrics is valid Prometheus text format: checked by `promtool check
metrics` (Debian's prometheus package, scripts/deps.sh ops), which parses it
and lints it (HELP and TYPE present, counters end in _total, ...), through
warpostd's HTTP front and through nginx (FastCGI). promtool itself is first
shown broken input, so a silent promtool cannot pass the test.
Also: the counters move with the traffic that drives them."""
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import warpost as wp  # noqa: E402


def promtool(body):
    exe = shutil.which("promtool")
    if exe is None:
        raise AssertionError("promtool not found: install Debian's prometheus package "
                             "(scripts/deps.sh ops)")
    return subprocess.run([exe, "check", "metrics"], input=body, capture_output=True,
                          timeout=60)


def samples(body):
    out = {}
    for line in body.decode().splitlines():
        m = re.match(r"^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


class MetricsTest(wp.NginxTestCase):

    def test_promtool_refuses_broken_metrics(self):
        for bad in (b'a_total{x="1" 1\n', b"# TYPE foo counter\nfoo 1\n",
                    b"# HELP x_total h\n# TYPE x_total counter\nx_total one\n"):
            with self.subTest(bad=bad):
                self.assertNotEqual(promtool(bad).returncode, 0)

    def check(self, front):
        r = front.request("GET", "/metrics")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(wp.norm_content_type(r.headers.get("content-type")),
                         "text/plain;version=0.0.4;charset=utf-8")
        p = promtool(r.body)
        self.assertEqual(p.returncode, 0, "promtool check metrics:\n%s%s\n--- body ---\n%s" % (
            p.stdout.decode(), p.stderr.decode(), r.body.decode()))
        self.assertEqual(p.stdout + p.stderr, b"", "promtool has remarks")
        return samples(r.body)

    def test_http_front(self):
        self.check(self.server)

    def test_through_nginx(self):
        self.check(self.nginx)

    def test_counters_move(self):
        before = self.check(self.server)
        for _ in range(3):
            self.req("GET", "/api/no-such-route")
        self.assertEqual(self.req("POST", "/api/players", {"name": "m"}).status, 201)
        after = self.check(self.server)
        key4 = 'warpost_http_responses_total{class="4xx"}'
        key2 = 'warpost_http_responses_total{class="2xx"}'
        self.assertGreaterEqual(after[key4] - before[key4], 3)
        self.assertGreaterEqual(after[key2] - before[key2], 1)
        self.assertGreater(after["warpost_db_queries_total"], before["warpost_db_queries_total"])


if __name__ == "__main__":
    wp.main()
