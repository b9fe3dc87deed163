// Confrontation (rules/confrontation/README.md, "View" and "Events").
// The board is `board` [{seat, id, type, square}]; each seat's army in
// `seats[].pieces` adds status, Strength tokens, treasure and spells
// (hidden ones are null). Terrain is `terrain` [{square, type}]; a battle
// under way and a risen or swift piece are marked.

import { h, clear } from '../ui.js';
import { seatName, words, diceText, plural } from '../words.js';
import { countRow, count, selectField, setupForm, placementsAfter } from './setup-form.js';
import { squarePicker } from './square-picker.js';
import { outcomeSummary } from './outcome.js';

// Events that say what happened in a post (the heading names them with the dice).
const OUTCOMES = new Set(['dice', 'luck', 'battle_result', 'treasure_roll', 'removed']);

// Prices (II, VI; RULINGS.md R1). The view does not carry them yet: the
// ruleset should add `prices` to its view (see web/README.md); until then
// they are copied here, and the form reads the view's when it has them.
const PRICES = { queen: 6, rook: 3, bishop: 4, knight: 3, pawn: 1, extra_spell: 1, racial_use: 1, king_spell: 2 };
const MAX_PIECES = 16;
const SPELLS = {
  fireball: 'Fireball: a battle at range 6 (Combat 3)',
  heal: 'Heal: bring back a removed Pawn, Rook or Knight',
  hurt: 'Hurt: a battle at range 3 (Combat 4)',
  judgement: 'Judgement: a battle with every adjacent enemy (Combat 2)',
  panic: 'Panic: the target runs to its nearest rank (range 4)',
};
const RACES = {
  demons: 'Demons: Rise From Hell (teleport before a move)',
  dwarves: 'Dwarves: Hold the Line (+2 when defending)',
  elves: 'Elves: Swift Movement (a second move)',
  humans: 'Humans: Luck (re-roll a die)',
  orcs: 'Orcs: Battle Fury (two more attacks after a win)',
  undead: 'Undead: Live Again (a lost piece returns)',
};
const BUYABLE = ['queen', 'rook', 'bishop', 'knight', 'pawn'];
// The racial ability a standing order answers.
const ORDER_RACE = { hold_the_line: 'dwarves', luck: 'humans', live_again: 'undead' };

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

const TERRAIN_WORDS = {
  barrier: 'Barrier (impassable)', counterspell: 'Counterspell (no spells)', enhancement: 'Enhancement (+1 defending)', rough: 'Rough (costs two)',
};

// The terrain areas of the option `terrain_areas`, picked on a board:
// choose a kind, click squares; joined squares of one kind are an area.
function terrainPicker(id) {
  const kinds = Object.fromEntries(Object.entries(TERRAIN_WORDS).map(([k, t]) => [k, { text: t, glyph: TERRAIN[k] }]));
  function areas(marks) {
    const seen = new Set();
    const out = [];
    for (const [sq, kind] of marks) {
      if (seen.has(sq)) continue;
      const area = [];
      const todo = [sq];
      seen.add(sq);
      while (todo.length) {
        const x = todo.pop();
        area.push(x);
        const f = x.charCodeAt(0); const r = Number(x[1]);
        for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const n = String.fromCharCode(f + df) + (r + dr);
          if (marks.get(n) === kind && !seen.has(n)) { seen.add(n); todo.push(n); }
        }
      }
      out.push({ type: kind, squares: area.sort() });
    }
    return out;
  }
  const picker = squarePicker({
    id, label: 'Terrain board', kinds,
    describe: (marks) => {
      const a = areas(marks);
      const bad = a.filter((x) => x.squares.length !== 4 && x.squares.length !== 8);
      return a.length
        ? `${a.length} area${a.length === 1 ? '' : 's'}: ${a.map((x) => `${words(x.type)} (${x.squares.length} squares)`).join(', ')}.${bad.length ? ' Each area needs 4 or 8 joined squares.' : ''}`
        : 'No terrain yet: choose a kind, then click squares (each area is 4 or 8 joined squares).';
    },
  });
  return { node: picker.node, value: () => areas(picker.marks), when: (v) => v.terrain === 'given' };
}

const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);

const SELF = {
  id: 'confrontation',

  // A post's heading with its dice and results (outcome.js).
  summary(post, view) {
    return outcomeSummary(post, view, { action: (a, v) => SELF.action(a, v), event: (e, v) => SELF.event(e, v), outcomes: OUTCOMES });
  },

  optionWords: {
    army_points: { label: 'Army points', hint: 'Points each player spends on an army.' },
    races: { label: 'Races', hint: 'Each army picks a race with a special ability.' },
    treasure: { label: 'Treasure', hint: 'A 6 after defeating a Knight, Bishop or Queen finds treasure (+1 in battles).' },
    kings_magic: { label: "King's Magic", hint: 'A King may buy one spell for 2 points.' },
    terrain: { label: 'Terrain', hint: '', values: { none: 'None', random: 'Drawn at random by the server', given: 'Chosen on a board' } },
    terrain_areas: { label: 'Terrain areas', hint: 'Pick the squares on the board.', when: (v) => v.terrain === 'given', values: (v) => `${plural(v.length, 'area')}: ${v.map((x) => `${words(x.type)} (${x.squares.join(' ')})`).join(', ')}` },
    random_areas: { label: 'Random terrain areas', hint: 'How many areas the server draws.', when: (v) => v.terrain === 'random' },
  },

  optionInput(name, spec, ctx) {
    return name === 'terrain_areas' ? terrainPicker(ctx.id) : null;
  },

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
    if (s.battle?.at) out.push({ square: s.battle.at, kind: 'battle', glyph: '', label: 'battle', transient: true });
    if (s.turn_state?.risen) out.push({ square: s.turn_state.risen, kind: 'risen', glyph: '', label: 'risen from Hell: must move or stay', transient: true });
    if (s.turn_state?.swift_offer) out.push({ square: s.turn_state.swift_offer, kind: 'swift', glyph: '', label: 'may make a Swift move', transient: true });
    return out;
  },

  panel(view) {
    const s = view.state;
    const rows = [['Phase', view.status === 'over' ? 'over' : words(s.phase)]];
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
      if (Number.isInteger(x.racial_tokens) && s.options?.races) bits.push(plural(x.racial_tokens, 'racial token'));
      if (s.phase === 'build' && Number.isInteger(x.points_left)) bits.push(`${plural(x.points_left, 'point')} left`);
      if (Array.isArray(x.pieces)) {
        const off = x.pieces.filter((p) => p.status === 'removed' || p.status === 'gone').length;
        if (off) bits.push(`${off} removed`);
      }
      rows.push([seatName(view, x.seat), bits.join(', ') || '—']);
    }
    // The badges on the board said where they are seen, not only in the
    // folded legend (issue 30 item 8: "S1" unexplained).
    const all = (s.seats || []).flatMap((x) => (Array.isArray(x.pieces) ? x.pieces : []));
    if (all.some((p) => p?.strength_tokens)) rows.push(['S1, S2 on a piece', 'Strength tokens: it survives that many lost battles']);
    if (all.some((p) => p?.spell_count)) rows.push(['M1, M2 on a piece', 'spells it still holds']);
    if (all.some((p) => p?.treasure)) rows.push(['T1 on a piece', 'treasure: +1 in battles']);
    return h('dl', { class: 'state-facts' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
  },

  flipped(view) {
    return view.you === 1;
  },

  // While another seat plays, the banner says who and what (issue 30
  // item 3); my own prompts are the server's, written to me.
  prompt(view) {
    const pend = Array.isArray(view.state?.pending) ? view.state.pending : [];
    if (view.status !== 'active' || !pend.length || pend.some((p) => p.seat === view.you)) return null;
    return pend.map((p) => `${seatName(view, p.seat)} is to play: ${p.prompt || words(p.kind)}.`).join(' ');
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
      case 'leadership': return `Leadership: swap ${a.a} and ${a.b}`;
      case 'swift': return `Swift move ${a.from}→${a.to}`;
      case 'fury': return `Battle Fury ${a.from}→${a.to}`;
      case 'end_turn': return 'end the turn';
      case 'end_fury': return 'Battle Fury: no more moves';
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
      // The build, seen by its own seat only; racial tokens; the rest.
      case 'bought': return `bought a ${words(e.piece)} (${plural(e.points_left, 'point')} left)`;
      case 'spell_added': return `${words(e.spell)} given to piece #${e.id} (${plural(e.points_left, 'point')} left)`;
      case 'king_spell': return `the King takes ${words(e.spell)} (${plural(e.points_left, 'point')} left)`;
      case 'race_chosen': return `race chosen: ${RACES[e.race] || words(e.race)}`;
      case 'racial_bought': return `a racial token bought (${plural(e.racial_tokens, 'token')}, ${plural(e.points_left, 'point')} left)`;
      case 'army_reset': return `the army is started again (${plural(e.points_left, 'point')})`;
      case 'no_room': return `${R(e.piece)} finds no free square in its area and is set aside`;
      case 'swift_movement': return `${R(e.piece)} spends a racial token: Swift Movement`;
      case 'battle_fury': return `${seatName(view, e.seat)} spends a racial token: Battle Fury`;
      case 'rise_from_hell': return `${R(e.piece)} rises from Hell${e.from && e.to ? ` ${e.from}→${e.to}` : ''}`;
      case 'hold_the_line': return `${R(e.piece)} holds the line (+2 defending)`;
      case 'stay': return `${R(e.piece)} stays where it is`;
      case 'leadership': return `Leadership: ${R(e.a)} and ${R(e.b)} change places`;
      case 'healed': return `${R(e.piece)} is healed${e.square ? ` and returns on ${e.square}` : ''}`;
      case 'panic_moved': return `${R(e.piece)} panics and runs ${e.from}→${e.to}`;
      case 'live_again': return `${R(e.piece)} lives again${e.to ? ` on ${e.to}` : ''}`;
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

  // The pieces after the given posts, rebuilt from their events (for the
  // step-through); the page checks it against the board of now.
  position(posts, view) {
    const at = new Map();
    const key = (p) => `${p.seat}:${p.id}`;
    const onto = (sq) => [...at.values()].find((x) => x.square === sq);
    for (const post of posts) {
      for (const e of post.events || []) {
        const p = e.piece;
        switch (e.type) {
          case 'placed': case 'healed': case 'live_again':
            if (p && (e.square || e.to)) at.set(key(p), { ...p, square: e.square || e.to });
            break;
          case 'move': case 'swift_move': case 'fury_move': case 'rise_from_hell': case 'panic_moved': case 'advance': {
            const to = e.to || e.square;
            const there = to ? onto(to) : null;
            if (p && to && (!there || there.seat === p.seat)) at.set(key(p), { ...p, square: to });
            break;
          }
          case 'leadership': {
            const a = at.get(key(e.a)); const b = at.get(key(e.b));
            if (a && b) { const t = a.square; a.square = b.square; b.square = t; }
            break;
          }
          case 'removed': if (p) at.delete(key(p)); break;
          default: break;
        }
      }
    }
    return [...at.values()].map((b) => ({ square: b.square, seat: b.seat, glyph: GLYPH[b.type] || '?', label: ref(view, b) }));
  },

  // Leadership (swap two pieces) is drawn on the board: from one piece to the other.
  actionSquares(a) {
    if (a.type === 'leadership') return { from: a.a, to: a.b };
    const to = ['to', 'target', 'square'].map((k) => a[k]).find((x) => typeof x === 'string' && /^[a-h][1-8]$/.test(x)) || null;
    return { from: typeof a.from === 'string' ? a.from : null, to };
  },

  pinned(view) {
    if (view.state?.phase !== 'play') return [];
    return [{ type: 'end_turn', label: 'End the turn', why: 'You can end the turn once your two actions are taken (or none is left).' }];
  },

  // The set-up: one tray item per unplaced piece, pieces alike in one
  // (the Pawns, issue 30 item 8: "Pawn ×6"); a piece with spells is its own.
  trayItem(a, view) {
    if (a.type !== 'place') return null;
    const mine = army(view, view.you);
    const p = mine.find((x) => x.id === a.piece);
    const type = p ? p.type : 'piece';
    const plain = p && !p.spell_count;
    const count = plain ? mine.filter((x) => x.type === type && !x.spell_count && !x.square).length : 1;
    return { key: plain ? `type:${type}` : String(a.piece), count, label: `${words(type)}${p?.spell_count ? ` (${plural(p.spell_count, 'spell')})` : ''}`, piece: { seat: view.you, glyph: GLYPH[type] || '?', label: `your ${words(type)}` } };
  },

  // Several placements in one post: after some, the rest of the army on
  // the squares still free.
  after(view, legal, draft) {
    const isPlace = (a) => a.type === 'place';
    const left = Object.fromEntries(legal.filter(isPlace).map((a) => [a.piece, 1]));
    return placementsAfter({ legal, draft, left, isPlace, keyOf: (a) => a.piece, squareOf: (a) => a.square });
  },

  legend(view) {
    const rows = [['S1, S2', 'Strength tokens: the piece survives that many lost battles'],
      ['M1, M2', 'spells the Bishop (or King) still holds'], ['T1', 'treasure: +1 in battles per treasure']];
    const t = view.state?.terrain || [];
    if (t.length) rows.push(['Ba, Cs, En, Ro', 'terrain: Barrier, Counterspell, Enhancement (+1), Rough (costs two)']);
    return rows;
  },

  // The army in one form: prices, the running total, the list, what is
  // required; posted as one post of several actions (so the steps of the
  // build stay secret too).
  builder(view, ctx) {
    const s = view.state;
    if (s?.phase !== 'build' || !ctx.actions.some((a) => a.type === 'ready')) return null;
    const me = (s.seats || []).find((x) => x.seat === view.you);
    const prices = { ...PRICES, ...(s.prices || {}) };
    const total = s.options?.army_points ?? 15;
    const inputs = {};
    const rows = BUYABLE.map((type) => {
      const r = countRow({ id: `army-${type}`, label: `${cap(words(type))}${type === 'pawn' ? ' (3 come free)' : ''}`, price: plural(prices[type], 'point'), max: MAX_PIECES, onInput: type === 'bishop' ? renderSpells : null });
      inputs[type] = r.input;
      return r.row;
    });
    const spellsBox = h('div', { class: 'spells' });
    const race = s.options?.races ? selectField({ id: 'army-race', label: 'Race (required)', placeholder: 'Choose a race…', choices: Object.entries(RACES) }) : null;
    const racial = race ? countRow({ id: 'army-racial', label: 'Extra racial uses (3 come free)', price: plural(prices.racial_use, 'point'), max: 10 }) : null;
    const king = s.options?.kings_magic ? selectField({ id: 'army-king-spell', label: `King's spell (${plural(prices.king_spell, 'point')})`, placeholder: 'No spell', choices: Object.entries(SPELLS) }) : null;
    let spellSelects = [];

    function renderSpells() {
      const n = count(inputs.bishop);
      const old = spellSelects.map((x) => x.value);
      spellSelects = [];
      const parts = [];
      for (let b = 0; b < n; b++) {
        for (let k = 0; k < 2; k++) {
          const f = selectField({ id: `army-spell-${b}-${k}`, label: `Bishop ${b + 1}, spell ${k + 1} (free)`, placeholder: 'Choose a spell…', choices: Object.entries(SPELLS), value: old[spellSelects.length] || '' });
          spellSelects.push(f.select);
          parts.push(f.field);
        }
      }
      clear(spellsBox, n ? [h('p', { class: 'hint' }, 'Each Bishop needs two spells; both are free.'), parts] : []);
    }
    const counts = () => Object.fromEntries(BUYABLE.map((t) => [t, count(inputs[t])]));
    const built = setupForm({
      title: 'Build your army',
      hint: `You have ${plural(total, 'point')}. The King and three Pawns come free. Your opponent sees your army only when both are ready.`,
      body: [h('div', { class: 'army-rows' }, rows), spellsBox, race?.field, racial ? h('div', { class: 'army-rows' }, racial.row) : null, king?.field],
      submitLabel: 'Use this army',
      check() {
        const c = counts();
        const spent = BUYABLE.reduce((n, t) => n + c[t] * prices[t], 0) + count(racial?.input) * prices.racial_use
          + (king?.select.value ? prices.king_spell : 0);
        const pieces = 4 + BUYABLE.reduce((n, t) => n + c[t], 0);
        const problems = [];
        if (spent > total) problems.push(`${plural(spent - total, 'point')} over the limit.`);
        if (pieces > MAX_PIECES) problems.push(`At most ${MAX_PIECES} pieces (this army has ${pieces}).`);
        if (spellSelects.some((x) => !x.value)) problems.push('Choose two spells for each Bishop.');
        if (race && !race.select.value) problems.push('Choose a race.');
        const list = ['King', '3 Pawns (free)', ...BUYABLE.filter((t) => c[t]).map((t) => `${c[t]} ${words(t)}${c[t] > 1 ? 's' : ''}`)];
        if (race?.select.value) list.push(words(race.select.value));
        if (king?.select.value) list.push(`King's spell ${words(king.select.value)}`);
        return { problems, total: `${spent} of ${plural(total, 'point')} spent, ${plural(total - spent, 'point')} left · ${pieces} pieces`, list: `Your army: ${list.join(', ')}.` };
      },
      actions() {
        // Bishops first, so their ids (4, 5, …) are known for the spells.
        const c = counts();
        const acts = [];
        const done = (me?.pieces || []).length > 4 || (me && me.points_left !== total) || me?.race;
        if (done && ctx.actions.some((a) => a.type === 'reset')) acts.push({ type: 'reset' });
        let id = 4;
        for (let b = 0; b < c.bishop; b++) {
          acts.push({ type: 'buy', piece: 'bishop' });
          acts.push({ type: 'add_spell', piece: id, spell: spellSelects[b * 2].value });
          acts.push({ type: 'add_spell', piece: id, spell: spellSelects[b * 2 + 1].value });
          id++;
        }
        for (const t of BUYABLE) if (t !== 'bishop') for (let n = 0; n < c[t]; n++) acts.push({ type: 'buy', piece: t });
        if (race) acts.push({ type: 'race', race: race.select.value });
        for (let n = 0; n < count(racial?.input); n++) acts.push({ type: 'buy_racial' });
        if (king?.select.value) acts.push({ type: 'king_spell', spell: king.select.value });
        acts.push({ type: 'ready' });
        return acts;
      },
      submit: ctx.submit,
    });
    built.update();
    return built.form;
  },

  // Standing orders: three racial questions answered ahead of time.
  orders(view, send) {
    const me = (view.state?.seats || []).find((x) => x.seat === view.you);
    const cur = me?.standing_orders;
    if (!cur || !view.state?.options?.races) return null;
    const mineOnly = ORDERS.filter(([key]) => !me.race || ORDER_RACE[key] === me.race);
    if (!mineOnly.length) return null;
    const selects = mineOnly.map(([key, label, choices]) => [key, label, h('select', { id: `orders-${key}` },
      Object.entries(choices).map(([v, text]) => h('option', { value: v, selected: v === cur[key] }, text)))]);
    return h('form', {
      onsubmit: (e) => { e.preventDefault(); send(Object.fromEntries(selects.map(([k, , s]) => [k, s.value]))); },
    }, selects.map(([key, label, s]) => h('div', { class: 'field' }, h('label', { for: `orders-${key}` }, label), s)),
    h('button', { type: 'submit' }, 'Save orders'));
  },
};
export default SELF;
