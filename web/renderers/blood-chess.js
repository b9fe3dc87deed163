// Blood Chess (rules/blood-chess/README.md, "View" and "Events").
// Pieces are named by square and kind only: `identity` is "real", "mirror",
// "decoy" (Pawns) or "unknown" (an enemy Rook, Bishop or Knight not yet
// revealed). Characters (STUN, BODY, sheet, phases) are per side and role.
// Move and shot events come twice for Rooks, Bishops and Knights: the
// owner's copy says Mirror or real, everyone's copy says "hidden"; the
// owner sees both, so the redacted copy is not repeated in words.

import { h } from '../ui.js';
import { seatName, words } from '../words.js';
import { selectField, setupForm } from './setup-form.js';
import { sheetOptions } from './blood-chess-sheets.js';
import { outcomeSummary } from './outcome.js';

// Events that say what happened in a post (the heading names them with the dice).
const OUTCOMES = new Set(['attack', 'damage', 'decoy', 'removed', 'rolloff', 'wake']);

const GLYPH = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };
const ROLES = ['king', 'queen', 'rook', 'bishop', 'knight'];

function st(view) { return view.state || {}; }

function charOf(view, seat, role) {
  const side = st(view).characters?.[seat];
  return Array.isArray(side) ? side.find((c) => c.role === role) : null;
}

function attackOf(view, seat, role, k) {
  return charOf(view, seat, role)?.sheet?.attacks?.[k] || null;
}

function attackWords(a) {
  if (!a) return 'an attack';
  const kind = a.killing ? 'killing' : 'normal';
  const where = a.ranged ? 'at range' : 'hand-to-hand';
  return `${a.name} (${a.dice}d6 ${kind}, ${where}, against ${a.vs}${a.area ? ', Area Effect' : ''})`;
}

// The short form for the characters table: "Punch 12d6 HTH vs PD".
function attackShort(a) {
  return `${a.name} ${a.dice}d6${a.killing ? ' killing' : ''} ${a.ranged ? 'ranged' : 'HTH'}${a.area ? ' area' : ''} vs ${a.vs}`;
}

function who(view, seat, role) {
  const c = charOf(view, seat, role);
  const name = c?.sheet?.name ? ` (${c.sheet.name})` : '';
  return `${seatName(view, seat)}'s ${words(role)}${name}`;
}

function identityWords(p, view) {
  if (p.kind === 'pawn') return 'a Pawn (decoy)';
  if (p.kind === 'king' || p.kind === 'queen') return `the ${words(p.kind)}`;
  if (p.identity === 'mirror') return `the ${words(p.kind)}'s Mirror (decoy)`;
  if (p.identity === 'real') return `the real ${words(p.kind)}`;
  return `a ${words(p.kind)}: real or Mirror, not revealed${p.seat === view.you ? '' : ' to you'}`;
}

function condition(c) {
  if (!c) return '';
  if (c.removed) return 'removed';
  const t = [];
  if (c.unconscious) t.push('unconscious');
  if (c.stunned) t.push('Stunned');
  if (c.dodging) t.push('dodging');
  return t.join(', ');
}

const R = {
  id: 'blood-chess',

  // A post's heading with its dice and results (outcome.js).
  summary(post, view) {
    return outcomeSummary(post, view, { action: (a, v) => R.action(a, v), event: (e, v) => R.event(e, v), outcomes: OUTCOMES });
  },
  ...sheetOptions,

  pieces(view) {
    const list = Array.isArray(st(view).pieces) ? st(view).pieces : [];
    const out = [];
    const seen = new Map();
    for (const p of list) {
      const c = ROLES.includes(p.kind) ? charOf(view, p.seat, p.kind) : null;
      const badges = [];
      if (p.identity === 'mirror') badges.push('M');
      if (p.identity === 'unknown') badges.push('?');
      if (p.unconscious) badges.push('KO');
      if (p.engaged) badges.push('HTH');
      const label = `${seatName(view, p.seat)}: ${identityWords(p, view)} on ${p.square}`
        + (p.unconscious ? ', unconscious' : '') + (p.engaged ? ', fighting hand-to-hand' : '')
        + (c && (p.identity === 'real' || p.kind === 'king' || p.kind === 'queen') && c.sheet
          ? ` — ${c.sheet.name}, STUN ${c.stun}/${c.sheet.stun}, BODY ${c.body}/${c.sheet.body}` : '');
      const piece = { square: p.square, seat: p.seat, glyph: GLYPH[p.kind] || '?', label, badges, dashed: p.identity === 'mirror' };
      // two fighters share a square: one disc, both named
      if (seen.has(p.square)) {
        const prev = seen.get(p.square);
        prev.label += `; ${label}`;
        prev.glyph = `${prev.glyph}×${piece.glyph}`;
        continue;
      }
      seen.set(p.square, piece);
      out.push(piece);
    }
    return out;
  },

  terrain(view) {
    const s = st(view);
    const out = [];
    if (s.acting) {
      const c = charOf(view, s.acting.seat, s.acting.role);
      if (c?.square) out.push({ square: c.square, kind: 'active', glyph: '', label: `${who(view, s.acting.seat, s.acting.role)} acts` });
    }
    if (s.pending?.to) out.push({ square: s.pending.to, kind: 'attack', glyph: '', label: 'the referee rules on this attack' });
    return out;
  },

  panel(view) {
    const s = st(view);
    const rows = [];
    rows.push(['Stage', s.stage === 'setup' ? 'set-up: pick a sheet for each character and secretly choose your Mirrors'
      : s.stage === 'referee' ? 'the referee rules on an attack' : words(s.stage)]);
    if (s.stage !== 'setup') rows.push(['Speed Chart', `Turn ${s.turn}, Segment ${s.segment}${s.turn_limit ? ` (the match ends after Turn ${s.turn_limit})` : ''}`]);
    if (s.acting) rows.push(['Acting now', `${who(view, s.acting.seat, s.acting.role)}`]);
    if (Array.isArray(s.order) && s.order.length) {
      rows.push(['This segment (DEX order)', s.order.map((o) => `${o.done ? '✓ ' : ''}${seatName(view, o.seat)} ${words(o.role)}`).join(', ')]);
    }
    if (Array.isArray(s.scores)) rows.push(['Score', `${seatName(view, 0)} ${s.scores[0]}, ${seatName(view, 1)} ${s.scores[1]} (King 20, character 5, decoy 1)`]);
    if (s.stage === 'setup') {
      for (const [seat, su] of (s.setup || []).entries()) rows.push([seatName(view, seat), `${su.sheets}/5 sheets, ${su.mirrors}/3 Mirrors chosen`]);
    }
    const facts = h('dl', { class: 'state-facts' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
    // On a phone each character is a card of labelled lines (style.css
    // .bc-characters): the table never makes the page scroll sideways.
    const HEAD = ['Piece', 'Sheet and attacks', 'STUN', 'BODY', 'DEX/SPD (phases)', 'OCV/DCV', 'PD/ED (resistant)', 'Condition'];
    const td = (k, ...kids) => h('td', { 'data-label': HEAD[k] }, ...kids);
    const sides = (s.characters || []).map((side, seat) => h('table', { class: 'bc-characters' },
      h('caption', {}, `${seatName(view, seat)}'s characters`),
      h('thead', {}, h('tr', {}, HEAD.map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, side.map((c) => h('tr', {},
        td(0, `${words(c.role)}${c.square ? ` on ${c.square}` : ''}`),
        td(1, c.sheet ? [h('strong', {}, c.sheet.name), h('br'), c.sheet.attacks.map(attackShort).join('; ')] : 'not chosen'),
        td(2, c.sheet ? `${c.stun}/${c.sheet.stun}` : ''),
        td(3, c.sheet ? `${c.body}/${c.sheet.body}` : ''),
        td(4, c.sheet ? `${c.sheet.dex}/${c.sheet.spd} (${(c.phases || []).join(' ')})` : ''),
        td(5, c.sheet ? `${c.sheet.ocv}/${c.dcv}` : ''),
        td(6, c.sheet ? `${c.sheet.pd}/${c.sheet.ed} (${c.sheet.rpd}/${c.sheet.red})` : ''),
        td(7, condition(c)))))));
    const templates = s.stage === 'setup' && Array.isArray(s.templates)
      ? h('ul', { class: 'bc-templates' }, s.templates.map((t) => h('li', {}, `${words(t.id)}: ${t.description}`)))
      : null;
    return h('div', { class: 'bc-panel' }, facts, templates, ...sides);
  },

  flipped(view) {
    return view.you === 1;
  },

  // The banner names the character that acts this phase (issue 30 item 3).
  prompt(view) {
    const s = st(view);
    if (s.stage !== 'play' || !s.acting) return null;
    const c = charOf(view, s.acting.seat, s.acting.role);
    const sheet = c?.sheet?.name ? ` (${c.sheet.name})` : '';
    const where = c?.square ? ` on ${c.square}` : '';
    const role = words(s.acting.role).replace(/^./, (x) => x.toUpperCase());
    if (s.acting.seat === view.you) {
      return `Your ${role}${sheet}${where} acts in Segment ${s.segment}: move, attack, Dodge or Recover, then post.`;
    }
    return `${seatName(view, s.acting.seat)}'s ${role}${sheet}${where} acts in Segment ${s.segment}.`;
  },

  action(a, view) {
    const s = st(view);
    const me = s.acting?.seat ?? view.you;
    const role = s.acting?.role;
    switch (a.type) {
      case 'sheet': {
        const t = (s.templates || []).find((x) => x.id === a.template);
        return `${words(a.role)}: ${words(a.template)}${t ? ` — ${t.description}` : ''}`;
      }
      case 'mirror': return `secretly make the piece on ${a.square} a Mirror (decoy)`;
      case 'move': {
        if (a.attack === undefined) return `move ${a.from}→${a.to}`;
        return `move ${a.from}→${a.to} and attack hand-to-hand with ${attackWords(attackOf(view, me, role, a.attack))}`;
      }
      case 'shoot': return `fire ${attackWords(attackOf(view, me, role, a.attack))} from ${a.from} at ${a.to}`;
      case 'hth': return `keep fighting: ${attackWords(attackOf(view, me, role, a.attack))}`;
      case 'dodge': return 'Dodge: +3 DCV until this character\'s next phase';
      case 'recover': return 'take a Recovery: regain REC STUN';
      case 'ref_hit': return a.hit ? 'rule: the attack hits' : 'rule: the attack misses';
      case 'ref_stun': return `rule: ${a.value} STUN taken after defenses`;
      case 'ref_body': return `rule: ${a.value} BODY taken after defenses`;
      default: return null;
    }
  },

  event(e, view) {
    const W = (seat, role) => who(view, seat, role);
    switch (e.type) {
      case 'sheet': return `${seatName(view, e.seat)}'s ${words(e.role)} is ${words(e.template)}`;
      case 'mirror': return e.redacted ? `${seatName(view, e.seat)} chooses its Mirror ${words(e.kind)} in secret`
        : `You chose the ${words(e.kind)} on ${e.square} as your Mirror (secret)`;
      case 'start': return 'Play begins in Segment 12';
      case 'segment': return `Turn ${e.turn}, Segment ${e.segment}`;
      case 'rolloff': return `DEX tie: ${W(e.seat, e.role)} rolls ${e.die}`;
      case 'phase': return `${W(e.seat, e.role)} acts`;
      case 'lost_phase': return `${W(e.seat, e.role)} is Stunned and loses this phase`;
      case 'wake': return `${W(e.seat, e.role)} is unconscious and recovers ${e.recovered} STUN (now ${e.stun})${e.unconscious ? '' : ': awake again'}`;
      case 'move':
      case 'shoot': {
        const seen = e.redacted && e.seat === view.you ? 'What the others see: ' : '';
        const what = e.piece === 'mirror' ? `${words(e.kind)}'s Mirror` : e.piece === 'real' ? `real ${words(e.kind)}` : words(e.kind);
        if (e.type === 'shoot') return `${seen}${seatName(view, e.seat)}'s ${what} on ${e.from} fires at ${e.to}`;
        return `${seen}${seatName(view, e.seat)}'s ${what} moves ${e.from}→${e.to}${e.attack !== null && e.attack !== undefined ? ' to attack' : ''}`;
      }
      case 'decoy': {
        const ans = e.answer === 'decoy' ? `yes, a decoy: it is removed` : 'no, it is real';
        const att = e.attacker_answer === 'decoy' ? '; the attacker was a decoy and is removed'
          : e.attacker_answer === 'real' ? '; both are real: combat!' : '';
        return `"Is this a decoy I'm attacking?" on ${e.square}: ${ans}${att}`;
      }
      case 'engage': return `Hand-to-hand combat on ${e.square}: neither may leave until one is removed`;
      case 'attack': return `${W(e.seat, e.role)} attacks ${e.to} with ${e.attack_name}: ${e.text}`
        + (e.hit && !e.by_referee && Array.isArray(e.dice) ? ` (dice ${e.dice.join(' ')}: ${e.stun_rolled} STUN, ${e.body_rolled} BODY rolled${e.killing ? `, STUN multiplier ${e.multiplier}` : ''})` : '');
      case 'damage': return `${W(e.seat, e.role)}: ${e.text} (defenses ${e.defense_stun} against STUN, ${e.defense_body} against BODY; now STUN ${e.stun}, BODY ${e.body})`;
      case 'removed': return `${seatName(view, e.seat)}'s ${words(e.kind)} on ${e.square} (${e.was}) is removed: ${e.points} point${e.points === 1 ? '' : 's'} to ${seatName(view, 1 - e.seat)}`;
      case 'dodge': return `${W(e.seat, e.role)} dodges (+3 DCV)`;
      case 'recover': return `${W(e.seat, e.role)} takes a Recovery: +${e.recovered} STUN (now ${e.stun})`;
      case 'post12': return 'After Segment 12 every character recovers its REC in STUN';
      case 'await_referee': return `The referee rules on ${W(e.seat, e.role)}'s attack on ${e.to}`;
      case 'end': return `The match is over (${e.reason}): ${seatName(view, 0)} ${e.scores?.[0]}, ${seatName(view, 1)} ${e.scores?.[1]}. Mirrors: ${(e.mirrors || []).map((m) => `${seatName(view, m.seat)} ${words(m.kind)}${m.square ? ` on ${m.square}` : ' (removed)'}`).join(', ')}`;
      default: return null;
    }
  },

  // The set-up in one form: a sheet for each character still without one
  // (in the order the rules ask for them) and, when Mirrors are chosen, the
  // Rook, Bishop and Knight that are Mirrors; posted as one post (B1, B2).
  builder(view, ctx) {
    const s = st(view);
    const sheets = ctx.actions.filter((a) => a.type === 'sheet');
    const mirrors = ctx.actions.filter((a) => a.type === 'mirror');
    if (s.stage !== 'setup' || !(sheets.length || mirrors.length)) return null;
    const first = sheets.length ? ROLES.indexOf(sheets[0].role) : ROLES.length;
    const names = [...new Set(sheets.map((a) => a.template))];
    const about = (id) => (s.templates || []).find((t) => t.id === id)?.description || words(id);
    const roleFields = ROLES.slice(first).map((role) => selectField({
      id: `sheet-${role}`, label: `The ${words(role)}'s sheet`, placeholder: 'Choose a sheet…', choices: names.map((n) => [n, about(n)]),
    }));
    const kinds = ['rook', 'bishop', 'knight'].filter((k) => mirrors.some((a) => (s.pieces || []).find((p) => p.square === a.square)?.kind === k));
    const mirrorFields = kinds.map((k) => selectField({
      id: `mirror-${k}`, label: `Which ${words(k)} is the Mirror (secret)`, placeholder: 'Choose a square…',
      choices: mirrors.filter((a) => (s.pieces || []).find((p) => p.square === a.square)?.kind === k).map((a) => [a.square, `the ${words(k)} on ${a.square}`]),
    }));
    const built = setupForm({
      title: 'Set up your side',
      hint: 'The sheets are public; which pieces are Mirrors stays secret.',
      body: [...roleFields, ...mirrorFields].map((f) => f.field),
      submitLabel: 'Use this set-up',
      check() {
        const problems = [];
        const missing = roleFields.filter((f) => !f.select.value).length;
        if (missing) problems.push(`Choose a sheet for ${missing === 1 ? 'one character' : `${missing} characters`}.`);
        if (mirrorFields.some((f) => !f.select.value)) problems.push('Choose each Mirror.');
        return { problems };
      },
      actions: () => [...roleFields.map((f, k) => ({ type: 'sheet', role: ROLES[first + k], template: f.select.value })),
        ...mirrorFields.map((f) => ({ type: 'mirror', square: f.select.value }))],
      submit: ctx.submit,
    });
    built.update();
    return built.form;
  },
};
export default R;
