// Nothing a new player has to guess (issue 30 items 3, 5, 6, 7, 8), at
// 360×740 and 1280×800. For every ruleset: the lobby's options are set
// with their forms (terrain, Forest and Hills and the Officers Chess map on
// a board, a Blood Chess sheet from a template: no JSON box, no code), the
// match is created, the invitation is read and accepted on a phone, both
// sides set up (through the API: the set-up forms have their own tests)
// and play begins; one post is played. On every page (home, the sign-in
// forms, new, join, match, watch, notifications, verify) at both sizes:
// no horizontal scroll (scrollWidth <= clientWidth), no visible
// "[object", "seat0" or raw option key or value, and axe-core finds no
// serious or critical violation. The prompt names who must act; Blood
// Chess's characters table fits a phone; a Wargame Chess defender's post
// says its dice and "repelled". A new player starts with 7 vacation days
// and takes two from "My matches" on a phone. Screenshots:
// test-output/e2e/polish-*.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, api, DESKTOP, PHONE, watchErrors, checkPage, contextAs, WAIT } from './harness.mjs';

const T = WAIT;
let env;
let rulesets = [];
// Every option key and enum value that is a code (an underscore or a
// digit): none may be seen on a page.
let rawKeys = [];

before(async () => {
  env = await startAll();
  ({ rulesets } = await api(env, 'GET', '/api/rulesets'));
  const keys = new Set(['seat0']);
  for (const r of rulesets) {
    for (const [name, o] of Object.entries(r.options || {})) {
      if (/[_\d]/.test(name)) keys.add(name);
      for (const v of o.enum || []) if (typeof v === 'string' && /[_\d]/.test(v)) keys.add(v);
    }
  }
  rawKeys = [...keys];
});
after(async () => { await stopAll(env); });

// What a page shows, checked: no sideways scroll, no raw value, axe-core.
async function checkAll(page, name, problems) {
  await checkPage(page, name, problems);
  const r = await page.evaluate((keys) => {
    const text = document.body.innerText;
    const el = document.documentElement;
    return {
      wide: el.scrollWidth - el.clientWidth,
      raw: ['[object', ...keys].filter((k) => new RegExp(`(^|[^\\w-])${k.replace(/[[\]]/g, '\\$&')}`, 'i').test(text)),
    };
  }, rawKeys);
  if (r.wide > 0) problems.push(`${name}: scrollWidth is ${r.wide}px over clientWidth`);
  for (const k of r.raw) problems.push(`${name}: shows the raw "${k}"`);
}

// Sets the options of one ruleset with their forms, as a new player would.
const LOBBY = {
  async confrontation(page) {
    await page.selectOption('#opt-terrain', '"given"');
    for (const s of ['c4', 'd4', 'e4', 'f4']) await page.click(`[data-option="terrain_areas"] [data-square="${s}"]`);
    assert.match(await page.textContent('[data-option="terrain_areas"]'), /1 area: barrier \(4 squares\)/);
    return /Terrain: Chosen on a board; Terrain areas: 1 area: barrier/;
  },
  async 'wargame-chess'(page) {
    await page.selectOption('#opt-first_trees', '"random"');
    return /Who sets up Trees first: A random player/;
  },
  async 'officers-chess'(page) {
    await page.selectOption('#opt-map', '"custom"');
    await page.selectOption('#opt-grid-kind', 'M');
    await page.click('[data-option="grid"] [data-square="d4"]');
    await page.selectOption('#opt-grid-kind', '~');
    await page.click('[data-option="grid"] [data-square="e5"]');
    assert.match(await page.textContent('[data-option="grid"]'), /2 tiles drawn/);
    await page.selectOption('#opt-activations-1', '2');
    await page.fill('#opt-round_limit', '30');
    return /Units activated per turn: White 1, Black 2.*Custom map: 2 tiles drawn/;
  },
  async 'blood-chess'(page) {
    await page.fill('#opt-turn_limit', '20');
    await page.click('[data-option="sheets"] summary');
    await page.selectOption('#opt-sheets-from', 'blaster');
    await page.fill('#opt-sheets-name', 'Nova');
    await page.fill('#opt-sheets-att0-dice', '10');
    await page.click('#opt-sheets-add');
    assert.match(await page.textContent('[data-option="sheets"]'), /Nova: DEX 20, SPD 5/);
    return /Your own character sheets: Nova/;
  },
  async chesswar(page) {
    await page.waitForSelector('[data-option="forest"] svg.board');
    for (const s of ['d4', 'e4']) await page.click(`[data-option="forest"] [data-square="${s}"]`);
    await page.selectOption('#opt-forest-kind', 'hills');
    await page.click('[data-option="forest"] [data-square="d5"]');
    assert.match(await page.textContent('[data-option="forest"]'), /2 Forest squares, 1 Hill square/);
    return /Forest and Hills: 2 Forest squares: d4, e4; Hills: 1 Hill square: d5/;
  },
};

// Set-up through the API with seeded random legal choices (taking back
// or selling only when nothing else is offered), until `playing(view)`.
const PLAYING = {
  confrontation: (v) => (v.state.turn || 0) >= 1,
  'wargame-chess': (v) => v.state.phase === 'play',
  'officers-chess': (v) => v.state.phase === 'battle',
  'blood-chess': (v) => v.state.stage === 'play',
  chesswar: (v) => ['movement', 'shooting', 'melee'].includes(v.state.phase),
};
function rng(seed) {
  let x = seed >>> 0;
  return () => { x = (x * 1664525 + 1013904223) >>> 0; return x / 2 ** 32; };
}
async function randomPost(id, players, rand, avoid = /^(sell|undeploy|reset)$/) {
  const v = await api(env, 'GET', `/api/games/${id}`, undefined, players[0].token);
  const seat = v.awaiting[Math.floor(rand() * v.awaiting.length)];
  const { seq, actions } = await api(env, 'GET', `/api/games/${id}/actions`, undefined, players[seat].token);
  const fine = actions.filter((a) => !avoid.test(a.type));
  const list = fine.length ? fine : actions;
  await api(env, 'POST', `/api/games/${id}/turns`, { seq, actions: [list[Math.floor(rand() * list.length)]] }, players[seat].token);
}
async function setUp(id, ruleset, players) {
  const rand = rng(7);
  for (let i = 0; i < 4000; i++) {
    const v = await api(env, 'GET', `/api/games/${id}`, undefined, players[0].token);
    if (v.status !== 'active') throw new Error(`${ruleset}: the match ended during set-up`);
    if (PLAYING[ruleset](v)) return v;
    await randomPost(id, players, rand);
  }
  throw new Error(`${ruleset}: play did not begin`);
}

// The prompt of a match page, once the page has the match.
async function promptOf(page) {
  await page.waitForSelector('.prompt p', { timeout: T });
  return page.textContent('.prompt p');
}

const WHO = {
  confrontation: /(^|\. )(Your|It is your|(White|Black) \([^)]*\) is to play)|\byour\b/i,
  'wargame-chess': /(Your [a-z]+.* on [a-h][1-8] is activated|Choose one of your pieces to activate|(White|Black) \([^)]*\) chooses a piece|(White|Black) \([^)]*\) [a-z]+.* on [a-h][1-8] is activated|your|you)/,
  'officers-chess': /(Your .+ \(.+\) on [a-h][1-8] takes its turn|Your units activate|(White|Black) \([^)]*\)('s .+ \(.+\) on [a-h][1-8] takes its turn| chooses a unit))/,
  // The other side's acting character is named without its square when
  // that would tell a Mirror from the real piece.
  'blood-chess': /(Your (King|Queen|Rook|Bishop|Knight) \(.+\) on [a-h][1-8] acts|(White|Black) \([^)]*\)'s (King|Queen|Rook|Bishop|Knight) \(.+\)( on [a-h][1-8])? acts)/,
  chesswar: /(Your (movement|shooting|melee) phase|(White|Black) \([^)]*\)'s (movement|shooting|melee) phase|you|your)/i,
};

for (const ruleset of Object.keys(LOBBY)) {
  test(`polish: ${ruleset} from the lobby to play, every page in words and on the screen`, async (t) => {
    if (!rulesets.some((r) => r.id === ruleset)) { t.skip(`no ${ruleset} on this server`); return; }
    const tag = `polish-${ruleset}`;
    const ann = await api(env, 'POST', '/api/players', { name: 'Ann' });
    const ben = await api(env, 'POST', '/api/players', { name: 'Ben' });
    const problems = [];
    const annCtx = await contextAs(env, ann, PHONE);
    const benCtx = await contextAs(env, ben, PHONE);
    const deskCtx = await contextAs(env, ann, DESKTOP);
    const a = await annCtx.newPage();
    const b = await benCtx.newPage();
    const d = await deskCtx.newPage();
    const errors = [];
    watchErrors(a, 'Ann', errors); watchErrors(b, 'Ben', errors);
    const errs = () => [...errors];
    const errorsD = watchErrors(d, 'Ann (desktop)');
    try {
      // The lobby: the options with their forms, never a JSON box.
      await a.goto(`${env.base}/#/new`);
      await a.waitForSelector('#ruleset');
      await a.selectOption('#ruleset', ruleset);
      await a.waitForSelector('.options [data-option]');
      const invitationWords = await LOBBY[ruleset](a);
      assert.equal(await a.locator('.options textarea').count(), 0, 'no option is typed as JSON');
      await checkAll(a, `${tag}-lobby-phone`, problems);
      await a.click('text=Create the match');
      await a.waitForSelector('#invite-1', { timeout: T });
      const link = await a.inputValue('#invite-1');
      const id = Number(link.match(/join\/(\d+)\//)[1]);

      // The invitation: every option in words.
      await b.goto(link);
      await b.waitForSelector('.invitation .lead:has-text("Ann invites you")', { timeout: T });
      const about = (await b.textContent('.invitation')).replace(/\s+/g, ' ');
      assert.match(about, invitationWords, about);
      await checkAll(b, `${tag}-invitation-phone`, problems);
      await d.goto(link);
      await d.waitForSelector('.invitation .lead', { timeout: T });
      await checkAll(d, `${tag}-invitation-desktop`, problems);
      await b.click('#join-btn');
      await b.waitForURL(/#\/match\/\d+$/, { timeout: T });

      if (ruleset === 'blood-chess') {
        const offered = await api(env, 'GET', `/api/games/${id}/actions`, undefined, ann.token);
        assert.ok(offered.actions.some((x) => x.type === 'sheet' && x.template === 'Nova'), 'the sheet made in the lobby is offered');
      }
      // Set-up, then one post of play: the thread has a turn in words.
      const v = await setUp(id, ruleset, [ann, ben]);
      await randomPost(id, [ann, ben], rng(11), /^(end|end_phase|resign)$/);
      for (const [page, who] of [[a, 'ann'], [b, 'ben']]) {
        await page.goto(`${env.base}/#/match/${id}`);
        await page.waitForSelector('svg.board [data-square]', { timeout: T });
        const prompt = await promptOf(page);
        assert.match(prompt, WHO[ruleset], `${ruleset}: the prompt names who must act: "${prompt}"`);
        await checkAll(page, `${tag}-match-${who}-phone`, problems);
      }
      await d.goto(`${env.base}/#/match/${id}`);
      await d.waitForSelector('svg.board [data-square]', { timeout: T });
      await checkAll(d, `${tag}-match-desktop`, problems);
      if (ruleset === 'blood-chess') {
        // The characters table fits the phone.
        const over = await a.evaluate(() => [...document.querySelectorAll('.bc-characters')]
          .map((t) => Math.ceil(t.getBoundingClientRect().right) - document.documentElement.clientWidth).filter((x) => x > 0));
        assert.deepEqual(over, [], 'the characters table fits 360 px');
        assert.ok(await a.locator('.bc-characters').count() >= 2);
      }
      // The match as a spectator sees it (the lobby's default: anyone with
      // the link), and its verify page.
      const spectator = await env.browser.newContext(PHONE);
      const w = await spectator.newPage();
      await w.goto(`${env.base}/#/match/${id}`);
      await w.waitForSelector('svg.board [data-square]', { timeout: T });
      await checkAll(w, `${tag}-watch-phone`, problems);
      await spectator.close();
      // The dice audit is of a finished match: Ben resigns.
      await api(env, 'POST', `/api/games/${id}/resign`, {}, ben.token);
      await a.goto(`${env.base}/#/verify/${id}`);
      await a.waitForSelector('main h1', { timeout: T });
      await a.waitForFunction(() => !!document.querySelector('.verdict'), null, { timeout: T });
      await checkAll(a, `${tag}-verify-phone`, problems);
      await d.goto(`${env.base}/#/verify/${id}`);
      await d.waitForSelector('main h1', { timeout: T });
      await d.waitForFunction(() => !!document.querySelector('.verdict'), null, { timeout: T });
      await checkAll(d, `${tag}-verify-desktop`, problems);
      assert.deepEqual(problems, [], problems.join('\n'));
      assert.deepEqual(errs(), []);
      assert.deepEqual(errorsD, []);
    } finally {
      await annCtx.close();
      await benCtx.close();
      await deskCtx.close();
    }
  });
}

test('polish: the pages without a match, at 360 px and 1280 px', async () => {
  const cat = await api(env, 'POST', '/api/players', { name: 'Cat' });
  const problems = [];
  for (const [size, opts] of [['phone', PHONE], ['desktop', DESKTOP]]) {
    // Signed out: the home page is the sign-in forms (identity).
    const anon = await env.browser.newContext(opts);
    const p0 = await anon.newPage();
    await p0.goto(`${env.base}/#/`);
    await p0.waitForSelector('#player-name', { timeout: T });
    await checkAll(p0, `polish-identity-${size}`, problems);
    await anon.close();
    const ctx = await contextAs(env, cat, opts);
    const page = await ctx.newPage();
    const errors = watchErrors(page, `Cat ${size}`);
    const pages = [['#/', 'text=My matches'], ['#/new', '#ruleset'], ['#/watch', 'main h1'], ['#/notifications', 'main h1'],
      // the pages other issues added (challenges, ratings, account)
      ['#/challenges', 'main h1'], ['#/leaderboards', 'main h1'], [`#/players/${cat.id}`, 'main h1'], ['#/account', 'main h1']];
    for (const [route, ready] of pages) {
      await page.goto(`${env.base}/${route}`);
      await page.waitForSelector(ready, { timeout: T });
      await page.waitForFunction(() => !/Loading/.test(document.querySelector('main').innerText), null, { timeout: T });
      await checkAll(page, `polish-${route.replace(/\W+/g, '') || 'home'}-${size}`, problems);
    }
    assert.doesNotMatch(await page.textContent('main'), /HMAC|SHA-?256/i, 'the notifications page speaks to players');
    // Every ruleset's lobby form.
    await page.goto(`${env.base}/#/new`);
    await page.waitForSelector('#ruleset');
    for (const r of rulesets) {
      await page.selectOption('#ruleset', r.id);
      await page.waitForFunction((n) => !!document.querySelector('.options legend') && (n === 0 || document.querySelectorAll('.options [data-option]').length === n),
        Object.keys(r.options || {}).length, { timeout: T });
      await checkAll(page, `polish-lobby-${r.id}-${size}`, problems);
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  }
  assert.deepEqual(problems, [], problems.join('\n'));

  // A new player holds a starting vacation allowance (issue 30 item 10,
  // VACATION_START_DAYS, 7 by default) and takes it from "My matches" on a phone.
  const ctx = await contextAs(env, cat, PHONE);
  const page = await ctx.newPage();
  await page.goto(`${env.base}/#/`);
  await page.waitForSelector('#vacation-btn', { timeout: T });
  assert.match(await page.textContent('.vacation'), /You have 7 vacation days/);
  await page.fill('#vacation-days', '2');
  await page.click('#vacation-btn');
  await page.waitForSelector('.vacation :text("On vacation until")', { timeout: T });
  assert.equal((await api(env, 'GET', '/api/me/vacation', undefined, cat.token)).balance_days, 5);
  await ctx.close();
});

test('polish: every ruleset says what a post did, with the dice (a Wargame Chess defence)', async () => {
  const ctx = await env.browser.newContext(PHONE);
  const page = await ctx.newPage();
  await page.goto(`${env.base}/#/watch`);
  await page.waitForSelector('main h1', { timeout: T });
  // The renderer in the browser, on the events of a repelled attack as the
  // server sends them (rules/wargame-chess/README.md, "Events").
  const text = await page.evaluate(async () => {
    const r = (await import('/renderers/wargame-chess.js')).default;
    const view = {
      you: 0, seats: [{ seat: 0, player: { name: 'Ann' } }, { seat: 1, player: { name: 'Ben' } }],
      state: { pieces: [{ id: 0, owner: 0, type: 'knight', square: 'e4', where: 'board' }, { id: 1, owner: 1, type: 'pawn', square: 'f6', where: 'board' }] },
    };
    const post = {
      kind: 'turn', seat: 1, actions: [{ type: 'defend', advantage: false }],
      events: [
        { type: 'roll', piece: 0, role: 'attack', dice: 1, faces: [2], mode: 'normal', bonus: 0, total: 2 },
        { type: 'roll', piece: 1, role: 'defence', dice: 1, faces: [5], mode: 'normal', bonus: 0, total: 5 },
        { type: 'attack_result', attacker: 0, defender: 1, attack: 2, defence: 5, success: false },
      ],
    };
    return r.summary(post, view);
  });
  assert.match(text, /^Black \(Ben\): defend without spending a token/);
  assert.match(text, /⚁\u00a02.*⚄\u00a05/, 'the dice');
  assert.match(text, /repelled/, 'the result');
  // A post of the server's own (an only legal action taken for a seat):
  // its events in the ruleset's words, never "phase: Black (Ben), phase shooting".
  const auto = await page.evaluate(async () => {
    const r = (await import('/renderers/chesswar.js')).default;
    const view = { you: 0, seats: [{ seat: 0, player: { name: 'Ann' } }, { seat: 1, player: { name: 'Ben' } }], state: {} };
    return r.summary({ kind: 'turn', seat: 1, actions: [], events: [{ type: 'phase', seat: 1, phase: 'shooting' }] }, view);
  });
  assert.equal(auto, 'Black (Ben): shooting phase');
  // A Pawn's second step (En Passant, 003 Wargame Chess) is still its
  // activation: the banner names the Pawn to whoever moves it, and the
  // piece to the other seat (a random post reached it once in CI, and the
  // server's own words named no one).
  const ep = await page.evaluate(async () => {
    const r = (await import('/renderers/wargame-chess.js')).default;
    const view = (you) => ({
      you, seats: [{ seat: 0, player: { name: 'Ann' } }, { seat: 1, player: { name: 'Ben' } }],
      state: {
        phase: 'play', active: 0, activation: { piece: 0 },
        pending: [{ seat: 0, kind: 'en_passant', prompt: 'Move the Pawn again (En Passant) or end the Activation' }],
        pieces: [{ id: 0, owner: 0, type: 'pawn', square: 'e4', where: 'board' }, { id: 1, owner: 1, type: 'pawn', square: 'f6', where: 'board' }],
      },
    });
    return [r.prompt(view(0)), r.prompt(view(1))];
  });
  assert.match(ep[0], WHO['wargame-chess'], ep[0]);
  assert.match(ep[0], /on e4 is activated: move it again \(En Passant\) or end the activation/, ep[0]);
  assert.match(ep[1], /^White \(Ann\).* on e4 is activated\.$/, ep[1]);
  await ctx.close();
});
