// Tournaments on the board (issue 29), at 360×740 as a new player would
// use them: Ann opens Tournaments from her matches and organises a round
// robin with the form; Ben and Cal, each in a browser of their own, find
// it in the list and join it; Ann's page shows them joining by itself
// (the long-poll), and she starts it; the standings, the crosstable and
// the pairings show on every page; the match stalls, Ann adjudicates it
// to Ben from her page, and Ben's standings move without a reload.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, api, PHONE, contextAs, watchErrors, checkPage, playersOnPages, WAIT } from './harness.mjs';

const T = WAIT;
let env;

before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });

test('organise a round robin, two players join, it starts, standings show', async () => {
  const { players: [ann, ben, cal], pages: [a, b, c], errors, close } = await playersOnPages(env, ['Ann', 'Ben', 'Cal']);
  const problems = [];
  try {

    // Ann: from her matches to the tournaments, and organises one.
    await a.goto(`${env.base}/#/`);
    await a.click('#tournaments-link');
    await a.waitForSelector('#organise');
    await a.click('#organise');
    await a.waitForSelector('#t-name');
    await a.fill('#t-name', 'Winter league');
    await a.selectOption('#ruleset', 'skirmish-test');
    await a.selectOption('#t-kind', 'round_robin');
    await a.fill('#t-max', '4');
    await checkPage(a, 'tournaments-organise-phone', problems);
    await a.click('#t-submit');
    await a.waitForURL(/#\/tournament\/\d+$/, { timeout: T });
    const id = Number(a.url().match(/#\/tournament\/(\d+)$/)[1]);
    await a.waitForSelector('#t-start', { timeout: T });
    const made = await api(env, 'GET', `/api/tournaments/${id}`, undefined, ann.token);
    assert.deepEqual([made.name, made.kind, made.ruleset, made.max_players, made.status],
      ['Winter league', 'round_robin', 'skirmish-test', 4, 'open'], 'the form sent the choice');

    // Ben and Cal find it in the list and join.
    for (const [p, who] of [[b, 'Ben'], [c, 'Cal']]) {
      await p.goto(`${env.base}/#/tournaments`);
      await p.waitForSelector(`[data-tournament="${id}"]`, { timeout: T });
      assert.match(await p.locator(`[data-tournament="${id}"]`).innerText(), /Winter league/);
      await p.click(`[data-tournament="${id}"] a.button`);
      await p.waitForSelector('#t-join', { timeout: T });
      await p.click('#t-join');
      await p.waitForSelector('#t-leave', { timeout: T });
      // Ann's page hears of each join by itself.
      await a.waitForSelector(`#t-players [data-player] >> text=${who}`, { timeout: T });
    }
    await checkPage(b, 'tournament-joined-phone', problems);

    // Ann starts it: the standings, crosstable and round 1 show.
    await a.click('#t-start');
    await a.waitForSelector('#standings', { timeout: T });
    await a.waitForSelector('#crosstable');
    await a.waitForSelector('[data-round="1"] a[href^="#/match/"]');
    assert.match(await a.locator('#t-status').innerText(), /Under way/);
    await checkPage(a, 'tournament-standings-phone', problems);

    // Ben's page follows; the match stalls and Ann adjudicates it to Ben
    // from her page: his standings move without a reload.
    await b.waitForSelector('#standings', { timeout: T });
    const t = await api(env, 'GET', `/api/tournaments/${id}`, undefined, ben.token);
    const table = t.tables.find((x) => x.game);
    await a.click('details.adjudicate summary');
    await a.selectOption('details.adjudicate select', String(table.players.indexOf(ben.id)));
    await checkPage(a, 'tournament-adjudicate-phone', problems);
    await a.click(`[data-adjudicate="${table.game}"]`);
    await a.waitForSelector('details.adjudicate', { state: 'detached', timeout: T });
    const log = await api(env, 'GET', `/api/games/${table.game}/export`);
    assert.equal(log.posts.at(-1).kind, 'adjudication');
    await b.waitForSelector(`#standings tr[data-player="${ben.id}"] td:nth-child(3) >> text=1`, { timeout: T });
    const top = await b.locator('#standings tbody tr').first().innerText();
    assert.match(top, /^1\s+Ben\s+1/);
    await b.waitForSelector('[data-round="1"] >> text=(won)', { timeout: T });
    await checkPage(b, 'tournament-result-phone', problems);
  } finally {
    await close();
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(problems, []);
});

test('a ladder: challenge the player above, who accepts from their page', async () => {
  const ann = await api(env, 'POST', '/api/players', { name: 'Ada' });
  const ben = await api(env, 'POST', '/api/players', { name: 'Bo' });
  const cal = await api(env, 'POST', '/api/players', { name: 'Cy' });
  const { id } = await api(env, 'POST', '/api/tournaments',
    { name: 'Club ladder', ruleset: 'skirmish-test', kind: 'ladder', reach: 1 }, ann.token);
  for (const p of [ben, cal]) await api(env, 'POST', `/api/tournaments/${id}/join`, undefined, p.token);
  await api(env, 'POST', `/api/tournaments/${id}/start`, undefined, ann.token);
  const ctxB = await contextAs(env, ben, PHONE);
  const ctxC = await contextAs(env, cal, PHONE);
  const problems = [];
  const errors = [];
  try {
    const b = await ctxB.newPage();
    const c = await ctxC.newPage();
    watchErrors(b, 'Bo', errors); watchErrors(c, 'Cy', errors);
    await b.goto(`${env.base}/#/tournament/${id}`);
    await c.goto(`${env.base}/#/tournament/${id}`);
    await c.waitForSelector('#ladder', { timeout: T });
    assert.match(await c.locator('#ladder').innerText(), /1\. Bo\s+.*2\. Cy/s);
    // Cy, second, may challenge Bo, one place above; nobody else.
    assert.equal(await c.locator('[data-challenge-player]').count(), 1);
    await checkPage(c, 'tournament-ladder-phone', problems);
    await c.click(`[data-challenge-player="${ben.id}"]`);
    // Bo's page shows the challenge by itself, with Accept.
    await b.waitForSelector('[data-accept-challenge]', { timeout: T });
    await checkPage(b, 'tournament-ladder-challenged-phone', problems);
    await b.click('[data-accept-challenge]');
    await b.waitForSelector('[data-ladder-challenge] a[href^="#/match/"]', { timeout: T });
    await c.waitForSelector('[data-ladder-challenge] a[href^="#/match/"]', { timeout: T });
    const t = await api(env, 'GET', `/api/tournaments/${id}`);
    assert.equal(t.challenges[0].status, 'playing');
  } finally {
    await ctxB.close();
    await ctxC.close();
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(problems, []);
});
