// Officers Chess in a real browser (issue 11): two players build small
// armies from the published classes and weapons on the match page, deploy
// by clicking the board, and play a few rounds under fog of war; before an
// attack is posted the page reads its forecast (hit %, crit %, damage,
// strikes, counter). Units are drawn with their class and an HP bar, and
// the terrain of the map is drawn. Screenshots go to test-output/e2e/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, stopAll, api, DESKTOP, PHONE, sq, shot, watchErrors as watch, contextAs as contextIn, waitMyTurn, checkPage, WAIT } from './harness.mjs';

const T = WAIT;
let env;

before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });
const contextAs = (player, opts) => contextIn(env, player, opts);

async function posted(page, before) {
  try {
    await page.waitForFunction((n) => document.querySelectorAll('.thread > li').length > n, before, { timeout: T });
  } catch (err) {
    // What the page shows when its post did not arrive, for the log.
    const seen = await page.evaluate(() => ({
      draft: document.querySelector('.draft')?.textContent,
      post: document.querySelector('#post-btn')?.disabled,
      composer: document.querySelector('.composer')?.innerText.slice(0, 600),
      main: document.querySelector('main')?.innerText.slice(0, 800),
    })).catch(() => null);
    console.error('the post did not reach the thread:', JSON.stringify(seen));
    throw err;
  }
}

// Chooses `a` on the board (its source, then its target; a menu when
// several actions share the square), checks the draft, posts.
async function postOnBoard(page, a, phrase, beforePost) {
  await waitMyTurn(page);
  const n = await page.locator('.thread > li').count();
  const target = a.target || a.to || a.at;
  if (a.from) {
    await page.click(sq(a.from));
    await page.waitForSelector(`${sq(target || a.from)}.is-target`, { timeout: T });
  }
  await page.click(sq(target || a.from));
  const menu = page.locator('.menu:not([hidden]) button.action-btn');
  if (await menu.count()) {
    const want = phrase ? menu.filter({ hasText: phrase }) : menu;
    await want.first().click();
  }
  const draft = await page.textContent('.draft');
  assert.match(draft, /Your choice: /);
  if (beforePost) await beforePost(draft);
  await page.click('#post-btn');
  await posted(page, n);
  return draft;
}

async function actionsOf(g, who) {
  return (await api(env, 'GET', `/api/games/${g.id}/actions`, undefined, who.token)).actions;
}

test('officers-chess: armies built on the board, a few rounds under fog, forecasts read', async () => {
  const p = [await api(env, 'POST', '/api/players', { name: 'Ann' }), await api(env, 'POST', '/api/players', { name: 'Ben' })];
  const g = await api(env, 'POST', '/api/games', {
    ruleset: 'officers-chess', seats: 2, seat: 0,
    options: { units: 2, fog: true, map: 'crossing', round_limit: 4 },
  }, p[0].token);
  await api(env, 'POST', `/api/games/${g.id}/join`, { code: g.invitations[0].code }, p[1].token);
  const ctx = [await contextAs(p[0], DESKTOP), await contextAs(p[1], PHONE)];
  const pages = [await ctx[0].newPage(), await ctx[1].newPage()];
  const errors = [watch(pages[0], 'Ann'), watch(pages[1], 'Ben')];
  try {
    for (const page of pages) await page.goto(`${env.base}/#/match/${g.id}`);

    // Armies (issue 13, item 4): the whole army in one form (a name, a
    // class and a loadout per unit), posted as one post; two Archers each.
    const problems = [];
    for (let s = 0; s < 2; s++) {
      const page = pages[s];
      await waitMyTurn(page);
      await page.waitForSelector('.army-form', { timeout: T });
      const n = await page.locator('.thread > li').count();
      for (let k = 0; k < 2; k++) {
        await page.selectOption(`#unit-${k}-class`, 'Archer');
        await page.fill(`#unit-${k}-name`, `Bow ${s}${k}`);
      }
      if (s === 1) {
        await page.fill('#unit-1-name', 'Bow 10');
        assert.match(await page.textContent('.army-problems'), /names must differ/);
        assert.ok(await page.isDisabled('#army-submit'));
        await page.fill('#unit-1-name', 'Bow 11');
      }
      await page.click('#army-submit');
      assert.match(await page.textContent('.draft'), /army of 2: Bow .0 \(Archer: .*\); Bow .1 \(Archer/);
      if (s === 1) await checkPage(page, 'officers-army-phone', problems);
      await page.click('#post-btn');
      await posted(page, n);
    }
    const log0 = await api(env, 'GET', `/api/games/${g.id}/turns?after=0&limit=500`, undefined, p[0].token);
    assert.equal(log0.posts.filter((q) => q.seat === 0 && q.kind === 'turn').length, 1, 'the army is one post');
    // Deployment, secret and simultaneous (issue 13, item 4): both units
    // from the tray onto the zone, in one post.
    const zone = [['d2', 'e2'], ['d7', 'e7']];
    for (let s = 0; s < 2; s++) {
      const page = pages[s];
      await waitMyTurn(page);
      await page.waitForSelector('.tray button.tray-item', { timeout: T });
      const n = await page.locator('.thread > li').count();
      for (const to of zone[s]) {
        await page.locator('.tray button.tray-item').first().click();
        await page.click(sq(to));
      }
      assert.match(await page.textContent('.draft'), /deploy[^]*deploy/, 'two placements in one post');
      assert.equal(await page.locator('svg.board .ghost-preview').count(), 2, 'both placements drawn before the post');
      if (s === 0) await checkPage(page, 'officers-tray-desktop', problems);
      await page.click('#post-btn');
      await posted(page, n);
    }
    assert.deepEqual(problems, [], 'accessibility and layout');
    await pages[0].waitForSelector('svg.board .oc-tile', { timeout: T });
    assert.ok(await pages[0].locator('svg.board .oc-hp').count() >= 2, 'units with HP bars');
    assert.ok(await pages[0].locator('svg.board .oc-fog').count() > 0, 'fog of war drawn');
    const label = await pages[0].getAttribute(sq('d2'), 'aria-label');
    assert.match(label, /Archer/, 'the unit shows its class');
    assert.doesNotMatch(await pages[0].getAttribute(sq('d7'), 'aria-label'), /Archer/,
      'the enemy in the fog is not drawn');
    await shot(pages[0], 'officers-chess-deployed');

    // A few rounds: activate, close in, attack when the forecast is offered.
    let forecasts = 0;
    for (let step = 0; step < 12; step++) {
      const v = await api(env, 'GET', `/api/games/${g.id}`, undefined, p[0].token);
      if (v.status !== 'active') break;
      const s = v.awaiting[0];
      const page = pages[s];
      let list = await actionsOf(g, p[s]);
      // RULINGS.md, G3 (amended): a seat's last unit to activate is its only
      // legal action, and the server has already activated it.
      const act = list.find((a) => a.type === 'activate');
      if (act) await postOnBoard(page, act);
      else {
        const mine = await api(env, 'GET', `/api/games/${g.id}`, undefined, p[s].token);
        assert.ok(mine.state.active, 'no activate offered: a unit is taking its turn');
      }
      list = await actionsOf(g, p[s]);
      let atk = list.find((a) => a.type === 'attack' && a.forecast);
      if (!atk) {
        const fwd = (a) => (Number(a.to[1]) - Number(a.from[1])) * (s === 0 ? 1 : -1);
        const moves = list.filter((a) => a.type === 'move' && a.to[0] === a.from[0] && fwd(a) > 0);
        moves.sort((x, y) => fwd(y) - fwd(x));
        if (moves.length) {
          await postOnBoard(page, moves.find((m) => fwd(m) <= 2) || moves[moves.length - 1]);
          list = await actionsOf(g, p[s]);
          atk = list.find((a) => a.type === 'attack' && a.forecast);
        }
      }
      if (atk) {
        const draft = await postOnBoard(page, atk, 'attack', async () => {
          if (!forecasts) await shot(page, 'officers-chess-forecast');
        });
        assert.match(draft, /hit \d+%, crit \d+%, \d+ damage \(\d+ on a crit\) ×\d/, 'the forecast is read before posting');
        assert.match(draft, /counter|no counter/);
        forecasts++;
      }
      const v2 = await api(env, 'GET', `/api/games/${g.id}`, undefined, p[s].token);
      if (v2.status !== 'active' || !v2.awaiting.includes(s)) continue;
      list = await actionsOf(g, p[s]);
      const end = list.find((a) => a.type === 'end');
      if (end) await postOnBoard(page, end, 'end');
    }
    assert.ok(forecasts > 0, 'at least one attack was chosen with its forecast shown');
    const log = await api(env, 'GET', `/api/games/${g.id}/turns?after=0&limit=500`, undefined, p[0].token);
    assert.ok(log.posts.some((q) => q.events.some((e) => e.type === 'combat')), 'a combat was fought');
    assert.deepEqual([...errors[0], ...errors[1]], []);
  } finally {
    await ctx[0].close();
    await ctx[1].close();
  }
});
