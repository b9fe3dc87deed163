// Takeback requests on the board (issue 30, item 9), at 360×740: Ann moves,
// then, her turn passed, asks to take the move back; Ben reads "Ann asks to
// take back their last move", accepts, and the position goes back; both
// read the outcome. Then Ann asks again and Ben declines. The moves are
// posted through the API (not under test); the takeback goes through the
// board.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, api, checkPage, playersOnPages, WAIT } from './harness.mjs';

const T = WAIT;
let env;

before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });

test('a move asked back, accepted, and asked again, declined, at 360 px', async () => {
  const { players: [ann, ben], pages: [a, b], errors, close } = await playersOnPages(env, ['Ann', 'Ben']);
  const g = await api(env, 'POST', '/api/games', { ruleset: 'skirmish-test', seats: 2, seat: 0 }, ann.token);
  await api(env, 'POST', `/api/games/${g.id}/join`, { code: g.invitations[0].code }, ben.token);
  const view = () => api(env, 'GET', `/api/games/${g.id}`, undefined, ben.token);
  const before0 = await view();
  await api(env, 'POST', `/api/games/${g.id}/turns`, { seq: before0.seq, actions: [{ type: 'move', from: 'd1', to: 'd2' }] }, ann.token);
  const moved = await view();
  assert.notDeepEqual(moved.state, before0.state);

  const problems = [];
  try {
    await a.goto(`${env.base}/#/match/${g.id}`);
    await b.goto(`${env.base}/#/match/${g.id}`);
    await a.click('#takeback-ask', { timeout: T });
    await a.waitForSelector('#takeback-status:has-text("You asked to take back")', { timeout: T });
    await b.waitForSelector('#takeback-status:has-text("Ann")', { timeout: T });
    assert.match(await b.locator('#takeback-status').innerText(), /asks to take back their last move/);
    await checkPage(b, 'takeback-asked-phone', problems);
    await b.click('.takeback-ask button:has-text("Accept")');
    await b.waitForSelector('#takeback-status:has-text("accepted")', { timeout: T });
    await a.waitForSelector('#takeback-status:has-text("accepted")', { timeout: T });
    await checkPage(a, 'takeback-accepted-phone', problems);
    const back = await view();
    assert.deepEqual([back.state, back.awaiting], [before0.state, before0.awaiting], 'the position goes back');
    assert.equal(back.seq, moved.seq + 2, 'a request and an undo post');

    // Asked again: declined, the move stands.
    await api(env, 'POST', `/api/games/${g.id}/turns`, { seq: back.seq, actions: [{ type: 'move', from: 'd1', to: 'd2' }] }, ann.token);
    const again = await view();
    await a.click('#takeback-ask', { timeout: T });
    await b.click('.takeback-ask button:has-text("Decline")', { timeout: T });
    await a.waitForSelector('#takeback-status:has-text("declined the takeback")', { timeout: T });
    const after = await view();
    assert.deepEqual(after.state, again.state, 'the move stands');
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
