// Ratings on the board (issue 28), at 360×740 as a new player would use
// it: a rated match made in the lobby ("Rated" checkbox), its badge on the
// match page and in My matches, a resignation from the board, then both
// players' profiles (reached from the names on the match page) with their
// new ratings and the SVG plot of their history, and the leaderboard page
// reached from My matches, where both rank after sixteen earlier rated
// matches (played through the API). Every page: axe, no horizontal scroll.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, api, PHONE, contextAs, watchErrors, checkPage, WAIT } from './harness.mjs';

const T = WAIT;
let env;

before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });

async function profileRating(page) {
  await page.waitForSelector('table.ratings td.rating', { timeout: T });
  return Number((await page.locator('table.ratings td.rating').first().innerText()).match(/^\d+/)[0]);
}

// A rated match played through the API (not under test): loser resigns.
async function ratedMatch(winner, loser) {
  const g = await api(env, 'POST', '/api/games', { ruleset: 'skirmish-test', rated: true }, winner.token);
  await api(env, 'POST', `/api/games/${g.id}/join`, { code: g.invitations[0].code }, loser.token);
  await api(env, 'POST', `/api/games/${g.id}/resign`, undefined, loser.token);
}

const ratingOf = async (p) => (await api(env, 'GET', `/api/players/${p.id}`)).ratings[0].rating;

// A signed-in phone page whose errors are collected.
async function phonePage(player, errors, contexts) {
  const ctx = await contextAs(env, player, PHONE);
  contexts.push(ctx);
  const page = await ctx.newPage();
  watchErrors(page, player.name, errors);
  return page;
}

test('a rated match changes both ratings, shown on the profiles and the leaderboard', async () => {
  const [ann, ben] = [await api(env, 'POST', '/api/players', { name: 'Ann' }), await api(env, 'POST', '/api/players', { name: 'Ben' })];
  const problems = [];
  const errors = [];
  const contexts = [];
  try {
    // Sixteen rated matches first (through the API): after them and the
    // one played on the board, both ratings are established (RD <= 110).
    for (let i = 1; i <= 16; i++) await (i % 3 ? ratedMatch(ann, ben) : ratedMatch(ben, ann));
    const [annBefore, benBefore] = [await ratingOf(ann), await ratingOf(ben)];

    // Ann creates a rated match in the lobby; Ben joins (not under test).
    const a = await phonePage(ann, errors, contexts);
    await a.goto(`${env.base}/#/new`);
    await a.selectOption('#ruleset', 'skirmish-test');
    await a.check('#rated');
    await checkPage(a, 'ratings-lobby-phone', problems);
    await a.click('text=Create the match');
    const link = await a.locator('#invite-1').inputValue({ timeout: T });
    const [, id, code] = link.match(/join\/(\d+)\/([0-9A-Za-z]+)$/);
    assert.equal((await api(env, 'GET', `/api/games/${id}`, undefined, ann.token)).rated, true, 'the lobby sent rated');
    await api(env, 'POST', `/api/games/${id}/join`, { code }, ben.token);

    // Ben sees the badge and resigns from the board.
    const b = await phonePage(ben, errors, contexts);
    await b.goto(`${env.base}/#/match/${id}`);
    await b.waitForSelector('#rated-badge', { timeout: T });
    await b.click('text=Resign…');
    await b.click('.confirm button.danger');
    await b.waitForSelector('.result.card', { timeout: T });
    await checkPage(b, 'ratings-match-over-phone', problems);

    // My matches shows the match as rated; the leaderboard is linked there.
    await a.goto(`${env.base}/#/`);
    await a.waitForSelector(`.inbox a[href="#/match/${id}"] .tag-rated`, { timeout: T });

    // Ann's profile, from her name on the match page.
    await a.goto(`${env.base}/#/match/${id}`);
    await a.click(`.seats a[href="#/players/${ann.id}"]`);
    await a.waitForSelector('h1:has-text("Ann")', { timeout: T });
    const annRating = await profileRating(a);
    assert.equal(annRating, Math.round(await ratingOf(ann)));
    assert.ok(await ratingOf(ann) > annBefore, `the winner went up: ${annBefore} to ${annRating}`);
    assert.equal(await a.locator('svg.rating-plot circle').count(), 17, 'a point per rated match');
    assert.match(await a.locator('.recent').innerText(), /Won/);
    await checkPage(a, 'ratings-profile-phone', problems, { dark: true });

    // Ben's profile, through the opponent's link in Ann's recent matches.
    await a.click(`.recent a[href="#/players/${ben.id}"]`);
    await a.waitForSelector('h1:has-text("Ben")', { timeout: T });
    const benRating = await profileRating(a);
    assert.equal(benRating, Math.round(await ratingOf(ben)));
    assert.ok(await ratingOf(ben) < benBefore, `the loser went down: ${benBefore} to ${benRating}`);
    assert.equal(await a.locator('svg.rating-plot circle').count(), 17);

    // The leaderboard, from My matches: both are established now, Ann
    // first; her own rank is said.
    await a.goto(`${env.base}/#/`);
    await a.click('#leaderboards-link');
    await a.click('.leaderboard-nav a:has-text("Skirmish")');
    await a.waitForSelector('#my-rank', { timeout: T });
    assert.match(await a.locator('#my-rank').innerText(), /Your rank: 1 /);
    const rows = await a.locator('table.leaderboard tbody tr').allInnerTexts();
    assert.deepEqual(rows.map((r) => r.split('\t').slice(0, 3)),
      [['1', 'Ann', String(annRating)], ['2', 'Ben', String(benRating)]]);
    await checkPage(a, 'ratings-leaderboard-phone', problems, { dark: true });
    // The bots' board of the ruleset is empty.
    await a.click('text=Show bots');
    await a.waitForSelector('text=Nobody is ranked yet', { timeout: T });

    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
  } finally {
    for (const ctx of contexts) await ctx.close();
  }
});
