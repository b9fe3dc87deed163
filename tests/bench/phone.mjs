// The board on a phone (issue 32): for each ruleset the server offers, a
// match set up through the API and played a few posts, then its match page
// opened on a cold cache in headless Chromium (tests/e2e/harness.mjs: a
// private PostgreSQL, warpostd-test, Debian's chromium) at 360 px, with
// the CPU slowed 4x and Lighthouse's "slow 4G" network. Reports Largest
// Contentful Paint, Interaction to Next Paint for selecting a piece (the
// longest Event Timing entry around a click on one of the seat's pieces),
// Cumulative Layout Shift and the bytes transferred compressed on the cold
// load, beside the Core Web Vitals "good" thresholds. Figures only: nothing
// is asserted.
//
// Usage: node tests/bench/phone.mjs   (needs npm ci --prefix tests/e2e and
// a build with the board's bundle, cmake --build build --target web, which
// it serves unless WP_WEB_ROOT names another folder; writes
// test-output/phone.md). WP_PHONE_ONLY=RULESET measures that ruleset
// alone; WP_PHONE_TIMELINE=1 also prints each load's timeline (when each
// request began and ended, DOMContentLoaded, the LCP candidates), in ms
// from the navigation; WP_PHONE_PROFILE=DIR writes the renderer's CPU
// profile of each load, up to the first piece on the board, to
// DIR/RULESET.cpuprofile (DevTools opens it; the throttled CPU's times).

import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startAll, stopAll, api, contextAs, PHONE, sq, REPO, WEB_ROOT, chesswarSetUp } from '../e2e/harness.mjs';

const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1.6 * 1024 * 1024 / 8) * 0.9,
  uploadThroughput: (750 * 1024 / 8) * 0.9 };
const GOOD = { lcp: 2500, inp: 200, cls: 0.1, kb: 150 };

// Observers registered before the page's own scripts run.
function observe() {
  window.__wp = { lcp: 0, cls: 0, events: [], lcps: [] };
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      window.__wp.lcp = e.startTime;
      const el = e.element;
      window.__wp.lcps.push([Math.round(e.startTime), el ? `${el.tagName}.${String(el.className.baseVal ?? el.className)}` : '?']);
    }
  })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (!e.hadRecentInput) window.__wp.cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) window.__wp.events.push({ name: e.name, duration: e.duration });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
}

// Plays until the seat awaited has a move (or a few posts are made).
// ChessWar's set-up is posted first.
async function midGame(env, ruleset) {
  const players = [];
  for (const name of ['Pia', 'Quin']) players.push(await api(env, 'POST', '/api/players', { name }));
  const g = await api(env, 'POST', '/api/games', { ruleset, seats: 2, seat: 0 }, players[0].token);
  await api(env, 'POST', `/api/games/${g.id}/join`, { code: g.invitations[0].code }, players[1].token);
  let posts = 0;
  // ChessWar's secret set-up (an army, its purchases, a deployment) is one
  // post per seat, the one tests/e2e/chesswar.test.mjs plays.
  if (ruleset === 'chesswar') {
    for (const seat of [0, 1]) {
      const list = await api(env, 'GET', `/api/games/${g.id}/actions`, undefined, players[seat].token);
      await api(env, 'POST', `/api/games/${g.id}/turns`, { seq: list.seq, actions: chesswarSetUp(seat) }, players[seat].token);
      posts++;
    }
  }
  for (let i = 0; i < 200; i++) {
    const v = await api(env, 'GET', `/api/games/${g.id}`, undefined, players[0].token);
    if (v.status !== 'active') break;
    const seat = v.awaiting[0];
    const list = await api(env, 'GET', `/api/games/${g.id}/actions`, undefined, players[seat].token);
    // A piece of the seat's to select: a move's square, or one it acts
    // from (Wargame Chess activates a piece on its square).
    const mv = list.actions.find((a) => a.type === 'move' && a.from);
    const piece = mv || list.actions.find((a) => a.from || (a.type === 'activate' && a.square));
    if (piece && posts >= 6) return { g, who: players[seat], from: piece.from || piece.square, posts };
    const act = mv || list.actions.find((a) => a.type === 'ready') || list.actions[0];
    if (!act) break;
    await api(env, 'POST', `/api/games/${g.id}/turns`, { seq: list.seq, actions: [act] }, players[seat].token);
    posts++;
  }
  return null;
}

// Waits until the page shows the selector. Not page.waitForSelector:
// that injects Playwright's selector engine into the page while the board
// is being drawn, and on the CPU slowed 4x compiling it took 40 to 75 ms
// of the page's main thread before its first paint, which the LCP then
// counted (its CPU profile, WP_PHONE_PROFILE). A bare querySelector every
// 100 ms costs the page about nothing.
async function pieceShown(page, selector) {
  for (const until = Date.now() + 120000; Date.now() < until; await page.waitForTimeout(100)) {
    if (await page.evaluate((s) => !!document.querySelector(s), selector)) return;
  }
  throw new Error(`the match page never showed ${selector}`);
}

async function measure(env, set) {
  const ctx = await contextAs(env, set.who, PHONE);
  await ctx.addInitScript(observe);
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; requests++; });
  const profile = process.env.WP_PHONE_PROFILE;
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
    await cdp.send('Profiler.start');
  }
  try {
    await page.goto(`${env.base}/#/match/${set.g.id}`, { waitUntil: 'load', timeout: 120000 });
    await pieceShown(page, sq(set.from));
    if (profile) {
      const { profile: p } = await cdp.send('Profiler.stop');
      mkdirSync(profile, { recursive: true });
      writeFileSync(join(profile, `${set.g.ruleset || 'match'}.cpuprofile`), JSON.stringify(p));
    }
    await page.waitForTimeout(3000); // the last paints, long-polls aside
    const loadBytes = bytes;
    const loadRequests = requests;
    await page.evaluate(() => { window.__wp.events = []; });
    await page.click(sq(set.from));
    await page.waitForTimeout(2000);
    const m = await page.evaluate(() => window.__wp);
    if (process.env.WP_PHONE_TIMELINE === '1') {
      const tl = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        return {
          page: [0, Math.round(nav.responseEnd)],
          domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
          requests: performance.getEntriesByType('resource').map((e) => [e.name.replace(location.origin, ''), Math.round(e.startTime), Math.round(e.responseEnd)]),
        };
      });
      console.log(set.g.ruleset || '', JSON.stringify({ ...tl, lcp: m.lcps }));
    }
    const inp = m.events.reduce((a, e) => Math.max(a, e.duration), 0);
    return { lcp: m.lcp, cls: m.cls, inp, kb: loadBytes / 1024, requests: loadRequests };
  } finally {
    await ctx.close();
  }
}

const env = await startAll();
const rows = [];
try {
  const { rulesets } = await api(env, 'GET', '/api/rulesets');
  for (const r of rulesets.filter((x) => !process.env.WP_PHONE_ONLY || x.id === process.env.WP_PHONE_ONLY)) {
    const set = await midGame(env, r.id);
    if (!set) { rows.push({ id: r.id, skipped: 'no move reached through the API' }); continue; }
    const m = await measure(env, set);
    rows.push({ id: r.id, posts: set.posts, ...m });
    console.log(r.id, JSON.stringify(m));
  }
} finally {
  await stopAll(env);
}

const ok = (v, good, lt) => (lt ? v < good : v <= good) ? 'good' : 'over';
let out = `The board on a phone (issue 32): 360 px, CPU slowed 4x, slow 4G (562.5 ms, 1.44 Mbps down,
675 kbps up), cold cache, serving ${WEB_ROOT}; ${new Date().toISOString()}, on a machine that may be busy (2 cores shared).
Figures, not assertions.\n`;
for (const r of rows) {
  out += `\n### ${r.id}\n\n`;
  if (r.skipped) { out += `not measured: ${r.skipped}\n`; continue; }
  out += `Match page after ${r.posts} posts, ${r.requests} requests on the load.\n\n`;
  out += '| measure | figure | good | |\n|---|---:|---:|---|\n';
  out += `| LCP | ${(r.lcp / 1000).toFixed(2)} s | <= 2.5 s | ${ok(r.lcp, GOOD.lcp)} |\n`;
  out += `| INP (select a piece) | ${Math.round(r.inp)} ms | <= 200 ms | ${ok(r.inp, GOOD.inp)} |\n`;
  out += `| CLS | ${r.cls.toFixed(3)} | < 0.1 | ${ok(r.cls, GOOD.cls, true)} |\n`;
  out += `| bytes (compressed, cold) | ${r.kb.toFixed(1)} KB | <= 150 KB | ${ok(r.kb, GOOD.kb)} |\n`;
}
console.log(out);
mkdirSync(join(REPO, 'test-output'), { recursive: true });
writeFileSync(join(REPO, 'test-output', 'phone.md'), out);
