// Wargame Chess (rules/wargame-chess/README.md, "View" and "Events").
// Pieces are in `pieces` [{id, owner, type, option, where, square,
// advantage, disadvantage, blessing, curse, activated, reactivations}];
// events name pieces by id (their index in `pieces`). Trees are terrain;
// the activated piece and an attack under way are marked.

import { h } from '../ui.js';
import { seatName, words, diceText, plural } from '../words.js';
import { countRow, count, setupForm, placementsAfter } from './setup-form.js';
import { outcomeSummary } from './outcome.js';

// Events that say what happened in a post (the heading names them with the dice).
const OUTCOMES = new Set(['roll', 'attack_result', 'slain', 'not_slain', 'combat_movement', 'promote']);

// Piece costs (Piece costs and quantities) and the team size; the view
// does not carry them yet: the ruleset should add `roster` to its view
// (see web/README.md). The form checks its choice against the legal list.
const COST = { pawn: 1, rook: 2, knight: 2, bishop: 2, queen: 3, king: 2, joker: 2 };
const TEAM_POINTS = 14;
// How a seat's Trees are set up (W2; README "Trees").
const TREES = {
  rolled: 'rolled by the server', random: 'rolled at random',
  mirror: 'mirrored: the same files, the ranks reflected', mirror_flip: 'mirrored and flipped: files and ranks reflected',
};
const ROSTER_ORDER = ['king', 'queen', 'rook', 'bishop', 'knight', 'joker', 'pawn'];

const GLYPH = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P', joker: 'J' };
const ORDER = { ask: 'Ask me each time', always: 'Always spend it', never: 'Never spend it' };

function piecesOf(view) {
  return Array.isArray(view.state?.pieces) ? view.state.pieces : [];
}

// My pieces still to deploy, by roster option: my team list less the
// pieces already deployed (a piece is in the state only once deployed,
// RULINGS.md W8).
function reserveOf(view) {
  const team = (view.state?.teams || []).find((t) => t.seat === view.you);
  const left = { ...(team?.pieces || {}) };
  for (const p of piecesOf(view)) {
    const k = p.option || p.type;
    if (p.owner === view.you && k in left) left[k] -= 1;
  }
  return left;
}

// "Seat 0 (Ann) rook" for a piece id.
function pieceName(view, id) {
  const p = piecesOf(view)[id];
  if (!p) return `piece ${id}`;
  const option = p.option && p.option !== p.type ? ` (${words(p.option)})` : '';
  return `${seatName(view, p.owner)} ${words(p.type)}${option}`;
}

function describe(view, id) {
  const p = piecesOf(view)[id];
  if (!p) return null;
  return { seat: p.owner, glyph: GLYPH[p.type] || '?', label: pieceName(view, id) };
}

function activeSquare(view) {
  const act = view.state?.activation;
  const p = act && Number.isInteger(act.piece) && act.piece >= 0 ? piecesOf(view)[act.piece] : null;
  return p?.square || null;
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

const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);

const R = {
  id: 'wargame-chess',

  // A post's heading with its dice and results (outcome.js).
  summary(post, view) {
    return outcomeSummary(post, view, { action: (a, v) => R.action(a, v), event: (e, v) => R.event(e, v), outcomes: OUTCOMES });
  },

  optionWords: {
    first_trees: { label: 'Who sets up Trees first', hint: 'The other player then mirrors them or has them placed at random.', values: { seat0: 'White', random: 'A random player' } },
  },

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
      if (p?.square) out.push({ square: p.square, kind: 'active', glyph: '', label: 'the activated piece', transient: true });
    }
    if (act?.attack?.square) out.push({ square: act.attack.square, kind: 'attack', glyph: '', label: 'under attack', transient: true });
    return out;
  },

  panel(view) {
    const s = view.state;
    const rows = [['Phase', view.status === 'over' ? 'over' : words(s.phase)]];
    if (s.turn) rows.push(['Turn', `${s.turn} of 10`]);
    if (s.phase === 'play' && Number.isInteger(s.active)) rows.push(['Activating', seatName(view, s.active)]);
    if (s.activation?.step && s.phase === 'play') {
      rows.push(['Step', words(s.activation.step) + (s.activation.reactivation ? ' (reactivation)' : '')]);
    }
    if (s.trees?.choice) rows.push(['Trees', words(s.trees.choice)]);
    for (const t of s.teams || []) {
      const team = t.faction ? `${words(t.faction)}${t.upgrades?.length ? `, upgrades ${t.upgrades.map(words).join(', ')}` : ''}`
        : t.submitted ? 'team in (hidden until both teams are deployed)' : 'building a team';
      const pts = Array.isArray(s.points) && s.points[t.seat] ? `, ${plural(s.points[t.seat], 'point')}` : '';
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

  // The banner names the piece that acts (issue 30 item 3): the activated
  // piece, or who is to choose one. Other decisions keep the server's words.
  prompt(view) {
    const s = view.state || {};
    if (s.phase !== 'play') return null;
    if ((s.pending || []).some((p) => !['activate', 'act', 'en_passant'].includes(p.kind))) return null;
    const act = s.activation;
    const sq = activeSquare(view);
    if (sq) {
      const p = piecesOf(view)[act.piece];
      // A Pawn's second step (En Passant) is still its activation.
      const doing = (s.pending || []).some((x) => x.kind === 'en_passant')
        ? 'move it again (En Passant) or end the activation' : 'move, attack, or end the activation';
      if (p.owner === view.you) return `Your ${pieceName(view, act.piece).replace(/^\S+ \([^)]*\) /, '')} on ${sq} is activated: ${doing}, then post.`;
      return `${pieceName(view, act.piece)} on ${sq} is activated.`;
    }
    if (!Number.isInteger(s.active) || s.active < 0) return null;
    return s.active === view.you ? 'Choose one of your pieces to activate, then post.' : `${seatName(view, s.active)} chooses a piece to activate.`;
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
      case 'promote': return `promote to ${pieceName(view, a.piece).replace(/^\S+ \([^)]*\) /, '')}`;
      case 'defend': return a.advantage ? 'defend, spending an Advantage token' : 'defend without spending a token';
      case 'combat_move': return a.option === 'push'
        ? `push the attacker to ${a.square} (it takes a Disadvantage token)`
        : `retreat to ${a.square} (you take an Advantage token)`;
      case 'end': return 'end the activation';
      case 'stay': return 'stay where it is (it cannot Move)';
      case 'redeploy': return `redeploy the piece that cannot be slain on ${a.square}`;
      case 'trees': return `my Trees: ${TREES[a.choice] || words(a.choice)}`;
      default: return null;
    }
  },

  event(e, view) {
    const P = (id) => pieceName(view, id);
    switch (e.type) {
      case 'team_submitted': return `${seatName(view, e.seat)} has built a team`;
      case 'team_list': return `Your team (${words(e.faction || 'no faction')}): ${Object.entries(e.pieces || {}).map(([k, n]) => `${n} ${words(k)}`).join(', ')}`;
      case 'redeployed': return `${P(e.piece)} is redeployed on ${e.square}`;
      case 'teams_revealed': return 'Both teams are deployed: the team lists are shown';
      case 'phase': return `Phase: ${words(e.phase)}`;
      case 'trees': {
        // The first seat's Trees are rolled by the server (W2): say so, with the dice.
        const rolls = Array.isArray(e.rolls) ? e.rolls : [];
        const squares = e.squares?.length ? e.squares : rolls.filter((r) => !r.rerolled).map((r) => r.square);
        const dice = rolls.map((r) => `rank die ${r.d4}, file die ${r.d8}: ${r.square}${r.rerolled ? ' (taken, rolled again)' : ''}`);
        return `${seatName(view, e.seat)}'s Trees, ${TREES[e.setup] || words(e.setup)}: ${squares.join(', ') || 'none'}${dice.length ? ` (${dice.join('; ')})` : ''}`;
      }
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

  // The activated piece acts: its moves and attacks are drawn from it.
  actionSquares(a, view) {
    if (a.type === 'move' || a.type === 'attack') return { from: null, to: a.to };
    if (a.type === 'combat_move') return { from: null, to: a.square };
    return { from: null, to: typeof a.square === 'string' ? a.square : null };
  },

  preview(a, view, ctx) {
    const from = activeSquare(view);
    if ((a.type === 'move' || a.type === 'attack') && from) {
      const attack = a.type === 'attack';
      return { arrows: [{ from, to: a.to, kind: attack ? 'attack' : 'preview' }], battles: attack ? [{ square: a.to, kind: 'preview' }] : [], attack };
    }
    if (a.type === 'combat_move') {
      const at = view.state?.activation?.attack;
      const who = a.option === 'push' ? at?.from : at?.square;
      return who ? { arrows: [{ from: at.square, to: a.square, kind: 'preview' }] } : {};
    }
    if (a.type === 'deploy') return { ghosts: [{ square: a.square, piece: { seat: view.you, glyph: GLYPH[a.piece] || '?', label: `your ${words(a.piece)}` }, kind: 'preview' }] };
    return {};
  },

  trace(e, view) {
    switch (e.type) {
      case 'move': return { arrow: { from: e.from, to: e.to } };
      case 'attack': return { battle: e.square, arrow: e.from && e.from !== e.square ? { from: e.from, to: e.square } : undefined };
      case 'slain': return { removed: { square: e.square, piece: describe(view, e.piece) } };
      case 'combat_movement': return {};
      case 'deploy': return { placed: e.square };
      case 'activate': case 'stay': return { placed: e.square || piecesOf(view)[e.piece]?.square };
      default: return {};
    }
  },

  // The pieces after the given posts, rebuilt from their events (for the
  // step-through); the page checks it against the board of now.
  position(posts, view) {
    const at = new Map();   // id -> square
    for (const post of posts) {
      for (const e of post.events || []) {
        switch (e.type) {
          case 'deploy': if (Number.isInteger(e.piece)) at.set(e.piece, e.square); break;
          case 'move': case 'not_slain': case 'combat_movement': at.set(e.piece, e.to); break;
          case 'attack': at.set(e.attacker, e.square); break;
          case 'castle': at.set(e.rook, e.rook_to); at.set(e.ally, e.ally_to); break;
          case 'slain': at.delete(e.piece); break;
          case 'promote': at.delete(e.pawn); at.set(e.piece, e.square); break;
          default: break;
        }
      }
    }
    return [...at].map(([id, square]) => ({ square, ...describe(view, id) }));
  },

  trayItem(a, view) {
    if (a.type !== 'deploy') return null;
    const left = reserveOf(view)[a.piece] || 0;
    return { key: a.piece, label: words(a.piece), count: left, piece: { seat: view.you, glyph: GLYPH[a.piece] || '?', label: `your ${words(a.piece)}` } };
  },

  // Several deployments in one post: the reserve left, on the squares left.
  after(view, legal, draft) {
    return placementsAfter({ legal, draft, left: reserveOf(view), isPlace: (a) => a.type === 'deploy', keyOf: (a) => a.piece, squareOf: (a) => a.square });
  },

  legend() {
    return [['+1, −1', 'Advantage / Disadvantage tokens'], ['bl, cu', 'Blessing / Curse'], ['act', 'activated this turn'],
      ['T', 'a Tree: blocks moves and attacks']];
  },

  // The team in one form: a count per piece, its cost, the total against
  // 14 points; the choice must be one of the legal team lists.
  builder(view, ctx) {
    const teams = ctx.actions.filter((a) => a.type === 'team');
    if (!teams.length) return null;
    const max = {};
    for (const t of teams) for (const [k, n] of Object.entries(t.pieces || {})) max[k] = Math.max(max[k] || 0, n);
    const kinds = Object.keys(max).sort((a, b) => ROSTER_ORDER.indexOf(a) - ROSTER_ORDER.indexOf(b));
    const required = kinds.filter((k) => teams.every((t) => (t.pieces[k] || 0) > 0));
    const inputs = {};
    const rows = kinds.map((k) => {
      const need = required.includes(k) ? 1 : 0;
      const r = countRow({ id: `team-${k}`, label: `${cap(words(k))}${need ? ' (required)' : ''}`, price: plural(COST[k] ?? 1, 'point'), min: need, max: max[k], value: need });
      inputs[k] = r.input;
      return r.row;
    });
    let match = null;
    const built = setupForm({
      title: `Build your team (${words(teams[0].faction)})`,
      hint: `Spend exactly ${TEAM_POINTS} points. Your opponent sees your team only when both are in.`,
      body: h('div', { class: 'army-rows' }, rows),
      submitLabel: 'Use this team',
      check() {
        const pieces = {};
        for (const k of kinds) if (count(inputs[k]) > 0) pieces[k] = count(inputs[k]);
        const pts = Object.entries(pieces).reduce((n, [k, c]) => n + c * (COST[k] ?? 1), 0);
        match = teams.find((t) => Object.keys(t.pieces).length === Object.keys(pieces).length
          && Object.entries(t.pieces).every(([k, c]) => pieces[k] === c)) || null;
        const problems = [];
        if (pts !== TEAM_POINTS) problems.push(`A team is exactly ${TEAM_POINTS} points (${pts < TEAM_POINTS ? `${TEAM_POINTS - pts} to add` : `${pts - TEAM_POINTS} too many`}).`);
        for (const k of required) if (!pieces[k]) problems.push(`A ${words(k)} is required.`);
        if (!problems.length && !match) problems.push('This team is not allowed (a standard chess set has at most 1 Queen, 2 Rooks, 2 Bishops, 2 Knights, 8 Pawns).');
        return { total: `${pts} of ${TEAM_POINTS} points`, problems };
      },
      actions: () => [match],
      submit: ctx.submit,
    });
    built.update();
    return built.form;
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
export default R;
