// Open challenges on the board (issue 28), at 360×740 as a new player
// would use them: Ann opens "Find an opponent" from her matches and posts a
// challenge with the new-match form (Confrontation, 3 days a move, rated,
// a random seat); Ben, in a second browser, sees it appear in his list by
// the long-poll (filtered by ruleset and time control; his matches page
// says challenges wait), accepts it, and
// lands in the match; Ann's page, which is only waiting, opens the same
// match by itself. A cancelled challenge leaves Ben's list live as well.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, api, watchErrors, checkPage, playersOnPages, WAIT } from './harness.mjs';

const T = WAIT;
let env;

before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });

test('post a challenge, another player accepts it, both land in the match', async () => {
  const { players: [ann, ben], pages: [a, b], errors, close } = await playersOnPages(env, ['Ann', 'Ben']);
  const problems = [];
  try {

    // Ben's list first, filtered to timed Confrontation: empty for now.
    await b.goto(`${env.base}/#/challenges`);
    await b.waitForSelector('#filter-ruleset');
    await b.selectOption('#filter-ruleset', 'confrontation');
    await b.selectOption('#filter-time', 'timed');
    await b.waitForSelector('text=No open challenge matches these filters', { timeout: T });

    // Ann: from her matches to the lobby, and posts.
    await a.goto(`${env.base}/#/`);
    await a.click('#challenges-link');
    await a.waitForSelector('#post-challenge');
    await a.click('#post-challenge');
    await a.waitForSelector('#ruleset');
    await a.selectOption('#ruleset', 'confrontation');
    await a.waitForSelector('.options [data-option]');
    await a.selectOption('#seat', 'random');
    await a.check('#tc-on');
    await a.fill('#tc-days', '3');
    await a.check('#ch-rated');
    await checkPage(a, 'challenges-post-phone', problems);
    await a.click('#ch-submit');
    await a.waitForSelector('[data-cancel]', { timeout: T });
    const id = Number(await a.getAttribute('[data-cancel]', 'data-cancel'));
    const posted = await api(env, 'GET', `/api/challenges/${id}`, undefined, ann.token);
    assert.deepEqual([posted.ruleset, posted.rated, posted.time_control.days_per_move, posted.status],
      ['confrontation', true, 3, 'open'], 'the form sent the choice');

    // Ben's page learns of it without a reload (the long-poll).
    await b.waitForSelector(`[data-accept="${id}"]`, { timeout: T });
    const words = await b.locator(`[data-challenge="${id}"]`).innerText();
    assert.match(words, /Ann/);
    assert.match(words, /3 days a move/);
    assert.match(words, /rated/);
    await checkPage(b, 'challenges-list-phone', problems);

    // A challenge of another ruleset is filtered out of Ben's list.
    const other = await api(env, 'POST', '/api/challenges', { ruleset: 'skirmish-test' }, ann.token);
    // ... and a cancelled one leaves it live.
    const gone = await api(env, 'POST', '/api/challenges', { ruleset: 'confrontation', time_control: { days_per_move: 2 } }, ann.token);
    await b.waitForSelector(`[data-accept="${gone.id}"]`, { timeout: T });
    assert.equal(await b.locator(`[data-accept="${other.id}"]`).count(), 0, 'filtered by ruleset');
    await api(env, 'DELETE', `/api/challenges/${gone.id}`, undefined, ann.token);
    await b.waitForSelector(`[data-accept="${gone.id}"]`, { state: 'detached', timeout: T });

    // His matches page tells him challenges wait, and leads to them.
    const home = await b.context().newPage();
    watchErrors(home, 'Ben at home', errors);
    await home.goto(`${env.base}/#/`);
    await home.waitForSelector('#challenges-teaser a[href="#/challenges"]', { timeout: T });
    assert.match(await home.locator('#challenges-teaser').innerText(), /\d+ open challenges? waiting/);
    await checkPage(home, 'challenges-home-phone', problems);
    await home.close();

    // Ben accepts: both land in the match.
    await b.click(`[data-accept="${id}"]`);
    await b.waitForURL(/#\/match\/\d+$/, { timeout: T });
    const game = Number(b.url().match(/#\/match\/(\d+)$/)[1]);
    await a.waitForURL(new RegExp(`#/match/${game}$`), { timeout: T });
    const v = await api(env, 'GET', `/api/games/${game}`, undefined, ann.token);
    assert.equal(v.status, 'active');
    assert.deepEqual(v.seats.map((s) => s.player.name).sort(), ['Ann', 'Ben']);
    await a.waitForSelector('svg.board', { timeout: T });
    await b.waitForSelector('svg.board', { timeout: T });
    await checkPage(b, 'challenges-match-phone', problems);
  } finally {
    await close();
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(problems, []);
});

// A phone on a bad connection (srv/api/keyed.c, web/api.js oncePoster):
// Cleo's first "Create the match" reaches the server, which makes the
// match, but its answer is lost on the way back. The page says the server
// did not answer; she taps again, and the same Idempotency-Key and body go
// out, so the server answers with the match it made: one match, not two,
// and its invitation link on her page.
test('a lost answer to Create the match, tapped again, makes one match', async () => {
  const { players: [cleo], pages: [c], errors, close } = await playersOnPages(env, ['Cleo']);
  const keys = [];
  try {
    await c.route('**/api/games', async (route) => {
      const q = route.request();
      if (q.method() !== 'POST') return route.continue();
      keys.push(q.headers()['idempotency-key']);
      if (keys.length > 1) return route.continue();
      await route.fetch();                       // the server makes the match ...
      return route.abort('connectionreset');     // ... and its answer is lost
    });
    await c.goto(`${env.base}/#/new`);
    await c.waitForSelector('#ruleset');
    await c.waitForSelector('.options [data-option]');
    await c.click('text=Create the match');
    await c.waitForSelector('text=The server does not answer', { timeout: T });
    assert.equal((await api(env, 'GET', '/api/me/games', undefined, cleo.token)).games.length, 1,
      'the first tap made the match');
    await c.click('text=Create the match');
    await c.waitForSelector('#invite-1', { timeout: T });
    const link = await c.inputValue('#invite-1');
    const mine = (await api(env, 'GET', '/api/me/games', undefined, cleo.token)).games;
    assert.equal(mine.length, 1, 'the second tap made no second match');
    assert.equal(Number(link.match(/join\/(\d+)\//)[1]), mine[0].id, 'the link is the match made');
    assert.equal(keys.length, 2);
    assert.ok(keys[0] && keys[0] === keys[1], `one key for both taps: ${keys}`);
  } finally {
    await close();
  }
  // The lost answer is the browser's own complaint, nothing else.
  assert.deepEqual(errors.filter((e) => !/ERR_CONNECTION_RESET|ERR_FAILED/.test(e)), []);
});
