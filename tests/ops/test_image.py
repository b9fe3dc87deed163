"""The container image (Dockerfile), built and run for real.

Builds the image with podman (scripts/build-image.sh: cached layers, so a
rebuild without changes takes seconds), checks its configuration (non-root
user, health check, entrypoint, no compiler in the final stage), then runs
the image's own file system: podman create + podman mount + chroot, because
`podman run` cannot start containers here (no CAP_SYS_RESOURCE). Inside it,
as the image's user and with the image's environment, the entrypoint starts
warpostd (FastCGI) and nginx against a test PostgreSQL on the host's
loopback; the test checks /api/health, a static page and a posted turn
through nginx, and the image's health check in both roles.

Skipped (exit 77) where podman is not installed, or where the base image is
missing and this is not root (scripts/container-base.sh makes it as root).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import warpost as wp  # noqa: E402

SKIP = 77
TAG = os.environ.get("WP_IMAGE_TAG", "localhost/warpost:test")
UID = 10001


def run(cmd, timeout=600, check=True, **kw):
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, **kw)
    if check and r.returncode != 0:
        raise AssertionError("%s failed (%d):\n%s\n%s" % (
            " ".join(cmd), r.returncode, r.stdout.decode(errors="replace")[-3000:],
            r.stderr.decode(errors="replace")[-3000:]))
    return r


def tcp_url(admin_url, dbname):
    """The libpq URL of the test cluster over TCP on 127.0.0.1 (the chroot
    cannot see the host's socket directory)."""
    m = re.search(r"[?&]port=(\d+)", admin_url)
    if not m:
        raise AssertionError("the test cluster has no TCP port: %s" % admin_url)
    return "postgresql://postgres@127.0.0.1:%s/%s" % (m.group(1), dbname)


class Rootfs:
    """The file system of a container made from the image, mounted, with
    /dev and /proc inside so that the entrypoint's /dev/stdout links work."""

    LABEL = "warpost-ops-test=1"

    @classmethod
    def remove_stale(cls):
        """Containers a killed earlier run left behind (with their mounts)."""
        ids = run(["podman", "ps", "-a", "-q", "--filter", "label=" + cls.LABEL],
                  check=False).stdout.decode().split()
        for cid in ids:
            r = run(["podman", "mount", cid], check=False)
            path = r.stdout.decode().strip()
            if path:
                for sub in ("proc", "dev"):
                    subprocess.run(["umount", os.path.join(path, sub)], capture_output=True)
            subprocess.run(["podman", "umount", "-f", cid], capture_output=True)
            subprocess.run(["podman", "rm", "-f", cid], capture_output=True)

    def __init__(self, tag):
        self.remove_stale()
        self.cid = run(["podman", "create", "--label", self.LABEL, tag]).stdout.decode().strip()
        self.path = run(["podman", "mount", self.cid]).stdout.decode().strip()
        self.mounts = []
        for src, dst, args in (("/dev", "dev", ["--bind"]), ("proc", "proc", ["-t", "proc"])):
            target = os.path.join(self.path, dst)
            run(["mount"] + args + [src, target])
            self.mounts.append(target)

    def spawn(self, argv, env, log):
        """argv run inside, as the image's user, with exactly env."""
        cmd = ["chroot", "--userspec=%d:%d" % (UID, UID), self.path, "/usr/bin/env", "-i"] + \
              ["%s=%s" % kv for kv in env.items()] + argv
        with open(log, "wb") as f:
            # nginx reopens /dev/stderr (a link to /proc/self/fd/2) as the
            # image's user: in a container that is a pipe; here, this file
            os.chmod(log, 0o666)
            return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT)

    def run(self, argv, env, timeout=30):
        cmd = ["chroot", "--userspec=%d:%d" % (UID, UID), self.path, "/usr/bin/env", "-i"] + \
              ["%s=%s" % kv for kv in env.items()] + argv
        return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)

    def close(self):
        for m in reversed(self.mounts):
            subprocess.run(["umount", m], capture_output=True)
        subprocess.run(["podman", "umount", self.cid], capture_output=True)
        subprocess.run(["podman", "rm", "-f", self.cid], capture_output=True)


class ImageTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        t0 = time.monotonic()
        # A cold build is minutes of apt and a compile (over 8 beside other
        # work once), not a hang: a generous limit (ctest's is 2400 s).
        r = run(["bash", os.path.join(wp.REPO, "scripts", "build-image.sh"), TAG], timeout=2100)
        cls.build_seconds = time.monotonic() - t0
        sys.stderr.write(r.stderr.decode(errors="replace").splitlines()[-1] + "\n")
        cls.inspect = json.loads(run(["podman", "image", "inspect", TAG]).stdout)[0]
        # podman's JSON leaves the health check out; its template has it
        cls.inspect["Config"]["Healthcheck"] = json.loads(run(
            ["podman", "image", "inspect", "--format", "{{json .Config.Healthcheck}}", TAG]).stdout)
        cls.tmp = wp.make_tmpdir("wp-image-")
        cls.addClassCleanup(wp.remove_tmpdir, cls.tmp)
        cls.root = Rootfs(TAG)
        cls.addClassCleanup(cls.root.close)
        cls.procs = []
        cls.addClassCleanup(cls._stop_all)

        cls.pg = wp.PgCluster.shared()
        cls.db = cls.pg.create_database()
        cls.addClassCleanup(cls.db.drop)
        # The image's own environment (ENV lines), then the test's settings.
        env = dict(e.split("=", 1) for e in cls.inspect["Config"]["Env"])
        cls.port = wp.free_port()
        env.update({"DATABASE_URL": tcp_url(cls.pg.admin_url, cls.db.name),
                    "FCGI_SOCKET": "/run/warpost/app.sock",
                    "PORT": str(cls.port), "NGINX_LISTEN": "127.0.0.1",
                    "THREADS": "4"})
        cls.env = env
        entry = cls.inspect["Config"]["Entrypoint"]
        cls.app = cls.root.spawn(entry + ["warpostd"], env, os.path.join(cls.tmp, "app.log"))
        cls.procs.append(cls.app)
        sock = os.path.join(cls.root.path, "run/warpost/app.sock")
        if not wp.wait_until(lambda: os.path.exists(sock) or cls.app.poll() is not None, 20):
            raise AssertionError("warpostd made no socket:\n" + cls.log("app"))
        if cls.app.poll() is not None:
            raise AssertionError("warpostd exited:\n" + cls.log("app"))
        cls.web = cls.root.spawn(entry + ["nginx"], env, os.path.join(cls.tmp, "web.log"))
        cls.procs.append(cls.web)

        def up():
            try:
                return wp.request(cls.port, "GET", "/api/health", timeout=2).status == 200
            except OSError:
                return cls.web.poll() is not None
        wp.wait_until(up, 20)
        if cls.web.poll() is not None:
            raise AssertionError("nginx exited:\n" + cls.log("web"))

    @classmethod
    def log(cls, name):
        try:
            with open(os.path.join(cls.tmp, name + ".log"), errors="replace") as f:
                return f.read()[-4000:]
        except OSError:
            return ""

    @classmethod
    def _stop_all(cls):
        for p in reversed(cls.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()

    def req(self, method, path, body=None, headers=None):
        return wp.request(self.port, method, path, body, headers)

    # --- the image's configuration -------------------------------------------

    def test_configuration(self):
        c = self.inspect["Config"]
        self.assertEqual(c["User"], "warpost")
        self.assertEqual(c["Entrypoint"], ["/usr/local/bin/warpost-entrypoint"])
        self.assertEqual(c["Cmd"], ["warpostd"])
        hc = c.get("Healthcheck") or {}
        self.assertEqual(hc.get("Test"), ["CMD", "/usr/local/bin/warpost-healthcheck"], c)
        size = self.inspect["Size"]
        sys.stderr.write("image %s: %.0f MB, build (cached or not) %.1f s\n"
                         % (TAG, size / 1e6, self.build_seconds))

    def test_runtime_stage_has_no_build_tools(self):
        for path in ("usr/bin/gcc", "usr/bin/cc", "usr/bin/cmake", "usr/include/libpq-fe.h",
                     "usr/include/microhttpd.h", "src"):
            self.assertFalse(os.path.exists(os.path.join(self.root.path, path)), path)
        for path in ("usr/local/bin/warpostd", "usr/local/bin/warpost", "usr/sbin/nginx",
                     "opt/warpost/web/index.html", "opt/warpost/sql"):
            self.assertTrue(os.path.exists(os.path.join(self.root.path, path)), path)

    def test_core_dumps_have_a_directory(self):
        """issue 24, item 1: the Compose file runs warpostd in
        /var/lib/warpost/cores (a volume, core size unlimited): the image
        makes it, writable by its user only."""
        st = os.stat(os.path.join(self.root.path, "var/lib/warpost/cores"))
        self.assertEqual((st.st_uid, st.st_mode & 0o777), (UID, 0o700))

    def test_processes_run_as_the_image_user(self):
        # chroot, env and the entrypoint exec each other: the pid we started
        # is warpostd's (and nginx's master's) by now
        for p, comm in ((self.app, "warpostd"), (self.web, "nginx")):
            with open("/proc/%d/comm" % p.pid) as f:
                self.assertEqual(f.read().strip(), comm)
            with open("/proc/%d/status" % p.pid) as f:
                uid = re.search(r"^Uid:\s+(\d+)", f.read(), re.M).group(1)
            self.assertEqual(int(uid), UID, comm)

    # --- through nginx ------------------------------------------------------

    def test_health_through_nginx(self):
        r = self.req("GET", "/api/health")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["database"], "up")

    def test_static_page(self):
        # The image serves the board bundled (the Dockerfile's stage "web",
        # issue 32): its page names one hashed script, served in full.
        r = self.req("GET", "/")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.headers.get("cache-control"), "no-cache")
        m = re.search(rb'<script type="module" src="(/app-[0-9a-f]{12}\.js)">', r.body)
        self.assertIsNotNone(m, r.body[:400])
        js = self.req("GET", m.group(1).decode())
        self.assertEqual(js.status, 200, js)
        self.assertGreater(len(js.body), 50000)
        self.assertEqual(js.headers.get("cache-control"), "public, max-age=31536000, immutable")

    def test_a_posted_turn(self):
        ps = []
        for name in ("Alice", "Bob"):
            r = self.req("POST", "/api/players", {"name": name})
            self.assertEqual(r.status, 201, r)
            ps.append(r.json()["token"])
        auth = [{"Authorization": "Bearer " + t} for t in ps]
        rulesets = self.req("GET", "/api/rulesets").json()["rulesets"]
        rs = next(r for r in rulesets if r["min_seats"] <= 2 <= r["max_seats"])
        r = self.req("POST", "/api/games", {"ruleset": rs["id"], "seats": 2, "seat": 0}, auth[0])
        self.assertEqual(r.status, 201, r)
        g = r.json()
        r = self.req("POST", "/api/games/%d/join" % g["id"], {"code": g["invitations"][0]["code"]},
                     auth[1])
        self.assertEqual(r.status, 200, r)
        v = self.req("GET", "/api/games/%d" % g["id"]).json()
        seat = v["awaiting"][0]
        a = self.req("GET", "/api/games/%d/actions" % g["id"], None, auth[seat]).json()
        r = self.req("POST", "/api/games/%d/turns" % g["id"],
                     {"seq": a["seq"], "actions": [a["actions"][0]]}, auth[seat])
        self.assertEqual(r.status, 200, r)
        turns = self.req("GET", "/api/games/%d/turns?after=0" % g["id"], None, auth[seat]).json()
        self.assertTrue(turns, turns)
        n = self.db.psql("SELECT count(*) FROM posts WHERE game_id = %d" % g["id"]).strip()
        self.assertGreaterEqual(int(n), 1)
        # The board as PNG: the runtime stage has what the renderer loads
        # (librsvg and its libraries, dlopen()ed at its start, and a font).
        r = self.req("GET", "/api/games/%d/board.png" % g["id"], None, auth[seat])
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.headers.get("content-type"), "image/png", r)
        self.assertTrue(r.body.startswith(b"\x89PNG\r\n\x1a\n"), r.body[:16])

    def test_metrics_through_nginx(self):
        r = self.req("GET", "/metrics")
        self.assertEqual(r.status, 200, r)
        self.assertIn(b"warpost_http_responses_total", r.body)

    # --- the image's health check --------------------------------------------

    def health(self, role):
        env = dict(self.env)
        # the role file the entrypoint wrote for that role's container; here
        # both roles share one file system, so say it explicitly
        state = os.path.join(self.root.path, "tmp", "hc-" + role)
        os.makedirs(state, exist_ok=True)
        with open(os.path.join(state, "role"), "w") as f:
            f.write(role + "\n")
        env["WARPOST_STATE_DIR"] = "/tmp/hc-" + role
        return self.root.run(self.inspect["Config"]["Healthcheck"]["Test"][1:], env)

    def test_health_check_in_both_roles(self):
        for role in ("warpostd", "nginx"):
            with self.subTest(role=role):
                r = self.health(role)
                self.assertEqual(r.returncode, 0, r)

    def test_zz_health_check_fails_without_warpostd(self):
        # last (zz): stops warpostd
        self.app.send_signal(signal.SIGTERM)
        self.assertEqual(self.app.wait(15), 0, self.log("app"))
        for role in ("warpostd", "nginx"):
            with self.subTest(role=role):
                self.assertNotEqual(self.health(role).returncode, 0)


def main():
    if shutil.which("podman") is None:
        print("SKIP: podman is not installed (scripts/deps.sh image); the image is not tested")
        return SKIP
    r = subprocess.run(["podman", "image", "exists", "docker.io/library/debian:12-slim"])
    if r.returncode != 0 and os.geteuid() != 0:
        print("SKIP: no debian:12-slim image and not root to make one "
              "(scripts/container-base.sh)")
        return SKIP
    if os.geteuid() != 0:
        print("SKIP: running the image's file system needs root (mount, chroot)")
        return SKIP
    prog = unittest.main(verbosity=2, exit=False)
    return 0 if prog.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
