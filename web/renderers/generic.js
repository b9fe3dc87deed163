// The generic renderer: plays any ruleset from its view alone.
//  - Pieces: every object in the view (searched a few levels deep) that has
//    a `square` ("a1".."h8") and an owner (`seat`, `owner`, `player` or
//    `side`, a seat number, on the object or on an enclosing one such as
//    {"seat": 1, "pieces": [...]}) is a piece; a piece listed twice (a board
//    list and an army list) is merged by square. Its type is `type`, `kind`,
//    `piece`, `unit` or `name`, drawn as a letter (K Q R B N P for the chess
//    names, else the first letter, two when types clash) on a disc of the
//    owner's colour. Its other fields become up to two badges (a true flag
//    as its first letters, a count as initial and number: "act", "s2") and
//    words in its label (tooltip and screen reader). A piece whose type is
//    hidden (null) is drawn as a dashed "?".
//  - Terrain and markers: objects with a square but no owner, and lists of
//    squares, drawn as a tinted square with two letters of their type or
//    key ({"trees": {"squares": [...]}} marks "tr").
//  - Panel: the `pending` list in words and the view's simple fields.

import { seatName, words, isSquare } from '../words.js';

const OWNER = ['seat', 'owner', 'player', 'side'];
const TYPE = ['type', 'kind', 'piece', 'unit', 'name'];
const KNOWN = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };
const SKIP = new Set(['pending', 'options']);
const ID_FIELDS = new Set(['square', 'id', 'rank', 'index', 'where', ...OWNER, ...TYPE]);

// Keys too general to name a marker: the parent's key names it instead
// ({"trees": {"squares": [...]}} marks trees).
const GENERAL = new Set(['squares', 'list', 'cells', 'items', 'state']);

// Collects objects with a square, with the owner they or an enclosing
// object name ({"seats": [{"seat": 1, "pieces": [{"square": "c3"}]}]}),
// and lists of squares.
function walk(node, key, depth, out, owner) {
  if (depth > 6 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    if (node.length && node.every(isSquare)) {
      for (const sq of node) out.squares.push({ square: sq, key });
      return;
    }
    for (const x of node) walk(x, key, depth + 1, out, owner);
    return;
  }
  const own = ownerOf(node);
  const who = own !== null ? own : owner;
  if (isSquare(node.square)) out.objects.push({ obj: node, key, owner: who });
  for (const [k, v] of Object.entries(node)) {
    if (SKIP.has(k) && depth === 0) continue;
    if (v && typeof v === 'object') walk(v, GENERAL.has(k) ? key : k, depth + 1, out, who);
  }
}

function found(view) {
  const out = { objects: [], squares: [] };
  if (view && view.state) walk(view.state, 'state', 0, out, null);
  return out;
}

export function ownerOf(o) {
  for (const k of OWNER) if (Number.isInteger(o[k])) return o[k];
  return null;
}
export function typeOf(o) {
  for (const k of TYPE) if (typeof o[k] === 'string') return o[k];
  return null;
}

// A glyph per piece type, distinct within the view.
function glyphs(types) {
  const map = new Map();
  const first = (t) => KNOWN[t.toLowerCase()] || t[0].toUpperCase();
  const count = new Map();
  for (const t of types) count.set(first(t), (count.get(first(t)) || 0) + 1);
  for (const t of types) {
    let g = first(t);
    if (count.get(g) > 1 && !KNOWN[t.toLowerCase()]) g = t[0].toUpperCase() + (t[1] || '').toLowerCase();
    map.set(t, g);
  }
  return map;
}

// A badge: a true flag as its first letters, a count as initial and number.
function badgeOf(k, v) {
  if (v === true) return k.slice(0, 3);
  if (typeof v === 'number' && v !== 0) return `${k[0]}${v}`.slice(0, 3);
  return null;
}

function describe(k, v) {
  if (v === null || v === undefined || v === false || v === 0) return null;
  if (v === true) return words(k);
  if (Array.isArray(v)) return v.length ? `${words(k)} ${v.map((x) => (typeof x === 'object' ? (x.type || x.kind || '•') : x)).join(', ')}` : null;
  if (typeof v === 'object') return null;
  return `${words(k)} ${v}`;
}

export function genericPieces(view) {
  const { objects } = found(view);
  // The same piece may be listed twice (a board list and an army list):
  // one piece per square, with the fields of both.
  const bySquare = new Map();
  for (const { obj, owner } of objects) {
    if (owner === null) continue;
    const prev = bySquare.get(obj.square);
    if (prev && prev.owner !== owner) continue;
    const merged = { ...(prev ? prev.obj : {}) };
    for (const [k, v] of Object.entries(obj)) if (v !== null && v !== undefined) merged[k] = v;
    bySquare.set(obj.square, { obj: merged, owner });
  }
  const pieces = [...bySquare.values()];
  const g = glyphs([...new Set(pieces.map(({ obj }) => typeOf(obj)).filter(Boolean))]);
  return pieces.map(({ obj, owner }) => {
    const seat = owner;
    const type = typeOf(obj);
    const badges = [];
    const extra = [];
    for (const [k, v] of Object.entries(obj)) {
      if (ID_FIELDS.has(k)) continue;
      const b = badgeOf(k, v);
      if (b) (v === true ? badges.unshift(b) : badges.push(b));
      const d = describe(k, v);
      if (d) extra.push(d);
    }
    return {
      square: obj.square, seat, glyph: type ? g.get(type) : '?', dashed: !type, badges,
      label: `${seatName(view, seat)} ${type ? words(type) : 'unknown piece'}${extra.length ? ` (${extra.join(', ')})` : ''}`,
      raw: obj,
    };
  });
}

export function genericTerrain(view) {
  const { objects, squares } = found(view);
  const out = [];
  for (const { obj, key, owner } of objects) {
    if (owner !== null) continue;
    const kind = typeOf(obj) || key;
    out.push({ square: obj.square, kind, glyph: kind.slice(0, 2), label: words(kind) });
  }
  for (const { square, key } of squares) {
    out.push({ square, kind: key, glyph: key.slice(0, 2), label: words(key) });
  }
  return out;
}

// Flip when my pieces are mostly on the upper half (ranks 5-8).
export function genericFlipped(view) {
  if (view.you === null || view.you === undefined) return false;
  const mine = genericPieces(view).filter((p) => p.seat === view.you);
  if (!mine.length) return view.you === 1;
  const avg = mine.reduce((s, p) => s + Number(p.square[1]), 0) / mine.length;
  return avg > 4.5;
}

function scalarRows(state, view) {
  const rows = [];
  const add = (k, v) => {
    if (v === null || v === undefined || typeof v === 'object') return;
    let text = typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
    if ((k === 'active' || k.endsWith('seat')) && Number.isInteger(v)) text = seatName(view, v);
    rows.push([words(k), text]);
  };
  for (const [k, v] of Object.entries(state || {})) {
    if (v && typeof v === 'object' && !Array.isArray(v) && !SKIP.has(k)) {
      for (const [k2, v2] of Object.entries(v)) add(`${k} ${k2}`, v2);
    } else add(k, v);
  }
  return rows.slice(0, 16);
}

export function genericPanel(view) {
  const state = view.state;
  if (!state) return null;
  const rows = scalarRows(state, view);
  if (!rows.length) return null;
  const dl = document.createElement('dl');
  dl.className = 'state-facts';
  for (const [k, v] of rows) {
    const dt = document.createElement('dt'); dt.textContent = k;
    const dd = document.createElement('dd'); dd.textContent = v;
    dl.append(dt, dd);
  }
  return dl;
}

const TARGET = ['to', 'target', 'square', 'at'];
const GLYPH_OF = (t) => KNOWN[String(t || '').toLowerCase()] || String(t || '?')[0].toUpperCase();

// Where an action sits on the board: the square of the piece that acts
// (`from`) and the square it acts on (`to`, `target`, `square`, `at`).
export function genericActionSquares(a) {
  return {
    from: isSquare(a.from) ? a.from : null,
    to: TARGET.map((k) => a[k]).find(isSquare) || null,
  };
}

// A piece named in an event or action ({seat, type} or a type string) as
// something the board can draw.
export function pieceRef(view, p, seat) {
  if (p && typeof p === 'object') {
    const owner = ownerOf(p);
    const type = typeOf(p);
    return { seat: owner, glyph: GLYPH_OF(type), label: `${seatName(view, owner)} ${words(type || 'piece')}` };
  }
  if (typeof p === 'string') return { seat, glyph: GLYPH_OF(p), label: `${seatName(view, seat)} ${words(p)}` };
  return null;
}

// The chosen action drawn before it is posted: an arrow from the piece to
// its target (red, with a battle mark, when an enemy stands there or the
// type says it attacks), or a ghost of a placed piece.
export function genericPreview(a, view, ctx) {
  const { from, to } = ctx.squares(a);
  const there = to ? ctx.pieceAt(to) : null;
  const enemy = !!there && there.seat !== view.you;
  const attack = enemy || /attack|fireball|hurt|shoot|strike|charge|fury/.test(String(a.type));
  if (from && to && from !== to) {
    return { arrows: [{ from, to, kind: attack ? 'attack' : 'preview' }], battles: attack ? [{ square: to, kind: 'preview' }] : [], attack };
  }
  // A placement: the tray's piece (any ruleset's, whatever names the unit)
  // or the piece the action names.
  const tray = to && !from && !there ? ctx.trayItem(a) : null;
  if (tray?.piece || (to && !from && a.piece !== undefined && !there)) {
    return { ghosts: [{ square: to, piece: tray?.piece || pieceRef(view, a.piece, view.you), kind: 'preview' }] };
  }
  if (to && attack) return { battles: [{ square: to, kind: 'preview' }], attack };
  return {};
}

// What an event did on the board: an arrow (a move), a battle square, a
// removed piece (drawn as a ghost), a placed piece.
export function genericTrace(e, view) {
  const out = {};
  const type = String(e.type || '');
  const from = isSquare(e.from) ? e.from : null;
  const to = TARGET.map((k) => e[k]).find(isSquare) || null;
  if (/battle|attack|combat|fight/.test(type) && isSquare(e.at || e.square || e.to)) out.battle = e.at || e.square || e.to;
  if (from && to && from !== to) out.arrow = { from, to };
  if (/remov|slain|kill|captur|destroy|dies|died/.test(type) && to) {
    out.removed = { square: to, piece: pieceRef(view, e.piece, Number.isInteger(e.seat) ? e.seat : null) || { glyph: '?', label: 'a piece' } };
  }
  if (/place|deploy/.test(type) && to && !from) out.placed = to;
  return out;
}

export default {
  id: 'generic',
  pieces: genericPieces,
  terrain: genericTerrain,
  panel: genericPanel,
  flipped: genericFlipped,
  action: () => null,
  event: () => null,
  orders: null,
  actionSquares: genericActionSquares,
  preview: genericPreview,
  trace: genericTrace,
  after: () => null,
  builder: () => null,
  // Placements only (a move that names its piece is not one).
  trayItem: (a, view) => (/place|deploy|setup|set_up|drop|put|summon/.test(String(a.type)) && a.piece !== undefined && a.piece !== null && typeof a.piece !== 'object'
    ? { key: JSON.stringify(a.piece), label: words(String(a.piece)), piece: pieceRef(view, a.piece, view.you) } : null),
  pinned: () => [],
  legend: () => [],
  summary: () => null,
  position: () => null,
};
