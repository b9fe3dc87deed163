// The match page (pages/match.js), choosing: the ruleset's set-up form,
// the always-visible buttons and the actions off the board, the tray of
// pieces to place (click, drag, auto-deploy), every legal action as a
// list or JSON, and the draft of one post (several actions when the
// renderer says they follow). A part lent to Match: see loading.js.

import { h, clear } from '../../ui.js';
import { words } from '../../words.js';

const MAX_BUTTONS = 4;     // a type with more actions than this becomes a list

export const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export class MatchChoosing {
  // The ruleset's own form for a set-up step (an army list), when it has one.
  renderBuilder(myTurn) {
    const v = this.view;
    let node = null;
    if (myTurn && v.state) {
      // The form keeps what the player typed across live updates: it is
      // rebuilt only when the legal actions change (not when another seat
      // posts its own army meanwhile).
      const key = JSON.stringify(this.actions);
      if (this.builderKey === key && this.builderNode) node = this.builderNode;
      else {
        node = this.hook('builder', v, {
          actions: this.actions,
          phrase: (a) => this.phrase(a),
          submit: (list) => this.setDraft(list, { sticky: true }),
        }) || null;
        this.builderKey = key;
        this.builderNode = node;
      }
    } else { this.builderNode = null; this.builderKey = null; }
    this.builderShown = !!node;
    if (node) { if (this.builderEl.firstChild !== node) clear(this.builderEl, node); } else clear(this.builderEl);
  }

  renderActions(myTurn) {
    const { other, tray } = this.index();
    this.actionsBox.hidden = !myTurn && !this.draft;
    this.composer.hidden = this.actionsBox.hidden;
    this.allActionsEl.hidden = this.actionsBox.hidden;
    if (this.selected) {
      const p = this.pieces().find((x) => x.square === this.selected);
      const n = (this.index().bySource.get(this.selected) || []).length;
      this.selectionEl.textContent = `Selected ${this.selected}${p ? ` (${p.label})` : ''}: ${n} action${n === 1 ? '' : 's'}, highlighted on the board.`;
    } else this.selectionEl.textContent = '';
    // The selected piece's abilities that need no target square (a spell
    // around it, a stay): a small menu under the board.
    // The piece that just acted in the draft shows them too, unselected
    // (issue 30, item 2: "end its turn" at once).
    const focus = this.selected || this.followed || null;
    const selfActs = focus ? (this.index().bySource.get(focus) || [])
      .filter((a) => { const t = this.squaresOf(a).to; return !t || t === focus; }) : [];
    // Chosen by the player: a menu; the one that just acted: its next
    // choices, in the same place.
    const next = !this.selected || this.selected === this.autoSelected;
    this.pieceMenuEl.className = next ? 'piece-menu piece-next' : 'menu piece-menu';
    clear(this.pieceMenuEl, selfActs.length ? [h('p', { class: 'label' }, `${next ? 'Next for' : 'Also for'} the piece on ${focus}:`),
      h('div', { class: 'row wrap' }, selfActs.map((a) => h('button', { type: 'button', class: 'action-btn', onclick: () => this.pick(a) }, this.phrase(a))))] : []);
    this.pieceMenuEl.hidden = !selfActs.length;

    // A few always-visible buttons: the renderer's pinned ones (End the
    // turn), then the actions off the board, a type with many of them as
    // one list.
    const items = [];
    if (myTurn && !this.builderShown) {
      const pinned = this.view.state ? this.hook('pinned', this.view) || [] : [];
      const pinnedTypes = new Set(pinned.map((p) => p.type));
      for (const pin of pinned) {
        const a = this.available().find((x) => x.type === pin.type);
        items.push(h('button', {
          type: 'button', class: 'action-btn pinned', disabled: !a, title: a ? null : pin.why,
          onclick: () => a && this.pick(a),
        }, pin.label));
        if (!a && pin.why) items.push(h('span', { class: 'hint pinned-why' }, pin.why));
      }
      const groups = new Map();
      for (const a of other) {
        if (pinnedTypes.has(a.type)) continue;
        const k = String(a.type);
        groups.set(k, [...(groups.get(k) || []), a]);
      }
      // Ending a turn or phase comes first, in bold, for any ruleset.
      const ending = (t) => /^(end|end_turn|end_phase|pass|done|finish)$/.test(t);
      const ordered = [...groups].sort(([x], [y]) => Number(ending(y)) - Number(ending(x)));
      for (const [type, list] of ordered) {
        if (list.length <= MAX_BUTTONS) {
          for (const a of list) items.push(h('button', { type: 'button', class: `action-btn${ending(type) ? ' pinned' : ''}`, onclick: () => this.pick(a) }, this.phrase(a)));
        } else {
          const id = `choose-${type.replace(/[^a-z0-9]+/gi, '-')}`;
          const sel = h('select', { id }, list.map((a, i) => h('option', { value: i }, this.phrase(a))));
          items.push(h('div', { class: 'choose-group' },
            h('label', { for: id }, `${words(type)} (${list.length} choices)`),
            h('div', { class: 'row' }, sel, h('button', { type: 'button', onclick: () => this.pick(list[Number(sel.value)]) }, 'Choose'))));
        }
      }
    }
    clear(this.otherActionsEl, items.length ? h('div', { class: 'row wrap', role: 'group', 'aria-label': 'Your choices' }, items) : []);
    this.otherActionsEl.hidden = !items.length;
    this.renderTray(myTurn, tray);
    clear(this.allActionsEl, this.actions.length ? this.actionList() : []);
    this.renderDraft();
  }

  // Pieces to place: one button per piece (with how many are left), the
  // chosen one's squares marked on the board; auto-deploy fills the rest.
  renderTray(myTurn, tray) {
    const batching = tray.size && this.batchAfter(this.draft ? this.draft.actions : [tray.values().next().value.actions[0]]);
    this.trayShown = !!(myTurn && tray.size && !this.builderShown && (tray.size > 1 || batching));
    if (!this.trayShown) { clear(this.trayEl); this.trayEl.hidden = true; return; }
    this.trayEl.hidden = false;
    const current = tray.has(this.trayKey) ? this.trayKey : tray.keys().next().value;
    clear(this.trayEl, h('p', { class: 'label', id: 'tray-h' }, 'Pieces to place: choose one, then a marked square.'),
      h('div', { class: 'row wrap', role: 'group', 'aria-labelledby': 'tray-h' },
        [...tray.values()].map(({ item }) => h('button', {
          type: 'button', class: `tray-item${item.key === current ? ' is-current' : ''}`, 'aria-pressed': item.key === current ? 'true' : 'false',
          onclick: () => { this.trayKey = item.key; this.renderActions(true); this.renderBoard(); },
          onpointerdown: (e) => this.dragFromTray(item.key, e),
        }, item.label + (item.count > 1 ? ` ×${item.count}` : '')))),
      batching ? h('button', { type: 'button', id: 'auto-deploy', onclick: () => this.autoDeploy() }, 'Auto-deploy the rest') : null);
  }

  // Dragging a piece from the tray onto a square places it there.
  dragFromTray(key, down) {
    const up = (e) => {
      document.removeEventListener('pointerup', up);
      if (Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) < 10) return;   // a click
      const el = document.elementFromPoint(e.clientX, e.clientY)?.closest?.('svg.board [data-square]');
      if (!el) return;
      this.trayKey = key;
      const list = (this.index().direct.get(el.dataset.square) || []).filter((a) => this.placement(a)?.key === key);
      if (list.length) this.pick(list[0]);
    };
    document.addEventListener('pointerup', up);
  }

  autoDeploy() {
    let list = this.draft ? [...this.draft.actions] : [];
    for (let guard = 0; guard < 64; guard++) {
      const rest = list.length ? this.batchAfter(list) : this.actions;
      if (!rest) break;
      const places = rest.filter((a) => this.placement(a));
      // Everything placed: the action that ends the set-up, when the
      // renderer offers exactly one (ChessWar's "done").
      if (!places.length) { if (list.length && rest.length === 1) list.push(rest[0]); break; }
      const key = this.placement(places[0]).key;
      const mine = places.filter((a) => this.placement(a).key === key);
      list.push(mine[Math.floor(Math.random() * mine.length)]);
    }
    if (list.length) this.setDraft(list);
  }

  // Every legal action as a button, with a filter for long lists.
  actionList() {
    const LIMIT = 200;
    const items = this.actions.map((a) => [a, this.phrase(a)]);
    const ul = h('ul', { class: 'action-list' });
    const more = h('p', { class: 'hint', 'aria-live': 'polite' });
    const show = (q) => {
      const ws = q.toLowerCase().split(/\s+/).filter(Boolean);
      const hits = items.filter(([, t]) => ws.every((w) => t.toLowerCase().includes(w)));
      clear(ul, hits.slice(0, LIMIT).map(([a, t]) => h('li', {},
        h('button', { type: 'button', class: 'link', onclick: () => this.pick(a) }, t))));
      more.textContent = hits.length > LIMIT ? `Showing ${LIMIT} of ${hits.length}: type to narrow.` : hits.length ? '' : 'No action matches.';
    };
    const filter = items.length > 20 ? h('input', {
      type: 'search', id: 'action-filter', placeholder: 'e.g. rook, c3, spell',
      oninput: (e) => show(e.target.value),
    }) : null;
    show('');
    return h('details', {},
      h('summary', {}, `All your legal actions (${this.actions.length})`),
      filter ? [h('label', { for: 'action-filter' }, 'Filter'), filter] : null,
      ul, more, this.jsonBox());
  }

  // Advanced: any actions as JSON.
  jsonBox() {
    const ta = h('textarea', { id: 'json-actions', rows: 3, spellcheck: false }, this.actions[0] ? JSON.stringify([this.actions[0]]) : '[]');
    const msg = h('span', { 'aria-live': 'polite' });
    return h('details', { class: 'json-box' }, h('summary', {}, 'Advanced: write the actions as JSON'),
      h('label', { for: 'json-actions' }, 'Actions (a JSON array)'), ta,
      h('button', {
        type: 'button',
        onclick: () => {
          try {
            const list = JSON.parse(ta.value);
            if (!Array.isArray(list) || !list.length) throw new Error();
            this.setDraft(list);
            msg.textContent = '';
          } catch { msg.textContent = 'That is not a JSON array of actions.'; }
        },
      }, 'Use these actions'), msg);
  }

  renderDraft() {
    const d = this.draft;
    if (!d) {
      clear(this.draftEl, h('p', {}, 'Nothing chosen yet.'));
    } else {
      const lines = d.actions.map((a) => {
        const pv = this.previewOf(a);
        const text = this.phrase(a);
        return pv.attack && !/attack/i.test(text) ? `Attack: ${text}` : text;
      });
      // Up to three choices in one line; more: the count and the last, the
      // whole list folded, so that the post box stays small under the board
      // on a phone (item 4).
      clear(this.draftEl, lines.length > 3
        ? h('details', { class: 'draft-all' }, h('summary', { class: 'draft-line' }, `Your post: ${lines.length} actions. Last: ${lines[lines.length - 1]}`),
          h('ol', { class: 'draft-list', tabindex: '0', 'aria-label': 'The actions of your post' }, lines.map((t) => h('li', {}, t))))
        : h('p', { class: 'draft-line' }, `Your choice: ${lines.join('; ')}`),
      d.preview ? this.draftNotice()
        : this.replay === null && d.actions.some((a) => this.squaresOf(a, this.view).to) ? h('p', { class: 'hint' }, 'Shown on the board (green; red for an attack) until you post.') : null);
    }
    this.postBtn.disabled = !d;
    this.renderPostEnd();
    this.clearBtn.disabled = !d;
    this.composer.classList.toggle('has-draft', !!d);
    this.undoBtn.hidden = !d || d.actions.length < 2;
    // A refusal (a barrier the listing could not see) hides it until the
    // match moves on.
    // (Not while drafting: the draft would go with it.)
    this.takeBackBtn.hidden = !!d || !(this.canUndo && this.myTurn() && this.undoRefusedAt !== this.view.seq);
  }

  setDraft(actions, { sticky = false, preview = null, pending = false, keepTicket = false } = {}) {
    this.draft = actions ? { actions, seq: this.view.seq, sticky, preview, pending } : null;
    this.followed = null;
    this.autoSelected = null;
    // A dry run still under way (drafting.js) no longer concerns it.
    if (!keepTicket && !pending) this.draftTicket = (this.draftTicket || 0) + 1;
    this.selected = null;
    this.selectionEl.textContent = '';
    this.closeMenu();
    this.renderActions(this.myTurn());
    this.renderBanner(this.myTurn());
    this.renderBoard();
    if (this.draft && !this.trayShown) this.postBtn.focus();
  }

  undoLast() {
    if (!this.draft) return;
    const list = this.draft.actions.slice(0, -1);
    if (list.length && (this.draft.preview || this.draft.pending)) this.tryDraft(list);
    else this.setDraft(list.length ? list : null);
  }

  // An action chosen: added to a draft of several when the renderer can
  // tell it follows (placements, drawn here), or when the server's dry
  // run of the draft lists it (a whole turn, issue 30); else a new draft.
  // Every draft but a set-up's placements is tried on the server first.
  pick(a) {
    const d = this.draft;
    if (d && !d.preview && !d.pending && this.batchAfter(d.actions)?.some((x) => same(x, a))) {
      this.setDraft([...d.actions, a]);
    } else if (d && d.preview && (this.previewActions() || []).some((x) => same(x, a))) {
      this.tryDraft([...d.actions, a]);
    } else if (this.batchAfter([a])) {
      this.setDraft([a]);
    } else this.tryDraft([a]);
  }
}
