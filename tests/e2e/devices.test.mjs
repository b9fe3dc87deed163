// An account on several devices (issue 28), at 360×740 as a player would
// use it: device A (signed in) opens "Your devices and account" from its
// player key, shows a sign-in code; device B (a second browser context,
// never signed in) types it under "I have a code" and sees the same
// player's matches; A sees B in its devices, renames it, signs it out;
// B's next request is refused and the board shows the sign-in again.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, api, PHONE, contextAs, watchErrors, checkPage } from './harness.mjs';

let env;

before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });

test('a code signs in a second device, which is then signed out', async () => {
  const ann = await api(env, 'POST', '/api/players', { name: 'Ann' });
  const ben = await api(env, 'POST', '/api/players', { name: 'Ben' });
  const g = await api(env, 'POST', '/api/games', { ruleset: 'skirmish-test', seats: 2, seat: 0 }, ann.token);
  await api(env, 'POST', `/api/games/${g.id}/join`, { code: g.invitations[0].code }, ben.token);
  const ctxA = await contextAs(env, ann, PHONE);
  const ctxB = await env.browser.newContext(PHONE);
  const problems = [];
  const errors = [];
  try {
    // A: from the player key on "My matches" to the account page.
    const a = await ctxA.newPage();
    errors.push(...watchErrors(a, 'A'));
    await a.goto(`${env.base}/#/`);
    await a.click('details.identity summary');
    await a.click('#account-link');
    await a.waitForSelector('#devices .device');
    assert.equal(await a.locator('#devices .device').count(), 1);
    assert.match(await a.locator('#devices .device').innerText(), /First device\s*this device/);
    await a.click('#make-code');
    const code = (await a.locator('#device-code').innerText()).trim();
    assert.match(code, /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    await checkPage(a, 'devices-code-phone', problems);

    // B: a new device types the code (lower case, no dash, as one might).
    const b = await ctxB.newPage();
    errors.push(...watchErrors(b, 'B'));
    await b.goto(`${env.base}/#/`);
    await b.click('#have-code summary');
    await b.fill('#device-code-input', code.toLowerCase().replace('-', ' '));
    await b.fill('#device-name', 'Ann’s phone');
    await checkPage(b, 'devices-have-code-phone', problems);
    await b.click('#have-code button[type=submit]');
    await b.waitForSelector(`a[href="#/match/${g.id}"]`);
    assert.match(await b.locator('#whoami').innerText(), /Ann/);
    const tokB = await b.evaluate(() => localStorage.getItem('warpost.token'));
    assert.ok(tokB && tokB !== ann.token, 'B has a key of its own');
    // The code was used: typed again, it is refused in words.
    const c = await (await env.browser.newContext(PHONE)).newPage();
    await c.goto(`${env.base}/#/`);
    await c.click('#have-code summary');
    await c.fill('#device-code-input', code);
    await c.click('#have-code button[type=submit]');
    await c.waitForSelector('#have-code .error');
    assert.match(await c.locator('#have-code .error').innerText(), /not valid/);

    // A: B is listed; rename it, then sign it out.
    await a.reload();
    await a.waitForSelector('#devices .device >> nth=1');
    const bItem = a.locator('#devices .device', { hasText: 'Ann’s phone' });
    assert.match(await bItem.innerText(), /last used/);
    await bItem.locator('button', { hasText: 'Rename' }).click();
    await bItem.locator('input').fill('Old phone');
    await bItem.locator('button', { hasText: 'Save' }).click();
    await a.waitForSelector('#devices .device:has-text("Old phone")');
    await checkPage(a, 'devices-list-phone', problems);
    const old = a.locator('#devices .device', { hasText: 'Old phone' });
    await old.locator('button', { hasText: 'Sign out…' }).click();
    await old.locator('button.danger', { hasText: /^Sign out$/ }).click();
    await a.waitForFunction(() => document.querySelectorAll('#devices .device').length === 1);
    assert.equal(await a.locator('#sign-out-others').count(), 0, 'no other device left');

    // B: its next request is refused; the board forgets the key.
    await b.reload();
    await b.waitForSelector('#have-code');
    assert.equal(await b.evaluate(() => localStorage.getItem('warpost.token')), null);
    assert.match(await b.locator('#whoami').innerText(), /Not signed in/);
    const me = await fetch(`${env.base}/api/me`, { headers: { Authorization: `Bearer ${tokB}` } });
    assert.equal(me.status, 401);
  } finally {
    await ctxA.close();
    await ctxB.close();
  }
  assert.deepEqual(errors.filter((e) => !/401/.test(e)), []);
  assert.deepEqual(problems, []);
});
