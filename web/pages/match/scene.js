// The match page (pages/match.js), the board: my legal actions indexed by
// square (a piece's sources, direct targets, the tray's placements), the
// scene drawn (pieces, terrain, the last turn as arrows, battles and
// ghosts, the past position while stepping through, the draft previewed)
// and what a square chosen on the board does (select, choose, a menu when
// several actions share it). A part lent to Match: see loading.js.

import { h, clear } from '../../ui.js';

export class MatchScene {
  squaresOf(a, view = this.shownView()) {
    const r = this.hook('actionSquares', a, view);
    return r || { from: null, to: null };
  }

  // The actions I may choose now: the legal list, or, while a draft of
  // several actions is being built (placements), what the renderer says
  // is still legal after it.
  available() {
    if (!this.draft) return this.actions;
    const tried = this.previewActions();
    if (tried) return tried;
    const rest = this.batchAfter(this.draft.actions);
    return Array.isArray(rest) ? rest : this.actions;
  }

  batchAfter(list) {
    const r = this.hook('after', this.view, this.actions, list);
    return Array.isArray(r) ? r : null;
  }

  // Placements: actions on a square, with no piece moving, that put a
  // piece (tray item) there.
  placement(a) {
    const { from, to } = this.squaresOf(a);
    if (from || !to) return null;
    return this.hook('trayItem', a, this.shownView()) || null;
  }

  // The actions indexed for the board.
  index() {
    const bySource = new Map();
    const direct = new Map();
    const other = [];
    const tray = new Map();   // key -> {item, actions}
    for (const a of this.available()) {
      const { from, to } = this.squaresOf(a);
      const item = this.placement(a);
      if (item) {
        if (!tray.has(item.key)) tray.set(item.key, { item, actions: [] });
        tray.get(item.key).actions.push(a);
      }
      if (from) bySource.set(from, [...(bySource.get(from) || []), a]);
      else if (to) {
        direct.set(to, [...(direct.get(to) || []), a]);
      } else other.push(a);
    }
    // With a tray, a square holds the placement of the chosen piece (or of
    // the first one left), not one button per piece.
    if (tray.size > 1 || (tray.size && this.draft && this.batchAfter(this.draft.actions))) {
      const key = tray.has(this.trayKey) ? this.trayKey : tray.keys().next().value;
      for (const [sq, list] of direct) {
        // One placement of the chosen key a square: pieces alike in one
        // tray item (Confrontation's Pawns) are placed one at a time.
        const chosen = list.find((a) => this.placement(a)?.key === key);
        const keep = list.filter((a) => a === chosen || !this.placement(a));
        if (keep.length) direct.set(sq, keep); else direct.delete(sq);
      }
    }
    return { bySource, direct, other, tray };
  }

  pieces(v = this.shownView()) {
    return v.state ? this.hook('pieces', v) || [] : [];
  }

  // The posts whose effects the board shows: the others' posts since my
  // last turn; when I posted last, my own last post.
  lastTurnPosts() {
    const turns = this.turnPosts();
    if (!turns.length) return [];
    const me = this.view.you;
    let i = turns.length - 1;
    if (turns[i].seat === me) {
      const out = [];
      while (i >= 0 && turns[i].seat === me) out.unshift(turns[i--]);
      return out.slice(-1);
    }
    const out = [];
    while (i >= 0 && turns[i].seat !== me) out.unshift(turns[i--]);
    // Not the whole set-up: the latest run of the last seat that posted.
    const lastSeat = out[out.length - 1].seat;
    let j = out.length - 1;
    while (j > 0 && out[j - 1].seat === lastSeat) j--;
    return me === null || me === undefined ? out.slice(j) : out.slice(Math.max(0, out.length - 12));
  }

  traces(posts, kind) {
    const arrows = [];
    const battles = [];
    const ghosts = [];
    const squares = new Set();
    for (const p of posts) {
      for (const e of p.events || []) {
        const t = this.hook('trace', e, this.view) || {};
        if (t.arrow) { arrows.push({ ...t.arrow, kind }); squares.add(t.arrow.from); squares.add(t.arrow.to); }
        if (t.battle) { battles.push({ square: t.battle, kind }); squares.add(t.battle); }
        if (t.removed) ghosts.push({ square: t.removed.square, piece: t.removed.piece, kind: 'removed' });
        if (t.placed) squares.add(t.placed);
      }
    }
    return { arrows, battles, ghosts, squares };
  }

  scene() {
    const v = this.view;
    const now = this.shownView();
    const pieces = this.pieces();
    const terrain = now.state ? this.hook('terrain', now) || [] : [];
    const { bySource, direct } = this.index();
    // How a target is marked: a dot on an empty square, a red ring on
    // another seat's piece, a green ring on one of mine (activate, swap).
    const owner = new Map(pieces.map((p) => [p.square, p.seat]));
    const how = (sq) => (!owner.has(sq) ? 'move' : owner.get(sq) === v.you ? 'own' : 'capture');
    const targets = new Map();
    if (this.selected && bySource.has(this.selected)) {
      for (const a of bySource.get(this.selected)) {
        const t = this.squaresOf(a).to || this.selected;
        targets.set(t, t === this.selected ? 'own' : how(t));
      }
    } else {
      for (const sq of direct.keys()) targets.set(sq, how(sq));
    }
    // What happened: the last turn (or the post replayed), then my choice.
    const turns = this.turnPosts();
    const shown = this.replay !== null && turns[this.replay] ? this.traces([turns[this.replay]], 'replay')
      : this.traces(this.lastTurnPosts(), 'last');
    const pastView = this.replay !== null ? this.pastView(this.replay) : null;
    const past = pastView?.state ? this.hook('pieces', pastView) || []
      : this.replay !== null ? this.replayPieces(this.replay) : null;
    // A past position from the server has its own terrain; one rebuilt
    // here keeps the lasting terrain, not the marks of now.
    const pastTerrain = pastView?.state ? this.hook('terrain', pastView) || []
      : past ? terrain.filter((t) => !t.transient) : terrain;
    const scene = {
      pieces: past || pieces, terrain: pastTerrain, selected: this.selected, sources: new Set(bySource.keys()), targets,
      last: [...shown.squares], arrows: shown.arrows, battles: shown.battles,
      ghosts: shown.ghosts.filter((g) => !owner.has(g.square)),
    };
    if (this.draft && this.replay === null) {
      // The draft's arrows from where it started; with the server's
      // preview the pieces already stand where they go.
      const before = now === v ? pieces : this.pieces(v);
      const ctx = {
        squares: (a) => this.squaresOf(a, v),
        pieceAt: (sq) => before.find((p) => p.square === sq) || null,
        trayItem: (a) => this.hook('trayItem', a, v),
      };
      for (const a of this.draft.actions) {
        const pv = this.hook('preview', a, v, ctx) || {};
        scene.arrows.push(...(pv.arrows || []));
        scene.battles.push(...(pv.battles || []));
        scene.ghosts.push(...(pv.ghosts || []));
        // A piece moving away is shown where it goes, faded where it was.
        for (const ar of now === v ? pv.arrows || [] : []) {
          const p = pieces.find((x) => x.square === ar.from);
          if (p && ar.kind === 'preview' && !owner.has(ar.to)) scene.ghosts.push({ square: ar.to, piece: p, kind: 'preview' });
        }
      }
    }
    return scene;
  }

  renderBoard() {
    if (!this.view) return;
    this.board.render(this.scene());
  }

  // The badges and marks explained.
  renderLegend() {
    const v = this.view;
    const rows = [...(v.state ? this.hook('legend', v) || [] : []),
      ['blue arrow', 'the last turn: a move'], ['red ring with a cross', 'a battle or an attack'],
      ['faded piece', 'a piece removed in the last turn, or your choice before you post'],
      ['green arrow', 'your choice, before you post (red: an attack)'],
      ['dot / ring', 'where the chosen piece can go / act']];
    clear(this.legendEl, h('summary', {}, 'What the marks mean'),
      h('dl', { class: 'state-facts' }, rows.map(([k, t]) => [h('dt', {}, k), h('dd', {}, t)])));
  }

  previewOf(a) {
    const pieces = this.pieces(this.view);
    return this.hook('preview', a, this.view, {
      squares: (x) => this.squaresOf(x, this.view),
      pieceAt: (sq) => pieces.find((p) => p.square === sq) || null,
      trayItem: (x) => this.hook('trayItem', x, this.view),
    }) || {};
  }

  onSquare(sq) {
    if (!this.view) return;
    if (this.replay !== null) { this.setReplay(null); }
    const { bySource, direct } = this.index();
    this.closeMenu();
    if (this.selected && this.selected !== sq) {
      const here = (bySource.get(this.selected) || []).filter((a) => (this.squaresOf(a).to || this.selected) === sq);
      if (here.length) { this.choose(here, sq); return; }
    }
    if (this.selected === sq) {
      const self = (bySource.get(sq) || []).filter((a) => !this.squaresOf(a).to || this.squaresOf(a).to === sq);
      if (self.length) { this.choose(self, sq); return; }
      this.selected = null;
    } else if (bySource.has(sq)) {
      this.selected = sq;
    } else if (direct.has(sq)) {
      this.choose(direct.get(sq), sq);
      return;
    } else {
      this.selected = null;
      this.selectionEl.textContent = this.actions.length ? `No action of yours on ${sq}.` : '';
      this.renderBoard();
      return;
    }
    this.renderActions(true);
    this.renderBoard();
  }

  choose(list, sq) {
    if (list.length === 1) { this.pick(list[0]); return; }
    // Several actions share the square: a small menu.
    clear(this.menuEl, h('p', { class: 'label' }, `Several actions on ${sq}:`),
      h('div', { class: 'row wrap', role: 'group', 'aria-label': `Actions on ${sq}` },
        list.map((a) => h('button', { type: 'button', class: 'action-btn', onclick: () => this.pick(a) }, this.phrase(a))),
        h('button', { type: 'button', onclick: () => { this.closeMenu(); this.board.setFocus(sq); } }, 'Cancel')));
    this.menuEl.hidden = false;
    this.menuEl.onkeydown = (e) => { if (e.key === 'Escape') { this.closeMenu(); this.board.setFocus(sq); } };
    this.menuEl.querySelector('button').focus();
  }

  closeMenu() {
    if (this.menuEl) { this.menuEl.hidden = true; this.menuEl.replaceChildren(); }
  }
}
