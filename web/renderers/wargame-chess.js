// Wargame Chess (rules/wargame-chess/README.md, "View" and "Events").
// Pieces are in `pieces` [{id, owner, type, option, where, square,
// advantage, disadvantage, blessing, curse, activated, reactivations}];
// events name pieces by id (their index in `pieces`). Trees are terrain;
// the activated piece and an attack under way are marked.

import { h } from '../ui.js';
import { seatName, words, diceText } from '../words.js';

const GLYPH = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P', joker: 'J' };
const ORDER = { ask: 'Ask me each time', always: 'Always spend it', never: 'Never spend it' };

function piecesOf(view) {
  return Array.isArray(view.state?.pieces) ? view.state.pieces : [];
}

// "Seat 0 (Ann) rook" for a piece id.
function pieceName(view, id) {
  const p = piecesOf(view)[id];
  if (!p) return `piece ${id}`;
  const option = p.option && p.option !== p.type ? ` (${words(p.option)})` : '';
  return `${seatName(view, p.owner)} ${words(p.type)}${option}`;
}

function tokens(p) {
  const t = [];
  if (p.advantage) t.push(`${p.advantage} Advantage token${p.advantage > 1 ? 's' : ''}`);
  if (p.disadvantage) t.push(`${p.disadvantage} Disadvantage token${p.disadvantage > 1 ? 's' : ''}`);
  if (p.blessing) t.push('Blessing');
  if (p.curse) t.push('Curse');
  if (p.activated) t.push('activated this turn');
  if (p.reactivations) t.push(`${p.reactivations} reactivation${p.reactivations > 1 ? 's' : ''}`);
  return t;
}

export default {
  id: 'wargame-chess',

  pieces(view) {
    return piecesOf(view).filter((p) => p.where === 'board' && p.square).map((p) => {
      const badges = [];
      if (p.advantage) badges.push(`+${p.advantage}`);
      if (p.disadvantage) badges.push(`−${p.disadvantage}`);
      if (p.blessing) badges.push('bl');
      if (p.curse) badges.push('cu');
      if (p.activated) badges.push('act');
      const t = tokens(p);
      return {
        square: p.square, seat: p.owner, glyph: GLYPH[p.type] || (p.type || '?')[0].toUpperCase(),
        badges, dashed: !p.type,
        label: `${pieceName(view, p.id)}${t.length ? ` (${t.join(', ')})` : ''}`,
      };
    });
  },

  terrain(view) {
    const s = view.state || {};
    const out = (s.trees?.squares || []).map((sq) => ({ square: sq, kind: 'tree', glyph: 'T', label: 'a Tree' }));
    const act = s.activation;
    if (act && Number.isInteger(act.piece) && act.piece >= 0) {
      const p = piecesOf(view)[act.piece];
      if (p?.square) out.push({ square: p.square, kind: 'active', glyph: '', label: 'the activated piece' });
    }
    if (act?.attack?.square) out.push({ square: act.attack.square, kind: 'attack', glyph: '', label: 'under attack' });
    return out;
  },

  panel(view) {
    const s = view.state;
    const rows = [['Phase', words(s.phase)]];
    if (s.turn) rows.push(['Turn', `${s.turn} of 10`]);
    if (s.phase === 'play' && Number.isInteger(s.active)) rows.push(['Activating', seatName(view, s.active)]);
    if (s.activation?.step && s.phase === 'play') {
      rows.push(['Step', words(s.activation.step) + (s.activation.reactivation ? ' (reactivation)' : '')]);
    }
    if (s.trees?.choice) rows.push(['Trees', words(s.trees.choice)]);
    for (const t of s.teams || []) {
      const team = t.faction ? `${words(t.faction)}${t.upgrades?.length ? `, upgrades ${t.upgrades.map(words).join(', ')}` : ''}`
        : t.submitted ? 'team in (hidden until both teams are deployed)' : 'building a team';
      const pts = Array.isArray(s.points) && s.points[t.seat] ? `, ${s.points[t.seat]} points` : '';
      rows.push([seatName(view, t.seat), team + pts]);
      if (t.seat === view.you && t.orders?.defend_advantage) {
        rows.push(['Advantage when defending', ORDER[t.orders.defend_advantage] || t.orders.defend_advantage]);
      }
    }
    // RULINGS.md W7: a draw offer here ends the match on points.
    if (s.agreement?.prompt && !s.result?.over) rows.push(['Draw offer', `${s.agreement.prompt} (equal points: a draw)`]);
    return h('dl', { class: 'state-facts' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
  },

  flipped(view) {
    return view.you === 1;
  },

  action(a, view) {
    switch (a.type) {
      case 'team': {
        const list = Object.entries(a.pieces || {}).map(([k, n]) => `${n} ${words(k)}`).join(', ');
        return `team ${words(a.faction)}: ${list}${a.upgrades?.length ? `; upgrades ${a.upgrades.map(words).join(', ')}` : ''}`;
      }
      case 'deploy': return `deploy ${words(a.piece)} on ${a.square}`;
      case 'activate': {
        const p = piecesOf(view).find((x) => x.square === a.square && x.where === 'board');
        return `activate the ${p ? words(p.type) : 'piece'} on ${a.square}`;
      }
      case 'move': return `move to ${a.to}${a.castle ? ` (castle with ${a.castle})` : ''}`;
      case 'attack': return `attack ${a.to}${a.advantage ? ' spending an Advantage token' : ''}`;
      case 'promote': return `promote to ${pieceName(view, a.piece).replace(/^Seat \d+( \([^)]*\))? /, '')}`;
      case 'defend': return a.advantage ? 'defend, spending an Advantage token' : 'defend without spending a token';
      case 'combat_move': return a.option === 'push'
        ? `push the attacker to ${a.square} (it takes a Disadvantage token)`
        : `retreat to ${a.square} (you take an Advantage token)`;
      case 'end': return 'end the activation';
      case 'trees': return `Trees: ${words(a.choice)}`;
      default: return null;
    }
  },

  event(e, view) {
    const P = (id) => pieceName(view, id);
    switch (e.type) {
      case 'team_submitted': return `${seatName(view, e.seat)} has built a team`;
      case 'teams_revealed': return 'Both teams are deployed: the team lists are shown';
      case 'phase': return `Phase: ${words(e.phase)}`;
      case 'trees': return `${seatName(view, e.seat)} sets up Trees (${words(e.setup)}): ${(e.squares || []).join(', ')}`;
      case 'deploy': return `${Number.isInteger(e.piece) ? P(e.piece) : `${seatName(view, e.seat)} ${words(e.piece)}`} deployed on ${e.square}`;
      case 'turn_start': return `Turn ${e.turn} begins`;
      case 'turn_end': return `Turn ${e.turn} ends`;
      case 'activate': return `${P(e.piece)} on ${e.square} is ${e.reactivation ? 'reactivated' : 'activated'}`;
      case 'activation_end': return `${P(e.piece)}'s activation ends`;
      case 'move': return `${P(e.piece)} moves ${e.from}→${e.to}`;
      case 'castle': return `${P(e.rook)} castles with ${P(e.ally)}: ${e.rook_to}, ${e.ally_to}`;
      case 'stay': return `${P(e.piece)} stays`;
      case 'promote': return `${P(e.pawn)} is promoted to ${P(e.piece)} on ${e.square}`;
      case 'attack': return `${P(e.attacker)} attacks ${P(e.defender)} on ${e.square}`;
      case 'token_spent': return `${P(e.piece)} spends a${e.kind === 'advantage' ? 'n' : ''} ${words(e.kind)} token (${words(e.role)})`;
      case 'roll': {
        const faces = Array.isArray(e.faces) && e.faces.length ? diceText(e.faces) : '';
        const mode = e.mode && e.mode !== 'normal' ? ` with ${words(e.mode)}` : '';
        const bonus = e.bonus ? `, bonus ${e.bonus}` : '';
        return `${P(e.piece)} rolls for ${words(e.role)}${mode}: ${faces}${bonus}, total ${e.total}`;
      }
      case 'attack_result': return `Attack ${e.attack} against defence ${e.defence}: ${e.success ? 'success' : 'repelled'}`;
      case 'slain': return `${P(e.piece)} is slain on ${e.square}`;
      case 'not_slain': return `${P(e.piece)} cannot be slain: ${words(e.how)} ${e.from}→${e.to}`;
      case 'combat_movement': return `Combat movement (${words(e.option)}): ${P(e.piece)} to ${e.to}`;
      case 'tokens': return `${P(e.piece)} receives ${e.amount} ${words(e.kind)} token${e.amount === 1 ? '' : 's'}${e.cause ? ` (${words(e.cause)})` : ''}`;
      case 'token_removed': return `${P(e.piece)} loses a ${words(e.kind)} token (${words(e.cause)})`;
      case 'faith': return `${P(e.piece)} ${e.cancelled ? 'loses its' : 'receives a'} ${words(e.kind)}`;
      case 'tokens_cleared': return `${P(e.piece)}'s tokens are cleared`;
      case 'resign': return `${seatName(view, e.seat)} resigns`;
      case 'game_over': return `The match is over: ${e.reason}`;
      default: return null;
    }
  },

  // Standing order: spend an Advantage token when defending?
  orders(view, send) {
    const mine = (view.state?.teams || []).find((t) => t.seat === view.you);
    const current = mine?.orders?.defend_advantage;
    if (!current) return null;
    const sel = h('select', { id: 'orders-defend' },
      Object.entries(ORDER).map(([v, text]) => h('option', { value: v, selected: v === current }, text)));
    return h('form', {
      class: 'orders-form',
      onsubmit: (e) => { e.preventDefault(); send({ defend_advantage: sel.value }); },
    }, h('label', { for: 'orders-defend' }, 'When my piece with an Advantage token is attacked:'), sel,
    h('button', { type: 'submit' }, 'Save orders'));
  },
};
