// The lobby: pick a ruleset, its options (a form generated from the
// ruleset's options map) and the seats; create the match; hand out the
// invitation links.

import { token, saveInvites, inviteLink, oncePoster } from '../api.js';
import { h, clear, errorBox, copyField, setTitle } from '../ui.js';
import { rulesets } from './rulesets.js';
import { signInForms } from './identity.js';
import { words, seatColour } from '../words.js';
import { rendererFor } from '../renderers/registry.js';
import { timeControlFields } from '../clock.js';
import { spectatorFields, watchList } from '../watch.js';
import { computerCard } from './new-computer.js';

// An option in words: the renderer's `optionWords` when it has them, else
// the name in words and the server's description without its citations.
function cleanHint(text) {
  return String(text || '').replace(/\s*\(?[^()]*RULINGS\.md[^()]*\)?/g, '').replace(/\s*\([IVX]+\.[^)]*\)/g, '').trim();
}
export function optionLabel(renderer, name, spec) {
  const w = renderer?.optionWords?.[name] || {};
  const label = w.label || (words(name)[0] || '').toUpperCase() + words(name).slice(1);
  return { label, hint: w.hint ?? cleanHint(spec?.description), value: (v) => optionValue(w, v) };
}

// A value in words, never a raw key or "[object Object]": the renderer's
// words (a map or a function), else yes/no, a list, the names of an
// object's entries, or the value in words.
function optionValue(w, v) {
  if (typeof w.values === 'function') return w.values(v);
  if (w.values && w.values[v] !== undefined) return w.values[v];
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? v.join(', ') : `${v.length} item${v.length === 1 ? '' : 's'}`;
  if (v && typeof v === 'object') return Object.keys(v).join(', ');
  return words(String(v ?? ''));
}

const isEmpty = (v) => v === '' || v === null || v === undefined
  || (Array.isArray(v) && !v.length) || (typeof v === 'object' && !Array.isArray(v) && !Object.keys(v).length);

// The options of a match in words, defaults included ("Army points: 15");
// an empty one, or one that does not apply (the renderer's `when`), is
// left out.
export function optionLines(spec, options, renderer) {
  const all = Object.fromEntries(Object.entries(spec?.options || {}).map(([n, o]) => [n, options[n] !== undefined ? options[n] : o.default]));
  return Object.entries(spec?.options || {}).map(([name, o]) => {
    const v = all[name];
    const when = renderer?.optionWords?.[name]?.when;
    if (isEmpty(v) || (typeof when === 'function' && !when(all))) return null;
    const text = optionLabel(renderer, name, o).value(v);
    return text ? `${optionLabel(renderer, name, o).label}: ${text}` : null;
  }).filter(Boolean);
}

// The opening of a page that needs a player and the rulesets (this one,
// pages/challenges.js): the sign-in form, or the rulesets; null when the
// page shows the sign-in or an error instead.
export async function signedInRulesets(main, title, again) {
  setTitle(title);
  if (!token()) {
    clear(main, h('h1', {}, title), h('p', {}, 'First, choose the name you play under.'),
      signInForms(again));
    return null;
  }
  clear(main, h('h1', {}, title), h('p', {}, 'Loading the rulesets…'));
  try {
    return await rulesets();
  } catch (err) {
    clear(main, h('h1', {}, title), errorBox(err, again));
    return null;
  }
}

export async function show(main) {
  const list = await signedInRulesets(main, 'New match', () => show(main));
  if (!list) return null;
  if (!list.length) {
    clear(main, h('h1', {}, 'New match'), h('p', {}, 'This server offers no ruleset yet.'));
    return null;
  }
  return showForm(main, list);
}

// The ruleset, seats, options and time control of a new match, as the
// lobby and a posted challenge (pages/challenges.js) ask for them:
// options() the options chosen (throws when one does not read), ready()
// fills the form for the first ruleset.
export function matchFields(list) {
  const rsSelect = h('select', { id: 'ruleset', name: 'ruleset' },
    list.map((r) => h('option', { value: r.id }, r.title)));
  const seatsSelect = h('select', { id: 'seats', name: 'seats' });
  const seatSelect = h('select', { id: 'seat', name: 'seat' });
  const optionsBox = h('fieldset', { class: 'options' });
  let fields = [];
  const timeControl = timeControlFields();

  function current() { return list.find((r) => r.id === rsSelect.value); }

  function fillSeats() {
    const r = current();
    const keep = Number(seatsSelect.value) || r.min_seats;
    seatsSelect.replaceChildren(...Array.from({ length: r.max_seats - r.min_seats + 1 }, (_, i) => {
      const n = r.min_seats + i;
      return h('option', { value: n, selected: n === keep }, `${n} players`);
    }));
    fillSeat();
  }
  function fillSeat() {
    const n = Number(seatsSelect.value);
    const keep = Math.min(Number(seatSelect.value) || 0, n - 1);
    seatSelect.replaceChildren(...Array.from({ length: n }, (_, i) =>
      h('option', { value: i, selected: i === keep }, seatColour(i))));
  }
  let renderer = null;
  async function fillOptions() {
    const r = current();
    renderer = await rendererFor(r.id);
    if (r !== current()) return;
    fields = [];
    const opts = Object.entries(r.options || {});
    clear(optionsBox, h('legend', {}, 'Options'));
    if (!opts.length) optionsBox.append(h('p', {}, 'This ruleset has no options.'));
    const shown = [];
    for (const [name, spec] of opts) {
      const id = `opt-${name}`;
      let input;
      const type = spec.type || (spec.enum ? 'string' : typeof spec.default);
      const words = optionLabel(renderer, name, spec);
      // A renderer may give its own input (terrain picked on a board).
      const custom = renderer?.optionInput ? renderer.optionInput(name, spec, { id, values: () => Object.fromEntries(fields.map(([n, f]) => { try { return [n, f()]; } catch { return [n, null]; } })) }) : null;
      if (custom) {
        fields.push([name, custom.value]);
        const box = h('div', { class: 'field', 'data-option': name }, h('p', { class: 'label' }, words.label), words.hint ? h('p', { class: 'hint' }, words.hint) : null, custom.node);
        optionsBox.append(box);
        // `hidden`: set with another option's input (ChessWar's Hills with its Forest).
        if (custom.hidden) box.hidden = true;
        else shown.push([box, custom.when]);
        continue;
      }
      if (Array.isArray(spec.enum)) {
        input = h('select', { id }, spec.enum.map((v) => h('option', { value: JSON.stringify(v), selected: v === spec.default }, words.value(v))));
        fields.push([name, () => JSON.parse(input.value)]);
      } else if (type === 'boolean') {
        input = h('input', { id, type: 'checkbox', checked: !!spec.default });
        fields.push([name, () => input.checked]);
      } else if (type === 'integer' || type === 'number') {
        input = h('input', {
          id, type: 'number', inputmode: 'numeric', value: spec.default ?? '',
          min: spec.minimum, max: spec.maximum, step: type === 'integer' ? 1 : 'any', required: true,
        });
        fields.push([name, () => (type === 'integer' ? parseInt(input.value, 10) : Number(input.value))]);
      } else if (type === 'string') {
        input = h('input', { id, type: 'text', value: spec.default ?? '' });
        fields.push([name, () => input.value]);
      } else {
        input = h('textarea', { id, rows: 3 }, JSON.stringify(spec.default ?? null));
        fields.push([name, () => JSON.parse(input.value)]);
      }
      const range = spec.minimum !== undefined || spec.maximum !== undefined
        ? ` (${spec.minimum ?? '…'} to ${spec.maximum ?? '…'})` : '';
      const hint = `${words.hint || ''}${range}`.trim();
      const hintId = `${id}-hint`;
      if (hint) input.setAttribute('aria-describedby', hintId);
      input.addEventListener('change', () => relevance());
      // A checkbox before its label, the hint under both.
      const box = type === 'boolean'
        ? h('div', { class: 'field', 'data-option': name },
          h('div', { class: 'field-check' }, input, h('label', { for: id }, words.label)),
          hint ? h('p', { class: 'hint', id: hintId }, hint) : null)
        : h('div', { class: 'field', 'data-option': name },
          h('label', { for: id }, words.label), input,
          hint ? h('p', { class: 'hint', id: hintId }, hint) : null);
      optionsBox.append(box);
      shown.push([box, renderer?.optionWords?.[name]?.when]);
    }
    // Options that matter only with another (terrain areas with given
    // terrain) are hidden otherwise.
    function relevance() {
      const values = Object.fromEntries(fields.map(([n, f]) => { try { return [n, f()]; } catch { return [n, null]; } }));
      for (const [box, when] of shown) box.hidden = typeof when === 'function' ? !when(values) : false;
    }
    relevance();
  }
  rsSelect.addEventListener('change', () => { seatsSelect.value = ''; fillSeats(); fillOptions(); });
  seatsSelect.addEventListener('change', fillSeat);
  return {
    rsSelect, seatsSelect, seatSelect, optionsBox, timeControl,
    nodes: [
      h('div', { class: 'field' }, h('label', { for: 'ruleset' }, 'Ruleset'), rsSelect),
      h('div', { class: 'field-pair' },
        h('div', { class: 'field' }, h('label', { for: 'seats' }, 'Players'), seatsSelect),
        h('div', { class: 'field' }, h('label', { for: 'seat' }, 'Your seat'), seatSelect)),
      optionsBox,
      timeControl.node],
    options: () => Object.fromEntries(fields.map(([n, f]) => [n, f()])),
    ready: async () => { fillSeats(); await fillOptions(); },
  };
}

async function showForm(main, list) {
  const setup = matchFields(list);
  const { rsSelect, seatsSelect, seatSelect, timeControl } = setup;
  const msg = h('div', { 'aria-live': 'polite' });
  const result = h('div', { 'aria-live': 'polite' });
  const watchers = spectatorFields();
  const rated = h('input', { id: 'rated', type: 'checkbox' });   // issue 28
  const creating = oncePoster('/api/games');

  const form = h('form', {
    class: 'card lobby',
    onsubmit: async (e) => {
      e.preventDefault();
      msg.replaceChildren();
      let options;
      try {
        options = setup.options();
      } catch {
        msg.append(errorBox({ sentence: 'An option is not in the expected form.' }));
        return;
      }
      const btn = form.querySelector('button[type=submit]');
      btn.disabled = true;
      try {
        const r = await creating.post({
          ruleset: rsSelect.value, options, seats: Number(seatsSelect.value),
          seat: Number(seatSelect.value), client_seed: creating.seed, time_control: timeControl.value(),
          ...watchers.value(), rated: rated.checked,
        });
        saveInvites(r.body.id, r.body.invitations);
        showCreated(r.body, watchers.value());
      } catch (err) {
        msg.append(errorBox(err));
      } finally {
        btn.disabled = false;
      }
    },
  },
  setup.nodes,
  watchers.node,
  h('div', { class: 'field' }, h('div', { class: 'field-check' }, rated, h('label', { for: 'rated' }, 'Rated')),
    h('p', { class: 'hint' }, 'The result changes both players\u2019 ratings for this ruleset (see the leaderboards).')),
  h('button', { type: 'submit', class: 'primary' }, 'Create the match'),
  msg);

  function showCreated(body, sent) {
    clear(result, h('section', { class: 'card created', 'aria-labelledby': 'created-h' },
      h('h2', { id: 'created-h', tabindex: '-1' }, `Match #${body.id} is created`),
      h('p', {}, body.invitations.length > 1
        ? 'Send each link to one player. The match starts when every seat is taken.'
        : 'Send this link to your opponent. The match starts when they join.'),
      body.invitations.map((inv) => copyField(`Invitation for ${seatColour(inv.seat)}`, inviteLink(body.id, inv.code), `invite-${inv.seat}`)),
      sent.spectators === 'private' ? null
        : copyField('Link for spectators (they can only watch)', `${location.origin}/#/match/${body.id}`, 'spectator-link'),
      h('p', {}, h('a', { class: 'button primary', href: `#/match/${body.id}` }, 'Open the match'))));
    result.querySelector('h2').focus();
  }

  clear(main, h('h1', {}, 'New match'), computerCard(list), form, result, watchList(),
    h('p', {}, h('a', { href: '#/notifications' }, 'Notifications: webhooks and e-mail'), ' — be told when it is your turn.'));
  await setup.ready();
  return null;
}
