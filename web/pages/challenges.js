// Open challenges, the seek lobby (issue 28): the challenges others
// posted, filtered by ruleset and time control, each with "Accept"; the
// player's own with "Cancel" (or "Leave" for a seat taken in another's);
// and "Post a challenge", the new-match form (pages/new.js matchFields)
// with rated or casual, a rating range and an expiry. The list follows the
// server through long-polls (GET /api/challenges?wait=, If-None-Match);
// when a challenge the player is in starts, the page opens its match.

import { get, post, request, randomHex, oncePoster } from '../api.js';
import { h, clear, errorBox } from '../ui.js';
import { matchFields, optionLines, signedInRulesets } from './new.js';
import { seatColour } from '../words.js';
import { ago } from './match.js';
import { spectatorFields } from '../watch.js';

const TIMES = [['', 'Any time control'], ['untimed', 'No time limit'], ['timed', 'Timed'],
  ['1', '1 day a move'], ['2', '2 days a move'], ['3', '3 days a move'], ['5', '5 days a move'],
  ['7', '7 days a move'], ['14', '14 days a move']];
const WAIT = 50;   // seconds a long-poll is held (the server allows 60)

function timeText(tc) {
  if (!tc) return 'no time limit';
  return `${tc.days_per_move} day${tc.days_per_move === 1 ? '' : 's'} a move`;
}

function rangeText(c) {
  if (c.min_rating === null && c.max_rating === null) return null;
  if (c.min_rating === null) return `rated up to ${c.max_rating}`;
  if (c.max_rating === null) return `rated ${c.min_rating} or more`;
  return `rated ${c.min_rating}–${c.max_rating}`;
}

export async function show(main) {
  const list = await signedInRulesets(main, 'Open challenges', () => show(main));
  if (!list) return null;
  const titles = Object.fromEntries(list.map((r) => [r.id, r.title]));
  const specs = Object.fromEntries(list.map((r) => [r.id, r]));

  const rsFilter = h('select', { id: 'filter-ruleset' }, h('option', { value: '' }, 'Every ruleset'),
    list.map((r) => h('option', { value: r.id }, r.title)));
  const timeFilter = h('select', { id: 'filter-time' }, TIMES.map(([v, t]) => h('option', { value: v }, t)));
  const mineBox = h('div', { 'aria-live': 'polite' });
  const othersBox = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading the challenges…'));
  const msg = h('div', { 'aria-live': 'polite' });

  let stopped = false;
  let etag = null;
  let ctl = null;
  let timer = null;
  const inside = new Map();   // challenges I am in: id -> status seen

  function line(c) {
    const bits = [titles[c.ruleset] || c.ruleset, `${c.seats} players`, timeText(c.time_control),
      c.rated ? 'rated' : 'casual', rangeText(c)].filter(Boolean);
    const seated = c.players.map((s) => `${s.player.name} (${seatColour(s.seat)})`).join(', ');
    const details = optionLines(specs[c.ruleset], c.options || {}, null);
    let button;
    if (c.mine) {
      button = h('button', { type: 'button', class: 'small', 'data-cancel': c.id, onclick: () => cancel(c, button) }, 'Cancel');
    } else if (c.seat !== null) {
      button = h('button', { type: 'button', class: 'small', 'data-leave': c.id, onclick: () => cancel(c, button) }, 'Leave');
    } else {
      button = h('button', { type: 'button', class: 'primary small', 'data-accept': c.id, onclick: () => accept(c, button) }, 'Accept');
    }
    return h('li', { class: 'challenge', 'data-challenge': c.id },
      h('div', { class: 'challenge-text' },
        h('span', { class: 'inbox-title' }, `${c.poster.name} · ${bits[0]}`),
        h('span', { class: 'inbox-meta' }, bits.slice(1).join(' · ')),
        h('span', { class: 'inbox-meta' }, `Seated: ${seated}${c.open_seats ? ` · ${c.open_seats} open` : ''} · posted ${ago(new Date(c.created_at))}`),
        details.length ? h('span', { class: 'inbox-meta' }, details.join(' · ')) : null),
      button);
  }

  function render(items) {
    const mine = items.filter((c) => c.mine || c.seat !== null);
    const others = items.filter((c) => !c.mine && c.seat === null);
    clear(mineBox, mine.length ? [h('h2', {}, 'Yours'), h('p', { class: 'hint' }, 'The match starts when every seat is taken; this page then opens it.'),
      h('ul', { class: 'inbox challenges' }, mine.map(line))] : null);
    clear(othersBox, h('h2', {}, 'Open to you'), others.length
      ? h('ul', { class: 'inbox challenges' }, others.map(line))
      : h('p', {}, 'No open challenge matches these filters. Post one: others will see it here.'));
  }

  // A challenge I was in that left the list: started (open its match),
  // cancelled or expired (say so).
  async function gone(ids) {
    for (const id of ids) {
      inside.delete(id);
      try {
        const c = (await get(`/api/challenges/${id}`)).body;
        if (c.status === 'started' && c.game) { location.hash = `#/match/${c.game}`; return; }
      } catch { /* gone for good: nothing to open */ }
    }
  }

  function query() {
    const q = new URLSearchParams();
    if (rsFilter.value) q.set('ruleset', rsFilter.value);
    if (timeFilter.value) q.set('time', timeFilter.value);
    return q;
  }

  async function load(wait) {
    if (ctl) ctl.abort();
    const mine = ctl = new AbortController();
    clearTimeout(timer);
    const q = query();
    if (wait && etag) q.set('wait', String(WAIT));
    try {
      const r = await request('GET', `/api/challenges?${q}`, {
        headers: wait && etag ? { 'If-None-Match': etag } : {}, signal: mine.signal,
      });
      if (stopped || mine !== ctl) return;
      if (r.status === 200) {
        etag = r.headers.get('ETag');
        const items = r.body.challenges;
        const now = new Set(items.filter((c) => c.mine || c.seat !== null).map((c) => c.id));
        const left = [...inside.keys()].filter((id) => !now.has(id));
        for (const id of now) inside.set(id, true);
        render(items);
        if (left.length) await gone(left);
      }
      if (!stopped) timer = setTimeout(() => load(true), 0);
    } catch (err) {
      if (stopped || err.name === 'AbortError' || mine !== ctl) return;
      clear(othersBox, errorBox(err, () => load(false)));
      // Try again by itself a little later.
      timer = setTimeout(() => { if (!stopped) load(false); }, 10000);
    }
  }

  async function accept(c, button) {
    button.disabled = true;
    msg.replaceChildren();
    try {
      const r = await post(`/api/challenges/${c.id}/accept`, { client_seed: randomHex(16) },
        { headers: { 'Idempotency-Key': randomHex(16) } });
      if (r.body.game) { location.hash = `#/match/${r.body.game}`; return; }
      inside.set(c.id, true);
      load(false);
    } catch (err) {
      msg.append(errorBox(err));
      button.disabled = false;
      load(false);
    }
  }

  async function cancel(c, button) {
    button.disabled = true;
    msg.replaceChildren();
    try {
      await request('DELETE', `/api/challenges/${c.id}`);
      inside.delete(c.id);
      load(false);
    } catch (err) {
      msg.append(errorBox(err));
      button.disabled = false;
    }
  }

  const filters = h('div', { class: 'field-pair filters' },
    h('div', { class: 'field' }, h('label', { for: 'filter-ruleset' }, 'Ruleset'), rsFilter),
    h('div', { class: 'field' }, h('label', { for: 'filter-time' }, 'Time control'), timeFilter));
  const refilter = () => { etag = null; load(false); };
  rsFilter.addEventListener('change', refilter);
  timeFilter.addEventListener('change', refilter);

  const postBox = h('details', { class: 'card post-challenge' },
    h('summary', { id: 'post-challenge' }, 'Post a challenge'));
  postBox.addEventListener('toggle', () => { if (postBox.open && !postBox.dataset.built) buildForm(postBox, list, (c) => { inside.set(c.id, true); postBox.open = false; load(false); }); }, { once: false });

  clear(main,
    h('div', { class: 'page-head' }, h('h1', {}, 'Open challenges'),
      h('a', { class: 'button', href: '#/' }, 'My matches')),
    h('p', { class: 'lead' }, 'Find an opponent: accept a challenge, or post your own and wait for others to take the seats.'),
    postBox, msg, mineBox, filters, othersBox);
  await load(false);
  return { stop() { stopped = true; clearTimeout(timer); if (ctl) ctl.abort(); } };
}

// The form of a new challenge: the new-match fields, then rated or
// casual, the rating range, the expiry. posted(challenge) once done.
function buildForm(box, list, posted) {
  box.dataset.built = '1';
  const setup = matchFields(list);
  const { rsSelect, seatsSelect, seatSelect, timeControl } = setup;
  const watchers = spectatorFields();
  // "Random" after the seats the form lists (it lists them again when
  // the ruleset or the number of players changes).
  const addRandom = () => seatSelect.append(h('option', { value: 'random' }, 'Random'));
  rsSelect.addEventListener('change', addRandom);
  seatsSelect.addEventListener('change', addRandom);
  const rated = h('input', { id: 'ch-rated', type: 'checkbox' });
  const num = (id, ph) => h('input', { id, type: 'number', inputmode: 'numeric', min: 0, max: 4000, step: 1, placeholder: ph });
  const min = num('ch-min', 'any');
  const max = num('ch-max', 'any');
  const days = h('input', { id: 'ch-days', type: 'number', inputmode: 'numeric', min: 1, max: 30, step: 1, value: 7 });
  const msg = h('div', { 'aria-live': 'polite' });
  const button = h('button', { type: 'submit', class: 'primary', id: 'ch-submit' }, 'Post the challenge');
  const posting = oncePoster('/api/challenges');
  const form = h('form', {
    class: 'lobby',
    onsubmit: async (e) => {
      e.preventDefault();
      msg.replaceChildren();
      let options;
      try { options = setup.options(); } catch {
        msg.append(errorBox({ sentence: 'An option is not in the expected form.' }));
        return;
      }
      const body = {
        ruleset: rsSelect.value, options, seats: Number(seatsSelect.value),
        seat: seatSelect.value === 'random' ? 'random' : Number(seatSelect.value),
        client_seed: posting.seed, time_control: timeControl.value(), rated: rated.checked,
        expires_in_days: Math.min(30, Math.max(1, parseInt(days.value, 10) || 7)),
        ...watchers.value(),
      };
      if (min.value !== '') body.min_rating = parseInt(min.value, 10);
      if (max.value !== '') body.max_rating = parseInt(max.value, 10);
      button.disabled = true;
      try {
        const r = await posting.post(body);
        posted(r.body);
      } catch (err) {
        msg.append(errorBox(err));
      } finally {
        button.disabled = false;
      }
    },
  },
  setup.nodes,
  watchers.node,
  h('fieldset', { class: 'options' }, h('legend', {}, 'Who may accept'),
    h('div', { class: 'field-check' }, rated, h('label', { for: 'ch-rated' }, 'Rated (the result changes the players’ ratings)')),
    h('div', { class: 'field-pair' },
      h('div', { class: 'field' }, h('label', { for: 'ch-min' }, 'Lowest rating'), min),
      h('div', { class: 'field' }, h('label', { for: 'ch-max' }, 'Highest rating'), max)),
    h('div', { class: 'field' }, h('label', { for: 'ch-days' }, 'Open for (days)'), days)),
  button, msg);
  box.append(form);
  setup.ready();   // lists the seats at once, the options when loaded
  addRandom();
}

// A line for My matches: how many challenges wait for an opponent like me.
export function challengesTeaser() {
  const box = h('p', { class: 'hint', id: 'challenges-teaser' });
  get('/api/challenges').then((r) => {
    const n = r.body.challenges.filter((c) => !c.mine && c.seat === null).length;
    clear(box, n
      ? [h('a', { href: '#/challenges' }, `${n} open challenge${n === 1 ? '' : 's'}`), ' waiting for an opponent.']
      : ['No open challenge right now: ', h('a', { href: '#/challenges' }, 'post one'), '.']);
  }).catch(() => box.remove());
  return box;
}
