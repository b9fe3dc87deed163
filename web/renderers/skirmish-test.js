// Skirmish, the test ruleset (tests/testrules/tr.c): a Chief and two Scouts
// per seat, one Scout secretly a Decoy (its owner sees the flag). Also the
// smallest example of a ruleset renderer: pieces, a panel, event phrases
// and a standing-orders form; everything else comes from generic.js.

import { genericPieces } from './generic.js';
import { h } from '../ui.js';
import { seatName } from '../words.js';

const GLYPH = { chief: 'C', scout: 'S' };
const SHAPE = { chief: 'king', scout: 'knight' };
const ORDER = { ask: 'Ask me each time', always: 'Always dodge', never: 'Never dodge' };

export default {
  id: 'skirmish-test',
  pieces(view) {
    return genericPieces(view).map((p) => ({
      ...p,
      glyph: GLYPH[p.raw.kind] || p.glyph,
      shape: SHAPE[p.raw.kind] || null,
      badges: p.raw.decoy ? ['dec'] : [],
    }));
  },
  terrain: () => [],
  legend: () => [['dec', 'your Decoy: the other player cannot tell it from a Scout']],
  optionWords: { turn_limit: { label: 'Turn limit', hint: 'The match is drawn after this many turns.' } },
  panel(view) {
    const s = view.state;
    const out = view.seats.filter((x) => s.out & (1 << x.seat)).map((x) => seatName(view, x.seat));
    return h('dl', { class: 'state-facts' },
      h('dt', {}, 'Turn'), h('dd', {}, `${s.turn} of ${view.options?.turn_limit ?? 30}`),
      out.length ? [h('dt', {}, 'Out'), h('dd', {}, out.join(', '))] : null,
      s.orders ? [h('dt', {}, 'If attacked'), h('dd', {}, ORDER[s.orders] || s.orders)] : null);
  },
  flipped(view) {
    return view.you === 1;
  },
  event(e, view) {
    if (e.type === 'awaiting_dodge') return `${seatName(view, e.seat)} must decide whether to dodge`;
    if (e.type === 'removed') return `the piece on ${e.square} is removed${e.decoy ? ': it was a decoy' : ''}`;
    if (e.type === 'seat_out') return `${seatName(view, e.seat)} is out`;
    return null;
  },
  // Standing orders: when my piece is attacked, dodge always, never, or ask me.
  orders(view, send) {
    const current = view.state?.orders;
    if (!current) return null;
    const sel = h('select', { id: 'orders-dodge' },
      Object.entries(ORDER).map(([v, text]) => h('option', { value: v, selected: v === current }, text)));
    return h('form', {
      class: 'orders-form',
      onsubmit: (e) => { e.preventDefault(); send({ dodge: sel.value }); },
    }, h('label', { for: 'orders-dodge' }, 'When one of my pieces is attacked:'), sel,
    h('button', { type: 'submit' }, 'Save orders'));
  },
};
