// An account on several devices (issue 28), at 360×740 as a player would
// use it: device A (signed in) opens "Your devices and account" from its
// player key, shows a sign-in code; device B (a second browser context,
// never signed in) types it under "I have a code" and sees the same
// player's matches; A sees B in its devices, renames it, signs it out;
// B's next request is refused and the board shows the sign-in again.
// Then e-mail: an address added and confirmed on the Account page, and a
// lost key recovered by "I lost my key" and the link, which signs the
// other devices out only when asked.

import { test, before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { startAll, stopAll, api, PHONE, contextAs, watchErrors, checkPage } from './harness.mjs';

let env;

before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });

// Device A signed in as the player, device B a new browser, both phones;
// no page error (but the 401 that signs a device out) and no page
// problem (checkPage) at the end.
async function twoDevices(player, body) {
  const ctxA = await contextAs(env, player, PHONE);
  const ctxB = await env.browser.newContext(PHONE);
  const problems = [];
  const errors = [];
  const page = async (ctx, name) => {
    const p = await ctx.newPage();
    watchErrors(p, name, errors);
    return p;
  };
  try {
    await body(await page(ctxA, 'A'), await page(ctxB, 'B'), problems);
  } finally {
    await ctxA.close();
    await ctxB.close();
  }
  assert.deepEqual(errors.filter((e) => !/401/.test(e)), []);
  assert.deepEqual(problems, []);
}

test('a code signs in a second device, which is then signed out', async () => {
  const ann = await api(env, 'POST', '/api/players', { name: 'Ann' });
  const ben = await api(env, 'POST', '/api/players', { name: 'Ben' });
  const g = await api(env, 'POST', '/api/games', { ruleset: 'skirmish-test', seats: 2, seat: 0 }, ann.token);
  await api(env, 'POST', `/api/games/${g.id}/join`, { code: g.invitations[0].code }, ben.token);
  await twoDevices(ann, async (a, b, problems) => {
    // A: from the player key on "My matches" to the account page.
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
  });
});

// The links of account mail are made as the mail worker makes them (a
// token whose SHA-256 is stored); the mail itself is test_recovery.py's.
function link(kind, player, address) {
  const token = randomBytes(32).toString('hex');
  execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', env.dbUrl, '-c',
    `INSERT INTO account_links (token_hash, kind, player_id, address, expires_at) VALUES (sha256('${token}'), '${kind}', ${player}, '${address}', now() + interval '1 hour')`]);
  return token;
}

test('an e-mail address confirmed, then a lost key recovered by its link', async () => {
  const cat = await api(env, 'POST', '/api/players', { name: 'Cat' });
  const address = `cat-${cat.id}@example.org`;
  await twoDevices(cat, async (a, b, problems) => {
    await a.goto(`${env.base}/#/account`);
    await a.fill('#email-address', address);
    await a.click('#email button[type=submit]');
    await a.waitForSelector('#email-state:has-text("waiting for confirmation")');
    await checkPage(a, 'devices-email-phone', problems);
    await a.goto(`${env.base}/#/email/confirm/${link('confirm', cat.id, address)}`);
    await a.waitForSelector('#confirm-done');
    await a.goto(`${env.base}/#/account`);
    await a.waitForSelector('#email-state:has-text("confirmed")');

    // B lost the key: "I lost my key" on the sign-in, then the mailed link.
    await b.goto(`${env.base}/#/`);
    await b.click('#lost-key summary');
    await b.fill('#recovery-address', address);
    await b.click('#lost-key button[type=submit]');
    await b.waitForSelector('#recovery-sent');
    await checkPage(b, 'devices-lost-key-phone', problems);
    await b.goto(`${env.base}/#/recover/${link('recover', cat.id, address)}`);
    await b.fill('#recover-device', 'Laptop');
    await b.click('button[type=submit]');
    await b.waitForSelector('#recovered');
    assert.match(await b.locator('#whoami').innerText(), /Cat/);
    await checkPage(b, 'devices-recovered-phone', problems);
    await b.click('#recover-sign-out-others');
    await b.waitForSelector('#recovered :text("Signed out: 1 other device")');

    // A was the other device: signed out (a reload: its page asks again).
    await a.reload();
    await a.waitForSelector('#have-code');
    assert.equal(await a.evaluate(() => localStorage.getItem('warpost.token')), null);
  });
});
