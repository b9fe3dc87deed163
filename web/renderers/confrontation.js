// Confrontation (rules/confrontation/README.md, "View" and "Events").
// The board is `board` [{seat, id, type, square}]; each seat's army in
// `seats[].pieces` adds status, Strength tokens, treasure and spells
// (hidden ones are null). Terrain is `terrain` [{square, type}]; a battle
// under way and a risen or swift piece are marked.

import { h } from '../ui.js';
import { seatName, words, diceText } from '../words.js';

const GLYPH = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };
const TERRAIN = { barrier: 'Ba', counterspell: 'Cs', enhancement: 'En', rough: 'Ro' };
const YESNO = { ask: 'Ask me', always: 'Always', never: 'Never' };
const LUCK = { ...YESNO, if_losing: 'If losing', unless_winning: 'Unless winning' };
const ORDERS = [
  ['hold_the_line', 'Hold the Line (Dwarves)', YESNO],
  ['luck', 'Luck re-roll (Humans)', LUCK],
  ['live_again', 'Live Again (Undead)', YESNO],
];

function army(view, seat) {
  const s = (view.state?.seats || []).find((x) => x.seat === seat);
  return Array.isArray(s?.pieces) ? s.pieces : [];
}

// A piece reference {seat, id, type} in words.
function ref(view, p) {
  if (!p || typeof p !== 'object') return 'a piece';
  return `${seatName(view, p.seat)} ${words(p.type || 'piece')}`;
}

export default {
  id: 'confrontation',

  pieces(view) {
    return (view.state?.board || []).map((b) => {
      const full = army(view, b.seat).find((p) => p.id === b.id) || {};
      const badges = [];
      const extra = [];
      if (full.strength_tokens) { badges.push(`S${full.strength_tokens}`); extra.push(`${full.strength_tokens} Strength token${full.strength_tokens > 1 ? 's' : ''}`); }
      if (full.spell_count) {
        badges.push(`M${full.spell_count}`);
        extra.push(Array.isArray(full.spells) ? `spells ${full.spells.join(', ')}` : `${full.spell_count} spell${full.spell_count > 1 ? 's' : ''}`);
      }
      if (full.treasure) { badges.push(`T${full.treasure}`); extra.push(`${full.treasure} treasure`); }
      return {
        square: b.square, seat: b.seat, glyph: GLYPH[b.type] || (b.type || '?')[0].toUpperCase(), badges,
        label: `${ref(view, b)}${extra.length ? ` (${extra.join(', ')})` : ''}`,
      };
    });
  },

  terrain(view) {
    const s = view.state || {};
    const out = (s.terrain || []).map((t) => ({ square: t.square, kind: t.type, glyph: TERRAIN[t.type] || t.type.slice(0, 2), label: `${words(t.type)} terrain` }));
    if (s.battle?.at) out.push({ square: s.battle.at, kind: 'battle', glyph: '', label: 'battle' });
    if (s.turn_state?.risen) out.push({ square: s.turn_state.risen, kind: 'risen', glyph: '', label: 'risen from Hell: must move or stay' });
    if (s.turn_state?.swift_offer) out.push({ square: s.turn_state.swift_offer, kind: 'swift', glyph: '', label: 'may make a Swift move' });
    return out;
  },

  panel(view) {
    const s = view.state;
    const rows = [['Phase', words(s.phase)]];
    if (s.turn) rows.push(['Turn', String(s.turn)]);
    if (Number.isInteger(s.active)) rows.push(['Active', seatName(view, s.active)]);
    if (s.turn_state) rows.push(['Actions taken', `${s.turn_state.actions_taken} of 2`]);
    if (s.battle) {
      const b = s.battle;
      const dice = Number.isInteger(b.attacker_die) ? `: ${diceText([b.attacker_die])} against ${diceText([b.defender_die])}` : '';
      rows.push(['Battle', `${ref(view, b.attacker)} against ${ref(view, b.defender)} at ${b.at} (${words(b.stage)})${dice}`]);
    }
    for (const x of s.seats || []) {
      const bits = [];
      if (x.out) bits.push('out');
      if (s.phase === 'build') bits.push(x.ready ? 'ready' : 'building');
      if (x.race) bits.push(words(x.race));
      if (Number.isInteger(x.racial_tokens)) bits.push(`${x.racial_tokens} racial token${x.racial_tokens === 1 ? '' : 's'}`);
      if (s.phase === 'build' && Number.isInteger(x.points_left)) bits.push(`${x.points_left} points left`);
      if (Array.isArray(x.pieces)) {
        const off = x.pieces.filter((p) => p.status === 'removed' || p.status === 'gone').length;
        if (off) bits.push(`${off} removed`);
      }
      rows.push([seatName(view, x.seat), bits.join(', ') || '—']);
    }
    return h('dl', { class: 'state-facts' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
  },

  flipped(view) {
    return view.you === 1;
  },

  action(a, view) {
    const mine = army(view, view.you);
    const pieceWord = (id) => {
      const p = mine.find((x) => x.id === id);
      return p ? words(p.type) : `piece ${id}`;
    };
    switch (a.type) {
      case 'buy': return `buy a ${words(a.piece)}`;
      case 'add_spell': return `give ${words(a.spell)} to the ${pieceWord(a.piece)} (#${a.piece})`;
      case 'race': return `race: ${words(a.race)}`;
      case 'buy_racial': return 'buy one more racial use';
      case 'king_spell': return `King's spell: ${words(a.spell)}`;
      case 'reset': return 'start the army again';
      case 'ready': return 'ready';
      case 'order': return `play ${a.choice}`;
      case 'place': return `place the ${pieceWord(a.piece)} on ${a.square}`;
      case 'move': return `move ${a.from}→${a.to}`;
      case 'cast': return `cast ${words(a.spell)} from ${a.from}${a.target ? ` at ${a.target}` : ''}${a.revive ? `, reviving a ${words(a.revive)} on ${a.square}` : ''}`;
      case 'rise': return `rise from Hell ${a.from}→${a.to}`;
      case 'stay': return 'stay';
      case 'leadership': return `Leadership: ${a.a} and ${a.b}`;
      case 'swift': return `Swift move ${a.from}→${a.to}`;
      case 'fury': return `Battle Fury ${a.from}→${a.to}`;
      case 'end_turn': return 'end the turn';
      case 'hold_the_line': return a.use ? 'Hold the Line: spend a token (+2)' : 'Hold the Line: no';
      case 'luck': return a.use ? 'Luck: re-roll' : 'Luck: keep the roll';
      case 'live_again': return a.use ? `Live Again on ${a.square}` : 'Live Again: no';
      case 'panic_square': return `run to ${a.square}`;
      default: return null;
    }
  },

  event(e, view) {
    const R = (p) => ref(view, p);
    switch (e.type) {
      case 'army_ready': return `${seatName(view, e.seat)} is ready`;
      case 'armies_revealed': return 'The armies are revealed';
      case 'setup_roll': return `${seatName(view, e.seat)} rolls ${diceText([e.die])} for set-up (round ${e.round})`;
      case 'phase': return `Phase: ${words(e.phase)}`;
      case 'order_chosen': return `${seatName(view, e.seat)} chooses to play ${e.choice}`;
      case 'placed': return `${R(e.piece)} placed on ${e.square}`;
      case 'turn': return `Turn ${e.turn}: ${seatName(view, e.seat)}`;
      case 'turn_end': return `${seatName(view, e.seat)} ends the turn`;
      case 'move': case 'swift_move': case 'fury_move':
        return `${R(e.piece)} ${e.type === 'move' ? 'moves' : e.type === 'swift_move' ? 'makes a Swift move' : 'moves in Battle Fury'} ${e.from}→${e.to}`;
      case 'cast': return `${R(e.piece)} casts ${words(e.spell)}${e.target ? ` at ${e.target}` : ''}`;
      case 'battle': return `Battle: ${R(e.attacker)} against ${R(e.defender)} at ${e.at}${e.spell ? ` (${words(e.spell)})` : ''}`;
      case 'dice': return `Dice: attacker ${diceText([e.attacker])}, defender ${diceText([e.defender])}`;
      case 'luck': return `${R(e.piece)} uses Luck: ${diceText([e.die_before])} re-rolled to ${diceText([e.reroll])}`;
      case 'battle_result': {
        const side = (x) => (x && typeof x === 'object' ? `${x.total}` : '?');
        const effect = e.effect === 'none' ? ': the spell has no effect' : '';
        return `Battle result: ${side(e.attacker)} against ${side(e.defender)}: ${words(e.outcome || '')}${effect}`;
      }
      case 'treasure_roll': return `${R(e.piece)} rolls ${diceText([e.die])} for treasure${e.found ? ': found!' : ''}`;
      case 'removed': return `${R(e.piece)} is removed`;
      case 'advance': return `${R(e.piece)} advances`;
      case 'seat_out': return `${seatName(view, e.seat)} is out${e.reason ? ` (${words(e.reason)})` : ''}`;
      case 'resigned': return `${seatName(view, e.seat)} resigns`;
      case 'game_over': return `The match is over: ${e.reason}`;
      default: return null;
    }
  },

  // Standing orders: three racial questions answered ahead of time.
  orders(view, send) {
    const me = (view.state?.seats || []).find((x) => x.seat === view.you);
    const cur = me?.standing_orders;
    if (!cur) return null;
    const selects = ORDERS.map(([key, label, choices]) => [key, label, h('select', { id: `orders-${key}` },
      Object.entries(choices).map(([v, text]) => h('option', { value: v, selected: v === cur[key] }, text)))]);
    return h('form', {
      onsubmit: (e) => { e.preventDefault(); send(Object.fromEntries(selects.map(([k, , s]) => [k, s.value]))); },
    }, selects.map(([key, label, s]) => h('div', { class: 'field' }, h('label', { for: `orders-${key}` }, label), s)),
    h('button', { type: 'submit' }, 'Save orders'));
  },
};
