// One tournament (issue 29): what it is, its players (join, leave or
// withdraw; the organiser starts it and removes a player before the
// start), the standings with their tie-breaks, the crosstable, and each
// round's pairings with links to the matches. It follows the server by
// long-poll (GET /api/tournaments/ID?wait=, If-None-Match): a join, a
// round paired or a match ended shows at once.

import { request, token } from '../api.js';
import { h, clear, errorBox, setTitle } from '../ui.js';
import { signInForms } from './identity.js';
import { KINDS, STATUS } from './tournaments.js';

const WAIT = 50;

function pts(v) {
  const whole = Math.floor(v);
  return v - whole === 0.5 ? `${whole ? whole : ''}½` : String(v);
}

function nameOf(t, id) {
  return (t.players.find((p) => p.id === id) || { name: `#${id}` }).name;
}

function standings(t) {
  const swiss = t.kind === 'swiss';
  return h('div', { class: 'scroll-x' }, h('table', { class: 'ratings', id: 'standings' },
    h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), h('th', {}, 'Points'),
      swiss ? h('th', { title: 'Buchholz: the sum of the opponents’ points' }, 'Bu') : null,
      h('th', { title: 'Sonneborn-Berger: the points of the opponents beaten, and half of those drawn' }, 'SB'),
      h('th', {}, 'W–D–L'))),
    h('tbody', {}, t.standings.map((s) => h('tr', { 'data-player': s.player.id },
      h('td', {}, s.rank), h('td', {}, s.player.name, s.withdrawn ? ' (withdrew)' : ''),
      h('td', { class: 'record' }, pts(s.points)), swiss ? h('td', { class: 'record' }, pts(s.buchholz)) : null,
      h('td', { class: 'record' }, pts(s.sonneborn_berger)),
      h('td', { class: 'record' }, `${s.wins}–${s.draws}–${s.losses}${s.byes ? ` +${s.byes} bye` : ''}`))))));
}

// A ladder: its places, a Challenge button by those the caller may
// challenge, and its challenges with Accept for the challenged.
function ladder(t, act) {
  const myId = t.me.id;
  const order = t.standings.map((s) => s.player.id);
  const mine = order.indexOf(myId);
  const going = t.challenges.filter((c) => c.status === 'pending' || c.status === 'playing');
  const busy = (id) => going.some((c) => c.challenger === id || c.challenged === id);
  const base = `/api/tournaments/${t.id}/challenges`;
  const rows = t.standings.map((s, i) => {
    const may = t.status === 'running' && mine > i && mine - i <= t.reach && !busy(myId) && !busy(s.player.id);
    const b = may ? h('button', { type: 'button', class: 'small', 'data-challenge-player': s.player.id, onclick: () => act('POST', base, { player: s.player.id }, b) }, 'Challenge') : null;
    return h('li', { 'data-player': s.player.id }, `${s.rank}. ${s.player.name}${s.withdrawn ? ' (withdrew)' : ''}`, b ? [' ', b] : null);
  });
  const words = { pending: 'waiting for an answer', playing: 'playing', done: 'played', forfeited: 'forfeited' };
  const lines = t.challenges.map((c) => {
    const text = `${nameOf(t, c.challenger)} challenged ${nameOf(t, c.challenged)}: ${c.expired ? 'lapsing' : words[c.status]}${c.swapped ? ' · places swapped' : ''}`;
    const b = c.status === 'pending' && !c.expired && c.challenged === myId
      ? h('button', { type: 'button', class: 'primary small', 'data-accept-challenge': c.id, onclick: () => act('POST', `${base}/${c.id}/accept`, undefined, b) }, 'Accept') : null;
    return h('li', { 'data-ladder-challenge': c.id }, c.game ? h('a', { href: `#/match/${c.game}` }, text) : text, b ? [' ', b] : null,
      c.status === 'pending' ? h('span', { class: 'inbox-meta' }, ` · answer by ${new Date(c.deadline).toLocaleDateString()}`) : null);
  });
  return [h('h2', {}, 'The ladder'), h('p', { class: 'hint' }, `Challenge a player up to ${t.reach} place${t.reach === 1 ? '' : 's'} above you; they have ${t.accept_days} days to accept, or the places swap. Win and you take their place.`),
    h('ol', { class: 'inbox', id: 'ladder' }, rows),
    h('h2', {}, 'Challenges'), lines.length ? h('ul', { class: 'inbox', id: 'ladder-challenges' }, lines) : h('p', {}, 'None yet.')];
}

function crosstable(t) {
  return h('div', { class: 'scroll-x' }, h('table', { class: 'ratings crosstable', id: 'crosstable' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), t.players.map((p, i) => h('th', { title: p.name }, i + 1)))),
    h('tbody', {}, t.crosstable.map((row, i) => h('tr', {},
      h('th', { scope: 'row' }, `${i + 1}. ${row.player.name}`),
      row.against.map((cell, j) => h('td', { class: 'record' }, i === j ? '×' : cell.map(pts).join(' '))))))));
}

// The organiser's hand on a match still in play: give it to a seat, or a draw.
function adjudicate(t, x, act) {
  const pick = h('select', { 'aria-label': `Result of ${x.players.map((id) => nameOf(t, id)).join(' – ')}` },
    x.players.map((id, s) => h('option', { value: String(s) }, `${nameOf(t, id)} wins`)), h('option', { value: '' }, 'Draw'));
  const b = h('button', { type: 'button', class: 'small', 'data-adjudicate': x.game, onclick: () => act('POST', `/api/tournaments/${t.id}/adjudicate`,
    { game: x.game, winner: pick.value === '' ? null : Number(pick.value) }, b) }, 'Adjudicate');
  return h('details', { class: 'adjudicate' }, h('summary', {}, 'Stalled? Adjudicate'), h('div', { class: 'row wrap' }, pick, b));
}

function rounds(t, act) {
  const byRound = new Map();
  for (const x of t.tables) {
    if (!byRound.has(x.round)) byRound.set(x.round, []);
    byRound.get(x.round).push(x);
  }
  return [...byRound.entries()].map(([r, tables]) => h('section', { class: 'round', 'data-round': r },
    h('h3', {}, `Round ${r}`),
    h('ul', { class: 'inbox' }, tables.map((x) => {
      const names = x.players.map((id, s) => {
        const place = x.places ? x.places[s] : null;
        const mark = place === null ? '' : x.places.every((p) => p === place) ? ' (draw)' : place === 1 ? ' (won)' : '';
        return nameOf(t, id) + mark;
      });
      return h('li', { 'data-table': `${r}-${x.table}` }, x.game
        ? h('a', { href: `#/match/${x.game}` }, names.join(' – '), x.status === 'active' ? ' · playing' : '')
        : `${names[0]}: a bye`, x.game && x.status === 'active' && t.me.organiser ? adjudicate(t, x, act) : null);
    }))));
}

export async function show(main, params) {
  const id = params.tournament;
  setTitle('Tournament');
  const head = h('div', {});
  const actions = h('div', { 'aria-live': 'polite' });
  const body = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading the tournament…'));
  const msg = h('div', { 'aria-live': 'polite' });
  let stopped = false;
  let etag = null;
  let ctl = null;
  let timer = null;

  async function act(method, path, payload, button) {
    if (button) button.disabled = true;
    msg.replaceChildren();
    try {
      const r = await request(method, path, payload === undefined ? {} : { body: payload });
      // The event after it; an adjudication answers its post: read again.
      if (r.body && r.body.standings) render(r.body);
      etag = null;
      if (!(r.body && r.body.standings)) load(false);
    } catch (err) {
      msg.append(errorBox(err));
    } finally {
      if (button) button.disabled = false;
    }
  }

  function actionsOf(t) {
    const base = `/api/tournaments/${t.id}`;
    if (!token()) return [h('p', {}, 'Choose the name you play under to join.'), signInForms(() => load(false))];
    const out = [];
    const joinable = t.status === 'open' || (t.status === 'running' && t.kind === 'ladder');
    if (joinable && !t.me.player) {
      const code = t.by_invitation ? h('input', { id: 't-join-code', type: 'text', maxlength: 40, placeholder: 'invitation code' }) : null;
      const b = h('button', { type: 'button', class: 'primary', id: 't-join', onclick: () => act('POST', `${base}/join`, code ? { code: code.value.trim() } : undefined, b) }, 'Join');
      out.push(code ? h('div', { class: 'field' }, h('label', { for: 't-join-code' }, 'Invitation code'), code) : null, b);
    }
    if (t.me.player && t.status !== 'over') {
      const b = h('button', { type: 'button', id: 't-leave', onclick: () => act('POST', `${base}/leave`, undefined, b) }, t.status === 'open' ? 'Leave' : 'Withdraw');
      out.push(b);
    }
    if (t.me.organiser && t.status === 'open') {
      const b = h('button', { type: 'button', class: 'primary', id: 't-start', onclick: () => act('POST', `${base}/start`, undefined, b) }, 'Start now');
      out.push(b);
    }
    if (t.status === 'over') out.push(h('a', { class: 'button', href: `${base}/export`, download: `tournament-${t.id}.json` }, 'Results as JSON'));
    return h('div', { class: 'row wrap' }, out);
  }

  function playersOf(t) {
    if (t.status !== 'open') return null;
    return [h('h2', {}, `Players (${t.players.length} of ${t.max_players})`),
      t.players.length ? h('ul', { class: 'inbox', id: 't-players' }, t.players.map((p) => h('li', { 'data-player': p.id }, p.name,
        t.me.organiser ? [' ', h('button', { type: 'button', class: 'small', onclick: (e) => act('DELETE', `/api/tournaments/${t.id}/players/${p.id}`, undefined, e.target) }, 'Remove')] : null)))
        : h('p', {}, 'Nobody yet.'),
      h('p', { class: 'hint' }, `It starts with at least ${t.min_players} players${t.starts_at ? ` on ${new Date(t.starts_at).toLocaleString()}` : ', when the organiser starts it'}.`)];
  }

  function render(t) {
    setTitle(t.name);
    const rounds_ = t.kind === 'swiss' ? `${t.rounds} rounds` : t.kind === 'ladder' ? `reach ${t.reach}` : t.cycles === 2 ? 'double' : 'single';
    clear(head, h('div', { class: 'page-head' }, h('h1', {}, t.name), h('a', { class: 'button', href: '#/tournaments' }, 'Tournaments')),
      h('p', { class: 'lead', id: 't-status' }, `${STATUS[t.status]}${t.status === 'running' && t.kind === 'swiss' ? `: round ${t.round} of ${t.rounds}` : ''}`),
      t.status === 'running' && t.round_deadline && t.round < t.rounds
        ? h('p', { class: 'hint' }, `The next round starts when this one ends, or on ${new Date(t.round_deadline).toLocaleDateString()} at the latest.`) : null,
      h('p', { class: 'hint' }, [t.ruleset, `${KINDS[t.kind]} (${rounds_})`, t.seats > 2 ? `tables of ${t.seats}` : null,
        t.rated ? 'rated' : 'casual', t.time_control ? `${t.time_control.days_per_move} days a move` : 'no time limit',
        `organised by ${t.organiser.name}`].filter(Boolean).join(' · ')),
      t.me.organiser && t.code ? h('p', { class: 'hint' }, `Invitation code: ${t.code}`) : null);
    clear(actions, actionsOf(t));
    const played = t.kind === 'ladder' ? ladder(t, act)
      : [h('h2', {}, 'Standings'), standings(t), h('h2', {}, 'Crosstable'), crosstable(t), h('h2', {}, 'Rounds'), rounds(t, act)];
    clear(body, playersOf(t), t.status !== 'open' ? played : null);
  }

  async function load(wait) {
    if (ctl) ctl.abort();
    const mine = ctl = new AbortController();
    clearTimeout(timer);
    try {
      const r = await request('GET', `/api/tournaments/${id}${wait && etag ? `?wait=${WAIT}` : ''}`, {
        headers: wait && etag ? { 'If-None-Match': etag } : {}, signal: mine.signal,
      });
      if (stopped || mine !== ctl) return;
      if (r.status === 200) {
        etag = r.headers.get('ETag');
        render(r.body);
      }
      if (!stopped) timer = setTimeout(() => load(true), 0);
    } catch (err) {
      if (stopped || err.name === 'AbortError' || mine !== ctl) return;
      clear(body, errorBox(err, () => load(false)));
      timer = setTimeout(() => { if (!stopped) load(false); }, 10000);
    }
  }

  clear(main, head, actions, msg, body);
  await load(false);
  return { stop() { stopped = true; clearTimeout(timer); if (ctl) ctl.abort(); } };
}
