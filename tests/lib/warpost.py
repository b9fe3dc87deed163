"""Test harness for warpostd's API tests (Python standard library only).

What is here:
  PgCluster      a PostgreSQL cluster: the shared one of a ctest run, or a
                 private one in a temp dir; creates and drops test databases
  Server         warpostd's HTTP front (PORT / BIND_ADDR)
  FcgiServer     warpostd --fcgi SOCKET
  Nginx          nginx rendered from nginx/*.conf.in in front of a FcgiServer
  cgi()          one warpostd run with a CGI environment
  request()      one HTTP request -> Reply(status, headers, body)
  raw_*          raw-socket helpers for malformed or slow traffic
  ServerTestCase unittest base: a fresh database and a server per class

Environment:
  WP_REPO               repository root (default: two levels above this file)
  WARPOSTD              the binary (default: $WP_REPO/build/srv/warpostd)
  WP_TEST_PG_ADMIN_URL  libpq URL of an admin connection (db "postgres") to a
                        running cluster shared by the tests, or
  WP_TEST_PG_URL_FILE   a file holding that URL (written by the ctest fixture
                        tests/api/pg_fixture.sh); with neither, a private
                        cluster is started in a temp dir and destroyed at exit
  PG_BINDIR             PostgreSQL binaries (default: highest
                        /usr/lib/postgresql/*/bin, else PATH)
  NGINX                 nginx binary (default: nginx in PATH, /usr/sbin/nginx)
  WP_KEEP_TMP=1         keep temp dirs (server logs, nginx prefix) for debugging
"""

import atexit
import errno
import fcntl
import glob
import hashlib
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

REPO = os.path.abspath(os.environ.get("WP_REPO") or
                       os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
WARPOSTD = os.environ.get("WARPOSTD") or os.path.join(REPO, "build", "srv", "warpostd")
PGCLUSTER = os.path.join(REPO, "scripts", "pgcluster.sh")
WEB_DIR = os.path.join(REPO, "web")
SQL_DIR = os.path.join(REPO, "sql")
NGINX_DIR = os.path.join(REPO, "nginx")

READY_TIMEOUT = 20.0

# Variables that would change how warpostd starts (a CGI environment, a
# FastCGI socket) or what it connects to; never inherited from the caller.
_SCRUB = ("GATEWAY_INTERFACE", "FCGI_SOCKET", "REQUEST_METHOD", "REQUEST_URI",
          "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING", "CONTENT_TYPE",
          "CONTENT_LENGTH", "SERVER_PROTOCOL", "REMOTE_ADDR", "DATABASE_URL",
          "PORT", "BIND_ADDR", "WEB_ROOT", "MIGRATIONS_DIR", "MAX_BODY_BYTES")


def _keep_tmp():
    return os.environ.get("WP_KEEP_TMP") == "1"


def make_tmpdir(prefix):
    """A temp dir others can traverse (the postgres user, nginx workers)."""
    d = tempfile.mkdtemp(prefix=prefix)
    os.chmod(d, 0o755)
    return d


def write_files(root, files):
    """Writes {relative path: bytes or str} under root, folders made as
    needed (a web root of a test's own); returns root."""
    for name, data in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
    return root


def remove_tmpdir(d):
    if d and not _keep_tmp():
        shutil.rmtree(d, ignore_errors=True)


def wait_until(fn, timeout, interval=0.1):
    """Calls fn until it returns something true or timeout seconds pass;
    returns its last result."""
    deadline = time.monotonic() + timeout
    while True:
        v = fn()
        if v or time.monotonic() > deadline:
            return v
        time.sleep(interval)


def _ephemeral_low():
    """The lowest port the kernel gives outgoing connections."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


_PORTS = random.SystemRandom()   # not the tests' seeded random


def child_pids(pid):
    """The ids of the processes whose parent is pid (from /proc)."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after ')'
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(d))
    return out


def free_port():
    """A free TCP port on 127.0.0.1 below the kernel's ephemeral range: a
    server the tests stop and start again on its port (PostgreSQL in
    test_health, warpostd after kill -9) must find it free, and a port of
    the ephemeral range may meanwhile be the source port of any test's
    outgoing connection (it happened: "could not bind ... Address already
    in use" on a cluster's restart). Random, so that tests side by side
    rarely try the same one; checked by binding it."""
    low = min(_ephemeral_low(), 65536)
    for _ in range(200):
        port = _PORTS.randrange(10000, low) if low > 11000 else 0
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise AssertionError("no free TCP port below %d" % low)


def listens_on(pid, port):
    """Whether process pid holds a listening TCP socket on port: a health
    answer on a port proves only that someone listens there (another
    test's server took the same free port in between once; its answers
    were taken for this one's while this one failed to bind)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            col = row.split()
            if len(col) > 9 and col[3] == "0A" and int(col[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(col[9])
    try:
        fds = os.listdir("/proc/%d/fd" % pid)
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            return True
    return False


def random_suffix(n=10):
    return "".join(random.choice(string.ascii_lowercase + string.digits) for _ in range(n))


def _base_env(extra=None):
    env = {k: v for k, v in os.environ.items()
           if k not in _SCRUB and not k.startswith("HTTP_")}
    # The tests make thousands of players and matches from 127.0.0.1: the
    # rate limits and the cap on open matches are off unless a test turns
    # them on (tests/api/test_rate_limits.py).
    env.setdefault("RATE_LIMITS", "off")
    env.setdefault("MAX_OPEN_MATCHES", "0")
    # The board.png renderer starts at a test server's first image, not
    # with the server: a run starts a few hundred servers, and each
    # renderer cost about 60 ms of CPU to start, for the few tests that
    # draw images (tests/api/test_png_renderer.py tests both settings).
    env.setdefault("RENDER_PRESTART", "0")
    for k, v in (extra or {}).items():
        if v is None:  # unset: the server's own default
            env.pop(k, None)
        else:
            env[k] = str(v)
    return env


def check_binary():
    if not (os.path.isfile(WARPOSTD) and os.access(WARPOSTD, os.X_OK)):
        raise AssertionError(
            "warpostd not found at %s: build it first (cmake -S . -B build && "
            "cmake --build build) or set WARPOSTD" % WARPOSTD)


# --------------------------------------------------------------------------
# PostgreSQL

def pg_bindir():
    b = os.environ.get("PG_BINDIR")
    if b:
        return b
    dirs = [d for d in glob.glob("/usr/lib/postgresql/*/bin")
            if os.path.exists(os.path.join(d, "psql"))]

    def ver(d):
        try:
            return float(d.split("/")[-2])
        except ValueError:
            return 0.0
    if dirs:
        return max(dirs, key=ver)
    p = shutil.which("psql")
    return os.path.dirname(p) if p else "/usr/bin"


def url_with_db(url, dbname):
    """The same libpq URL with another database name."""
    m = re.match(r"^(postgres(?:ql)?://[^/?]*)(/[^?]*)?(\?.*)?$", url)
    if not m:
        raise AssertionError("not a libpq URI: %r" % url)
    return m.group(1) + "/" + dbname + (m.group(3) or "")


def _socket_url(url):
    """(socket path, user, database) of a libpq URL of the form the test
    clusters print, postgresql:///DB?host=DIR&port=P&user=U; None for any
    other (a TCP host, a password, other parameters)."""
    u = urllib.parse.urlsplit(url)
    if u.scheme not in ("postgres", "postgresql") or u.netloc:
        return None
    q = urllib.parse.parse_qs(u.query, keep_blank_values=True, strict_parsing=False)
    if set(q) - {"host", "port", "user"} or any(len(v) != 1 for v in q.values()):
        return None
    host, port = q.get("host", [""])[0], q.get("port", ["5432"])[0]
    if not host.startswith("/") or not port.isdigit():
        return None
    db = urllib.parse.unquote(u.path.lstrip("/")) or None
    user = q.get("user", [None])[0]
    if not user or not db:
        return None
    return os.path.join(host, ".s.PGSQL.%s" % port), user, db


class _WireFallback(Exception):
    """The server asked for something _wire_query does not speak."""


def _wire_query(path, user, db, sql, timeout):
    """One simple-protocol query over a fresh Unix-socket connection with
    trust authentication: what `psql -At -c SQL` prints (every result's
    rows, fields joined by |, NULL as nothing), without starting psql.
    A test run makes about 750 of these; a psql process cost 30 ms of CPU
    each, most of it loading libpq's libraries."""
    def packet(tag, body):
        return tag + (len(body) + 4).to_bytes(4, "big") + body

    def read_exact(n):
        buf = b""
        while len(buf) < n:
            chunk = s.recv(n - len(buf))
            if not chunk:
                raise AssertionError("PostgreSQL closed the connection on %r" % sql)
            buf += chunk
        return buf

    def fields(body):
        out = {}
        for part in body.split(b"\0"):
            if part:
                out[part[:1]] = part[1:].decode(errors="replace")
        return out

    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(path)
        params = b"".join(k + b"\0" + v.encode() + b"\0" for k, v in (
            (b"user", user), (b"database", db), (b"client_encoding", "UTF8"),
            (b"application_name", "warpost-tests"))) + b"\0"
        s.sendall(packet(b"", (196608).to_bytes(4, "big") + params))   # untagged: startup
        sent = False
        rows, error = [], None
        while True:
            head = read_exact(5)
            tag, body = head[:1], read_exact(int.from_bytes(head[1:], "big") - 4)
            if tag == b"R" and body[:4] != b"\0\0\0\0":
                raise _WireFallback()          # a password or another method
            if tag in (b"G", b"H", b"W"):
                raise AssertionError("COPY is not supported by the harness's psql(): %r" % sql)
            if tag == b"E":
                f = fields(body)
                error = "%s:  %s" % (f.get(b"S", "ERROR"), f.get(b"M", ""))
                if f.get(b"D"):
                    error += "\nDETAIL:  " + f[b"D"]
                if not sent:
                    raise AssertionError("psql failed (2) on %r:\n%s" % (sql, error))
            elif tag == b"D":
                n = int.from_bytes(body[:2], "big")
                at, vals = 2, []
                for _ in range(n):
                    ln = int.from_bytes(body[at:at + 4], "big", signed=True)
                    at += 4
                    vals.append("" if ln < 0 else body[at:at + ln].decode(errors="replace"))
                    at += max(ln, 0)
                rows.append("|".join(vals) + "\n")
            elif tag == b"Z":
                if sent:
                    break
                s.sendall(packet(b"Q", sql.encode() + b"\0"))
                sent = True
        s.sendall(packet(b"X", b""))
        if error:
            raise AssertionError("psql failed (1) on %r:\n%s" % (sql, error))
        return "".join(rows)
    except OSError as e:
        # as psql fails when the server is down or does not answer
        raise AssertionError("psql failed (2) on %r:\n%s: %s" % (sql, type(e).__name__, e)) from e
    finally:
        s.close()


def psql(url, sql, timeout=30):
    """Run SQL as psql -At -c would; returns its unaligned, tuples-only
    output. A test cluster's URL is served over its socket directly
    (_wire_query), any other by psql itself."""
    target = _socket_url(url)
    if target and os.environ.get("WP_TEST_PSQL") != "1":
        try:
            return _wire_query(*target, sql, timeout)
        except _WireFallback:
            pass
    cmd = [os.path.join(pg_bindir(), "psql"), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
           "-d", url, "-c", sql]
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    if r.returncode != 0:
        raise AssertionError("psql failed (%d) on %r:\n%s" % (
            r.returncode, sql, r.stderr.decode(errors="replace")))
    return r.stdout.decode()


class Database:
    def __init__(self, cluster, name):
        self.cluster = cluster
        self.name = name
        self.url = url_with_db(cluster.admin_url, name)

    def psql(self, sql):
        return psql(self.url, sql)

    def connection_count(self):
        """Backends connected to this database, other than none of ours."""
        return int(self.cluster.psql(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '%s'" % self.name).strip())

    def drop(self):
        self.cluster.drop_database(self.name)


class PgCluster:
    """A cluster to make test databases in.

    Uses the shared cluster of a ctest run when WP_TEST_PG_ADMIN_URL or
    WP_TEST_PG_URL_FILE says where it is (unless private=True); otherwise
    starts its own in a temp dir (PG_FAST=1) and destroys it on close()."""

    _shared = None

    def __init__(self, private=False):
        self.private = private
        self.owned = False
        self.tmp = None
        self.dir = None
        self.port = None
        self.admin_url = None

    @classmethod
    def shared(cls):
        if cls._shared is None:
            cls._shared = cls().start()
            atexit.register(cls._shared.close)
        return cls._shared

    def _external_url(self):
        url = os.environ.get("WP_TEST_PG_ADMIN_URL")
        if url:
            return url.strip()
        f = os.environ.get("WP_TEST_PG_URL_FILE")
        if f:
            try:
                with open(f) as fh:
                    url = fh.read().strip()
            except OSError as e:
                raise AssertionError("WP_TEST_PG_URL_FILE=%s: %s (did the pg_cluster_start "
                                     "fixture run?)" % (f, e))
            if not url:
                raise AssertionError("WP_TEST_PG_URL_FILE=%s is empty" % f)
            return url
        return None

    def start(self):
        url = None if self.private else self._external_url()
        if url:
            self.admin_url = url
            return self
        self.owned = True
        self.tmp = make_tmpdir("wp-pg-")
        self.dir = os.path.join(self.tmp, "pg")
        self.port = free_port()
        self.start_cluster()
        return self

    def _ctl(self, *args):
        env = dict(os.environ)
        env.setdefault("PG_FAST", "1")
        r = subprocess.run(["bash", PGCLUSTER] + list(args), stdin=subprocess.DEVNULL,
                           capture_output=True, env=env, timeout=120)
        if r.returncode != 0:
            raise AssertionError("pgcluster.sh %s failed (%d):\n%s" % (
                " ".join(args), r.returncode, r.stderr.decode(errors="replace")))
        return r.stdout.decode().strip()

    def start_cluster(self):
        assert self.owned, "only a cluster this harness started can be started/stopped"
        url = self._ctl("start", self.dir, str(self.port))
        self.admin_url = url_with_db(url, "postgres")

    def stop_cluster(self):
        assert self.owned, "only a cluster this harness started can be started/stopped"
        self._ctl("stop", self.dir)

    def close(self):
        if self.owned and self.dir:
            try:
                self._ctl("destroy", self.dir)
            finally:
                remove_tmpdir(self.tmp)
                self.dir = None

    def psql(self, sql, db="postgres"):
        return psql(url_with_db(self.admin_url, db), sql)

    def create_database(self, migrated=False):
        """A new database: empty, or (migrated=True) a copy of one that
        warpostd has brought to this tree's sql/ (migrated_template)."""
        name = "t_" + random_suffix()
        template = " TEMPLATE " + self.migrated_template() if migrated else ""
        self.psql("CREATE DATABASE %s%s STRATEGY FILE_COPY" % (name, template))
        return Database(self, name)

    def migrated_template(self):
        """The name of a database in this cluster that warpostd started on
        once (every migration of sql/ applied), made the first time it is
        asked for, under a lock shared by every test process on the
        cluster. Its name carries a digest of sql/, so a changed migration
        makes another. A server started on a copy has nothing to apply:
        the migrations were a fifth of a core-second of each start, and a
        run starts over a hundred servers on new databases. Looked for
        once per cluster object: a test module makes several classes."""
        if getattr(self, "_template", None):
            return self._template
        digest = hashlib.sha256()
        for path in sorted(glob.glob(os.path.join(SQL_DIR, "*.sql"))):
            digest.update(os.path.basename(path).encode() + b"\0")
            with open(path, "rb") as fh:
                digest.update(fh.read())
        name = "wp_tmpl_" + digest.hexdigest()[:16]
        key = hashlib.sha256(self.admin_url.encode()).hexdigest()[:16]
        with open(os.path.join(tempfile.gettempdir(), "wp-tmpl-%s.lock" % key), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if self.psql("SELECT count(*) FROM pg_database WHERE datname = '%s'" % name).strip() != "1":
                build = name + "_b"
                self.psql("DROP DATABASE IF EXISTS %s WITH (FORCE)" % build)
                self.psql("CREATE DATABASE %s STRATEGY FILE_COPY" % build)
                Server(url_with_db(self.admin_url, build)).start().stop()
                self.psql("ALTER DATABASE %s RENAME TO %s" % (build, name))
        self._template = name
        return name

    def drop_database(self, name):
        if self.admin_url:
            self.psql("DROP DATABASE IF EXISTS %s WITH (FORCE)" % name)


# --------------------------------------------------------------------------
# HTTP

class Reply(tuple):
    """(status, headers, body); headers is a dict with lower-case keys
    (repeated headers joined with ", "), body is bytes."""

    def __new__(cls, status, headers, body):
        return super().__new__(cls, (status, headers, body))

    status = property(lambda self: self[0])
    headers = property(lambda self: self[1])
    body = property(lambda self: self[2])

    @property
    def media_type(self):
        return media_type(self.headers.get("content-type", ""))

    def json(self):
        return json_of(self)

    def __repr__(self):
        b = self.body
        if len(b) > 600:
            b = b[:600] + b"...(%d bytes)" % len(self.body)
        return "Reply(%r, %r, %r)" % (self.status, self.headers, b)


def media_type(content_type):
    return content_type.split(";")[0].strip().lower()


def norm_content_type(ct):
    """'Text/HTML;  Charset=UTF-8' -> 'text/html;charset=utf-8'."""
    return ";".join(p.strip() for p in (ct or "").lower().split(";"))


def json_of(reply, expect=None):
    """Parse a reply's body as JSON; with expect ('application/json' or
    'application/problem+json') also check its media type."""
    status, headers, body = reply
    if expect is not None and media_type(headers.get("content-type", "")) != expect:
        raise AssertionError("expected Content-Type %s, got %r in %r" % (
            expect, headers.get("content-type"), reply))
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise AssertionError("body is not JSON (%s): %r" % (e, reply))


def _encode_body(body, headers):
    headers = dict(headers or {})
    if isinstance(body, (dict, list)):
        body = json.dumps(body).encode()
        if not any(k.lower() == "content-type" for k in headers):
            headers["Content-Type"] = "application/json"
    elif isinstance(body, str):
        body = body.encode()
    return body, headers


def _headers_dict(pairs):
    d = {}
    for k, v in pairs:
        k = k.lower()
        d[k] = d[k] + ", " + v if k in d else v
    return d


def request(port, method, path, body=None, headers=None, host="127.0.0.1", timeout=15):
    """One request on a new connection; returns a Reply."""
    body, headers = _encode_body(body, headers)
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        return Reply(resp.status, _headers_dict(resp.getheaders()), data)
    finally:
        conn.close()


def metric(server, name, token=None):
    """The value of one unlabelled series of the server's /metrics (a
    METRICS_TOKEN as the bearer when given)."""
    headers = {"Authorization": "Bearer " + token} if token else None
    r = server.request("GET", "/metrics", headers=headers)
    assert r.status == 200, r
    m = re.search(r"^%s (\S+)$" % re.escape(name), r.body.decode(), re.M)
    assert m, "no %s in /metrics" % name
    v = m.group(1)
    return float(v) if any(ch in v for ch in ".eE") else int(v)


def assert_bad_settings_stop_start(test, db_url, settings):
    """Each (NAME, value) of settings, alone, keeps warpostd from starting
    (a non-zero exit) with NAME in what it says."""
    for name, value in settings:
        env = dict(_base_env({name: value}), DATABASE_URL=db_url)
        r = subprocess.run([WARPOSTD], env=env, capture_output=True, timeout=60)
        test.assertNotEqual(r.returncode, 0, (name, value))
        test.assertIn(name.encode(), r.stderr, (name, value))


# Raw sockets, for what http.client will not send.

def run_together(calls):
    """Calls every function of `calls` on its own thread, all released at
    once; returns their results in order."""
    results = [None] * len(calls)
    go = threading.Event()

    def run(i):
        go.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    go.set()
    for t in threads:
        t.join()
    return results


def raw_connect(port, host="127.0.0.1", timeout=5, source=None):
    """A TCP connection; from the address `source` (e.g. another 127/8
    address, to be another client) when given."""
    return socket.create_connection((host, port), timeout=timeout,
                                    source_address=(source, 0) if source else None)


def read_all(sock, timeout=5, limit=10 * 1024 * 1024):
    """Read until the peer closes or `timeout` seconds pass without data."""
    sock.settimeout(timeout)
    chunks = []
    total = 0
    while total < limit:
        try:
            b = sock.recv(65536)
        except socket.timeout:
            break
        except OSError:
            break
        if not b:
            break
        chunks.append(b)
        total += len(b)
    return b"".join(chunks)


def read_reply(sock, timeout=5):
    """Read one HTTP response: headers, then Content-Length bytes of body
    (or until close). Returns the raw bytes read (possibly b"")."""
    sock.settimeout(timeout)
    deadline = time.monotonic() + timeout
    buf = b""
    while b"\r\n\r\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0:
            return buf
        sock.settimeout(left)
        try:
            b = sock.recv(65536)
        except (socket.timeout, OSError):
            return buf
        if not b:
            return buf
        buf += b
    head, _, rest = buf.partition(b"\r\n\r\n")
    m = re.search(rb"(?im)^content-length:\s*(\d+)\s*$", head)
    if m is None:
        status = parse_reply(buf)[0]
        if status in (204, 304) or 100 <= (status or 0) < 200:
            return buf
        return buf + read_all(sock, max(0.1, deadline - time.monotonic()))
    need = int(m.group(1)) - len(rest)
    while need > 0:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            b = sock.recv(min(65536, need))
        except (socket.timeout, OSError):
            break
        if not b:
            break
        buf += b
        need -= len(b)
    return buf


def parse_reply(raw):
    """Parse raw bytes of one HTTP response into a Reply (status None when
    nothing parseable arrived). The body is whatever follows the headers,
    cut to Content-Length when there is one."""
    if b"\r\n\r\n" not in raw:
        m = re.match(rb"HTTP/\d\.\d (\d{3})", raw)
        return Reply(int(m.group(1)) if m else None, {}, b"")
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    m = re.match(rb"HTTP/\d\.\d (\d{3})", lines[0])
    status = int(m.group(1)) if m else None
    pairs = []
    for line in lines[1:]:
        k, _, v = line.partition(b":")
        pairs.append((k.decode("latin-1").strip(), v.decode("latin-1").strip()))
    headers = _headers_dict(pairs)
    if "content-length" in headers:
        try:
            body = body[:int(headers["content-length"])]
        except ValueError:
            pass
    return Reply(status, headers, body)


def _sendall_quietly(sock, data):
    try:
        sock.sendall(data)
        return True
    except OSError:
        return False   # the server may close early (e.g. 413): fine


def raw_exchange(port, data, timeout=5, half_close=False):
    """Connect, send `data`, read until close/timeout; returns raw bytes."""
    with raw_connect(port, timeout=timeout) as s:
        _sendall_quietly(s, data)
        if half_close:
            try:
                s.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        return read_all(s, timeout)


def raw_request(port, data, timeout=5):
    """Send raw bytes of one request; parse the reply (one response)."""
    with raw_connect(port, timeout=timeout) as s:
        _sendall_quietly(s, data)
        return parse_reply(read_reply(s, timeout))


def send_slowly(port, data, interval=0.1, chunk=1, timeout=5, stop=None):
    """Send `data` `chunk` bytes at a time, `interval` s apart (slow loris);
    then read what comes back. `stop` (a threading.Event) ends it early.
    Returns the raw bytes read; b"" if the server closed on us."""
    with raw_connect(port, timeout=timeout) as s:
        for i in range(0, len(data), chunk):
            if stop is not None and stop.is_set():
                return b""
            if not _sendall_quietly(s, data[i:i + chunk]):
                break
            time.sleep(interval)
        return read_all(s, timeout)


def send_truncated(port, data, cut):
    """Send the first `cut` bytes of a request and close the connection."""
    with raw_connect(port) as s:
        _sendall_quietly(s, data[:cut])


def http_request_bytes(method, path, headers=None, body=b"", version="HTTP/1.1"):
    """Build a request by hand (Host and Connection: close added unless given)."""
    h = {"Host": "127.0.0.1", "Connection": "close"}
    h.update(headers or {})
    if body and not any(k.lower() == "content-length" for k in h):
        h["Content-Length"] = str(len(body))
    lines = ["%s %s %s" % (method, path, version)] + ["%s: %s" % kv for kv in h.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


# --------------------------------------------------------------------------
# warpostd processes

class _Process:
    name = "process"
    # Every process spawned by this test module, in order: a failed test
    # prints the logs of those it started (_LogsOnFailure).
    spawned = []

    def __init__(self):
        self.proc = None
        self.tmp = None
        self.stderr_path = None
        self.stdout_path = None
        self.last_stderr = None

    def _spawn(self, argv, env, tmp=None):
        self.tmp = tmp or make_tmpdir("wp-%s-" % self.name)
        self.stderr_path = os.path.join(self.tmp, "stderr.log")
        self.stdout_path = os.path.join(self.tmp, "stdout.log")
        with open(self.stderr_path, "wb") as err, open(self.stdout_path, "wb") as out:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out,
                                         stderr=err, env=env, cwd=self.tmp)
        _Process.spawned.append(self)

    def stderr_text(self, tail=None):
        """What it wrote to stderr (tail: only its last bytes)."""
        try:
            with open(self.stderr_path, "rb") as f:
                if tail:
                    f.seek(max(0, os.fstat(f.fileno()).st_size - tail))
                return f.read().decode("utf-8", errors="replace")
        except (OSError, TypeError):
            # its temp dir removed after a clean exit: the end of what it
            # said then
            return self.last_stderr or ""

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self):
        return self.proc.pid

    def signal(self, sig):
        self.proc.send_signal(sig)

    def _fail(self, what):
        raise AssertionError("%s %s\n--- its stderr ---\n%s" % (self.name, what, self.stderr_text()))

    def _wait_ready(self, probe, timeout=READY_TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                self._fail("exited with code %s before it was ready" % self.proc.returncode)
            if probe():
                return
            if time.monotonic() > deadline:
                self.kill()
                self._fail("not ready after %.0f s" % timeout)
            time.sleep(0.05)

    def stop(self, timeout=60, expect_code=0):
        """SIGTERM, wait, check the exit code; returns the stderr text.
        60 s: after its "stopped" the server waits for its renderer to
        exit, and under AddressSanitizer each of the two then runs its
        leak check, which took over 15 s on a machine kept busy."""
        if self.proc is None:
            return ""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self._fail("did not exit within %s s of SIGTERM" % timeout)
        text = self.stderr_text()
        self._cleanup()
        if expect_code is not None and code != expect_code:
            raise AssertionError("%s exited with code %s, expected %s\n--- its stderr ---\n%s"
                                 % (self.name, code, expect_code, text))
        return text

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def _cleanup(self):
        if self.proc is not None and self.proc.returncode is not None:
            # keep the logs of a failed run
            if self.proc.returncode == 0:
                self.last_stderr = self.stderr_text(tail=_LogsOnFailure.TAIL)
                remove_tmpdir(self.tmp)


class Server(_Process):
    """warpostd's HTTP front on 127.0.0.1:<free port>."""

    name = "warpostd"

    def __init__(self, database_url, env=None, web_root=None, migrations_dir=None,
                 args=(), port=None):
        super().__init__()
        self.database_url = database_url
        self.extra_env = dict(env or {})
        self.web_root = web_root or WEB_DIR
        self.migrations_dir = migrations_dir or SQL_DIR
        self.args = list(args)
        self.port = port

    def env(self):
        e = {"DATABASE_URL": self.database_url, "PORT": self.port,
             "BIND_ADDR": "127.0.0.1", "WEB_ROOT": self.web_root,
             "MIGRATIONS_DIR": self.migrations_dir}
        e.update(self.extra_env)
        return _base_env(e)

    def start(self, wait=True):
        check_binary()
        fixed = self.port is not None
        for attempt in range(3):
            if not fixed:
                self.port = free_port()
            self._spawn([WARPOSTD] + self.args, self.env())
            if not wait:
                return self
            try:
                self.wait_ready()
                return self
            except AssertionError:
                # the free port was taken in between by someone else: retry
                if fixed or attempt == 2 or self.proc.poll() is None or \
                        "in use" not in self.stderr_text():
                    raise
        return self

    def _answers(self):
        try:
            request(self.port, "GET", "/api/health", timeout=2)
        except (OSError, http.client.HTTPException):
            return False
        # ... and it is this server that answers
        return listens_on(self.proc.pid, self.port)

    def wait_ready(self, timeout=READY_TIMEOUT):
        self._wait_ready(self._answers, timeout)

    def request(self, method, path, body=None, headers=None, timeout=15):
        try:
            return request(self.port, method, path, body, headers, timeout=timeout)
        except (OSError, http.client.HTTPException) as e:
            # a request the server dropped: say whether it died, and how
            # (a crash or a sanitizer's report; not an exit a test asked for)
            time.sleep(0.5)
            code = self.proc.poll() if self.proc is not None else None
            if code is not None and (code > 0 or code in (-signal.SIGSEGV, -signal.SIGABRT,
                                                          -signal.SIGBUS, -signal.SIGFPE)):
                self._fail("died during %s %s (%s, exit code %s)" % (
                    method, path, type(e).__name__, self.proc.returncode))
            raise

    def log_lines(self):
        return self.stderr_text().splitlines()


class FcgiServer(Server):
    """warpostd --fcgi SOCKET (socket in a temp dir others can traverse)."""

    name = "warpostd-fcgi"

    def start(self, wait=True):
        check_binary()
        if self.port is None:
            self.port = free_port()
        self.sock_dir = make_tmpdir("wp-fcgi-")
        self.socket_path = os.path.join(self.sock_dir, "fcgi.sock")
        self._spawn([WARPOSTD, "--fcgi", self.socket_path] + self.args, self.env())
        if wait:
            self.wait_ready()
        return self

    def _answers(self):
        if not os.path.exists(self.socket_path):
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            try:
                s.connect(self.socket_path)
                return True
            except OSError:
                return False

    def request(self, *a, **kw):
        raise NotImplementedError("put Nginx in front of a FcgiServer to send it HTTP")

    def _cleanup(self):
        super()._cleanup()
        if self.proc is not None and self.proc.returncode == 0:
            remove_tmpdir(getattr(self, "sock_dir", None))


def nginx_binary():
    b = os.environ.get("NGINX") or shutil.which("nginx")
    if b:
        return b
    if os.path.exists("/usr/sbin/nginx"):
        return "/usr/sbin/nginx"
    raise AssertionError("nginx not found (install it: scripts/deps.sh test)")


def _others_can_read(path):
    """Whether a user with no rights but "others" reaches and lists path."""
    path = os.path.abspath(path)
    try:
        if os.stat(path).st_mode & 0o005 != 0o005:
            return False
        p = os.path.dirname(path)
        while True:
            if not os.stat(p).st_mode & 0o001:
                return False
            if p == "/":
                return True
            p = os.path.dirname(p)
    except OSError:
        return False


class Nginx(_Process):
    """nginx from nginx/nginx.conf.in + nginx/warpost.conf.in, in a temp
    prefix, on 127.0.0.1:<free port>, in front of a FastCGI socket."""

    name = "nginx"

    def __init__(self, fcgi_socket, web_root=None, port=None, templates=None):
        super().__init__()
        self.fcgi_socket = fcgi_socket
        self.web_root = web_root or WEB_DIR
        self.port = port
        self.templates = templates or NGINX_DIR

    def render(self, prefix):
        subst = {
            "@PREFIX@": prefix,
            "@PORT@": str(self.port),
            "@FCGI_SOCKET@": self.fcgi_socket,
            "@WEB_ROOT@": self.web_root,
            "@SERVER_CONF@": os.path.join(prefix, "warpost.conf"),
        }
        for name in ("nginx.conf", "warpost.conf"):
            src = os.path.join(self.templates, name + ".in")
            if not os.path.exists(src):
                raise AssertionError("nginx template missing: %s" % src)
            with open(src) as f:
                text = f.read()
            for k, v in subst.items():
                text = text.replace(k, v)
            left = re.findall(r"@[A-Z_]+@", text)
            if left:
                raise AssertionError("%s: placeholders left after rendering: %s" % (src, left))
            with open(os.path.join(prefix, name), "w") as f:
                f.write(text)

    def start(self):
        if self.port is None:
            self.port = free_port()
        self.prefix = make_tmpdir("wp-nginx-")
        if os.geteuid() == 0 and not _others_can_read(self.web_root):
            # started as root, nginx's workers run as nobody: give them a
            # copy they can read (the repo may sit under a 0700 home)
            copy = os.path.join(self.prefix, "web")
            shutil.copytree(self.web_root, copy)
            for d, dirs, files in os.walk(copy):
                os.chmod(d, 0o755)
                for f in files:
                    os.chmod(os.path.join(d, f), 0o644)
            self.web_root = copy
        os.makedirs(os.path.join(self.prefix, "logs"), exist_ok=True)
        self.render(self.prefix)
        argv = [nginx_binary(), "-p", self.prefix + "/", "-c",
                os.path.join(self.prefix, "nginx.conf"), "-e", "stderr", "-g", "daemon off;"]
        self._spawn(argv, _base_env(), tmp=self.prefix)
        self._wait_ready(self._answers)
        return self

    def _answers(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                pass
        except OSError:
            return False
        # ... and it is this nginx that listens there (Server._answers)
        return listens_on(self.proc.pid, self.port)

    def stderr_text(self, tail=None):
        text = super().stderr_text(tail)
        try:
            with open(os.path.join(self.prefix, "error.log"), errors="replace") as f:
                text += "\n--- error.log ---\n" + f.read()
        except (OSError, AttributeError):
            pass
        return text[-tail:] if tail else text

    def stop(self, timeout=10, expect_code=None):
        if self.proc is None:
            return ""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.kill()
        text = self.stderr_text()
        if not _keep_tmp():
            remove_tmpdir(self.prefix)
        return text

    def request(self, method, path, body=None, headers=None, timeout=15):
        return request(self.port, method, path, body, headers, timeout=timeout)


# --------------------------------------------------------------------------
# CGI

def cgi_env(method, path, query="", headers=None, body=None, env=None):
    path = path or "/"
    uri = path + ("?" + query if query else "")
    try:
        info = urllib.parse.unquote(path, errors="strict")
        if "\0" in info:
            info = path
    except UnicodeDecodeError:
        info = path
    e = {
        "GATEWAY_INTERFACE": "CGI/1.1",
        "SERVER_SOFTWARE": "warpost-test-harness",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REQUEST_METHOD": method,
        "REQUEST_URI": uri,
        "SCRIPT_NAME": "",
        "PATH_INFO": info,
        "QUERY_STRING": query or "",
        "REMOTE_ADDR": "127.0.0.1",
        "REMOTE_PORT": "40000",
        "WEB_ROOT": WEB_DIR,
        "MIGRATIONS_DIR": SQL_DIR,
    }
    for k, v in (headers or {}).items():
        lk = k.lower()
        if lk == "content-type":
            e["CONTENT_TYPE"] = v
        elif lk == "content-length":
            e["CONTENT_LENGTH"] = v
        else:
            e["HTTP_" + k.upper().replace("-", "_")] = v
    if body is not None and "CONTENT_LENGTH" not in e:
        e["CONTENT_LENGTH"] = str(len(body))
    e.update(env or {})
    return _base_env(e)


def parse_cgi_output(out):
    """CGI response bytes -> Reply. Status from the Status: header (default
    200; 302 when only Location is given)."""
    i_crlf = out.find(b"\r\n\r\n")
    i_lf = out.find(b"\n\n")
    cands = [(i, n) for i, n in ((i_crlf, 4), (i_lf, 2)) if i >= 0]
    if not cands:
        raise AssertionError("CGI output has no end of headers: %r" % out[:500])
    i, n = min(cands)
    head, body = out[:i], out[i + n:]
    pairs = []
    for line in re.split(rb"\r?\n", head):
        if not line:
            continue
        k, sep, v = line.partition(b":")
        if not sep:
            raise AssertionError("bad CGI header line %r in %r" % (line, out[:500]))
        pairs.append((k.decode("latin-1").strip(), v.decode("latin-1").strip()))
    headers = _headers_dict(pairs)
    status = 200
    if "status" in headers:
        m = re.match(r"(\d{3})", headers["status"])
        if not m:
            raise AssertionError("bad CGI Status header %r" % headers["status"])
        status = int(m.group(1))
    elif "location" in headers:
        status = 302
    return Reply(status, headers, body)


class CgiReply(Reply):
    returncode = None
    stderr = ""


def cgi(method, path, query="", headers=None, body=None, env=None, timeout=30):
    """Run warpostd once as a CGI program. `env` must hold DATABASE_URL
    (and may override anything else). Returns a CgiReply, which also has
    .returncode and .stderr."""
    check_binary()
    body, headers = _encode_body(body, headers)
    e = cgi_env(method, path, query, headers, body, env)
    r = subprocess.run([WARPOSTD], input=body or b"", capture_output=True, env=e,
                       timeout=timeout, cwd="/")
    try:
        rep = parse_cgi_output(r.stdout)
    except AssertionError as err:
        raise AssertionError("%s\nexit code %s, stderr:\n%s" % (
            err, r.returncode, r.stderr.decode(errors="replace")))
    out = CgiReply(*rep)
    out.returncode = r.returncode
    out.stderr = r.stderr.decode(errors="replace")
    return out


class CgiClient:
    """request()-shaped access to the CGI front."""

    def __init__(self, database_url, env=None):
        self.env = {"DATABASE_URL": database_url}
        self.env.update(env or {})

    def request(self, method, path, body=None, headers=None, timeout=30):
        p, _, q = path.partition("?")
        return cgi(method, p, q, headers, body, self.env, timeout)


# --------------------------------------------------------------------------
# Assertions shared by the modules

PROBLEM_TYPE = "application/problem+json"
PROBLEM_PREFIX = "urn:warpost:problem:"


def assert_problem(reply, status, slug, field=None):
    """An RFC 9457 problem document with the given status and slug; with
    `field`, its detail must name that field."""
    if reply.status != status:
        raise AssertionError("expected status %d (%s), got %r" % (status, slug, reply))
    doc = json_of(reply, PROBLEM_TYPE)
    if not isinstance(doc, dict):
        raise AssertionError("problem document is not an object: %r" % reply)
    want = PROBLEM_PREFIX + slug
    if doc.get("type") != want:
        raise AssertionError("expected type %r, got %r in %r" % (want, doc.get("type"), reply))
    if not isinstance(doc.get("title"), str) or not doc["title"]:
        raise AssertionError("problem has no title: %r" % reply)
    if doc.get("status") != status or isinstance(doc.get("status"), bool):
        raise AssertionError("problem status %r != HTTP status %d: %r" % (
            doc.get("status"), status, reply))
    if not isinstance(doc.get("detail"), str):
        raise AssertionError("problem has no detail string: %r" % reply)
    if field is not None and field not in doc["detail"]:
        raise AssertionError("detail does not name the field %r: %r" % (field, doc["detail"]))
    return doc


def allow_set(reply):
    return {m.strip().upper() for m in reply.headers.get("allow", "").split(",") if m.strip()}


TOKEN_RE = re.compile(r"^[0-9a-fA-F]{64}$")


# --------------------------------------------------------------------------
# unittest base

class ServerTestCase(unittest.TestCase):
    """A fresh database per class (dropped after) and, unless
    start_server is False, a warpostd on it (stopped after, exit 0 checked).
    Each test also checks the server is still running afterwards."""

    start_server = True
    server_env = None
    web_root = None
    # True: a cluster of the class's own, which its tests may stop or hang
    private_cluster = False

    @classmethod
    def setUpClass(cls):
        if cls.private_cluster:
            cls.pg = PgCluster(private=True).start()
            cls.addClassCleanup(cls.pg.close)
        else:
            cls.pg = PgCluster.shared()
        # A class that starts its server gets a database with the
        # migrations applied (the server's start then applies none); one
        # that does not gets an empty one, as a first start would.
        cls.db = cls.pg.create_database(migrated=cls.start_server)
        cls.addClassCleanup(cls.db.drop)
        cls.server = None
        if cls.start_server:
            cls.server = Server(cls.db.url, env=cls.server_env, web_root=cls.web_root)
            cls.addClassCleanup(cls._stop_server)
            cls.server.start()

    @classmethod
    def _stop_server(cls):
        if cls.server is not None and cls.server.proc is not None:
            cls.server.stop()

    def tearDown(self):
        # the class's server, or the one a test made for itself
        srv = getattr(self, "server", None)
        if getattr(srv, "proc", None) is not None and srv.proc.returncode is None \
                and srv.proc.poll() is not None:
            self.fail("warpostd died during this test (exit code %s)\n--- stderr ---\n%s"
                      % (srv.proc.returncode, srv.stderr_text()[-4000:]))

    def req(self, method, path, body=None, headers=None, **kw):
        return self.server.request(method, path, body, headers, **kw)

    def assertProblem(self, reply, status, slug, field=None):
        return assert_problem(reply, status, slug, field)


class NginxTestCase(ServerTestCase):
    """ServerTestCase plus self.fcgi (the FastCGI front on the same
    database) and self.nginx in front of it, both checked alive after
    each test."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.fcgi = FcgiServer(cls.db.url)
        cls.addClassCleanup(cls.fcgi.stop)
        cls.fcgi.start()
        cls.nginx = Nginx(cls.fcgi.socket_path)
        cls.addClassCleanup(cls.nginx.stop)
        cls.nginx.start()

    def tearDown(self):
        super().tearDown()
        for proc in (self.fcgi, self.nginx):
            if not proc.alive():
                self.fail("%s died:\n%s" % (proc.name, proc.stderr_text()[-4000:]))


class _LogsOnFailure(unittest.TextTestResult):
    """A failed test prints the last lines of what each server it used
    wrote to stderr: the one of its class, and every process it started.
    A failure in CI is then read from the log alone (a 503 says only that
    the database did not answer; the server's log says which statement,
    or that the breaker tripped, and why)."""

    TAIL = 3000

    def startTest(self, test):
        self._mark = len(_Process.spawned)
        self._shown = False
        super().startTest(test)

    def _logs(self, test):
        # once a test, however many of its subtests fail
        if getattr(self, "_shown", False):
            return
        self._shown = True
        procs = list(_Process.spawned[getattr(self, "_mark", 0):])
        own = getattr(test, "server", None)
        if isinstance(own, _Process) and own not in procs:
            procs.insert(0, own)
        for p in procs:
            text = p.stderr_text(tail=self.TAIL)
            if text:
                self.stream.write("\n--- %s (pid %s), the end of its stderr ---\n%s\n" % (
                    p.name, p.proc.pid if p.proc else "-", text))
        self.stream.flush()

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._logs(test)

    def addError(self, test, err):
        super().addError(test, err)
        self._logs(test)

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._logs(test)


# Every test module that imports this one reports so, whether it calls
# main() below or unittest.main() itself.
unittest.TextTestRunner.resultclass = _LogsOnFailure


def main():
    """unittest.main with verbose output (the closing OK / FAILED line and
    the exit code are what ctest reads)."""
    unittest.main(verbosity=2)


# --------------------------------------------------------------------------
# The same requests through each front (HTTP, FastCGI behind nginx, CGI)

def comparison_cases():
    """(label, method, path, body, headers). "{token}" in a header value is
    replaced by the token of the player made by "create player"."""
    j = {"Content-Type": "application/json"}
    return [
        ("health", "GET", "/api/health", None, {}),
        ("unknown route", "GET", "/api/no-such-route", None, {}),
        ("method not allowed", "POST", "/api/health", None, {}),
        ("unsupported media type", "POST", "/api/players", b"name=Alice",
         {"Content-Type": "text/plain"}),
        ("malformed json", "POST", "/api/players", b'{"name":', j),
        ("invalid request", "POST", "/api/players", b'{"name":42}', j),
        ("create player", "POST", "/api/players", b'{"name":"Alice"}', j),
        ("me", "GET", "/api/me", None, {"Authorization": "Bearer {token}"}),
        ("me without token", "GET", "/api/me", None, {}),
        ("me with wrong token", "GET", "/api/me", None, {"Authorization": "Bearer " + "ab" * 32}),
        ("body too large", "POST", "/api/players",
         b'{"name":"' + b"x" * (100 * 1024) + b'"}', j),
        ("bad path", "GET", "/api/health%00", None, {}),
    ]


def _shape(value):
    """JSON with the values of id/token keys replaced by a type marker."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "id" and isinstance(v, int) and not isinstance(v, bool):
                out[k] = "<int id>"
            elif k == "token" and isinstance(v, str) and TOKEN_RE.match(v):
                out[k] = "<token>"
            else:
                out[k] = _shape(v)
        return out
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return value


def run_comparison_set(client):
    """Send comparison_cases() through `client` (anything with
    request(method, path, body, headers)); returns {label: summary} where a
    summary holds what must be equal across fronts."""
    token = None
    out = {}
    for label, method, path, body, headers in comparison_cases():
        h = {}
        for k, v in headers.items():
            if "{token}" in v:
                if token is None:
                    raise AssertionError("no token: 'create player' failed")
                v = v.replace("{token}", token)
            h[k] = v
        r = client.request(method, path, body, h)
        try:
            doc = json.loads(r.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            doc = "<not JSON: %r>" % r.body[:200]
        if label == "create player" and r.status == 201 and isinstance(doc, dict):
            token = doc.get("token")
        out[label] = {
            "status": r.status,
            "content-type": norm_content_type(r.headers.get("content-type")),
            "allow": sorted(allow_set(r)) if r.status == 405 else None,
            "www-authenticate": (r.headers.get("www-authenticate")
                                 if r.status == 401 else None),
            "json": _shape(doc),
        }
    return out
