// The e2e harness: a PostgreSQL database of its own, the test server
// (warpostd-test, which offers the skirmish-test ruleset) and Debian's
// Chromium driven by playwright-core. Nothing is downloaded.
//
// Environment (ctest sets them; defaults suit a run from the repository):
//   WP_REPO         repository root
//   WARPOSTD_TEST   the test server binary (build/tests/testrules/warpostd-test)
//   CHROMIUM        the browser (/usr/bin/chromium)
//   WP_E2E_OUT      where screenshots and the server log go (test-output/e2e)
//   WP_E2E_SHOTS    1: keep a screenshot of every page the tests check
//                   (shot()); otherwise only of a failed test's pages.
//                   Encoding them was a third of the browser tests' CPU.
//   WP_E2E_BASE_URL use a server already running instead (development)
//   WP_TEST_PG_URL_FILE  the admin URL of the ctest run's shared cluster
//                   (the fixture "pg", tests/api/CMakeLists.txt): a
//                   database of this file's own is made in it. Without it,
//                   a private cluster of this file's own (PG_FAST=1).
//                   A cluster started and stopped was about 2 of the 6
//                   core-seconds each file spent outside its tests.
//   WP_E2E_BROWSER_FILE  the address of the ctest run's shared Chromium
//                   (the fixture "e2e_browser", browser.mjs): connected
//                   to instead of launching one. Launching and closing a
//                   Chromium was about 1.9 core-seconds of each file.

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, chmodSync, rmSync, openSync, closeSync, existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
// The longest wait for anything a page should show. Generous: a CI
// machine kept busy by other work must not fail a test by being slow
// (a first "your turn" once took over 30 s there); WP_E2E_WAIT_MS sets it.
export const WAIT = Number(process.env.WP_E2E_WAIT_MS) || 90000;
export const REPO = process.env.WP_REPO || resolve(HERE, '../..');
export const OUT = process.env.WP_E2E_OUT || join(REPO, 'test-output', 'e2e');
const SERVER = process.env.WARPOSTD_TEST || join(REPO, 'build', 'tests', 'testrules', 'warpostd-test');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// What the server serves: the bundle (build/web, the CMake target "web",
// what ships) unless WP_WEB_ROOT names another folder (web/ itself for
// the development mode; tests/e2e/CMakeLists.txt).
export const WEB_ROOT = process.env.WP_WEB_ROOT || join(REPO, 'build', 'web');

// Chromium's own background connections are refused on the test machines:
// switch them off, and keep GPU and sandbox out of a headless CI run.
// Headless Chromium (156) is the whole browser without a screen: each
// window (each browser context) also loaded the address bar's suggestion
// popup, a WebUI page in a renderer of its own. Measured on e2e_play
// alone: 65 and 67 core-seconds with it, 45 to 58 without (wall 45 and
// 47 s, 35 to 43 s; README "Tests"). Chromium adds these to the
// features Playwright switches off (a renderer's --disable-features lists
// both). The GPU process's work (software compositing) runs in the
// browser process, and a context's pages share one renderer where
// Chromium can: the e2e tests (ctest -j5 -L e2e) took 344 busy
// core-seconds without these two, 298 with them (wall 181 s, 155 s).
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup',
  '--in-process-gpu', '--renderer-process-limit=1',
];

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.unref();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Whether process pid holds a listening TCP socket on port. A health
// answer on a port proves only that someone listens there: another test's
// server can take the same free port in between, and its answers were
// once taken for this one's while this one failed to bind
// (tests/lib/warpost.py, listens_on).
function listensOn(pid, port) {
  const inodes = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let rows = [];
    try { rows = readFileSync(table, 'utf8').split('\n').slice(1); } catch { continue; }
    for (const row of rows) {
      const col = row.trim().split(/\s+/);
      if (col.length > 9 && col[3] === '0A' && parseInt(col[1].split(':').pop(), 16) === port) inodes.add(col[9]);
    }
  }
  let fds = [];
  try { fds = readdirSync(`/proc/${pid}/fd`); } catch { return false; }
  return fds.some((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return target.startsWith('socket:[') && inodes.has(target.slice(8, -1));
    } catch { return false; }
  });
}

// psql of the highest PostgreSQL installed (or PG_BINDIR's).
function psqlPath() {
  if (process.env.PG_BINDIR) return join(process.env.PG_BINDIR, 'psql');
  const root = '/usr/lib/postgresql';
  const vers = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'psql'))) : [];
  vers.sort((a, b) => Number(b) - Number(a));
  return vers.length ? join(root, vers[0], 'bin', 'psql') : 'psql';
}

function psql(url, sql) {
  return execFileSync(psqlPath(), ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

// The same libpq URL with another database name.
function urlWithDb(url, name) {
  const m = url.match(/^(postgres(?:ql)?:\/\/[^/?]*)(\/[^?]*)?(\?.*)?$/);
  if (!m) throw new Error(`not a libpq URI: ${url}`);
  return `${m[1]}/${name}${m[3] || ''}`;
}

// A database of this process's own: in the shared cluster when ctest
// runs one, else in a private cluster started here.
async function startDatabase(env) {
  const shared = process.env.WP_TEST_PG_URL_FILE;
  if (shared && existsSync(shared)) {
    env.adminUrl = readFileSync(shared, 'utf8').trim();
    env.dbName = `e2e_${process.pid}_${Date.now().toString(36)}`;
    psql(env.adminUrl, `CREATE DATABASE ${env.dbName} STRATEGY FILE_COPY`);
    return urlWithDb(env.adminUrl, env.dbName);
  }
  env.pgDir = join(env.tmp, 'pg');
  watchCluster(env.pgDir);
  const pgPort = await freePort();
  return execFileSync('bash', [join(REPO, 'scripts', 'pgcluster.sh'), 'start', env.pgDir, String(pgPort)],
    { env: { ...process.env, PG_FAST: '1' }, encoding: 'utf8' }).trim();
}

// Starts everything; when any step fails, what was started is stopped
// before the error goes on, so a failed run leaves no cluster behind.
export async function startAll() {
  mkdirSync(OUT, { recursive: true });
  const env = { base: process.env.WP_E2E_BASE_URL || null };
  try {
    return await startInto(env);
  } catch (err) {
    await stopAll(env);
    throw err;
  }
}

// A watchdog outside this process destroys the cluster when the process
// dies without stopAll (ctest's timeout kills it with SIGKILL).
function watchCluster(pgDir) {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ` +
    `[ -d "$1" ] && bash "$2" destroy "$1"`;
  const w = spawn('bash', ['-c', script, 'watchdog', pgDir, join(REPO, 'scripts', 'pgcluster.sh')],
    { detached: true, stdio: 'ignore' });
  w.unref();
}

// The ctest run's browser (browser.mjs, the fixture "e2e_browser"), when
// WP_E2E_BROWSER_FILE names its address: this process sees only the
// contexts it makes, and closing it closes those and disconnects. When
// it cannot be reached, a browser of this process's own.
async function sharedBrowser(chromium) {
  const file = process.env.WP_E2E_BROWSER_FILE;
  if (!file || !existsSync(file)) return null;
  const ws = readFileSync(file, 'utf8').trim();
  try {
    return await chromium.connect(ws, { timeout: WAIT });
  } catch (err) {
    console.error(`the shared browser at ${ws} did not answer (${err.message}): launching one`);
    return null;
  }
}

async function startInto(env) {
  // The cluster runs as the postgres user when we are root: its directory's
  // parents must be traversable by it.
  env.tmp = mkdtempSync('/tmp/wp-e2e-');
  chmodSync(env.tmp, 0o755);
  if (!env.base) {
    if (!existsSync(join(WEB_ROOT, 'index.html'))) {
      throw new Error(`no ${WEB_ROOT}/index.html: build the board first (npm ci --prefix scripts/webbuild; cmake --build build --target web)`);
    }
    env.dbUrl = await startDatabase(env);
    const logPath = join(OUT, `server-${process.pid}.log`);
    let up = false;
    // A free port may be taken by another test's server before this one
    // binds it: then it exits saying so, and starts again on another.
    for (let attempt = 0; !up; attempt++) {
      const port = await freePort();
      const log = openSync(logPath, 'w');
      env.server = spawn(SERVER, [], {
        env: {
          ...process.env, DATABASE_URL: env.dbUrl, PORT: String(port), BIND_ADDR: '127.0.0.1',
          WEB_ROOT, MIGRATIONS_DIR: join(REPO, 'sql'), THREADS: '4',
          RATE_LIMITS: 'off', MAX_OPEN_MATCHES: '0', RENDER_PRESTART: '0',
          // every browser context of a test is 127.0.0.1
          PER_IP_CONNECTIONS: '0',
        },
        stdio: ['ignore', log, log],
      });
      closeSync(log);
      env.base = `http://127.0.0.1:${port}`;
      for (const until = Date.now() + WAIT; !up && Date.now() < until;) {
        if (env.server.exitCode !== null) break;
        try {
          up = (await fetch(`${env.base}/api/health`)).ok && listensOn(env.server.pid, port);
        } catch { /* not yet */ }
        if (!up) await sleep(100);
      }
      if (up) break;
      const inUse = env.server.exitCode !== null && readFileSync(logPath, 'utf8').includes('in use');
      if (!inUse || attempt === 2) {
        if (env.server.exitCode !== null) throw new Error(`the server exited (${env.server.exitCode}); see ${logPath}`);
        throw new Error(`the server did not come up; see ${logPath}`);
      }
    }
  }
  // Playwright puts the browser profile (a fresh --user-data-dir) under
  // the temporary directory: keep it in ours, removed at the end.
  process.env.TMPDIR = env.tmp;
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    throw new Error('playwright-core is not installed: run  npm ci --prefix tests/e2e --no-audit --no-fund  (scripts/test.sh does)');
  }
  if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium (scripts/deps.sh e2e)`);
  env.browser = await sharedBrowser(chromium)
    || await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  // Every context's clicks and waits get the same generous bound (WAIT)
  // as the tests' own waits, not Playwright's 30 s.
  const newContext = env.browser.newContext.bind(env.browser);
  env.browser.newContext = async (opts) => {
    const ctx = await newContext(opts);
    ctx.setDefaultTimeout(WAIT);
    return ctx;
  };
  return env;
}

export async function stopAll(env) {
  if (!env) return;
  if (env.browser) await env.browser.close().catch(() => {});
  if (env.server && env.server.exitCode === null) {
    const done = new Promise((r) => env.server.once('exit', r));
    env.server.kill('SIGTERM');
    await Promise.race([done, sleep(5000)]);
    if (env.server.exitCode === null) env.server.kill('SIGKILL');
  }
  if (env.dbName) {
    try {
      psql(env.adminUrl, `DROP DATABASE IF EXISTS ${env.dbName} WITH (FORCE)`);
    } catch (err) { console.error('dropping the database failed', err.message); }
  }
  if (env.pgDir) {
    try {
      execFileSync('bash', [join(REPO, 'scripts', 'pgcluster.sh'), 'destroy', env.pgDir], { stdio: 'inherit' });
    } catch (err) { console.error('pgcluster destroy failed', err.message); }
  }
  if (env.tmp) rmSync(env.tmp, { recursive: true, force: true });
}

// The API from the test itself (for set-ups that are not under test).
export async function api(env, method, path, body, tok) {
  const headers = { 'Content-Type': 'application/json' };
  if (tok) headers.Authorization = `Bearer ${tok}`;
  const r = await fetch(env.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

// Shared by the test files ------------------------------------------------

export const sq = (s) => `svg.board [data-square="${s}"]`;

// A screenshot of what the screen shows, and of the whole page when it is
// longer, with WP_E2E_SHOTS=1. Names end with the size (-desktop, -phone)
// by convention.
export const SHOTS = process.env.WP_E2E_SHOTS === '1';
export async function shot(page, name) {
  if (!SHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  const tall = await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 40);
  if (tall) await page.screenshot({ path: join(OUT, `${name}-full.png`), fullPage: true });
}

// A browser context signed in as a player (token and name in localStorage,
// as the welcome page leaves them).
export async function contextAs(env, player, opts) {
  const ctx = await env.browser.newContext(opts);
  await ctx.addInitScript(([tok, name]) => {
    localStorage.setItem('warpost.token', tok);
    localStorage.setItem('warpost.name', name);
  }, [player.token, player.name]);
  return ctx;
}

// Until the page says it is the player's turn.
export async function waitMyTurn(page, timeout = WAIT) {
  await page.waitForSelector('.prompt-you', { timeout });
}

// Uncaught errors and console errors of a page, collected.
// The page's errors, pushed into `into` as they happen (the caller keeps
// that array and asserts on it at the end): uncaught exceptions, console
// errors, and each answer of 400 or more with the request that had it, so
// that Chromium's bare "Failed to load resource: ... 422" names its URL
// and the problem's title.
export function watchErrors(page, name, into = []) {
  // Each also printed when it happens: a test that times out first shows it.
  const push = into.push.bind(into);
  if (!Object.hasOwn(into, 'push')) Object.defineProperty(into, 'push', {
    value: (...items) => { for (const i of items) console.error(`page error (${new Date().toISOString()}): ${i}`); return push(...items); },
  });
  page.on('pageerror', (e) => into.push(`${name}: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') into.push(`${name} console: ${m.text()}`); });
  page.on('response', async (r) => {
    if (r.status() < 400) return;
    const q = r.request();
    let what = '';
    try { const b = JSON.parse(await r.text()); what = [b.title, b.detail].filter(Boolean).join(': '); } catch { /* not JSON */ }
    const u = new URL(r.url());
    const sent = q.postData() ? ` ${q.postData().slice(0, 300)}` : '';
    into.push(`${name} answer: ${q.method()} ${u.pathname}${u.search} -> ${r.status()} ${what}${sent}`);
  });
  return into;
}

// Players signed up through the API by name, each with a page of its own
// (a phone unless told) whose errors go into one list: the preamble of the
// tests where several players meet on the board. close() ends them.
export async function playersOnPages(env, names, opts = PHONE) {
  const players = [];
  const contexts = [];
  const pages = [];
  const errors = [];
  for (const name of names) {
    const p = await api(env, 'POST', '/api/players', { name });
    const ctx = await contextAs(env, p, opts);
    const page = await ctx.newPage();
    watchErrors(page, name, errors);
    players.push(p);
    contexts.push(ctx);
    pages.push(page);
  }
  return { players, pages, errors, close: async () => { for (const c of contexts) await c.close(); } };
}

// axe-core (tests/e2e/node_modules/axe-core) on the page as it is now:
// the serious and critical violations, as short strings.
const AXE = join(HERE, 'node_modules', 'axe-core', 'axe.min.js');
// Its 17 characters beyond ASCII (in strings, and `ε` as a property name)
// written as \u escapes, which mean the same in both: a string of ASCII
// alone crosses the DevTools protocol in about two thirds of the time
// (650 KB, once for every page audited).
let axeSource = null;
export async function axeProblems(page) {
  // Evaluated, not added as a <script>: the board's Content-Security-Policy
  // refuses inline scripts, and the audit must not weaken it.
  axeSource ??= readFileSync(AXE, 'utf8')
    .replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
  const res = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return res.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.join(' | ')})`);
}

// A page checked and kept: screenshot, then axe with no serious or
// critical violation, and no horizontal overflow.
export async function checkPage(page, name, problems, { dark = false } = {}) {
  await shot(page, name);
  for (const p of await axeProblems(page)) problems.push(`${name}: ${p}`);
  if (dark) {
    // The dark theme too (colour contrast above all).
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, `${name}-dark`);
    for (const p of await axeProblems(page)) problems.push(`${name} (dark): ${p}`);
    await page.emulateMedia({ colorScheme: 'light' });
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) problems.push(`${name}: the page is ${overflow}px wider than the screen`);
}

// Picks one of "Your choices" under the board by its words, as a player
// would: a button, or, where a type has many actions, its entry in that
// type's list followed by "Choose". Returns false when no such choice is
// shown.
export async function chooseAction(page, text, { timeout = WAIT } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const button = page.locator('.other-actions button.action-btn', { hasText: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') }).first();
    if (await button.count()) { await button.click(); return true; }
    for (const sel of await page.locator('.other-actions .choose-group select').all()) {
      const options = await sel.locator('option').allTextContents();
      const i = options.findIndex((o) => o.toLowerCase().includes(text.toLowerCase()));
      if (i >= 0) {
        await sel.selectOption(String(i));
        await sel.locator('xpath=../button').click();
        return true;
      }
    }
    if (Date.now() > deadline) {
      const shown = await page.locator('.other-actions').innerText().catch(() => '(nothing)');
      console.error(`chooseAction: no "${text}" among: ${shown.replace(/\s+/g, ' ')}`);
      return false;
    }
    await page.waitForTimeout(100);
  }
}

// A ChessWar set-up (tests/e2e/chesswar.test.mjs, tests/bench/phone.mjs):
// Humans for seat 0, Undead for seat 1, the army, its purchases and where
// each unit stands; chesswarSetUp(seat) is that seat's set-up post.
export const CHESSWAR_SETUP = [
  {
    army: 'humans',
    buy: [['wizard', 1], ['catapults', 2], ['archers', 2], ['knights', 1], ['infantry', 4]],
    at: [['general', 'e1'], ['wizard', 'h2'], ['catapults', 'c1'], ['catapults', 'f1'], ['archers', 'd1'], ['archers', 'g1'],
      ['knights', 'b1'], ['infantry', 'b2'], ['infantry', 'c2'], ['infantry', 'f2'], ['infantry', 'g2']],
  },
  {
    army: 'undead',
    buy: [['zombies', 4], ['undead_archers', 2]],
    at: [['liche', 'e8'], ['zombies', 'c7'], ['zombies', 'd7'], ['zombies', 'e7'], ['zombies', 'f7'],
      ['undead_archers', 'd8'], ['undead_archers', 'f8']],
  },
];

export function chesswarSetUp(seat) {
  const s = CHESSWAR_SETUP[seat];
  const acts = [{ type: 'army', army: s.army }];
  for (const [unit, count] of s.buy) acts.push({ type: 'buy', unit, count });
  acts.push({ type: 'ready' });
  for (const [unit, square] of s.at) acts.push({ type: 'deploy', unit, square });
  acts.push({ type: 'done' });
  return acts;
}
