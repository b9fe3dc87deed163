// "Play the computer" on the new-match page (issue 27): a ruleset, a
// strength and a colour; the match is created with the other seat held by
// the server's computer player of that level and opens at once. The
// computer sets up and plays on the server: nobody has to keep a page open.

import { oncePoster } from '../api.js';
import { h, errorBox } from '../ui.js';
import { seatColour } from '../words.js';

const LEVELS = [
  [1, '1 · beginner'],
  [2, '2 · casual'],
  [3, '3 · careful'],
  [4, '4 · strongest'],
];

// The card; `list` is GET /api/rulesets' list.
export function computerCard(list) {
  const rs = h('select', { id: 'cpu-ruleset', name: 'cpu-ruleset' },
    list.map((r) => h('option', { value: r.id }, r.title)));
  const level = h('select', { id: 'cpu-level', name: 'cpu-level' },
    LEVELS.map(([n, text]) => h('option', { value: n, selected: n === 1 }, text)));
  const seat = h('select', { id: 'cpu-seat', name: 'cpu-seat' },
    [0, 1].map((i) => h('option', { value: i }, seatColour(i))));
  const msg = h('div', { 'aria-live': 'polite' });
  const creating = oncePoster('/api/games');
  const form = h('form', {
    class: 'card lobby', id: 'play-computer', 'aria-labelledby': 'cpu-h',
    onsubmit: async (e) => {
      e.preventDefault();
      msg.replaceChildren();
      const btn = form.querySelector('button[type=submit]');
      btn.disabled = true;
      const mine = Number(seat.value);
      try {
        const r = await creating.post({
          ruleset: rs.value, seats: 2, seat: mine, client_seed: creating.seed,
          bots: [{ seat: 1 - mine, level: Number(level.value) }],
        });
        location.hash = `#/match/${r.body.id}`;
      } catch (err) {
        msg.append(errorBox(err));
      } finally {
        btn.disabled = false;
      }
    },
  },
  h('h2', { id: 'cpu-h' }, 'Play the computer'),
  h('p', { class: 'hint' }, 'A match against the server’s computer player, which sees only what its own seat may see. It starts at once. Level 1 plays almost at random; level 4 thinks about two seconds a move.'),
  h('div', { class: 'field' }, h('label', { for: 'cpu-ruleset' }, 'Ruleset'), rs),
  h('div', { class: 'field-pair' },
    h('div', { class: 'field' }, h('label', { for: 'cpu-level' }, 'Strength'), level),
    h('div', { class: 'field' }, h('label', { for: 'cpu-seat' }, 'You play'), seat)),
  h('button', { type: 'submit', class: 'primary' }, 'Play the computer'),
  msg);
  return form;
}
