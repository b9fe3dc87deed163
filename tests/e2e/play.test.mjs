// Two real rulesets played as a new player would, through the board only:
// Alice on a desktop (1280×800), Bob on a phone (360×740). From the lobby
// and the invitation link, through the army (or team) form posted as one
// post, placement from the tray with auto-deploy, several turns chosen on
// the board (the preview shown before Post, the opponent's last turn drawn
// after it), to the end (an agreed draw, a resignation). Every page is
// screenshot at its size into test-output/e2e/ and checked with axe-core
// (no serious or critical violation). Nothing after the set-up goes
// through the API but reading.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, stopAll, api, OUT, DESKTOP, PHONE, sq, watchErrors, checkPage, WAIT } from './harness.mjs';

const T = WAIT;
let env;

before(async () => { env = await startAll(); });
after(async () => { await stopAll(env); });

async function signUp(page, name) {
  await page.fill('#player-name', name);
  await page.click('text=Start playing');
}

const tokenOf = (page) => page.evaluate(() => localStorage.getItem('warpost.token'));

// Alice creates a match of `ruleset` in the lobby; Bob takes the seat from
// the invitation link. Returns the match id.
async function lobbyAndJoin(a, b, ruleset, problems, tag) {
  await a.goto(`${env.base}/`);
  await signUp(a, 'Alice');
  await a.waitForSelector('text=My matches');
  await a.click('a.button:has-text("New match")');
  await a.waitForSelector('#ruleset');
  await a.selectOption('#ruleset', ruleset);
  await a.waitForSelector('.options [data-option]');
  const labels = await a.locator('.options label, .options .label').allTextContents();
  assert.ok(labels.every((l) => !/_|RULINGS/.test(l)), `options in words: ${labels}`);
  if (ruleset === 'confrontation') {
    // Terrain is picked on a board, not typed as JSON.
    await a.selectOption('#opt-terrain', '"given"');
    await a.waitForSelector('.terrain-board svg.board');
    for (const s of ['c4', 'd4', 'e4', 'f4']) await a.click(`.terrain-board [data-square="${s}"]`);
    assert.match(await a.textContent('[data-option="terrain_areas"]'), /1 area: barrier \(4 squares\)/);
    assert.equal(await a.locator('.options textarea').count(), 0, 'no JSON box');
  }
  if (ruleset === 'wargame-chess') {
    // A time control (web/clock.js): 3 days per move.
    await a.check('#tc-on');
    await a.fill('#tc-days', '3');
  }
  await checkPage(a, `${tag}-lobby-desktop`, problems);
  await a.click('text=Create the match');
  await a.waitForSelector('#invite-1');
  const link = await a.inputValue('#invite-1');
  const id = Number(link.match(/join\/(\d+)\//)[1]);
  await a.click('text=Open the match');
  await a.waitForSelector('text=Waiting for 1 more player');

  await b.goto(link);
  await b.waitForSelector('.invitation .lead:has-text("Alice invites you")', { timeout: T });
  await checkPage(b, `${tag}-invitation-phone`, problems);
  await signUp(b, 'Bob');
  await b.click('#join-btn');
  await b.waitForURL(/#\/match\/\d+$/, { timeout: T });
  invitationLink = link;
  return id;
}
let invitationLink = null;

// Whether any of the pages shows the match's result (only the page that
// posted the last turn has it at once; the other when the post reaches it).
async function anyOver(pages) {
  for (const p of pages) if (await p.locator('.result-text').count()) return true;
  return false;
}

// The page whose turn it is, of the two (waits until one of them).
async function whoseTurn(pages) {
  for (let i = 0; i < 300; i++) {
    for (const p of pages) if (await p.locator('.prompt-you').count()) return p;
    if (await anyOver(pages)) return null;
    await pages[0].waitForTimeout(100);
  }
  throw new Error('nobody is awaited');
}

async function post(page) {
  const before = await page.evaluate(() => document.querySelectorAll('.thread li.post').length);
  await page.click('#post-btn');
  try {
    await page.waitForFunction((n) => document.querySelectorAll('.thread li.post').length > n
      || !!document.querySelector('.result-text'), before, { timeout: T });
  } catch (err) {
    // What the page shows when its post did not arrive, for the log.
    const seen = await page.evaluate(() => document.querySelector('.composer')?.innerText.slice(0, 600)).catch(() => null);
    console.error('the post did not reach the thread; the composer shows:', JSON.stringify(seen));
    throw err;
  }
}

// One choice on the board: a piece and one of its targets (or a square
// marked by itself), a menu item when several actions share it; the
// preview is on the board before Post. Returns false when the board
// offers nothing (a button is then the choice).
async function boardChoice(page, attacks = true) {
  const sources = page.locator('svg.board .is-source');
  const n = await sources.count();
  if (n) {
    const from = await sources.nth(Math.floor(Math.random() * n)).getAttribute('data-square');
    await page.click(sq(from));
    await page.waitForSelector('svg.board .is-target', { timeout: T });
  }
  const targets = page.locator('svg.board .is-target');
  const k = await targets.count();
  if (!k) return false;
  // Attacks first, when there are some: battles make a match move on.
  const capture = page.locator('svg.board .is-target:has(.mark-capture)');
  const quiet = page.locator('svg.board .is-target:not(:has(.mark-capture))');
  const pick = attacks && (await capture.count()) ? capture.first()
    : !attacks && (await quiet.count()) ? quiet.nth(Math.floor(Math.random() * (await quiet.count())))
      : targets.nth(Math.floor(Math.random() * k));
  await pick.click();
  const menu = page.locator('.menu:not([hidden]) button.action-btn');
  if (await menu.count()) await menu.first().click();
  return true;
}

// A drag with the mouse from one element to another, both in sight.
async function drag(page, from, to) {
  // The tray at the top of the screen, the board under it.
  await from.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
  await page.mouse.up();
}

async function assertPreview(page) {
  const draft = await page.textContent('.draft > p:first-child');
  assert.match(draft, /Your choice/);
  if (/move|attack|→/.test(draft)) {
    assert.ok(await page.locator('svg.board .overlay .arrow-preview, svg.board .overlay .arrow-attack').count() > 0,
      `the choice is drawn on the board before Post (${draft})`);
  }
}

// The posts of each seat up to the last post with a marker event (the
// armies revealed, or the last team handed in).
async function buildPosts(page, id, marker) {
  const log = await api(env, 'GET', `/api/games/${id}/turns?after=0&limit=500`, undefined, await tokenOf(page));
  const end = log.posts.filter((p) => (p.events || []).some((e) => e.type === marker)).pop();
  return [0, 1].map((s) => log.posts.filter((p) => p.kind === 'turn' && p.seat === s && p.seq <= end.seq).length);
}

test('confrontation from the lobby to an agreed draw, through the board', async () => {
  const ctxA = await env.browser.newContext(DESKTOP);
  const ctxB = await env.browser.newContext(PHONE);
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  const errors = [];
  const ea = watchErrors(a, 'Alice');
  const eb = watchErrors(b, 'Bob');
  const problems = [];
  try {
    const id = await lobbyAndJoin(a, b, 'confrontation', problems, 'cf');

    // The army in one form: prices, total, what a Bishop needs; one post.
    await a.waitForSelector('#army-submit', { timeout: T });
    await a.fill('#army-bishop', '1');
    await a.fill('#army-knight', '1');
    assert.ok(await a.isDisabled('#army-submit'), 'a Bishop without spells is refused');
    assert.match(await a.textContent('.army-problems'), /two spells/);
    await a.selectOption('#army-spell-0-0', 'fireball');
    await a.selectOption('#army-spell-0-1', 'hurt');
    assert.match(await a.textContent('.army-total'), /7 of 15 points spent, 8 points left/);
    await checkPage(a, 'cf-army-desktop', problems, { dark: true });
    await a.click('#army-submit');
    assert.match(await a.textContent('.draft'), /ready/);
    await post(a);

    await b.waitForSelector('#army-submit', { timeout: T });
    await b.fill('#army-rook', '1');
    await b.fill('#army-pawn', '2');
    await checkPage(b, 'cf-army-phone', problems);
    await b.click('#army-submit');
    await post(b);
    assert.deepEqual(await buildPosts(a, id, 'armies_revealed'), [1, 1], 'each army is one post');

    // The high roller chooses the order with a button.
    let p = await whoseTurn([a, b]);
    await p.click('button.action-btn:has-text("play first")');
    await post(p);

    // Placement: one piece from the tray onto a square, then auto-deploy;
    // the other player auto-deploys at once. One post each.
    p = await whoseTurn([a, b]);
    await p.waitForSelector('.tray-item', { timeout: T });
    await p.locator('.tray-item').nth(1).click();
    await p.locator('svg.board .is-target').first().click();
    await p.click('#auto-deploy');
    assert.ok(await p.locator('.draft-list li').count() >= 6, 'the whole army in one post');
    await checkPage(p, `cf-setup-${p === a ? 'desktop' : 'phone'}`, problems);
    await post(p);
    const q = p === a ? b : a;
    await q.waitForSelector('#auto-deploy', { timeout: T });
    await q.click('#auto-deploy');
    await post(q);

    // Turns, chosen on the board; no filter is ever typed.
    let turns = 0;
    let sawLast = false;
    let lastMover = null;
    for (let step = 0; step < 10 && turns < 5; step++) {
      p = await whoseTurn([a, b]);
      if (!p) break;
      if (lastMover && lastMover !== p) {
        // The opponent's last turn is drawn: arrows (and battles, ghosts).
        await p.waitForSelector('svg.board .overlay .arrow-last', { timeout: T, state: 'attached' });
        sawLast = true;
        turns++;
      }
      assert.ok(await p.locator('button.pinned:has-text("End the turn")').count(), '"End the turn" is always in sight');
      const pinned = p.locator('button.pinned:has-text("End the turn"):not([disabled])');
      if (await pinned.count()) await pinned.click();
      else if (!(await boardChoice(p, false))) await p.locator('.other-actions button.action-btn:not([disabled])').first().click();
      await assertPreview(p);
      if (step === 1) await checkPage(p, `cf-preview-${p === a ? 'desktop' : 'phone'}`, problems);
      await post(p);
      lastMover = p;
    }
    assert.ok(sawLast, 'the opponent\'s last turn was shown');
    assert.equal(await a.locator('#action-filter').count() ? await a.inputValue('#action-filter') : '', '', 'no filter typed');

    if (!(await a.locator('.result-text').count())) {
      // Since your last visit: Alice looks at her list while Bob plays.
      for (let i = 0; i < 4 && (await whoseTurn([a, b])) === a; i++) {
        const pin = a.locator('button.pinned:has-text("End the turn"):not([disabled])');
        if (await pin.count()) await pin.click();
        else if (!(await boardChoice(a, false))) await a.locator('.other-actions button.action-btn:not([disabled])').first().click();
        await post(a);
      }
      await a.goto(`${env.base}/#/`);
      p = await whoseTurn([b]).catch(() => null);
      if (p === b && !(await b.locator('.result-text').count())) {
        if (!(await boardChoice(b, false))) await b.locator('.other-actions button.action-btn:not([disabled])').first().click();
        await post(b);
      }
      await a.waitForSelector(`.inbox a[href="#/match/${id}"]`, { timeout: T });
      await checkPage(a, 'cf-inbox-desktop', problems);
      await a.click(`.inbox a[href="#/match/${id}"]`);
      await a.waitForSelector('.since-box', { timeout: T });
      await checkPage(a, 'cf-match-desktop', problems, { dark: true });
      await checkPage(b, 'cf-match-phone', problems, { dark: true });
      // An agreed draw ends it; the offer reaches Bob in his banner.
      await a.click('button:has-text("Offer a draw")');
      await b.click('.banner button:has-text("Accept the draw")', { timeout: T });
      await a.waitForSelector('.result-text:has-text("Draw")', { timeout: T });
      assert.match(await a.textContent('.panel .state-facts'), /Phaseover/, 'the state says the match is over');
    }
    await b.waitForSelector('.result-text', { timeout: T });
    await checkPage(a, 'cf-result-desktop', problems);
    await checkPage(b, 'cf-result-phone', problems);

    // Step through the finished match.
    await b.click('#replay-btn');
    await b.waitForSelector('.replay-bar:not([hidden])');
    // Under load (two busy loops beside the tests) the replay bar once
    // read "Post 16 of 16" right after this click (the cause not found:
    // setReplay(0) renders at once; a click landing elsewhere after a
    // re-render moved the bar is the guess). A player taps again; so
    // does this, at most three times, and then the check below fails.
    for (let i = 0; i < 3; i++) {
      await b.click('.replay-bar button:has-text("First")');
      const first = await b.waitForFunction(
        () => /^Post 1 of/.test(document.querySelector('.replay-what')?.textContent || ''),
        null, { timeout: 5000 }).then(() => true, () => false);
      if (first) break;
      console.error(`replay: after First the bar reads "${await b.textContent('.replay-what')}"`);
    }
    assert.match(await b.textContent('.replay-what'), /^Post 1 of/);
    // Past positions come from the server (GET ?at=SEQ): before the
    // set-up the board is empty.
    await b.waitForSelector('.replay-hint[data-past="server"]', { timeout: T });
    assert.match(await b.textContent('.replay-bar .hint'), /position after this post/);
    assert.equal(await b.locator('svg.board .sq-piece > *').count(), 0, 'no piece before the set-up');
    await b.click('.replay-bar button:has-text("Back to now")');
    assert.ok(await b.locator('svg.board .sq-piece > *').count() > 0, 'the pieces of now are back');
    await checkPage(b, 'cf-replay-phone', problems);

    // The remaining pages at both sizes.
    await a.click('text=Verify the dice');
    await a.waitForSelector('.verdict.ok', { timeout: T });
    await checkPage(a, 'verify-desktop', problems);
    await b.goto(`${env.base}/#/verify/${id}`);
    await b.waitForSelector('.verdict.ok', { timeout: T });
    await checkPage(b, 'verify-phone', problems);
    await b.goto(`${env.base}/#/new`);
    await b.waitForSelector('.options [data-option]');
    await checkPage(b, 'lobby-phone', problems);
    await b.goto(`${env.base}/#/`);
    await b.waitForSelector('.inbox a', { timeout: T });
    await checkPage(b, 'inbox-phone', problems);
    // The sign-out question is asked only when asked for.
    await b.click('summary:has-text("your player key")');
    assert.equal(await b.isVisible('text=Sign out of this browser?'), false);
    const c = await env.browser.newPage({ viewport: DESKTOP.viewport });
    await c.goto(`${env.base}/`);
    await c.waitForSelector('#player-name');
    await checkPage(c, 'welcome-desktop', problems);
    // The invitation page on a desktop too (a used link: said once).
    await c.goto(invitationLink);
    await c.waitForSelector('text=This invitation can no longer be used', { timeout: T });
    assert.equal(await c.locator('.error').count(), 0, 'no error box for a used link');
    await checkPage(c, 'invitation-used-desktop', problems);
    await c.goto(`${env.base}/`);
    await c.waitForSelector('#player-name');
    await c.setViewportSize(PHONE.viewport);
    await checkPage(c, 'welcome-phone', problems);
    await c.close();

    assert.deepEqual(problems, [], 'accessibility and layout');
    errors.push(...ea, ...eb);
    assert.deepEqual(errors, [], 'no errors in the pages');
  } catch (err) {
    await a.screenshot({ path: join(OUT, 'failed-cf-alice.png'), fullPage: true }).catch(() => {});
    await b.screenshot({ path: join(OUT, 'failed-cf-bob.png'), fullPage: true }).catch(() => {});
    throw err;
  } finally {
    await ctxA.close();
    await ctxB.close();
  }
});

test('wargame chess from the lobby to a resignation, through the board', async () => {
  const ctxA = await env.browser.newContext(DESKTOP);
  const ctxB = await env.browser.newContext(PHONE);
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  const ea = watchErrors(a, 'Alice');
  const eb = watchErrors(b, 'Bob');
  const problems = [];
  try {
    const id = await lobbyAndJoin(a, b, 'wargame-chess', problems, 'wc');
    // The awaited seats' clocks beside their names: 3 days per move.
    await b.waitForSelector('.seats .tag.clock', { timeout: T });
    assert.match(await b.textContent('.seats .tag.clock'), /^(2 d 23 h|3 d 0 h) left$/);

    // The team in one form (not 120 buttons): 14 points, one post.
    for (const [page, size] of [[a, 'desktop'], [b, 'phone']]) {
      await page.waitForSelector('#army-submit', { timeout: T });
      assert.equal(await page.locator('button.action-btn').count(), 0, 'no wall of team buttons');
      await page.fill('#team-queen', '1');
      await page.fill('#team-rook', '2');
      await page.fill('#team-pawn', '4');
      assert.match(await page.textContent('.army-problems'), /1 to add/);
      await page.fill('#team-pawn', '5');
      assert.match(await page.textContent('.army-total'), /14 of 14/);
      await checkPage(page, `wc-team-${size}`, problems, { dark: true });
      await page.click('#army-submit');
      await post(page);
    }
    // Team lists stay hidden until both teams are deployed (RULINGS.md,
    // Wargame Chess W8): count up to the second team handed in.
    assert.deepEqual(await buildPosts(a, id, 'team_submitted'), [1, 1], 'each team is one post');

    // Trees: the second seat chooses with a button.
    let p = await whoseTurn([a, b]);
    await p.locator('.other-actions button.action-btn').first().click();
    await post(p);

    // Deployment: a piece from the tray, then auto-deploy; one post each.
    p = await whoseTurn([a, b]);
    await p.waitForSelector('.tray-item', { timeout: T });
    // One piece dragged from the tray, one placed by clicks.
    const first = await p.locator('svg.board .is-target').first().getAttribute('data-square');
    await drag(p, p.locator('.tray-item').first(), p.locator(sq(first)));
    await p.waitForSelector('svg.board .overlay .ghost-preview', { state: 'attached', timeout: T });
    assert.match(await p.textContent('.draft'), new RegExp(`deploy \\w+ on ${first}`), 'dragged onto the board');
    await p.locator('.tray-item').last().click();
    await p.locator('svg.board .is-target').first().click();
    assert.equal(await p.locator('svg.board .overlay .ghost-preview').count(), 2, 'the placed pieces are shown before Post');
    await p.click('#auto-deploy');
    await checkPage(p, `wc-deploy-${p === a ? 'desktop' : 'phone'}`, problems);
    await post(p);
    const q = p === a ? b : a;
    await q.waitForSelector('#auto-deploy', { timeout: T });
    await q.click('#auto-deploy');
    await post(q);

    // Activations and their moves or attacks, on the board.
    let sawLast = false;
    let lastMover = null;
    let lastWasMove = false;
    for (let step = 0; step < 12; step++) {
      p = await whoseTurn([a, b]);
      if (!p) break;
      if (lastMover && lastMover !== p) {
        // The opponent's last activation: its move (arrow), battle, or the
        // activated piece's square.
        await p.waitForSelector(lastWasMove ? 'svg.board .overlay .arrow-last, svg.board .overlay .battle-last'
          : 'svg.board .overlay .arrow-last, svg.board .overlay .battle-last, svg.board .hl-last', { timeout: T, state: 'attached' });
        sawLast = true;
      }
      const button = p.locator('.other-actions button.action-btn:not([disabled])');
      if (!(await boardChoice(p))) await button.first().click();
      await assertPreview(p);
      lastWasMove = /move|attack/.test(await p.textContent('.draft > p:first-child'));
      if (step === 3) await checkPage(p, `wc-play-${p === a ? 'desktop' : 'phone'}`, problems);
      await post(p);
      lastMover = p;
    }
    // A Faction Leader slain in the first exchanges ends it sooner, seen
    // on either page (a fresh clone's run once asserted on Alice's page
    // while her king fell to Bob's first attack).
    const ended = await anyOver([a, b]);
    assert.ok(sawLast || ended, 'the opponent\'s last move was shown');

    if (!ended) {
      await b.click('button:has-text("Resign…")');
      assert.equal(await b.isVisible('.confirm'), true);
      await b.click('.confirm button:has-text("Resign")');
    }
    await a.waitForSelector('.result-text', { timeout: T });
    await b.waitForSelector('.result-text', { timeout: T });
    await checkPage(a, 'wc-result-desktop', problems);
    await checkPage(b, 'wc-result-phone', problems);
    assert.deepEqual(problems, [], 'accessibility and layout');
    assert.deepEqual([...ea, ...eb], [], 'no errors in the pages');
  } catch (err) {
    await a.screenshot({ path: join(OUT, 'failed-wc-alice.png'), fullPage: true }).catch(() => {});
    await b.screenshot({ path: join(OUT, 'failed-wc-bob.png'), fullPage: true }).catch(() => {});
    throw err;
  } finally {
    await ctxA.close();
    await ctxB.close();
  }
});
