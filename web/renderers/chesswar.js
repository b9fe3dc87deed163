// ChessWar (rules/chesswar/README.md, "View", "Actions" and "Events").
// Units are `units` [{id, seat, unit, name, piece, status, square, moved,
// charged, shot, attacked, cast, scary, plague, melee: [squares]}]; each
// seat's army in `sides` (hidden to the other seat during the secret
// set-up). Drawn as the chess piece letter on a disc in the seat's colour,
// ringed in the army's colour; the last shot is drawn as a line from the
// firer to where it landed; units in melee are marked.

import { h } from '../ui.js';
import { drawPiece } from '../board.js';
import { drawBadges } from './badges.js';
import { terrainOptions } from './chesswar-options.js';
import { seatName, words, diceText, plural } from '../words.js';
import { countRow, count, selectField, setupForm, placementsAfter } from './setup-form.js';
import { outcomeSummary } from './outcome.js';

// Events that say what happened in a post (the heading names them with the dice).
const OUTCOMES = new Set(['shoot', 'scatter', 'melee_shot', 'save', 'destroyed', 'attack', 'counterspell', 'heal', 'regenerate', 'charge_failed', 'rolloff']);

const ARMY_COLOR = {
  chaos: '#8e24aa', dwarves: '#8d6e63', elfs: '#2e7d32', humans: '#1565c0',
  orcs: '#689f38', ratmen: '#5d4037', undead: '#546e7a',
};
const ORDER = { ask: 'Ask me each time', always: 'Always counter', never: 'Never counter' };
const HEAL = { ask: 'Ask me each time', always: 'Always heal', never: 'Never heal' };
const PROTECT = { ask: 'Ask me each time', always: 'Always protect', never: 'Never protect' };
const DISPEL = { ask: 'Ask me each time', always: 'Always dispel', never: 'Never dispel' };
const FILES = 'abcdefghijklmnop';
// The chess figure each unit stands for (C1: every unit takes a piece's place).
const FIGURE = { K: ['♚', 'king figure'], Q: ['♛', 'queen figure'], R: ['♜', 'rook figure'], B: ['♝', 'bishop figure'], N: ['♞', 'knight figure'], P: ['♟', 'pawn figure'] };
const DONE = { type: 'done' };

// My units still in reserve (bought, not deployed), by unit type.
function reserve(view) {
  const left = {};
  for (const u of view.state?.units || []) if (u.seat === view.you && u.status === 'reserve') left[u.unit] = (left[u.unit] || 0) + 1;
  return left;
}

function side(view, seat) {
  return (view.state?.sides || []).find((s) => s.seat === seat) || {};
}

function unitName(view, ref) {
  if (!ref || typeof ref !== 'object') return 'a unit';
  const army = side(view, ref.seat).army;
  const list = (view.state?.army_lists || []).find((a) => a.army === army);
  const def = list?.units.find((u) => u.unit === ref.unit);
  const name = def ? def.name : words(ref.unit || 'unit');
  return `${seatName(view, ref.seat)} ${name}${ref.square ? ` (${ref.square})` : ''}`;
}

function at(view, sq) {
  const u = (view.state?.units || []).find((x) => x.square === sq && x.status === 'on');
  return u ? `${u.name} on ${sq}` : sq;
}

function xy(sq) {
  return { f: FILES.indexOf(sq[0]), r: Number(sq.slice(1)) - 1 };
}

// A line from the centre of `from` to the centre of `to`, drawn in the
// group of `from` (the board translates each square's group).
function lineDraw(from, to, flipped, kind) {
  return (g, size, svg) => {
    const a = xy(from);
    const b = xy(to);
    const k = flipped ? -1 : 1;
    const dx = (b.f - a.f) * size * k;
    const dy = -(b.r - a.r) * size * k;
    g.append(svg('line', {
      x1: size / 2, y1: size / 2, x2: size / 2 + dx, y2: size / 2 + dy,
      stroke: kind === 'miss' ? '#999' : '#d32f2f', 'stroke-width': 6,
      'stroke-dasharray': kind === 'scatter' || kind === 'miss' ? '14 8' : null,
      'stroke-linecap': 'round', class: `cw-shot cw-shot-${kind}`,
    }));
  };
}

const R = {
  id: 'chesswar',

  // A post's heading with its dice and results (outcome.js).
  summary(post, view) {
    return outcomeSummary(post, view, { action: (a, v) => R.action(a, v), event: (e, v) => R.event(e, v), outcomes: OUTCOMES });
  },
  ...terrainOptions,

  pieces(view) {
    const units = view.state?.units || [];
    return units.filter((u) => u.status === 'on' && u.square).map((u) => {
      const army = side(view, u.seat).army;
      const badges = [];
      const bits = [];
      if (u.melee?.length) { badges.push('M'); bits.push(`in melee with ${u.melee.join(', ')}`); }
      if (u.scary) { badges.push('S'); bits.push('scary'); }
      if (u.plague) bits.push('plague');
      for (const k of ['moved', 'charged', 'shot', 'attacked', 'cast']) if (u[k]) bits.push(k);
      const label = `${seatName(view, u.seat)} ${u.name}${army ? ` (${words(army)})` : ''}${bits.length ? `: ${bits.join(', ')}` : ''}`;
      // The chess figure the unit stands for (its `piece`), as the tray and
      // the draft preview draw it, ringed in its army's colour; "What the
      // marks mean" names the units behind each figure.
      const p = { square: u.square, seat: u.seat, glyph: FIGURE[u.piece] ? u.piece : (u.name || '?')[0], badges, label };
      p.draw = (g, size, svg) => {
        g.append(svg('circle', { class: 'cw-army-ring', cx: size / 2, cy: size / 2, r: 44, fill: 'none', stroke: ARMY_COLOR[army] || '#333', 'stroke-width': 6 }));
        drawPiece(g, { ...p, badges: [] });
        drawBadges(g, size, svg, badges);
      };
      return p;
    });
  },

  legend(view) {
    const s = view.state || {};
    const rows = [];
    for (const [letter, [mark, figure]] of Object.entries(FIGURE)) {
      const names = [];
      for (const x of s.sides || []) {
        const list = (s.army_lists || []).find((l) => l.army === x.army);
        const units = (list?.units || []).filter((u) => u.piece === letter).map((u) => u.name);
        if (units.length) names.push(`${seatName(view, x.seat)} (${list.name}): ${units.join(', ')}`);
      }
      if (names.length) rows.push([`${mark} ${figure}`, names.join('; ')]);
    }
    rows.push(['coloured ring', 'the army the unit belongs to'],
      ['M', 'in melee: fighting an adjacent enemy'], ['S', 'scary: enemies may dare not charge it'],
      ['Fo, Hi', 'Forest (blocks sight, +1 saves against shots) and Hill (sees over units)']);
    return rows;
  },

  terrain(view) {
    const s = view.state || {};
    const out = [];
    for (const sq of s.forest || []) out.push({ square: sq, kind: 'forest', glyph: 'Fo', label: 'forest' });
    for (const sq of s.hills || []) out.push({ square: sq, kind: 'hill', glyph: 'Hi', label: 'hill' });
    const shot = s.last_shot;
    if (shot && shot.from) {
      const flipped = view.you === 1;
      const to = shot.lands || shot.aim;
      const kind = !shot.lands ? 'miss' : shot.lands !== shot.aim ? 'scatter' : 'hit';
      out.push({ square: shot.from, kind: 'shot', label: `fired at ${shot.aim}${shot.lands ? `, landed on ${shot.lands}` : ', missed'}`, draw: lineDraw(shot.from, to, flipped, kind) });
      if (shot.aim !== shot.lands) out.push({ square: shot.aim, kind: 'aim', glyph: '+', label: 'aimed here' });
    }
    return out;
  },

  panel(view) {
    const s = view.state || {};
    const rows = [['Phase', words(s.phase || '')]];
    if (s.round) rows.push(['Round', String(s.round)]);
    if (Number.isInteger(s.turn_seat)) rows.push(['Turn', seatName(view, s.turn_seat)]);
    // three or four armies act one by one in initiative order (the expansion)
    if ((s.order || []).length > 2) rows.push(['Order', s.order.map((x) => seatName(view, x)).join(', ')]);
    for (const p of s.pending || []) rows.push(['Waiting for', `${seatName(view, p.seat)}: ${p.prompt}`]);
    for (const x of s.sides || []) {
      let text;
      if (x.hidden) text = x.set_up ? 'set up (secret)' : 'setting up in secret';
      else if (!x.army) text = 'choosing an army';
      else {
        const bits = [words(x.army)];
        if (s.phase === 'setup') bits.push(`${x.spent} of ${x.points} points`, words(x.stage));
        if (s.phase !== 'setup' && x.general_alive === false) bits.push('general dead');
        if (x.out) bits.push('out: its army is gone');
        text = bits.join(', ');
      }
      rows.push([seatName(view, x.seat), text]);
    }
    for (const f of s.effects || []) rows.push(['In effect', `${words(f.spell)} (${seatName(view, f.seat)}${f.target ? `, on ${f.target}` : ''})`]);
    if (s.last_shot) rows.push(['Last shot', `${s.last_shot.from} at ${s.last_shot.aim}: ${s.last_shot.lands ? `landed on ${s.last_shot.lands}` : 'missed'}`]);
    if (s.phase === 'over') rows.push(['Result', s.reason || '']);
    return h('dl', { class: 'state-facts' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
  },

  flipped(view) {
    return view.you === 1;
  },

  // The banner says whose phase it is and what it asks (issue 30 item 3);
  // a pending reaction keeps the server's words.
  prompt(view) {
    const s = view.state || {};
    if (!['movement', 'shooting', 'melee'].includes(s.phase) || (s.pending || []).length || !Number.isInteger(s.turn_seat)) return null;
    const ask = { movement: 'move your units (each once), then end movement', shooting: 'fire your missile units, then end shooting', melee: 'attack with units in contact, then end the turn' };
    return s.turn_seat === view.you ? `Your ${s.phase} phase: ${ask[s.phase]}, then post.`
      : `${seatName(view, s.turn_seat)}'s ${s.phase} phase.`;
  },

  action(a, view) {
    switch (a.type) {
      case 'army': return `play the ${words(a.army)}`;
      case 'buy': return `buy ${a.count && a.count > 1 ? `${a.count} ` : 'a unit of '}${words(a.unit)}`;
      case 'sell': return `sell ${a.count && a.count > 1 ? `${a.count} ` : 'a unit of '}${words(a.unit)}`;
      case 'ready': return 'the army is ready: deploy it';
      case 'deploy': return `deploy ${words(a.unit)} on ${a.square}`;
      case 'undeploy': return `take back the unit on ${a.square}`;
      case 'done': return 'set-up done';
      case 'first': return a.first ? 'take the first turn' : 'let the other seat go first';
      case 'move': return `move ${at(view, a.from)} to ${a.to}${a.path && a.path.length > 1 ? ` (via ${a.path.slice(0, -1).join(', ')})` : ''}`;
      case 'charge': return `${at(view, a.from)} charges ${at(view, a.target)}`;
      case 'shoot': return `${at(view, a.from)} fires at ${at(view, a.target)}`;
      case 'attack': return `${at(view, a.from)} attacks ${at(view, a.target)}`;
      case 'advance': return `${at(view, a.from)} advances to ${a.to}`;
      case 'hold': return `${at(view, a.from)} holds (no follow-up)`;
      case 'cast': {
        const t = a.target ? ` on ${at(view, a.target)}` : '';
        const extra = a.raise ? ` raising ${words(a.raise)} on ${a.to}` : a.to ? ` to ${a.to}` : Number.isInteger(a.effect) ? ` (spell in effect #${a.effect})` : '';
        return `${at(view, a.from)} casts ${words(a.spell)}${t}${extra}`;
      }
      case 'counterspell': return `counter the spell with ${at(view, a.from)} (4+)`;
      case 'allow': return 'let the spell be';
      case 'sacrifice': return `lose ${at(view, a.from)}`;
      case 'heal': return `Heal the unit that fell on ${a.target} with ${at(view, a.from)} (4+)`;
      case 'no_heal': return 'let them fall (no Heal)';
      case 'protect': return `cast Protection (+1 saves) on ${at(view, a.target)} with ${at(view, a.from)}`;
      case 'no_protect': return 'no Protection';
      case 'dispel': return `dispel the spell just cast with ${at(view, a.from)}`;
      case 'no_dispel': return 'let the spell stand (no Dispel)';
      case 'end_phase': {
        const p = view.state?.phase;
        return p === 'movement' ? 'end movement: to shooting' : p === 'shooting' ? 'end shooting: to melee' : 'end melee: end the turn';
      }
      default: return null;
    }
  },

  event(e, view) {
    const U = (r) => unitName(view, r);
    const who = seatName(view, e.seat);
    switch (e.type) {
      case 'army': return `${who} picks the ${words(e.army)}`;
      case 'buy': return `${who} buys ${e.count} ${words(e.unit)}`;
      case 'sell': return `${who} sells ${e.count} ${words(e.unit)}`;
      case 'ready': return `${who}'s army is ready (${e.units} units)`;
      case 'deploy': return `${U(e.unit)} deployed`;
      case 'undeploy': return `${U(e.unit)} taken back`;
      case 'set_up': return `${who} has set up`;
      case 'reveal': return `Both armies are revealed: ${(e.armies || []).map((a) => `${seatName(view, a.seat)} ${words(a.army)}`).join(', ')}`;
      case 'rolloff': return `Roll-off: ${diceText(e.dice || [])}${Number.isInteger(e.winner) ? `, ${seatName(view, e.winner)} wins` : ', a tie'}`;
      case 'first': return `${who} takes the first turn of every round (${e.why || ''})`;
      case 'turn': return `Round ${e.round}: ${who}'s turn`;
      case 'phase': return `${words(e.phase)} phase`;
      case 'move': return `${U(e.unit)} moves to ${e.to}${e.path && e.path.length > 1 ? ` via ${e.path.slice(0, -1).join(', ')}` : ''}`;
      case 'charge': return `${U(e.unit)} charges ${U(e.target)}`;
      case 'charge_failed': return `${U(e.unit)} dares not charge ${U(e.target)}`;
      case 'shoot': return `${U(e.unit)} shoots at ${U(e.target)}: ${diceText(e.dice || [])}, needs ${e.need}${e.modifiers?.length ? ` (${e.modifiers.join(', ')})` : ''}: ${e.hit ? 'hit' : 'miss'}`;
      case 'scatter': return `${U(e.unit)} fires at ${e.aim} (${e.direct ? 'direct' : 'indirect'}): scatter ${diceText(e.dice || [])}, ${e.lands ? `lands on ${e.lands}` : ''}${e.miss ? ` ${e.miss}` : ''}`;
      case 'melee_shot': return `Shot into melee at ${U(e.unit)}: ${diceText(e.dice || [])}${e.target ? `, ${U(e.target)} is hit too` : ''}`;
      case 'save': return `${U(e.unit)} saves on ${e.need}+: ${e.dice ? diceText(e.dice) : 'no roll (7+ cannot succeed)'}, ${e.saved ? 'saved' : 'failed'}`;
      case 'destroyed': return `${U(e.unit)} is destroyed${e.why ? ` (${e.why})` : ''}`;
      case 'attack': return `${U(e.unit)} attacks ${U(e.target)}: ${diceText(e.dice || [])}, total ${e.total}${e.assault ? ' with assault' : ''}, result ${e.result >= 6 ? '6+' : e.result <= 1 ? '1 or less' : e.result === 2 ? '2-3' : e.result}`;
      case 'plague': return e.immune ? `${U(e.unit)} is immune to plague` : `Plague from ${U(e.unit)}`;
      case 'follow_up': return `${U(e.unit)} follows up`;
      case 'advance': return `${U(e.unit)} advances to ${e.to}`;
      case 'hold': return `${U(e.unit)} holds`;
      case 'cast': return `${U(e.unit)} casts ${words(e.spell)}${e.at ? ` at ${e.at}` : ''}${e.dispels ? ` on ${words(e.dispels)}` : ''}`;
      case 'counterspell': return `${U(e.unit)} counters ${words(e.spell)}: ${diceText(e.dice || [])}, ${e.countered ? 'countered' : 'fails'}`;
      case 'spell_end': return `${words(e.spell)} of ${U(e.unit)} ends`;
      case 'regenerate': return `${U(e.unit)} regenerates: ${e.dice ? diceText(e.dice) : 'square occupied'}, ${e.returns ? 'returns' : 'stays dead'}`;
      case 'raise_dead': return `${U(e.unit)} rises again`;
      case 'flight': return `${U(e.unit)} flies to ${e.to}`;
      case 'sacrifice': return `${U(e.unit)} crumbles (no Liche)`;
      case 'heal': return `${U(e.unit)} casts Heal on ${U(e.target)}: ${diceText(e.dice || [])}, ${e.healed ? 'healed' : 'fails'}`;
      case 'out': return `${who} is out: its army is gone`;
      case 'over': return `The match is over: ${e.why}${Number.isInteger(e.winner) ? `, ${seatName(view, e.winner)} wins` : ''}`;
      default: return null;
    }
  },

  // The army in one form: the army, a count per unit type with its cost,
  // the points left, the list; posted as one post (army, purchases, ready),
  // so the steps of the build stay secret (C1).
  builder(view, ctx) {
    const s = view.state;
    if (s?.phase !== 'setup' || !ctx.actions.some((a) => a.type === 'army')) return null;
    const lists = s.army_lists || [];
    const offered = lists.filter((l) => ctx.actions.some((a) => a.type === 'army' && a.army === l.army));
    const mine = side(view, view.you);
    const maxUnits = 2 * (s.board?.files || 8);
    const armySel = selectField({
      id: 'army-choice', label: 'Army (required)', placeholder: 'Choose an army…', value: offered.some((l) => l.army === mine.army) ? mine.army : '',
      choices: offered.map((l) => [l.army, `${l.name}: ${plural(l.points, 'point')}, initiative ${l.initiative}`]),
      onInput: () => { renderRows(); built.update(); },
    });
    const rowsEl = h('div', { class: 'army-rows' });
    let inputs = {};
    const list = () => lists.find((l) => l.army === armySel.select.value);
    const buyable = () => (list()?.units || []).filter((u) => u.cost > 0);
    function renderRows() {
      inputs = {};
      rowsEl.replaceChildren(...buyable().map((u) => {
        const r = countRow({ id: `army-${u.unit}`, label: `${u.name} (up to ${u.max})`, price: plural(u.cost, 'point'), max: u.max, value: mine.army === list()?.army ? mine.counts?.[u.unit] || 0 : 0 });
        inputs[u.unit] = r.input;
        return r.row;
      }));
    }
    renderRows();
    const built = setupForm({
      title: 'Build your army',
      hint: 'The general comes free. Points you do not spend are lost. Your opponent sees your army only when both are set up.',
      body: [armySel.field, rowsEl],
      submitLabel: 'Use this army',
      check() {
        const l = list();
        if (!l) return { problems: ['Choose an army.'] };
        const units = buyable();
        const spent = units.reduce((n, u) => n + count(inputs[u.unit]) * u.cost, 0);
        const size = 1 + units.reduce((n, u) => n + count(inputs[u.unit]), 0);
        const problems = [];
        if (spent > l.points) problems.push(`${plural(spent - l.points, 'point')} over the limit.`);
        for (const u of units) if (count(inputs[u.unit]) > u.max) problems.push(`At most ${u.max} ${u.name}.`);
        if (size > maxUnits) problems.push(`At most ${maxUnits} units on two ranks (this army has ${size}).`);
        const general = (l.units.find((u) => u.cost === 0) || {}).name || 'General';
        return {
          problems,
          total: `${spent} of ${plural(l.points, 'point')} spent, ${plural(l.points - spent, 'point')} left · ${plural(size, 'unit')}`,
          list: `Your army: ${[general, ...units.filter((u) => count(inputs[u.unit])).map((u) => `${count(inputs[u.unit])} ${u.name}`)].join(', ')}.`,
        };
      },
      actions: () => [{ type: 'army', army: armySel.select.value },
        ...buyable().filter((u) => count(inputs[u.unit])).map((u) => ({ type: 'buy', unit: u.unit, count: count(inputs[u.unit]) })),
        { type: 'ready' }],
      submit: ctx.submit,
    });
    built.update();
    return built.form;
  },

  // The secret deployment: each unit in reserve from the tray, several per
  // post, then "done".
  trayItem(a, view) {
    if (a.type !== 'deploy') return null;
    const u = (view.state?.units || []).find((x) => x.seat === view.you && x.unit === a.unit);
    return { key: a.unit, label: u?.name || words(a.unit), count: reserve(view)[a.unit] || 0, piece: { seat: view.you, glyph: FIGURE[u?.piece] ? u.piece : '?', label: `your ${u?.name || words(a.unit)}` } };
  },

  after(view, legal, draft) {
    return placementsAfter({
      legal, draft, left: reserve(view), finish: DONE,
      isPlace: (a) => a.type === 'deploy', keyOf: (a) => a.unit, squareOf: (a) => a.square,
    });
  },

  // Standing orders: counter the enemy's spells, Heal my fallen units:
  // always, never, or ask.
  orders(view, send) {
    const mine = side(view, view.you);
    if (!mine.orders) return null;
    const cur = typeof mine.orders.counterspell === 'string' ? mine.orders.counterspell : 'ask';
    const sel = h('select', { id: 'orders-counterspell' },
      Object.entries(ORDER).map(([v, text]) => h('option', { value: v, selected: v === cur }, text)));
    const heal = h('select', { id: 'orders-heal' },
      Object.entries(HEAL).map(([v, text]) => h('option', { value: v, selected: v === (mine.orders.heal || 'ask') }, text)));
    const prot = h('select', { id: 'orders-protection' },
      Object.entries(PROTECT).map(([v, text]) => h('option', { value: v, selected: v === (mine.orders.protection || 'ask') }, text)));
    const dcur = typeof mine.orders.dispel === 'string' ? mine.orders.dispel : 'ask';
    const disp = h('select', { id: 'orders-dispel' },
      Object.entries(DISPEL).map(([v, text]) => h('option', { value: v, selected: v === dcur }, text)));
    return h('form', {
      class: 'orders-form',
      onsubmit: (e) => { e.preventDefault(); send({ counterspell: sel.value, heal: heal.value, protection: prot.value, dispel: disp.value }); },
    }, h('label', { for: 'orders-counterspell' }, 'When the enemy casts a spell:'), sel,
    h('label', { for: 'orders-dispel' }, 'When the enemy casts a lasting spell:'), disp,
    h('label', { for: 'orders-heal' }, 'When a unit of mine falls near a healer:'), heal,
    h('label', { for: 'orders-protection' }, 'When a unit near my wizard is hit or attacked:'), prot,
    h('button', { type: 'submit' }, 'Save orders'));
  },
};
export default R;
