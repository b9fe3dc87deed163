// The shared board (8x8, or up to 16x16 where a ruleset's view says so in
// state.board {files, ranks}): an SVG grid of focusable squares, files and ranks
// labelled, seat 0 at the bottom unless flipped. It knows nothing of any
// ruleset: it draws what a renderer describes (pieces, terrain) and the
// highlights the match page asks for, and reports the square chosen by
// click, tap, Enter or Space. The arrow keys move between squares.

import { drawShape } from './pieces.js';

const NS = 'http://www.w3.org/2000/svg';
const FILES = 'abcdefghijklmnop';
const S = 100;      // square size in SVG units
const M = 30;       // margin for the rank and file labels

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, v);
  for (const c of children) if (c) el.append(c);
  return el;
}

export function squareName(file, rank) { return FILES[file] + (rank + 1); }
export function parseSquare(sq) {
  if (typeof sq !== 'string' || !/^[a-p](1[0-6]|[1-9])$/.test(sq)) return null;
  return { file: FILES.indexOf(sq[0]), rank: Number(sq.slice(1)) - 1 };
}

export class Board {
  // onSquare(square) when a square is chosen; onEscape() on Escape.
  constructor({ onSquare, onEscape, label = 'Board' } = {}) {
    this.onSquare = onSquare || (() => {});
    this.onEscape = onEscape || (() => {});
    this.flipped = false;
    this.files = 8;
    this.ranks = 8;
    this.focus = 'e2';
    this.squares = new Map();
    this.el = svg('svg', {
      viewBox: `0 0 ${8 * S + M} ${8 * S + M}`, class: 'board', role: 'grid',
      'aria-label': label,
    });
    this.el.addEventListener('click', (e) => {
      const g = e.target.closest('[data-square]');
      if (g) { this.setFocus(g.dataset.square, false); this.onSquare(g.dataset.square); }
    });
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.build();
  }

  // Screen position of a square: column 0.. left to right, row 0.. top down.
  pos(file, rank) {
    return this.flipped ? { col: this.files - 1 - file, row: rank }
      : { col: file, row: this.ranks - 1 - rank };
  }

  // A board of another size (ChessWar's larger boards, C11).
  setSize(files, ranks) {
    files = Math.min(16, Math.max(1, files | 0 || 8));
    ranks = Math.min(16, Math.max(1, ranks | 0 || 8));
    if (files === this.files && ranks === this.ranks) return;
    this.files = files;
    this.ranks = ranks;
    if (!this.squares.has(this.focus) || parseSquare(this.focus).file >= files || parseSquare(this.focus).rank >= ranks) this.focus = 'a1';
    this.build();
  }

  build() {
    const had = this.el.contains(document.activeElement);
    this.el.replaceChildren();
    this.squares.clear();
    this.el.setAttribute('viewBox', `0 0 ${this.files * S + M} ${this.ranks * S + M}`);
    const rows = [];
    for (let row = 0; row < this.ranks; row++) {
      rows.push(svg('g', { role: 'row' }));
    }
    for (let rank = 0; rank < this.ranks; rank++) {
      for (let file = 0; file < this.files; file++) {
        const name = squareName(file, rank);
        const { col, row } = this.pos(file, rank);
        const dark = (file + rank) % 2 === 0;
        const g = svg('g', {
          class: `sq ${dark ? 'sq-dark' : 'sq-light'}`, role: 'gridcell', 'data-square': name,
          transform: `translate(${M + col * S} ${row * S})`, tabindex: name === this.focus ? '0' : '-1',
          'aria-label': name,
        });
        g.append(svg('rect', { class: 'sq-bg', width: S, height: S }));
        const layers = {
          hl: svg('g', { class: 'sq-hl' }),
          terrain: svg('g', { class: 'sq-terrain' }),
          piece: svg('g', { class: 'sq-piece' }),
          mark: svg('g', { class: 'sq-mark' }),
        };
        g.append(layers.hl, layers.terrain, layers.piece, layers.mark,
          svg('rect', { class: 'sq-focus', x: 4, y: 4, width: S - 8, height: S - 8, rx: 6 }));
        this.squares.set(name, { g, ...layers, col, row });
        rows[row].append(g);
      }
    }
    // Cells in reading order inside each row.
    for (const r of rows) {
      [...r.children].sort((a, b) => this.squares.get(a.dataset.square).col - this.squares.get(b.dataset.square).col)
        .forEach((c) => r.append(c));
      this.el.append(r);
    }
    const labels = svg('g', { class: 'coords', 'aria-hidden': 'true' });
    for (let i = 0; i < this.files; i++) {
      const file = this.flipped ? this.files - 1 - i : i;
      const fx = svg('text', { x: M + i * S + S / 2, y: this.ranks * S + M - 7, 'text-anchor': 'middle' });
      fx.textContent = FILES[file];
      labels.append(fx);
    }
    for (let i = 0; i < this.ranks; i++) {
      const rank = this.flipped ? i : this.ranks - 1 - i;
      const ry = svg('text', { x: M / 2, y: i * S + S / 2 + 8, 'text-anchor': 'middle' });
      ry.textContent = String(rank + 1);
      labels.append(ry);
    }
    this.el.append(labels);
    // Arrows, battle marks and ghosts over the squares; never hit by clicks.
    this.overlay = svg('g', { class: 'overlay', 'aria-hidden': 'true', 'pointer-events': 'none' });
    this.el.append(defs(), this.overlay);
    if (this.last) this.render(this.last);
    if (had) this.setFocus(this.focus, true);
  }

  setFlipped(flipped) {
    if (this.flipped === !!flipped) return;
    this.flipped = !!flipped;
    this.build();
  }

  setFocus(square, move = true) {
    const old = this.squares.get(this.focus);
    if (old) old.g.setAttribute('tabindex', '-1');
    this.focus = square;
    const s = this.squares.get(square);
    s.g.setAttribute('tabindex', '0');
    if (move) s.g.focus({ preventScroll: false });
  }

  key(e) {
    const s = this.squares.get(this.focus);
    if (!s) return;
    const d = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (d) {
      e.preventDefault();
      const col = Math.min(this.files - 1, Math.max(0, s.col + d[0]));
      const row = Math.min(this.ranks - 1, Math.max(0, s.row + d[1]));
      for (const [name, q] of this.squares) if (q.col === col && q.row === row) this.setFocus(name);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.onSquare(this.focus);
    } else if (e.key === 'Escape') {
      this.onEscape();
    }
  }

  // scene: {pieces:[{square, seat, glyph, label, badges, dashed, draw}],
  //         terrain:[{square, kind, glyph, label}],
  //         selected, sources:Set, targets:Map(square -> 'move'|'capture'|'own'),
  //         last:[squares]}
  render(scene) {
    this.last = scene;
    const labels = new Map();
    for (const [, q] of this.squares) {
      q.hl.replaceChildren(); q.terrain.replaceChildren(); q.piece.replaceChildren(); q.mark.replaceChildren();
      q.g.classList.remove('is-source', 'is-selected', 'is-target');
    }
    const add = (sq, text) => labels.set(sq, [...(labels.get(sq) || []), text]);
    for (const sq of scene.last || []) {
      const q = this.squares.get(sq);
      if (q) q.hl.append(svg('rect', { class: 'hl-last', width: S, height: S }));
    }
    for (const t of scene.terrain || []) {
      const q = this.squares.get(t.square);
      if (!q) continue;
      if (t.draw) t.draw(q.terrain, S, svg);
      else {
        q.terrain.append(svg('rect', { class: `terrain terrain-${cssName(t.kind)}`, x: 2, y: 2, width: S - 4, height: S - 4 }));
        const tx = svg('text', { class: 'terrain-glyph', x: 8, y: 26, 'aria-hidden': 'true' });
        tx.textContent = t.glyph || '';
        q.terrain.append(tx);
      }
      add(t.square, t.label || t.kind);
      if (!t.draw && t.glyph) add(t.square, `marked ${t.glyph}`);
    }
    // Several pieces on one square (a stack, an engaged attacker) are
    // drawn smaller, side by side, the first one in front.
    const bySquare = new Map();
    const badgeLayer = [];
    for (const p of scene.pieces || []) bySquare.set(p.square, [...(bySquare.get(p.square) || []), p]);
    for (const [square, list] of bySquare) {
      const q = this.squares.get(square);
      if (!q) continue;
      list.forEach((p, i) => {
        let g = q.piece;
        if (list.length > 1) {
          g = svg('g', { class: 'stacked', transform: i === 0 ? 'translate(36 36) scale(0.64)' : `translate(${(i - 1) * 10} ${(i - 1) * 10}) scale(0.6)` });
          if (i === 0) q.piece.append(g); else q.piece.prepend(g);
        }
        if (p.draw) p.draw(g, S, svg);
        else drawPiece(g, { ...p, badges: [] });
        add(square, p.label);
      });
      // Badges go over the board (outside the square's accessible name;
      // the piece's label says what they mean): the front piece's.
      const front = list.find((p) => !p.draw && p.badges?.length);
      if (front) badgeLayer.push({ square, badges: front.badges });
      // The letters drawn on the square are in its name too, in the order
      // they are drawn (what is seen is what is read).
      const marks = [...q.piece.querySelectorAll('text')].map((t) => t.textContent).filter(Boolean);
      if (marks.length) add(square, `marked ${marks.join(' ')}`);
      if (list.length > 1) add(square, `${list.length} pieces on this square`);
    }
    for (const sq of scene.sources || []) {
      const q = this.squares.get(sq);
      if (!q) continue;
      q.g.classList.add('is-source');
      q.hl.append(svg('rect', { class: 'hl-source', x: 3, y: 3, width: S - 6, height: S - 6 }));
    }
    if (scene.selected) {
      const q = this.squares.get(scene.selected);
      if (q) {
        q.g.classList.add('is-selected');
        q.hl.append(svg('rect', { class: 'hl-selected', width: S, height: S }));
        add(scene.selected, 'selected');
      }
    }
    for (const [sq, how] of scene.targets || []) {
      const q = this.squares.get(sq);
      if (!q) continue;
      q.g.classList.add('is-target');
      if (how === 'capture') q.mark.append(svg('circle', { class: 'mark-capture', cx: S / 2, cy: S / 2, r: 44 }));
      else if (how === 'own') q.mark.append(svg('circle', { class: 'mark-own', cx: S / 2, cy: S / 2, r: 44 }));
      else q.mark.append(svg('circle', { class: 'mark-target', cx: S / 2, cy: S / 2, r: 15 }));
    }
    this.drawOverlay(scene, add);
    for (const b of badgeLayer) {
      const c = this.centre(b.square);
      const g = svg('g', { class: 'badges', transform: `translate(${c.x - S / 2} ${c.y - S / 2})` });
      badges(g, b);
      this.overlay.append(g);
    }
    for (const [name, q] of this.squares) {
      const extra = [...(labels.get(name) || [])];
      if (scene.sources?.has(name) && scene.selected !== name) extra.push('has actions');
      if (scene.targets?.has(name)) extra.push('choose to act here');
      q.g.setAttribute('aria-label', [name, ...extra].join(', '));
      q.g.setAttribute('aria-selected', scene.selected === name ? 'true' : 'false');
    }
  }
}

Board.prototype.centre = function centre(sq) {
  const q = this.squares.get(sq);
  return q ? { x: M + q.col * S + S / 2, y: q.row * S + S / 2 } : null;
};

// scene.arrows [{from, to, kind}] (kind: last, preview, attack, replay),
// scene.battles [{square, kind}], scene.ghosts [{square, piece, kind}]
// (kind: removed, preview). Each adds words to its squares' labels.
Board.prototype.drawOverlay = function drawOverlay(scene, add) {
  this.overlay.replaceChildren();
  for (const gh of scene.ghosts || []) {
    const c = this.centre(gh.square);
    if (!c || !gh.piece) continue;
    const g = svg('g', { class: `ghost ghost-${gh.kind || 'removed'}`, transform: `translate(${c.x - S / 2} ${c.y - S / 2})` });
    drawPiece(g, { ...gh.piece, badges: [] });
    this.overlay.append(g);
    add(gh.square, gh.kind === 'preview' ? `your choice: ${gh.piece.label || 'a piece'} here` : `removed: ${gh.piece.label || 'a piece'}`);
  }
  for (const b of scene.battles || []) {
    const c = this.centre(b.square);
    if (!c) continue;
    this.overlay.append(svg('g', { class: `battle battle-${b.kind || 'last'}`, transform: `translate(${c.x} ${c.y})` },
      svg('circle', { r: 46 }), svg('path', { d: 'M-44 -44L-26 -26M-26 -44L-44 -26' })));
    add(b.square, b.kind === 'preview' ? 'your attack' : 'a battle was fought here');
  }
  for (const a of scene.arrows || []) {
    const p = this.centre(a.from);
    const q = this.centre(a.to);
    if (!p || !q || a.from === a.to) continue;
    const dx = q.x - p.x; const dy = q.y - p.y; const len = Math.hypot(dx, dy);
    // Onto a stack the arrow stops at the square's edge, not over the pieces.
    const cut = (this.squares.get(a.to)?.piece.childElementCount || 0) > 1 ? 50 : 30;
    const end = { x: q.x - (dx / len) * cut, y: q.y - (dy / len) * cut };
    this.overlay.append(svg('line', {
      class: `arrow arrow-${a.kind || 'last'}`, x1: p.x, y1: p.y, x2: end.x, y2: end.y,
      'marker-end': `url(#head-${a.kind || 'last'})`,
    }));
    const what = a.kind === 'preview' ? 'your move' : a.kind === 'attack' ? 'your attack' : 'last move';
    add(a.from, `${what} from here to ${a.to}`);
    add(a.to, `${what} from ${a.from} to here`);
  }
};

function defs() {
  const d = svg('defs');
  for (const kind of ['last', 'preview', 'attack', 'replay']) {
    d.append(svg('marker', {
      id: `head-${kind}`, viewBox: '0 0 10 10', refX: 3, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse',
    }, svg('path', { class: `arrowhead arrow-${kind}`, d: 'M0 0L10 5L0 10Z' })));
  }
  return d;
}

function cssName(s) { return String(s || 'mark').toLowerCase().replace(/[^a-z0-9]+/g, '-'); }

// The default piece: a disc in the owner's colour with a letter or symbol.
export function drawPiece(g, p) {
  const seat = Number.isInteger(p.seat) ? p.seat % 6 : 'n';
  const title0 = svg('title');
  title0.textContent = p.label || '';
  if (drawShape(g, p, `seat-${seat}`)) {
    g.prepend(title0);
    badges(g, p);
    return;
  }
  const c = svg('circle', {
    class: `piece seat-${seat}${p.dashed ? ' piece-unknown' : ''}`, cx: S / 2, cy: S / 2, r: 36,
  });
  const t = svg('text', {
    class: `piece-glyph seat-${seat}-ink`, x: S / 2, y: S / 2 + 13, 'text-anchor': 'middle', 'aria-hidden': 'true',
    'font-size': (p.glyph || '').length > 1 ? 30 : 38,
  });
  t.textContent = p.glyph || '?';
  const title = svg('title');
  title.textContent = p.label || '';
  g.append(title, c, t);
  badges(g, p);
}

function badges(g, p) {
  (p.badges || []).slice(0, 2).forEach((b, i) => {
    const x = i === 0 ? S - 22 : 22;
    g.append(svg('rect', { class: 'badge', x: x - 18, y: 3, width: 36, height: 22, rx: 11 }));
    const bt = svg('text', { class: 'badge-text', x, y: 19, 'text-anchor': 'middle', 'aria-hidden': 'true' });
    bt.textContent = String(b).slice(0, 3);
    g.append(bt);
  });
}

// A small picture of a position for lists (My matches): no squares to
// focus, no labels; the words beside it say what it shows.
export function miniBoard(pieces, flipped = false, size = 96) {
  const el = svg('svg', { viewBox: `0 0 ${8 * S} ${8 * S}`, width: size, height: size, class: 'mini-board', 'aria-hidden': 'true', focusable: 'false' });
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      el.append(svg('rect', { x: f * S, y: r * S, width: S, height: S, class: (f + r) % 2 ? 'mini-dark' : 'mini-light' }));
    }
  }
  for (const p of pieces) {
    const sq = parseSquare(p.square);
    if (!sq || sq.file > 7 || sq.rank > 7) continue;   // a small 8x8 picture
    const col = flipped ? 7 - sq.file : sq.file;
    const row = flipped ? sq.rank : 7 - sq.rank;
    const g = svg('g', { transform: `translate(${col * S} ${row * S})` });
    drawPiece(g, { ...p, badges: [], label: '' });
    el.append(g);
  }
  return el;
}
