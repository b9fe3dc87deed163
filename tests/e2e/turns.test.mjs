// A whole turn in one or two posts (issue 30, items 1, 2 and 4), on a
// phone (360×740), in every product ruleset: the set-up is played through
// the API (the set-up pages have their own tests), then one typical turn
// on the board as a player would play it: a piece chosen, then where it
// goes (each choice is tried on the server and the board shows the
// position after it), the next piece, a unit's "End its turn" beside the
// board, then Post. Counted: the clicks (Post included) and the posts
// (POST /turns requests). Asserted: at most 2 posts a turn, at most 3
// clicks per unit moved, and the post box under the board stays small
// while drafting (the board and the preview stay in sight). The figures
// go to test-output/e2e/turns-figures.json, a screenshot of each turn to
// turn-<ruleset>-phone.png.
//
// Run against another web/ (WP_REPO=/work/main, with this build's server)
// the same test measures that client: the figures in web/README.md were
// taken so, on main before issue 30 and after it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAll, stopAll, api, PHONE, OUT, sq, shot, watchErrors, contextAs, waitMyTurn, WAIT } from './harness.mjs';

const T = WAIT;
let env;
const figures = {};

before(async () => { env = await startAll(); });
after(async () => {
  writeFileSync(join(OUT, 'turns-figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
  await stopAll(env);
});

// The set-up, one action a post through the API: the first legal action
// of the first type in this order (never a reset or a sale).
const SETUP_ORDER = ['ready', 'army', 'team', 'order', 'trees', 'sheet', 'mirror', 'deploy', 'place', 'done',
  'recover', 'dodge'];
const TEAMS = [
  { type: 'team', faction: 'standard', pieces: { king: 1, queen: 1, rook: 2, pawn: 5 }, upgrades: [] },
  { type: 'team', faction: 'standard', pieces: { king: 1, knight: 2, bishop: 2, joker: 1, pawn: 2 }, upgrades: [] },
];
// A typical turn: how many units move; the ruleset's options.
const RULESETS = {
  chesswar: { units: 3 },
  'wargame-chess': { units: 1 },
  'officers-chess': { units: 2, options: { units: 2 } },
  'blood-chess': { units: 1 },
  confrontation: { units: 2 },
  ...(process.env.WP_TURNS_ONLY ? {} : {}),
};
const PLAY = new Set(['move', 'activate']);
const ENDING = /^(end|end_turn|end_phase|pass|done|finish)$/;

async function setUp(g, players) {
  const bought = [0, 0];
  for (let step = 0; step < 200; step++) {
    const v = await api(env, 'GET', `/api/games/${g.id}`, undefined, players[0].token);
    assert.equal(v.status, 'active');
    const s = v.awaiting[0];
    const list = (await api(env, 'GET', `/api/games/${g.id}/actions`, undefined, players[s].token)).actions;
    if (list.some((a) => PLAY.has(a.type))) return s;
    // A few units bought first, so that a turn has more than one to move.
    let a = bought[s] < 3 ? list.find((x) => x.type === 'buy') || null : null;
    if (a) bought[s]++;
    for (const type of a ? [] : SETUP_ORDER) {
      const of = list.filter((x) => x.type === type);
      if (!of.length) continue;
      a = type === 'team' ? TEAMS[s] : type === 'trees' ? of.find((x) => x.choice === 'mirror') || of[0] : of[0];
      break;
    }
    // Another choice of the set-up (who begins, say): the first offered.
    if (!a) a = list.find((x) => !/reset|sell|undeploy|undo/.test(x.type));
    assert.ok(a, `set-up: no action among ${[...new Set(list.map((x) => x.type))].join(', ')}`);
    await api(env, 'POST', `/api/games/${g.id}/turns`, { seq: v.seq, actions: [a] }, players[s].token);
  }
  throw new Error('the set-up did not end');
}

// The board squares of each action and the occupied squares, as the
// page's own renderer says (the clicks a player makes).
async function boardOf(page, view, actions) {
  return page.evaluate(async ({ view, actions }) => {
    const { rendererFor } = await import('/renderers/registry.js');
    const r = await rendererFor(view.ruleset);
    const occupied = (r.pieces(view) || []).map((p) => p.square);
    return { occupied, squares: actions.map((a) => r.actionSquares(a, view) || { from: null, to: null }) };
  }, { view, actions });
}

// The next choice of a typical turn.
function choose(list, board, state) {
  const at = (a) => board.squares[list.indexOf(a)];
  const key = (a) => `${at(a).from}>${at(a).to}`;
  const unique = (a) => list.filter((x) => key(x) === key(a)).length === 1;
  if (state.moved < state.units) {
    const moves = list.filter((a) => a.type === 'move' && at(a).to && !board.occupied.includes(at(a).to) &&
      !state.usedFrom.has(at(a).from) && unique(a));
    if (moves.length) return moves[0];
    const act = list.find((a) => a.type === 'activate' && unique(a));
    if (act && !state.activated) return act;
  }
  return list.find((a) => ENDING.test(a.type)) || null;
}

// A typical turn moves a piece: of the pieces that may be Activated, the
// first one that may then Move (the dry run says), rather than the first
// one, which may be boxed in (Wargame Chess: it may only stay where it is,
// and its Activation ends at once), else the one chosen.
async function activatingAMover(g, seq, me, drafted, list, board, chosen) {
  const at = (x) => board.squares[list.indexOf(x)];
  const unique = (x) => list.filter((y) => `${at(y).from}>${at(y).to}` === `${at(x).from}>${at(x).to}`).length === 1;
  for (const x of list.filter((y) => y.type === 'activate' && unique(y))) {
    const p = await api(env, 'POST', `/api/games/${g.id}/preview`, { seq, actions: [...drafted, x] }, me.token);
    if ((p.actions || []).some((y) => y.type === 'move')) return x;
  }
  return chosen;
}

async function clickFor(page, a, squares, counter) {
  const { from, to } = squares;
  // A choice of the piece that just acted, shown beside the board.
  const next = page.locator('.piece-menu:not([hidden]) button.action-btn').filter({ hasText: /end/i });
  if (!to && ENDING.test(a.type) && await next.count()) {
    await next.first().click();
    counter.clicks++;
  } else if (from) {
    // The piece that just acted stays chosen: no click to choose it again.
    if (!(await page.locator(`${sq(from)}.is-selected`).count())) {
      await page.click(sq(from));
      counter.clicks++;
    }
    await page.waitForSelector(`${sq(to || from)}.is-target`, { timeout: T });
    await page.click(sq(to || from));
    counter.clicks++;
  } else if (to) {
    await page.click(sq(to));
    counter.clicks++;
  } else {
    const button = page.locator('.other-actions button.action-btn, .piece-menu button.action-btn').filter({ hasText: /end/i }).first();
    await button.click();
    counter.clicks++;
  }
  const menu = page.locator('.menu:not(.piece-menu):not([hidden]) button.action-btn');
  if (await menu.count()) { await menu.first().click(); counter.clicks++; }
}

// Whether the draft takes another action: the server's dry run answered
// and says so (an older client has no dry run: then never).
async function takesMore(page) {
  try {
    await page.waitForSelector('#draft-more, #draft-ends', { state: 'attached', timeout: 4000 });
  } catch { return false; }
  return page.locator('#draft-more').count().then((n) => n > 0);
}

async function post(page, counter, button = '#post-btn') {
  const n = await page.locator('.thread > li').count();
  await page.click(button);
  counter.clicks++;
  await page.waitForFunction((k) => document.querySelectorAll('.thread > li').length > k, n, { timeout: T });
  await page.waitForFunction(() => !document.querySelector('#post-btn') || document.querySelector('.composer:not(.has-draft)'), null, { timeout: T });
}

// A match of Ann and Ben set up through the API, and a phone page of the
// seat to play, its errors collected.
async function playedTo(ruleset, options) {
  const players = [await api(env, 'POST', '/api/players', { name: 'Ann' }), await api(env, 'POST', '/api/players', { name: 'Ben' })];
  const g = await api(env, 'POST', '/api/games', { ruleset, seats: 2, seat: 0, ...(options ? { options } : {}) }, players[0].token);
  await api(env, 'POST', `/api/games/${g.id}/join`, { code: g.invitations[0].code }, players[1].token);
  const seat = await setUp(g, players);
  const me = players[seat];
  const ctx = await contextAs(env, me, PHONE);
  const page = await ctx.newPage();
  return { players, g, seat, me, ctx, page, errors: watchErrors(page, me.name) };
}

for (const [ruleset, spec] of Object.entries(RULESETS).filter(([r]) => !process.env.WP_TURNS_ONLY || process.env.WP_TURNS_ONLY === r)) {
  test(`${ruleset}: a typical turn in one or two posts at 360 px`, async () => {
    const { players, g, seat, me, ctx, page, errors } = await playedTo(ruleset, spec.options);
    const counter = { clicks: 0, posts: 0 };
    page.on('request', (r) => { if (r.method() === 'POST' && /\/api\/games\/\d+\/turns$/.test(r.url())) counter.posts++; });
    try {
      const seqBefore = (await api(env, 'GET', `/api/games/${g.id}`, undefined, me.token)).seq;
      await page.goto(`${env.base}/#/match/${g.id}`);
      await waitMyTurn(page).catch(async (err) => {
        console.error(errors, (await page.locator('main').innerText()).slice(0, 600));
        throw err;
      });
      const state = { units: spec.units, moved: 0, usedFrom: new Set(), activated: false };
      let drafted = [];
      let shotTaken = false;
      for (let step = 0; step < 16; step++) {
        const v = await api(env, 'GET', `/api/games/${g.id}`, undefined, me.token);
        if (v.status !== 'active' || !v.awaiting.includes(seat)) {
          console.log(`${ruleset}: then awaited ${JSON.stringify(v.awaiting)} ${JSON.stringify(v.state.pending || '')}`.slice(0, 300));
          break;
        }
        let list;
        let view = v;
        if (drafted.length) {
          const p = await api(env, 'POST', `/api/games/${g.id}/preview`, { seq: v.seq, actions: drafted }, me.token);
          list = p.actions;
          view = { ...v, state: p.state };
        } else list = (await api(env, 'GET', `/api/games/${g.id}/actions`, undefined, me.token)).actions;
        const board = await boardOf(page, view, list);
        let a = choose(list, board, state);
        if (a && a.type === 'activate') a = await activatingAMover(g, v.seq, me, drafted, list, board, a);
        if (!a) {
          console.log(`${ruleset}: no choice among ${[...new Set(list.map((x) => x.type))].join(', ')}`);
          break;
        }
        const squares = board.squares[list.indexOf(a)];
        const c0 = counter.clicks;
        // The turn's end and the post in one click, when offered.
        if (ENDING.test(a.type) && drafted.length && await page.locator('#post-end-btn:not([hidden])').count()) {
          drafted.push(a);
          console.log(`${ruleset}: posted after ${drafted.map((x) => x.type).join(', ')} (one click: ${await page.textContent('#post-end-btn')})`);
          if (!shotTaken) { await shot(page, `turn-${ruleset}-phone`); shotTaken = true; }
          await post(page, counter, '#post-end-btn');
          drafted = [];
          continue;
        }
        await clickFor(page, a, squares, counter);
        if (process.env.WP_TURNS_DEBUG) console.log(`${ruleset}: ${JSON.stringify(a)} ${JSON.stringify(squares)}: ${counter.clicks - c0} clicks`);
        if (a.type === 'move') {
          state.moved++;
          state.usedFrom.add(squares.from);
          if (squares.to) state.usedFrom.add(squares.to);
          state.activated = false;
        }
        if (a.type === 'activate') state.activated = true;
        drafted.push(a);
        const more = await takesMore(page);
        if (more && drafted.length >= 2 && !shotTaken) {
          // The board and the draft at once: the post box stays a bar.
          await shot(page, `turn-${ruleset}-phone`);
          shotTaken = true;
          const box = await page.locator('.composer').boundingBox();
          assert.ok(box.height <= 260, `the draft panel is ${box.height}px tall on a 740px screen (at most a third)`);
        }
        if (!more) {
          const why = await page.locator('#draft-ends').textContent().catch(() => null);
          console.log(`${ruleset}: posted after ${drafted.map((x) => x.type).join(', ')}${why ? ` (${why})` : ''}`);
          if (!shotTaken) { await shot(page, `turn-${ruleset}-phone`); shotTaken = true; }
          await post(page, counter);
          drafted = [];
          if (ENDING.test(a.type) || state.moved >= state.units) {
            const v2 = await api(env, 'GET', `/api/games/${g.id}`, undefined, me.token);
            if (!v2.awaiting.includes(seat)) {
              console.log(`${ruleset}: then awaited ${JSON.stringify(v2.awaiting)} ${JSON.stringify(v2.state.pending || v2.state.phase || '')}`.slice(0, 400));
              break;
            }
          }
        }
      }
      if (drafted.length) {
        console.log(`${ruleset}: posted after ${drafted.map((x) => x.type).join(', ')}`);
        await post(page, counter);
      }
      figures[ruleset] = { units_moved: state.moved, clicks: counter.clicks, posts: counter.posts,
        clicks_per_unit: state.moved ? +(counter.clicks / state.moved).toFixed(2) : null };
      console.log(`${ruleset}: ${JSON.stringify(figures[ruleset])}`);
      assert.ok(state.moved >= 1, 'a unit moved');
      assert.ok(counter.posts >= 1 && counter.posts <= 2, `${counter.posts} posts for one turn`);
      assert.ok(counter.clicks / state.moved <= 3, `${counter.clicks} clicks for ${state.moved} units`);
      assert.deepEqual(errors, []);
      // The opponent, back after the turn: one line a post, its actions
      // and what came of them.
      const them = players[1 - seat];
      const octx = await contextAs(env, them, PHONE);
      await octx.addInitScript(([id, seq]) => localStorage.setItem(`warpost.seen.${id}`, String(seq)), [g.id, seqBefore]);
      const other = await octx.newPage();
      try {
        await other.goto(`${env.base}/#/match/${g.id}`);
        await other.waitForSelector('.since-box li', { timeout: T });
        const lines = await other.locator('.since-box li').allTextContents();
        const mine = lines.filter((t) => t.includes(me.name));
        assert.equal(mine.length, counter.posts, `one line a post: ${lines.join(' | ')}`);
        assert.match(mine[0], /move|activate/i, mine[0]);
      } finally {
        await octx.close();
      }
    } finally {
      await ctx.close();
    }
  });
}

// Post clicked while the choice is still being tried (the dry run slowed
// down here, as on a slow network): the post waits for the dry run and
// follows it. Sent beside it, the post could reach the server first and
// the dry run be asked of the position after it: a 422 in the console for
// a choice the player made (seen in CI, ChessWar's "let the spell be").
test('Post while the choice is still being tried waits for the dry run', async () => {
  const { g, seat, me, ctx, page, errors } = await playedTo('wargame-chess');
  const order = [];
  page.on('requestfinished', (r) => { if (/\/preview$/.test(r.url())) order.push('dry run answered'); });
  page.on('request', (r) => { if (r.method() === 'POST' && /\/turns$/.test(r.url())) order.push('post sent'); });
  await page.route('**/api/games/*/preview', async (route) => {
    await new Promise((done) => setTimeout(done, 1500));
    await route.continue();
  });
  try {
    await page.goto(`${env.base}/#/match/${g.id}`);
    await waitMyTurn(page);
    const v = await api(env, 'GET', `/api/games/${g.id}`, undefined, me.token);
    const list = (await api(env, 'GET', `/api/games/${g.id}/actions`, undefined, me.token)).actions;
    const board = await boardOf(page, v, list);
    const a = choose(list, board, { units: 1, moved: 0, usedFrom: new Set(), activated: false });
    assert.ok(a && PLAY.has(a.type), `a piece's choice: ${JSON.stringify(a)}`);
    const n = await page.locator('.thread > li').count();
    await clickFor(page, a, board.squares[list.indexOf(a)], { clicks: 0 });
    await page.click('#post-btn');
    await page.waitForFunction((k) => document.querySelectorAll('.thread > li').length > k, n, { timeout: T });
    assert.deepEqual(order, ['dry run answered', 'post sent']);
    const log = await api(env, 'GET', `/api/games/${g.id}/turns?after=${v.seq}`, undefined, me.token);
    const last = log.posts.filter((q) => q.seat === seat)[0];
    assert.deepEqual(last.actions, [a], 'the choice was posted once, as chosen');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});
