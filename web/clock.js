// Time controls and vacations on the board (issue "Correspondence play"):
// the lobby's time-control fields, each seat's clock beside its name, the
// claim button when an opponent's time ran out, the time left on "my
// matches" and the vacation box. The server sends deadlines, not
// countdowns: the time left is the deadline minus this browser's clock,
// refreshed every minute (tickClocks); the server decides claims with its
// own clock.

import { get, post } from './api.js';
import { h, clear, errorBox } from './ui.js';

const DAY = 86400000;

// "2 d 5 h", "3 h 10 min", "45 min"
export function span(ms) {
  if (ms <= 0) return 'no time';
  const d = Math.floor(ms / DAY);
  const hrs = Math.floor((ms % DAY) / 3600000);
  const min = Math.floor((ms % 3600000) / 60000);
  if (d) return `${d} d ${hrs} h`;
  if (hrs) return `${hrs} h ${min} min`;
  return `${Math.max(min, 1)} min`;
}

function when(iso) {
  return new Date(iso).toLocaleString([], { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

// A deadline's text, kept fresh by tickClocks.
function deadlineText(el) {
  const left = new Date(el.dataset.deadline).getTime() - Date.now();
  el.textContent = left > 0 ? `${span(left)} left` : 'out of time';
  el.classList.toggle('tag-loss', left <= 0);
  el.title = `Until ${when(el.dataset.deadline)}`;
}

function deadlineTag(iso) {
  const el = h('span', { class: 'tag clock', dataset: { deadline: iso } });
  deadlineText(el);
  return el;
}

let ticker = null;
export function tickClocks() {
  if (ticker) return;
  ticker = setInterval(() => {
    const els = document.querySelectorAll('[data-deadline]');
    els.forEach(deadlineText);
  }, 60000);
}

// The clock of one seat beside its name in the match page.
export function seatClock(view, seat) {
  const c = view.clock?.seats?.[seat];
  if (!c || view.status !== 'active') return null;
  tickClocks();
  if (c.awaited && c.deadline) return deadlineTag(c.deadline);
  const vac = c.last_vacation && new Date(c.last_vacation.until).getTime() > Date.now() ? ` · on vacation until ${when(c.last_vacation.until)}` : '';
  return h('span', { class: 'hint clock' }, ` ${span(c.bank_seconds * 1000)} in hand${vac}`);
}

// The claim button, when an awaited opponent's deadline has passed.
export function claimButton(view, send) {
  const me = view.you;
  if (!view.clock || view.status !== 'active' || me === null || me === undefined) return null;
  const flagged = view.clock.seats.some((c) => c.seat !== me && c.awaited && c.deadline && new Date(c.deadline).getTime() <= Date.now());
  if (!flagged) return null;
  return h('button', { type: 'button', class: 'primary', id: 'claim-btn', onclick: () => send('claim', {}) }, 'Claim: their time ran out');
}

// The lobby's fields: value() is the request's time_control (null: none).
export function timeControlFields() {
  const on = h('input', { id: 'tc-on', type: 'checkbox' });
  const num = (id, value, min, max) => h('input', { id, type: 'number', inputmode: 'numeric', value, min, max, step: 1 });
  const per = num('tc-days', 3, 1, 60);
  const inc = num('tc-inc', 1, 0, 30);
  const bank = num('tc-bank', 10, 1, 365);
  const weekends = h('input', { id: 'tc-weekends', type: 'checkbox' });
  const more = h('div', { class: 'field-pair', hidden: true },
    h('div', { class: 'field' }, h('label', { for: 'tc-days' }, 'Days per move'), per),
    h('div', { class: 'field' }, h('label', { for: 'tc-inc' }, 'Days added per move'), inc),
    h('div', { class: 'field' }, h('label', { for: 'tc-bank' }, 'At most (days)'), bank),
    h('div', { class: 'field-check' }, weekends, h('label', { for: 'tc-weekends' }, 'Weekends not counted')));
  on.addEventListener('change', () => { more.hidden = !on.checked; });
  const node = h('fieldset', { class: 'options time-control' }, h('legend', {}, 'Time control'),
    h('div', { class: 'field-check' }, on, h('label', { for: 'tc-on' }, 'Limit the time per move')),
    h('p', { class: 'hint' }, 'When a player runs out of time, the opponent may claim the win. Vacation days pause the clock.'),
    more);
  const value = () => (on.checked ? {
    days_per_move: parseInt(per.value, 10), increment_days: parseInt(inc.value, 10),
    max_bank_days: Math.max(parseInt(bank.value, 10), parseInt(per.value, 10)), skip_weekends: weekends.checked,
  } : null);
  return { node, value };
}

// A line of "my matches": the time left to move, or a claim to make.
export function myGameClock(g) {
  if (g.can_claim) return h('span', { class: 'tag tag-you' }, 'Opponent out of time');
  if (g.deadline) { tickClocks(); return deadlineTag(g.deadline); }
  return null;
}

// The vacation box of "my matches".
export function vacationBox() {
  const box = h('section', { class: 'card vacation', 'aria-labelledby': 'vacation-h' });
  async function load(note) {
    try {
      const v = (await get('/api/me/vacation')).body;
      const days = h('input', { id: 'vacation-days', type: 'number', min: 1, max: Math.max(v.balance_days, 1), value: 1, step: 1 });
      const msg = h('div', { 'aria-live': 'polite' }, note || null);
      const form = v.on_vacation_until || !v.balance_days ? null : h('form', {
        class: 'row',
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            await post('/api/me/vacation', { days: parseInt(days.value, 10) });
            load();
          } catch (err) { clear(msg, errorBox(err)); }
        },
      }, h('label', { for: 'vacation-days' }, 'Days'), days, h('button', { type: 'submit', id: 'vacation-btn' }, 'Start a vacation'));
      clear(box, h('h2', { id: 'vacation-h' }, 'Vacation'),
        h('p', {}, v.on_vacation_until ? `On vacation until ${when(v.on_vacation_until)}: your clocks are stopped.`
          : `You have ${v.balance_days} vacation day${v.balance_days === 1 ? '' : 's'} (one more every ${v.earn_every_days} days, at most ${v.max_days}). A vacation stops the clocks of all your matches.`),
        form, msg);
    } catch (err) {
      clear(box, errorBox(err, () => load()));
    }
  }
  load();
  return box;
}
