// "Play the computer" (issue 27) on a phone (360×740): a new player signs
// up, opens the new-match page, chooses a ruleset, the computer's strength
// and a colour, and the match opens at once with the computer in the other
// seat, marked as a bot; the computer's first moves appear on the match
// page without anyone reloading it (the server plays them on its own
// threads); its profile and My matches show it as a bot. Screenshot and axe-core on each page, no horizontal overflow.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, PHONE, watchErrors, checkPage, WAIT } from './harness.mjs';

let env;

before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });

test('play the computer from the new-match page on a phone', { timeout: 8 * WAIT }, async () => {
  const ctx = await env.browser.newContext(PHONE);
  const page = await ctx.newPage();
  const errors = watchErrors(page, 'phone');
  const problems = [];
  await page.goto(`${env.base}/`);
  await page.fill('#player-name', 'Carla');
  await page.click('text=Start playing');
  await page.waitForSelector('text=My matches');
  await page.click('a.button:has-text("New match")');
  await page.waitForSelector('#play-computer');
  await page.selectOption('#cpu-ruleset', 'wargame-chess');
  await page.selectOption('#cpu-level', '1');
  await page.selectOption('#cpu-seat', '1');   // the computer plays the first seat
  await checkPage(page, 'computer-new-phone', problems);
  await page.click('#play-computer button[type=submit]');
  await page.waitForURL(/#\/match\/\d+$/);
  // The seats: the computer, with its badge.
  const seat = page.locator('ul.seats li', { hasText: 'Computer (level 1)' });
  await seat.waitFor({ timeout: WAIT });
  assert.equal(await seat.locator('.tag-bot').textContent(), 'bot');
  // Its first post, drawn in the thread without a reload.
  await page.locator('li.post', { hasText: 'Computer (level 1)' }).first()
    .waitFor({ state: 'attached', timeout: 2 * WAIT });
  await checkPage(page, 'computer-match-phone', problems);
  // Its profile, from its name: a bot there too.
  await seat.locator('a', { hasText: 'Computer (level 1)' }).click();
  await page.locator('h1', { hasText: 'Computer (level 1)' }).locator('.tag-bot').waitFor({ timeout: WAIT });
  await checkPage(page, 'computer-profile-phone', problems);
  // My matches lists it with the badge.
  await page.goto(`${env.base}/#/`);
  await page.locator('.inbox li', { hasText: 'Computer (level 1)' }).locator('.tag-bot')
    .waitFor({ timeout: WAIT });
  await checkPage(page, 'computer-home-phone', problems);
  assert.deepEqual(problems, []);
  assert.deepEqual(errors, []);
  await ctx.close();
});
