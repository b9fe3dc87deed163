// Piece drawings: recognizable chess silhouettes in a 100×100 box, drawn
// in the owner's colour (class seat-N) with a contrasting outline. A
// renderer picks a shape per piece (`shape`: king, queen, rook, bishop,
// knight, pawn, or any key of SHAPES) and may pass `look` to choose a set
// ('classic' by default, 'token' for round counters with the letter).
// Pieces with no known shape fall back to the lettered disc of board.js.

const NS = 'http://www.w3.org/2000/svg';

// Outline paths (filled) and detail paths (stroked only), per shape.
const SHAPES = {
  pawn: {
    body: 'M38 32a12 12 0 1 0 24 0a12 12 0 1 0 -24 0ZM40 44h20l-3 6c6 8 9 18 10 26H33c1-8 4-18 10-26ZM26 78h48v10H26Z',
    detail: '',
  },
  rook: {
    body: 'M27 16h10v8h7v-8h12v8h7v-8h10v20l-8 6v30l6 6v0H29v0l6-6V42l-8-6ZM24 80h52v9H24Z',
    detail: 'M35 42h30M35 72h30',
  },
  knight: {
    body: 'M33 80c0-12 4-20 13-28-6 2-11 4-15 8-4-2-6-6-4-10 6-8 10-14 12-22l-2-10 8 6c14 0 26 10 28 30 2 12 0 20-2 26ZM26 80h50v9H26Z',
    detail: 'M44 24l4 4M36 38a2 2 0 1 0 4 0a2 2 0 1 0 -4 0',
  },
  bishop: {
    body: 'M45 11a5 5 0 1 0 10 0a5 5 0 1 0 -10 0ZM50 16c12 10 16 22 12 32l-3 4H41l-3-4c-4-10 0-22 12-32ZM40 56h20l4 20H36ZM26 78h48v10H26Z',
    detail: 'M55 26l-8 10M40 56h20',
  },
  queen: {
    body: 'M24 28l10 34 8-30 8 28 8-28 8 30 10-34-4 46H28ZM26 78h48v10H26Z',
    detail: 'M30 68h40',
  },
  king: {
    body: 'M46 6h8v8h8v7h-8v8h-8v-8h-8v-7h8ZM50 30c14 0 24 8 22 20-1 8-4 16-6 24H34c-2-8-5-16-6-24-2-12 8-20 22-20ZM26 78h48v10H26Z',
    detail: 'M34 66h32',
  },
  joker: {
    body: 'M28 20l12 16 10-22 10 22 12-16-4 52H32ZM26 76h48v10H26Z',
    detail: 'M37 50a3 3 0 1 0 6 0a3 3 0 1 0 -6 0M57 50a3 3 0 1 0 6 0a3 3 0 1 0 -6 0',
  },
};
const GLYPH_SHAPE = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn', J: 'joker' };

export function shapeOf(p) {
  if (p.shape && SHAPES[p.shape]) return p.shape;
  if (p.shape === null) return null;
  return GLYPH_SHAPE[p.glyph] || null;
}

function el(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  return e;
}

// Draws the shape into g (a 100×100 group). Returns false when the piece
// has no known shape.
export function drawShape(g, p, seatClass) {
  const name = shapeOf(p);
  if (!name) return false;
  const s = SHAPES[name];
  g.append(el('path', { class: `piece-shape ${seatClass}${p.dashed ? ' piece-unknown' : ''}`, d: s.body, 'fill-rule': 'nonzero' }));
  if (s.detail) g.append(el('path', { class: `piece-detail ${seatClass}-line`, d: s.detail }));
  return true;
}
