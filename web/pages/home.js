// My matches (awaiting me first): the opponents, how long since the last
// move, the result of finished ones, a small board; and who I am. One
// request: each line of GET /api/me/games?boards=1 carries its players,
// result and state.

import { get, token } from '../api.js';
import { h, clear, errorBox, setTitle, botBadge } from '../ui.js';
import { signInForms, identityCard } from './identity.js';
import { rulesetTitles } from './rulesets.js';
import { miniBoard } from '../board.js';
import { rendererFor } from '../renderers/registry.js';
import { seatColour } from '../words.js';
import { setFaviconCount, notificationsState, askNotifications } from '../notify.js';
import { ago } from './match.js';
import { vacationBox, myGameClock } from '../clock.js';
import { openStream } from '../live.js';
import { challengesTeaser } from './challenges.js';

let current = null;   // the page shown: show() again (a sign-in) replaces it

export async function show(main) {
  if (current) current.stop();
  current = null;
  setTitle('My matches');
  const render = () => show(main);
  if (!token()) {
    clear(main, h('h1', {}, 'Warpost'),
      h('p', { class: 'lead' }, 'Play-by-post wargames on a chessboard: make your move whenever you have time; the server referees.'),
      signInForms(render), h('p', {}, h('a', { href: '#/leaderboards' }, 'Leaderboards')));
    return null;
  }
  const list = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading your matches…'));
  const notifyBox = h('div', { class: 'notify-box' });
  clear(main,
    h('div', { class: 'page-head' }, h('h1', {}, 'My matches'),
      h('div', { class: 'row wrap' }, h('a', { class: 'button', href: '#/notifications', id: 'notifications-link' }, 'Notifications'),
        h('a', { class: 'button', href: '#/challenges', id: 'challenges-link' }, 'Find an opponent'),
        h('a', { class: 'button', href: '#/leaderboards', id: 'leaderboards-link' }, 'Leaderboards'),
        h('a', { class: 'button', href: '#/tournaments', id: 'tournaments-link' }, 'Tournaments'),
        h('a', { class: 'button primary', href: '#/new' }, 'New match'))),
    notifyBox,
    challengesTeaser(),
    list,
    vacationBox(),
    identityCard(render));
  renderNotify(notifyBox);
  let stopped = false;
  let timer = null;
  async function load() {
    try {
      const [r, titles] = await Promise.all([get('/api/me/games?limit=100&boards=1'), rulesetTitles()]);
      if (stopped) return;
      const games = r.body.games || [];
      const waiting = games.filter((g) => g.awaiting_you).length;
      setTitle(waiting ? `(${waiting}) Your turn` : 'My matches');
      setFaviconCount(waiting);
      if (!games.length) {
        clear(list, h('p', {}, 'No matches yet. Create one, accept an ', h('a', { href: '#/challenges' }, 'open challenge'), ', or open an invitation link a friend sent you.'));
        return;
      }
      const items = [];
      for (const g of games) items.push(await item(g, titles));
      if (stopped) return;
      clear(list, h('ul', { class: 'inbox' }, items),
        r.body.count > games.length ? h('p', {}, `Showing ${games.length} of ${r.body.count}.`) : null);
    } catch (err) {
      if (stopped) return;
      clear(list, errorBox(err, load));
    }
    // Without the event stream, look again every minute.
    if (!stream) timer = setTimeout(() => { if (!stopped && document.visibilityState === 'visible') load(); }, 60000);
  }
  // GET /api/me/events: an event whenever one of my matches changes (the
  // first one at once: the list just read). It fails over to the timer.
  let events = 0;
  let stream = openStream('/api/me/events', {
    onEvent: () => { if (events++ && !stopped) { clearTimeout(timer); load(); } },
    onFail: () => { stream = null; if (!stopped) { clearTimeout(timer); load(); } },
  });
  const page = { stop() { stopped = true; clearTimeout(timer); if (stream) stream.close(); setFaviconCount(0); } };
  current = page;
  await load();
  // The router keeps this first answer: stop whichever page is shown then.
  return { stop() { if (current) current.stop(); } };
}

async function item(g, titles) {
  let outcome = null;
  if (g.result && g.status === 'over') {
    outcome = g.result.draw ? 'Draw' : (g.result.winners || []).includes(g.seat) ? 'Won' : (g.result.winners || []).length ? 'Lost' : 'Over';
  }
  const state = g.awaiting_you ? 'Your turn'
    : g.status === 'open' ? 'Waiting for players'
      : g.status === 'active' ? 'Their turn'
        : g.status === 'over' ? (outcome || 'Over') : 'Aborted';
  const seatsOf = (g.players || []).filter((s) => s.seat !== g.seat);
  const others = seatsOf.map((s) => (s.player ? s.player.name : 'open seat'));
  let board = null;
  if (g.state) {
    // A renderer reads a match's view: the line has what it uses.
    const v = { ...g, you: g.seat, seats: g.players };
    try {
      const r = await rendererFor(g.ruleset);
      board = miniBoard(r.pieces(v) || [], r.flipped(v));
    } catch { board = null; }
  }
  const tagClass = g.awaiting_you ? 'you' : outcome ? outcome.toLowerCase() : g.status;
  return h('li', { class: g.awaiting_you ? 'awaiting' : '' },
    h('a', { href: `#/match/${g.id}` },
      board ? h('span', { class: 'inbox-board' }, board) : null,
      h('span', { class: 'inbox-text' },
        h('span', { class: 'inbox-title' }, `${others.length ? `vs ${others.join(', ')}` : `Match #${g.id}`} · ${titles[g.ruleset] || g.ruleset}`,
          seatsOf.map((s) => botBadge(s.player)),
          g.rated ? h('span', { class: 'tag tag-rated' }, 'Rated') : null),
        h('span', { class: 'inbox-meta' }, `You play ${seatColour(g.seat)} · match #${g.id} · last move ${ago(new Date(g.updated_at))}`, myGameClock(g))),
      h('span', { class: `tag tag-${tagClass}` }, state)));
}

// Browser notifications when it is my turn: asked once, from a click.
function renderNotify(box) {
  const st = notificationsState();
  if (st !== 'default') { clear(box); return; }
  clear(box, h('p', { class: 'hint' },
    h('button', {
      type: 'button', class: 'small', id: 'notify-btn',
      onclick: async () => { await askNotifications(); renderNotify(box); },
    }, 'Tell me when it is my turn'), ' (a browser notification while this tab is in the background)'));
}
