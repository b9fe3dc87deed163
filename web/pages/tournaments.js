// Tournaments (issue 29): the events of this server (open ones to join,
// running ones to follow, finished ones with their results), and
// "Organise a tournament": a round robin or a Swiss event of a ruleset
// with its options and time control (pages/new.js matchFields), rated or
// not, its rounds, its number of players and, when wanted, an invitation
// code. The list follows the server by long-poll (?wait=, If-None-Match).

import { request, oncePoster } from '../api.js';
import { h, clear, errorBox } from '../ui.js';
import { matchFields, signedInRulesets } from './new.js';

const WAIT = 50;
export const KINDS = { round_robin: 'Round robin', swiss: 'Swiss', ladder: 'Ladder' };
export const STATUS = { open: 'Open to join', running: 'Under way', over: 'Finished' };

export async function show(main) {
  const list = await signedInRulesets(main, 'Tournaments', () => show(main));
  if (!list) return null;
  const titles = Object.fromEntries(list.map((r) => [r.id, r.title]));
  const box = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading the tournaments…'));
  let stopped = false;
  let etag = null;
  let ctl = null;
  let timer = null;

  function line(t) {
    const rounds = t.kind === 'swiss' ? ` · ${t.rounds} rounds` : '';
    return h('li', { class: 'challenge', 'data-tournament': t.id },
      h('div', { class: 'challenge-text' },
        h('a', { class: 'inbox-title', href: `#/tournament/${t.id}` }, t.name),
        h('span', { class: 'inbox-meta' }, [titles[t.ruleset] || t.ruleset, KINDS[t.kind] + rounds,
          t.rated ? 'rated' : 'casual', t.by_invitation ? 'by invitation' : null].filter(Boolean).join(' · ')),
        h('span', { class: 'inbox-meta' }, `${STATUS[t.status]} · ${t.players} of ${t.max_players} players · organised by ${t.organiser}`)),
      h('a', { class: 'button small', href: `#/tournament/${t.id}` }, t.status === 'open' ? 'Open' : 'Standings'));
  }

  async function load(wait) {
    if (ctl) ctl.abort();
    const mine = ctl = new AbortController();
    clearTimeout(timer);
    try {
      const r = await request('GET', `/api/tournaments${wait && etag ? `?wait=${WAIT}` : ''}`, {
        headers: wait && etag ? { 'If-None-Match': etag } : {}, signal: mine.signal,
      });
      if (stopped || mine !== ctl) return;
      if (r.status === 200) {
        etag = r.headers.get('ETag');
        const items = r.body.tournaments;
        clear(box, items.length ? h('ul', { class: 'inbox challenges', id: 'tournament-list' }, items.map(line))
          : h('p', {}, 'No tournament yet. Organise one: players join it here.'));
      }
      if (!stopped) timer = setTimeout(() => load(true), 0);
    } catch (err) {
      if (stopped || err.name === 'AbortError' || mine !== ctl) return;
      clear(box, errorBox(err, () => load(false)));
      timer = setTimeout(() => { if (!stopped) load(false); }, 10000);
    }
  }

  const create = h('details', { class: 'card post-challenge' },
    h('summary', { id: 'organise' }, 'Organise a tournament'));
  create.addEventListener('toggle', () => { if (create.open && !create.dataset.built) buildForm(create, list); });
  clear(main,
    h('div', { class: 'page-head' }, h('h1', {}, 'Tournaments'), h('a', { class: 'button', href: '#/' }, 'My matches')),
    h('p', { class: 'lead' }, 'Leagues played by post: everyone plays everyone (round robin), a few Swiss rounds, each paired when the last one ends, or a standing ladder where you challenge those above you.'),
    create, box);
  await load(false);
  return { stop() { stopped = true; clearTimeout(timer); if (ctl) ctl.abort(); } };
}

function buildForm(box, list) {
  box.dataset.built = '1';
  const setup = matchFields(list);
  const num = (id, value, min, max) => h('input', { id, type: 'number', inputmode: 'numeric', min, max, step: 1, value });
  const name = h('input', { id: 't-name', type: 'text', maxlength: 80, required: true, placeholder: 'Autumn league' });
  const kind = h('select', { id: 't-kind' }, Object.entries(KINDS).map(([v, t]) => h('option', { value: v }, t)));
  const double = h('input', { id: 't-double', type: 'checkbox' });
  const rounds = num('t-rounds', 3, 1, 100);
  const minP = num('t-min', 2, 2, 256);
  const maxP = num('t-max', 8, 2, 256);
  const rated = h('input', { id: 't-rated', type: 'checkbox' });
  const code = h('input', { id: 't-code', type: 'text', maxlength: 40, placeholder: 'none: anyone may join' });
  const roundDays = num('t-round-days', 0, 0, 365);
  const roundsBox = h('div', { class: 'field-pair' },
    h('div', { class: 'field' }, h('label', { for: 't-rounds' }, 'Rounds'), rounds),
    h('div', { class: 'field' }, h('label', { for: 't-round-days' }, 'Days a round (0: waits)'), roundDays));
  const doubleBox = h('div', { class: 'field-check' }, double, h('label', { for: 't-double' }, 'Double (everyone meets twice, colours reversed)'));
  const reach = num('t-reach', 3, 1, 50);
  const days = num('t-days', 3, 1, 30);
  const ladderBox = h('div', { class: 'field-pair' },
    h('div', { class: 'field' }, h('label', { for: 't-reach' }, 'Challenge up to (places above)'), reach),
    h('div', { class: 'field' }, h('label', { for: 't-days' }, 'Days to accept a challenge'), days));
  const relevance = () => {
    roundsBox.hidden = kind.value !== 'swiss';
    doubleBox.hidden = kind.value !== 'round_robin';
    ladderBox.hidden = kind.value !== 'ladder';
  };
  kind.addEventListener('change', relevance);
  const msg = h('div', { 'aria-live': 'polite' });
  const button = h('button', { type: 'submit', class: 'primary', id: 't-submit' }, 'Create the tournament');
  // The event as the form says it; an option not in its form throws.
  const eventBody = () => {
    const body = {
      name: name.value.trim(), ruleset: setup.rsSelect.value, options: setup.options(),
      seats: Number(setup.seatsSelect.value), time_control: setup.timeControl.value(),
      rated: rated.checked, kind: kind.value,
      min_players: parseInt(minP.value, 10) || 2, max_players: parseInt(maxP.value, 10) || 8,
    };
    if (kind.value === 'swiss') Object.assign(body, { rounds: parseInt(rounds.value, 10) || 1, round_days: parseInt(roundDays.value, 10) || 0 });
    if (kind.value === 'round_robin') body.cycles = double.checked ? 2 : 1;
    if (kind.value === 'ladder') Object.assign(body, { reach: parseInt(reach.value, 10) || 3, accept_days: parseInt(days.value, 10) || 3 });
    if (code.value.trim()) body.code = code.value.trim();
    return body;
  };
  const creating = oncePoster('/api/tournaments');
  const submit = async (e) => {
    e.preventDefault();
    msg.replaceChildren();
    button.disabled = true;
    try {
      const r = await creating.post(eventBody());
      location.hash = `#/tournament/${r.body.id}`;
    } catch (err) {
      msg.append(errorBox(err instanceof SyntaxError ? { sentence: 'An option is not in the expected form.' } : err));
    } finally {
      button.disabled = false;
    }
  };
  const form = h('form', { class: 'lobby', onsubmit: submit },
  h('div', { class: 'field' }, h('label', { for: 't-name' }, 'Name'), name),
  setup.nodes,
  h('fieldset', { class: 'options' }, h('legend', {}, 'The event'),
    h('div', { class: 'field' }, h('label', { for: 't-kind' }, 'Kind'), kind),
    doubleBox, roundsBox, ladderBox,
    h('div', { class: 'field-pair' },
      h('div', { class: 'field' }, h('label', { for: 't-min' }, 'Fewest players'), minP),
      h('div', { class: 'field' }, h('label', { for: 't-max' }, 'Most players'), maxP)),
    h('div', { class: 'field-check' }, rated, h('label', { for: 't-rated' }, 'Rated (results change the players’ ratings)')),
    h('div', { class: 'field' }, h('label', { for: 't-code' }, 'Invitation code'), code)),
  button, msg);
  box.append(form);
  // A tournament seats its players itself: no "Your seat".
  setup.seatSelect.closest('.field').hidden = true;
  relevance();
  setup.ready();
}
