// The web client in a real browser: two players (two browser contexts, one
// desktop and one phone) create and join a match, play it by clicking on
// the board, answer a dodge prompt, see each other's posts arrive through
// the event stream (the long-poll before the start), and one resigns. A second test plays with the keyboard
// alone. Screenshots go to test-output/e2e/ for a person to look at.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, stopAll, api, OUT, DESKTOP, PHONE, shot, WAIT } from './harness.mjs';

const T = WAIT;   // longest wait for anything the page should show
let env;

before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });

const sq = (s) => `svg.board [data-square="${s}"]`;
// Fail on any uncaught error in the page.
function watch(page, name) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${name} console: ${m.text()}`); });
  return errors;
}

async function pieceLabel(page, square) {
  return page.getAttribute(sq(square), 'aria-label');
}

async function waitPiece(page, square, text) {
  await page.waitForFunction(([s, t]) => {
    const g = document.querySelector(`svg.board [data-square="${s}"]`);
    return g && g.querySelector('.sq-piece').childElementCount > 0 && (!t || g.getAttribute('aria-label').includes(t));
  }, [square, text], { timeout: T });
}

async function waitEmpty(page, square) {
  await page.waitForFunction((s) => {
    const g = document.querySelector(`svg.board [data-square="${s}"]`);
    return g && g.querySelector('.sq-piece').childElementCount === 0;
  }, square, { timeout: T });
}

async function waitMyTurn(page) {
  await page.waitForSelector('.prompt-you', { timeout: T });
}

// Click a piece, then its target, then Post.
async function play(page, from, to, comment, hidden = false) {
  await waitMyTurn(page);
  await page.click(sq(from));
  await page.waitForSelector(`${sq(to)}.is-target`, { timeout: T });
  await page.click(sq(to));
  if (comment) {
    // The comment box folds away until asked for.
    if (!(await page.isVisible('#comment'))) await page.click('summary:has-text("Add a comment")');
    await page.fill('#comment', comment);
    if (hidden) await page.check('#comment-hidden');
  }
  await page.click('#post-btn');
  await page.waitForFunction(() => !document.querySelector('.prompt-you'), null, { timeout: T });
}

async function signUp(page, name) {
  await page.fill('#player-name', name);
  await page.click('text=Start playing');
}

test('two players create, join, play, dodge and resign', async () => {
  const ctxA = await env.browser.newContext(DESKTOP);
  const ctxB = await env.browser.newContext(PHONE);
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  const errors = [];
  const ea = watch(a, 'Alice');
  let longPolls = 0;
  let streams = 0;
  a.on('request', (r) => {
    if (/\/api\/games\/\d+\?wait=\d+$/.test(r.url()) && r.headers()['if-none-match']) longPolls++;
    if (/\/api\/games\/\d+\/events$/.test(r.url()) && r.headers().accept === 'text/event-stream') streams++;
  });
  const eb = watch(b, 'Bob');
  try {
    // Alice: a name, then the lobby.
    await a.goto(`${env.base}/`);
    await signUp(a, 'Alice');
    await a.waitForSelector('text=My matches');
    await a.click('a.button:has-text("New match")');
    await a.waitForSelector('#ruleset');
    await a.selectOption('#ruleset', 'skirmish-test');
    assert.equal(await a.inputValue('#opt-turn_limit'), '30', 'the option form shows the default');
    await shot(a, 'lobby-desktop');
    await a.click('text=Create the match');
    await a.waitForSelector('#invite-1');
    const link = await a.inputValue('#invite-1');
    assert.match(link, /#\/join\/\d+\/[0-9a-f]+$/);
    const gameId = link.match(/join\/(\d+)\//)[1];
    await shot(a, 'lobby-created-desktop');
    await a.click('text=Open the match');
    await a.waitForSelector('text=Waiting for 1 more player');
    // Mark the page: a reload would lose the mark.
    await a.evaluate(() => { window.__sameDocument = true; });

    // Bob opens the invitation on his phone, picks a name, joins.
    await b.goto(link);
    // The invitation says who invites, to what, with which options.
    await b.waitForSelector('.invitation .lead:has-text("Alice invites you")', { timeout: T });
    await signUp(b, 'Bob');
    await b.click('#join-btn');
    await b.waitForURL(/#\/match\/\d+$/, { timeout: T });
    await waitPiece(b, 'e8', 'chief');
    await b.evaluate(() => { window.__sameDocument = true; });

    // Alice's page sees the match start without a reload (long-poll).
    await waitMyTurn(a);
    assert.match(await a.title(), /Your turn/);
    assert.doesNotMatch(await b.title(), /Your turn/);
    // Bob sits at the top: his board is flipped (rank 8 at the bottom).
    const boxB8 = await b.locator(sq('e8')).boundingBox();
    const boxB1 = await b.locator(sq('e1')).boundingBox();
    assert.ok(boxB8.y > boxB1.y, "Bob's board shows his side at the bottom");

    // Which of Bob's scouts is real? Only Bob sees the decoy flag.
    const d8 = await pieceLabel(b, 'd8');
    const f8 = await pieceLabel(b, 'f8');
    assert.ok(/decoy/.test(d8) !== /decoy/.test(f8), 'Bob sees exactly one decoy');
    assert.doesNotMatch((await pieceLabel(a, 'd8')) + (await pieceLabel(a, 'f8')), /decoy/, 'Alice does not see it');
    const x = /decoy/.test(d8) ? 'f' : 'd';

    // Three moves each, seeing each other's move arrive.
    await play(a, `${x}1`, `${x}2`, 'Good luck!');
    await waitPiece(b, `${x}2`);
    await b.waitForSelector('text=Good luck!', { timeout: T });
    await play(b, `${x}8`, `${x}7`);
    await waitPiece(a, `${x}7`);
    await play(a, `${x}2`, `${x}3`, 'A secret plan', true);
    await waitPiece(b, `${x}3`);
    await b.waitForSelector('text=A hidden comment, shown when the match ends.', { timeout: T });
    await play(b, `${x}7`, `${x}6`);
    await waitPiece(a, `${x}6`);
    await play(a, `${x}3`, `${x}4`);
    await waitPiece(b, `${x}4`);
    await play(b, `${x}6`, `${x}5`);
    await waitPiece(a, `${x}5`);
    await shot(a, 'match-desktop');

    // Alice attacks: the target is marked as a capture.
    await waitMyTurn(a);
    await a.click(sq(`${x}4`));
    await a.waitForSelector(`${sq(`${x}5`)} .mark-capture`, { timeout: T });
    await shot(a, 'match-desktop-selected');
    await a.click(sq(`${x}5`));
    assert.match(await a.textContent('.draft'), new RegExp(`attack ${x}4→${x}5`));
    await a.click('#post-btn');

    // Bob is asked whether to dodge.
    await b.waitForSelector('.prompt-you:has-text("dodge")', { timeout: T });
    assert.match(await b.title(), /Your turn/);
    await shot(b, 'match-phone');
    await b.emulateMedia({ colorScheme: 'dark' });
    await shot(b, 'match-phone-dark');
    await b.emulateMedia({ colorScheme: 'light' });
    await b.click('button.action-btn:has-text("dodge: yes")');
    await b.click('#post-btn');
    // Both see the dice in the thread.
    await a.waitForSelector('.events li:has-text("roll")', { timeout: T });
    await b.waitForSelector('.events li:has-text("roll")', { timeout: T });
    assert.match(await a.textContent('.events li:has-text("roll")'), /attacker [⚀-⚅]/);

    // Bob's turn again: he resigns.
    await waitMyTurn(b);
    await b.click('button:has-text("Resign…")');
    await b.click('.confirm button:has-text("Resign")');
    await a.waitForSelector('.result-text', { timeout: T });
    assert.match(await a.textContent('.result-text'), /White \(you\) wins/);
    await b.waitForSelector('.result-text', { timeout: T });
    assert.match(await b.textContent('.result-text'), /White \(Alice\) wins/);
    // At the end the hidden comment is revealed.
    await b.waitForSelector('text=A secret plan', { timeout: T });
    await shot(a, 'result-desktop');
    assert.equal(await a.evaluate(() => window.__sameDocument), true, 'Alice never reloaded');
    // Live: a long-poll with If-None-Match until Bob joins, then the
    // match's event stream (web/live.js) while it is played.
    assert.ok(longPolls >= 1 && streams >= 1, `Alice's page long-polls, then streams (${longPolls}, ${streams})`);
    assert.equal(await b.evaluate(() => window.__sameDocument), true, 'Bob never reloaded');

    // The dice audit.
    await a.click('text=Verify the dice');
    await a.waitForSelector('.verdict.ok', { timeout: T });

    // My matches, on the phone; and the lobby at phone width. One request
    // for the whole list (issue 13, item 2): the opponent, the result and
    // the small board come with it, no match is asked for one by one.
    const asked = [];
    const onRequest = (r) => { const u = new URL(r.url()); if (u.pathname.startsWith('/api/')) asked.push(u.pathname); };
    b.on('request', onRequest);
    await b.goto(`${env.base}/#/`);
    const line = b.locator(`.inbox a[href="#/match/${gameId}"]`);
    await line.waitFor({ timeout: T });
    b.off('request', onRequest);
    assert.deepEqual(asked.filter((u) => /^\/api\/(games|me\/games)/.test(u)), ['/api/me/games'], asked.join(' '));
    assert.match(await line.textContent(), /vs Alice/);
    assert.match(await line.textContent(), /Lost/);
    assert.equal(await line.locator('.inbox-board svg').count(), 1, 'a small board');
    await shot(b, 'inbox-phone');
    await b.goto(`${env.base}/#/new`);
    await b.waitForSelector('.options .field', { timeout: T });
    await shot(b, 'lobby-phone');
    const overflow = await b.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the lobby fits 360 px (overflow ${overflow}px)`);
    errors.push(...ea, ...eb);
    assert.deepEqual(errors, [], 'no errors in the pages');
  } catch (err) {
    // What each player saw when it failed.
    await a.screenshot({ path: join(OUT, 'failed-alice.png'), fullPage: true }).catch(() => {});
    await b.screenshot({ path: join(OUT, 'failed-bob.png'), fullPage: true }).catch(() => {});
    throw err;
  } finally {
    await ctxA.close();
    await ctxB.close();
  }
});

// In the page: elements whose text contrast is below 4.5:1 against the
// first opaque background behind them.
function contrastProblems() {
  const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const bg = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const out = [];
  let checked = 0;
  const sel = 'body, h1, h2, p, a, button:not(:disabled), label, summary, dt, dd, .hint, .tag, .post-title, .post-seq, time, .events li, .prompt p, .whoami';
  for (const el of document.querySelectorAll(sel)) {
    if (!el.offsetParent && el !== document.body) continue;
    checked++;
    const fg = rgb(getComputedStyle(el).color).slice(0, 3);
    const [a, b] = [lum(fg), lum(bg(el))].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
  }
  return { low: out, checked };
}

// A started match between two new players, set up through the API.
async function newMatch(first, second) {
  const p0 = await api(env, 'POST', '/api/players', { name: first });
  const p1 = await api(env, 'POST', '/api/players', { name: second });
  const g = await api(env, 'POST', '/api/games', { ruleset: 'skirmish-test', seats: 2, seat: 0 }, p0.token);
  await api(env, 'POST', `/api/games/${g.id}/join`, { code: g.invitations[0].code }, p1.token);
  return { g, p0, p1 };
}

// A browser context already signed in as the player.
async function contextAs(player, opts) {
  const ctx = await env.browser.newContext(opts);
  await ctx.addInitScript(([tok, name]) => {
    localStorage.setItem('warpost.token', tok);
    localStorage.setItem('warpost.name', name);
  }, [player.token, player.name]);
  return ctx;
}

test('keyboard alone reaches the board, chooses and posts a move', async () => {
  const { g, p0: carol } = await newMatch('Carol', 'Dave');
  const ctx = await contextAs(carol, DESKTOP);
  const page = await ctx.newPage();
  const errors = watch(page, 'Carol');
  try {
    await page.goto(`${env.base}/#/match/${g.id}`);
    await waitMyTurn(page);
    // Tab until a square of the board has the focus.
    let onBoard = false;
    for (let i = 0; i < 40 && !onBoard; i++) {
      await page.keyboard.press('Tab');
      onBoard = await page.evaluate(() => !!document.activeElement?.dataset?.square);
    }
    assert.ok(onBoard, 'Tab reaches the board');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement.querySelector('.sq-focus')).stroke);
    assert.notEqual(ring, 'none', 'the focused square shows a focus ring');
    // The board starts its focus on e2; the chief stands on e1.
    assert.equal(await page.evaluate(() => document.activeElement.dataset.square), 'e2');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.square), 'e1');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${sq('e2')}.is-target`, { timeout: T });
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.square), 'f2');
    await page.keyboard.press('Enter');
    // The choice moves the focus to Post.
    assert.equal(await page.evaluate(() => document.activeElement.id), 'post-btn');
    assert.match(await page.textContent('.draft'), /move e1→f2/);
    await shot(page, 'keyboard-desktop');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.post-title:has-text("move e1→f2")', { timeout: T });
    await waitPiece(page, 'f2', 'chief');

    // Contrast sanity check (not a full audit): text against the
    // background it sits on, in both themes, at least 4.5:1.
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      const { low, checked } = await page.evaluate(contrastProblems);
      assert.ok(checked > 20, `${checked} elements checked`);
      assert.deepEqual(low, [], `${scheme} theme: low contrast`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

// Erin's page, on a new match, posts e1→e2; every try of a post goes
// through meddle(route) first, which answers it itself (true) or lets it
// reach the server (false). keys: every try's Idempotency-Key.
async function postMoveWith(meddle) {
  const { g, p0: erin, p1: frank } = await newMatch('Erin', 'Frank');
  const ctx = await contextAs(erin, PHONE);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const keys = [];
  await page.route('**/api/games/*/turns', async (route) => {
    const req = route.request();
    if (req.method() !== 'POST') return route.continue();
    keys.push(req.headers()['idempotency-key']);
    if (!(await meddle(route))) await route.continue();
  });
  try {
    await page.goto(`${env.base}/#/match/${g.id}`);
    await waitMyTurn(page);
    await page.click(sq('e1'));
    await page.click(sq('e2'));
    await page.click('#post-btn');
  } catch (err) {
    await ctx.close();
    throw err;
  }
  return { g, erin, frank, ctx, page, errors, keys };
}

test('a post whose answer is lost is retried with the same key, and applied once', async () => {
  let lose = true;
  // The first post reaches the server, but its answer never comes back.
  const { g, erin, frank, ctx, page, errors, keys } = await postMoveWith(async (route) => {
    if (!lose) return false;
    lose = false;
    await route.fetch();
    await route.abort('connectionreset');
    return true;
  });
  try {
    // Either the player retries, or the page does once it sees the match
    // moved on; both send the same key, and the server answers as the
    // first time.
    const retry = page.locator('.error button:has-text("Retry")');
    await Promise.race([
      retry.click({ timeout: T }).catch(() => {}),
      page.waitForFunction(() => !document.querySelector('.error'), null, { timeout: T }),
    ]);
    await page.waitForSelector('.post-title:has-text("move e1→e2")', { timeout: T });
    await page.waitForFunction(() => !document.querySelector('.composer .error'), null, { timeout: T });
    assert.ok(keys.length >= 2, `the post was sent again (${keys.length})`);
    assert.ok(keys.every((k) => k && k === keys[0]), `one Idempotency-Key for every try: ${keys}`);
    const log = await api(env, 'GET', `/api/games/${g.id}/turns?after=0`, undefined, erin.token);
    assert.equal(log.posts.filter((p) => p.kind === 'turn').length, 1, 'the turn is applied once');
    assert.equal(await page.locator('.post-title:has-text("move e1→e2")').count(), 1);

    // Standing orders through the ruleset's own form.
    await page.click('summary:has-text("Standing orders")');
    await page.selectOption('#orders-dodge', 'always');
    await page.click('button:has-text("Save orders")');
    await page.waitForSelector('.state-facts dd:has-text("Always dodge")', { timeout: T });

    // Frank offers a draw; Erin's page offers to accept it, live.
    await api(env, 'POST', `/api/games/${g.id}/draw`, { action: 'offer' }, frank.token);
    await page.click('button:has-text("Accept the draw")', { timeout: T });
    await page.waitForSelector('.result-text:has-text("Draw (agreement)")', { timeout: T });
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

test('a post the server answers 503 (busy) is sent again by itself, with its key, after the Retry-After it names', async () => {
  let busy = 2;
  // The first two tries never reach the server: a busy server's answer.
  const { g, erin, ctx, page, errors, keys } = await postMoveWith(async (route) => {
    if (busy === 0) return false;
    busy--;
    await route.fulfill({
      status: 503,
      headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1' },
      body: JSON.stringify({ type: 'urn:warpost:problem:overloaded', title: 'Service overloaded', status: 503 }),
    });
    return true;
  });
  try {
    // The player is told, and need not do anything.
    await page.waitForSelector('#resend-note:has-text("sent again in 1 s")', { timeout: T });
    await page.waitForSelector('.post-title:has-text("move e1→e2")', { timeout: T });
    assert.equal(keys.length, 3, `two busy answers, then the post (${keys.length} tries)`);
    assert.ok(keys.every((k) => k && k === keys[0]), `one Idempotency-Key for every try: ${keys}`);
    assert.equal(await page.locator('#resend-note').count(), 0, 'the note is gone once it is posted');
    assert.equal(await page.locator('.composer .error').count(), 0, 'no error for the player');
    const log = await api(env, 'GET', `/api/games/${g.id}/turns?after=0`, undefined, erin.token);
    assert.equal(log.posts.filter((p) => p.kind === 'turn').length, 1, 'the turn is applied once');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

test('a post the server answers 500 is not sent again by itself: the player is asked, and Retry posts it once', async () => {
  let broken = true;
  // The first try never reaches the server: an answer seconds do not mend.
  const { g, erin, ctx, page, errors, keys } = await postMoveWith(async (route) => {
    if (!broken) return false;
    broken = false;
    await route.fulfill({
      status: 500,
      headers: { 'Content-Type': 'application/problem+json' },
      body: JSON.stringify({ type: 'urn:warpost:problem:internal', title: 'Internal error', status: 500 }),
    });
    return true;
  });
  try {
    const retry = page.locator('.composer .error button:has-text("Retry")');
    await retry.waitFor({ timeout: T });
    assert.equal(await page.locator('#resend-note').count(), 0, 'no resend promised');
    assert.equal(keys.length, 1, 'sent once, then the player is asked');
    await retry.click();
    await page.waitForSelector('.post-title:has-text("move e1→e2")', { timeout: T });
    assert.ok(keys.length === 2 && keys[1] === keys[0], `Retry sends the same key: ${keys}`);
    const log = await api(env, 'GET', `/api/games/${g.id}/turns?after=0`, undefined, erin.token);
    assert.equal(log.posts.filter((p) => p.kind === 'turn').length, 1, 'the turn is applied once');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

// A match of a real ruleset brought to its play phase through the API:
// each awaited seat posts the action `choose` picks from its legal list.
// Returns null (after t.skip) when the server does not offer the ruleset.
// One post of `player`'s through the API: the action pick(actions) chooses.
async function postAwaited(g, player, pick) {
  const list = await api(env, 'GET', `/api/games/${g.id}/actions`, undefined, player.token);
  await api(env, 'POST', `/api/games/${g.id}/turns`, { seq: list.seq, actions: [pick(list.actions)] }, player.token);
}

async function setUpThroughApi(t, ruleset, names, choose) {
  const { rulesets } = await api(env, 'GET', '/api/rulesets');
  if (!rulesets.some((r) => r.id === ruleset)) { t.skip(`no ${ruleset} on this server`); return null; }
  const players = [];
  for (const name of names) players.push(await api(env, 'POST', '/api/players', { name }));
  const g = await api(env, 'POST', '/api/games', { ruleset, seats: 2, seat: 0 }, players[0].token);
  await api(env, 'POST', `/api/games/${g.id}/join`, { code: g.invitations[0].code }, players[1].token);
  let v;
  for (let i = 0; i < 200; i++) {
    v = await api(env, 'GET', `/api/games/${g.id}`, undefined, players[0].token);
    if (v.status !== 'active' || v.state.phase === 'play') break;
    await postAwaited(g, players[v.awaiting[0]], (acts) => choose(acts, i));
  }
  assert.equal(v.state.phase, 'play', 'the set-up is done');
  return { g, who: players[v.awaiting[0]], players };
}

// The other seats play through the API (each its first offered action)
// until `who` is awaited again: for a post of `who`'s that ended its turn.
// In Wargame Chess an Activation whose piece has a single legal act is
// played through at once, and the Trees are rolled: some placements leave
// the piece the board offers first one move (the King on a7, when no pawn
// stands on h7: 4 of 40 placements through the API), and then the
// activation the test posts ends the turn (once in a CI run, 2026-12-01).
async function othersUntil(g, who, players) {
  for (let i = 0; i < 40; i++) {
    const v = await api(env, 'GET', `/api/games/${g.id}`, undefined, who.token);
    if (v.status !== 'active' || v.awaiting.includes(v.you)) return;
    await postAwaited(g, players[v.awaiting[0]], (acts) => acts[0]);
  }
  assert.fail(`${who.name} was not awaited again within 40 posts`);
}

// The match page of `who`, desktop width, with page errors failing the test.
async function onMatchPage(who, g, body) {
  const ctx = await contextAs(who, DESKTOP);
  const page = await ctx.newPage();
  const errors = watch(page, who.name);
  try {
    await page.goto(`${env.base}/#/match/${g.id}`);
    await body(page);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
}

// A real ruleset through its renderer: Wargame Chess set up through the API
// (teams, trees, deployment), then activations chosen on the board. Skipped
// when the server does not offer the ruleset.
test('wargame-chess: activations chosen on the board', async (t) => {
  const set = await setUpThroughApi(t, 'wargame-chess', ['Ann', 'Ben'], (acts) => acts[0]);
  if (!set) return;
  const { g, who, players } = set;
  await onMatchPage(who, g, async (page) => {
    for (let step = 0; step < 2; step++) {
      if (step > 0) await othersUntil(g, who, players);
      await waitMyTurn(page);
      const posts = await page.locator('.thread > li').count();
      // Activate a piece (a ring on my own piece), then act with it.
      const target = page.locator('svg.board .is-target').first();
      if (await target.count()) await target.click();
      else await page.locator('.other-actions button').first().click();
      const menu = page.locator('.menu:not([hidden]) button.action-btn');
      if (await menu.count()) await menu.first().click();
      assert.match(await page.textContent('.draft'), /Your choice: /);
      if (step === 1) await shot(page, 'wargame-chess-desktop');
      await page.click('#post-btn');
      await page.waitForFunction((n) => document.querySelectorAll('.thread > li').length > n, posts, { timeout: T });
    }
    assert.ok(await page.locator('svg.board .terrain-tree').count() > 0, 'the Trees are drawn');
  });
});

// Confrontation through its renderer: armies, the set-up roll-off choice
// and placement through the API, then two moves played by clicking a piece
// and its target on the board. Skipped when the server does not offer it.
test('confrontation: moves chosen on the board', async (t) => {
  // Armies of a Knight or two besides the free pieces, then ready.
  const set = await setUpThroughApi(t, 'confrontation', ['Cy', 'Dee'], (acts, i) =>
    acts.find((a) => a.type === 'buy' && a.piece === 'knight' && i < 2)
      || acts.find((a) => a.type === 'ready') || acts[0]);
  if (!set) return;
  const { g, who } = set;
  await onMatchPage(who, g, async (page) => {
    for (let step = 0; step < 2; step++) {
      await waitMyTurn(page);
      const list = await api(env, 'GET', `/api/games/${g.id}/actions`, undefined, who.token);
      const mv = list.actions.find((a) => a.type === 'move');
      assert.ok(mv, 'a move is offered');
      const posts = await page.locator('.thread > li').count();
      await page.click(sq(mv.from));
      await page.waitForSelector(`${sq(mv.to)}.is-target`, { timeout: T });
      await page.click(sq(mv.to));
      const menu = page.locator('.menu:not([hidden]) button.action-btn');
      if (await menu.count()) await menu.first().click();
      if (step === 0) await shot(page, 'confrontation-desktop');
      await page.click('#post-btn');
      await page.waitForFunction((n) => document.querySelectorAll('.thread > li').length > n, posts, { timeout: T });
    }
  });
});
