// The board as it ships (issue 32): the server serves the bundle that
// scripts/webbuild/build.mjs makes (build/web), and a match page at 360 px
// loads one script (the bundle) and one stylesheet, each named by a hash
// of its content and sent compressed (brotli: the copy the build wrote
// beside it), reads the view once (the read
// the page's inline script began is taken by the page, not made twice:
// the Content-Security-Policy lets that script run by its hash), and
// shows its board without an error. Those two are kept by the browser (a
// year, immutable); the page itself is revalidated. Against web/
// unbundled (the development mode) the page loads its ~40 modules
// instead, so this test fails there.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, api, contextAs, watchErrors, PHONE, shot, WAIT } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });

test('a match page loads the bundle and the stylesheet, hashed and compressed, and reads its view once', async () => {
  const p0 = await api(env, 'POST', '/api/players', { name: 'Bea' });
  const p1 = await api(env, 'POST', '/api/players', { name: 'Cai' });
  const g = await api(env, 'POST', '/api/games', { ruleset: 'skirmish-test', seats: 2, seat: 0 }, p0.token);
  await api(env, 'POST', `/api/games/${g.id}/join`, { code: g.invitations[0].code }, p1.token);

  const ctx = await contextAs(env, p0, PHONE);
  const page = await ctx.newPage();
  const errors = watchErrors(page, 'phone');
  const assets = [];
  const viewReads = [];
  // Reads of the whole view (not a revalidation with If-None-Match, which
  // the event stream may prompt later).
  page.on('request', async (r) => {
    const u = new URL(r.url());
    if (u.pathname !== `/api/games/${g.id}` || u.search) return;
    if (!(await r.allHeaders())['if-none-match']) viewReads.push(r.url());
  });
  page.on('response', (r) => {
    const type = r.request().resourceType();
    if (type === 'script' || type === 'stylesheet') {
      assets.push({ type, url: new URL(r.url()).pathname, enc: r.headers()['content-encoding'] || '', cache: r.headers()['cache-control'] || '' });
    }
  });
  await page.goto(`${env.base}/#/match/${g.id}`);
  await page.waitForSelector('svg.board', { timeout: WAIT });
  await page.waitForSelector('.prompt-you', { timeout: WAIT });
  await shot(page, 'bundle-match-phone');

  const scripts = assets.filter((a) => a.type === 'script');
  const sheets = assets.filter((a) => a.type === 'stylesheet');
  assert.equal(scripts.length, 1, `scripts loaded: ${scripts.map((a) => a.url).join(' ')}`);
  assert.equal(sheets.length, 1, `stylesheets loaded: ${sheets.map((a) => a.url).join(' ')}`);
  for (const a of [...scripts, ...sheets]) {
    assert.match(a.url, /^\/(app|style)-[0-9a-f]{12}\.(js|css)$/);
    // Chromium accepts br: the build's brotli copy (NAME.br) is sent.
    assert.equal(a.enc, 'br', `${a.url} is sent compressed, as the build's brotli copy`);
    // Named by its content: a phone keeps it and asks no more.
    assert.equal(a.cache, 'public, max-age=31536000, immutable', `${a.url} is kept`);
  }
  // The inline script ran (the policy allowed it) and began the reads.
  assert.equal(await page.evaluate(() => typeof window.__wpEarly), 'object', 'the inline script ran');
  assert.equal(viewReads.length, 1, `view reads: ${viewReads.join(" ")}; errors: ${errors.join(" | ")}`);
  assert.deepEqual(errors, []);
  await ctx.close();
});
