// A match: the board, my legal actions, the thread of posts, live updates
// through the long-poll, and the match-level choices (draw, resign, abort).

import { get, request, token, randomHex, loadInvites, inviteLink, ApiError } from '../api.js';
import { h, clear, errorBox, copyField, setTitle } from '../ui.js';
import { Board } from '../board.js';
import { rendererFor } from '../renderers/registry.js';
import { actionText, eventText, postHeading, resultText, seatName, words, isSquare } from '../words.js';

const WAIT = 50;           // seconds per long-poll (the server allows 60)
const TARGET_KEYS = ['to', 'target', 'square', 'at'];

function targetOf(a) { return TARGET_KEYS.map((k) => a[k]).find(isSquare) || null; }
function sourceOf(a) { return isSquare(a.from) ? a.from : null; }

export async function show(main, { game }) {
  const id = Number(game);
  const m = new Match(main, id);
  await m.start();
  return m;
}

class Match {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    this.view = null;
    this.etag = null;
    this.actions = [];         // my legal actions now
    this.actionsSeq = -1;
    this.posts = [];
    this.postsAfter = 0;
    this.revealed = false;     // posts re-read once the match is over
    this.selected = null;
    this.draft = null;         // {actions:[...], label}
    this.stopped = false;
    this.poller = null;        // AbortController of the long-poll
    this.flippedSet = false;
    this.attemptKey = `warpost.attempt.${id}`;
  }

  stop() {
    this.stopped = true;
    document.removeEventListener('visibilitychange', this.wake);
    window.removeEventListener('online', this.wake);
    if (this.poller) this.poller.abort();
    document.title = 'Warpost';
  }

  async start() {
    setTitle(`Match #${this.id}`);
    this.build();
    // A phone that slept, or a connection that came back: look now rather
    // than at the end of the current wait or back-off.
    this.wake = () => { if (document.visibilityState === 'visible' && this.isLive()) this.refresh(); };
    document.addEventListener('visibilitychange', this.wake);
    window.addEventListener('online', this.wake);
    this.loop();
  }

  // ------------------------------------------------------------ layout

  build() {
    this.titleEl = h('h1', { class: 'match-title' }, `Match #${this.id}`);
    this.statusEl = h('p', { class: 'match-status', role: 'status' }, 'Loading the match…');
    this.liveEl = h('span', { class: 'live', 'aria-live': 'polite' });
    this.seatsEl = h('ul', { class: 'seats' });
    this.promptEl = h('div', { class: 'prompt', 'aria-live': 'polite' });
    this.board = new Board({
      label: `Board of match ${this.id}`,
      onSquare: (sq) => this.onSquare(sq),
      onEscape: () => { this.selected = null; this.closeMenu(); this.renderBoard(); },
    });
    this.boardHint = h('p', { class: 'hint board-hint', id: 'board-hint' },
      'Choose a piece, then a highlighted square. ',
      h('span', { class: 'kbd-hint' }, 'Keyboard: arrow keys move on the board, Enter chooses, Escape cancels.'));
    this.board.el.setAttribute('aria-describedby', 'board-hint');
    this.menuEl = h('div', { class: 'menu', hidden: true });
    this.flipBtn = h('button', { type: 'button', class: 'small', onclick: () => { this.board.setFlipped(!this.board.flipped); } }, 'Flip board');
    this.selectionEl = h('p', { class: 'selection', 'aria-live': 'polite' });
    this.otherActionsEl = h('div', { class: 'other-actions' });
    this.allActionsEl = h('div', { class: 'all-actions' });
    this.comment = h('textarea', { id: 'comment', rows: 2, maxlength: 2000, placeholder: 'A comment with your post (optional)' });
    this.hidden = h('input', { type: 'checkbox', id: 'comment-hidden' });
    this.postBtn = h('button', { type: 'button', class: 'primary', id: 'post-btn', onclick: () => this.sendPost() }, 'Post');
    this.clearBtn = h('button', { type: 'button', onclick: () => this.setDraft(null) }, 'Clear');
    this.draftEl = h('p', { class: 'draft', 'aria-live': 'polite' });
    this.postMsg = h('div', { 'aria-live': 'polite' });
    this.composer = h('section', { class: 'card composer', 'aria-label': 'Your post' },
      this.draftEl,
      h('label', { for: 'comment' }, 'Comment'),
      this.comment,
      h('div', { class: 'field-check' }, this.hidden, h('label', { for: 'comment-hidden' }, 'Hide my comment until the match ends')),
      h('div', { class: 'row' }, this.postBtn, this.clearBtn),
      this.postMsg);
    this.actionsBox = h('section', { class: 'actions', 'aria-label': 'Your actions' },
      this.selectionEl, this.menuEl, this.composer, this.allActionsEl);
    this.panelEl = h('div', { class: 'panel' });
    this.controlsEl = h('section', { class: 'controls', 'aria-label': 'Match' });
    this.resultEl = h('section', { class: 'result', 'aria-live': 'polite' });
    this.invitesEl = h('section', { class: 'invites' });
    this.threadEl = h('ol', { class: 'thread', 'aria-label': 'Posts' });
    clear(this.main,
      h('div', { class: 'match' },
        h('div', { class: 'match-head' }, this.titleEl, this.statusEl, this.liveEl),
        h('div', { class: 'match-grid' },
          h('div', { class: 'board-col' },
            this.promptEl,
            this.otherActionsEl,
            h('div', { class: 'board-wrap' }, this.board.el),
            h('div', { class: 'board-tools' }, this.flipBtn, this.boardHint),
            this.actionsBox),
          h('div', { class: 'side-col' },
            this.resultEl,
            this.seatsEl,
            this.invitesEl,
            this.panelEl,
            this.controlsEl,
            h('section', { 'aria-labelledby': 'thread-h' }, h('h2', { id: 'thread-h' }, 'Posts'), this.threadEl)))));
  }

  // ---------------------------------------------------------- updating

  async loop() {
    let backoff = 1;
    while (!this.stopped) {
      this.poller = new AbortController();
      try {
        const headers = this.etag ? { 'If-None-Match': this.etag } : {};
        const url = `/api/games/${this.id}` + (this.etag && this.view && this.isLive() ? `?wait=${WAIT}` : '');
        const r = await get(url, { headers, signal: this.poller.signal });
        backoff = 1;
        this.liveEl.textContent = '';
        if (r.status === 200) {
          if (!r.body || typeof r.body !== 'object') throw new Error('not a match view');
          // The ETag is kept only once the view is shown, so that a view
          // lost half-way is fetched again.
          const etag = r.headers.get('ETag');
          await this.applyView(r.body);
          this.etag = etag;
        }
        if (!this.isLive()) {
          // Nothing more will change: stop polling.
          return;
        }
      } catch (err) {
        if (this.stopped) return;
        if (err.name === 'AbortError') continue;
        if (!(err instanceof ApiError)) console.error('match view', err);
        if (err.status === 404 || err.status === 401 || err.status === 400) {
          this.statusEl.textContent = '';
          clear(this.promptEl, errorBox(err));
          return;
        }
        this.liveEl.textContent = 'Connection lost; trying again…';
        // Wait, unless refresh() asks to try now.
        const signal = this.poller.signal;
        await new Promise((done) => {
          const t = setTimeout(done, backoff * 1000);
          signal.addEventListener('abort', () => { clearTimeout(t); done(); }, { once: true });
        });
        backoff = Math.min(backoff * 2, 30);
      }
    }
  }

  isLive() {
    return !this.view || this.view.status === 'open' || this.view.status === 'active';
  }

  // Ask the long-poll to come back now (after my own post).
  refresh() {
    if (this.poller) this.poller.abort();
    if (!this.isLive()) this.loop();
  }

  async applyView(view) {
    const first = !this.view;
    const seqChanged = !this.view || this.view.seq !== view.seq;
    this.view = view;
    if (first) {
      this.renderer = await rendererFor(view.ruleset);
    }
    if (!this.flippedSet && view.state) {
      this.board.setFlipped(this.renderer.flipped(view));
      this.flippedSet = true;
    }
    if (seqChanged) {
      this.selected = null;
      this.closeMenu();
      if (this.draft && this.draft.seq !== view.seq) {
        this.setDraft(null);
        clear(this.postMsg, h('p', { class: 'note' }, 'The match moved on: your choice was cleared.'));
      }
    }
    await Promise.all([this.loadActions(), this.loadPosts()]);
    await this.retryUnknownAttempt();
    this.render();
  }

  async loadActions() {
    const v = this.view;
    const mine = v.you !== null && v.you !== undefined;
    if (!mine || v.status !== 'active' || !v.awaiting.includes(v.you)) {
      this.actions = [];
      this.actionsSeq = v.seq;
      return;
    }
    if (this.actionsSeq === v.seq) return;
    try {
      const r = await get(`/api/games/${this.id}/actions`);
      this.actions = r.body.awaited ? r.body.actions || [] : [];
      this.actionsSeq = r.body.seq;
    } catch (err) {
      this.actions = [];
      clear(this.postMsg, errorBox(err, () => { this.actionsSeq = -1; this.loadActions().then(() => this.render()); }, 'Load my actions again'));
    }
  }

  async loadPosts() {
    const v = this.view;
    if (!this.revealed && (v.status === 'over' || v.status === 'aborted')) {
      // At the end every post is revealed: read the thread again.
      this.revealed = true;
      this.posts = [];
      this.postsAfter = 0;
      this.threadEl.replaceChildren();
    }
    try {
      for (let guard = 0; guard < 100; guard++) {
        const r = await get(`/api/games/${this.id}/turns?after=${this.postsAfter}&limit=500`);
        const list = r.body.posts || [];
        for (const p of list) {
          this.posts.push(p);
          this.threadEl.append(this.postItem(p));
          this.postsAfter = p.seq;
        }
        if (r.body.next_after === null || r.body.next_after === undefined || !list.length) break;
      }
      // Keep the newest post in sight where the thread scrolls by itself
      // (wide screens); never scroll the page under the player's thumb.
      this.threadEl.scrollTop = this.threadEl.scrollHeight;
    } catch (err) {
      this.threadEl.append(h('li', {}, errorBox(err)));
    }
  }

  // ------------------------------------------------------------ render

  render() {
    const v = this.view;
    if (!v) return;
    const me = v.you;
    const mine = me !== null && me !== undefined;
    const myTurn = mine && v.status === 'active' && v.awaiting.includes(me);
    setTitle(`${myTurn ? 'Your turn · ' : ''}Match #${v.id}`);
    this.titleEl.textContent = `Match #${v.id} · ${v.title}`;
    this.boardHint.hidden = !(mine && v.status === 'active');

    // Status line.
    let status;
    if (v.status === 'open') {
      const free = v.seats.filter((s) => !s.player).length;
      status = `Waiting for ${free} more player${free === 1 ? '' : 's'} to join.`;
    } else if (v.status === 'active') {
      const others = v.awaiting.filter((s) => s !== me).map((s) => seatName(v, s));
      status = myTurn ? 'Your turn.' + (others.length ? ` Also awaited: ${others.join(', ')}.` : '')
        : `Waiting for ${others.join(', ') || 'the other players'}.`;
    } else if (v.status === 'over') status = 'The match is over.';
    else status = 'The match was aborted.';
    this.statusEl.textContent = status;

    // Seats.
    clear(this.seatsEl, v.seats.map((s) => h('li', { class: v.awaiting.includes(s.seat) ? 'awaited' : '' },
      h('span', { class: `swatch seat-${s.seat % 6}`, 'aria-hidden': 'true' }),
      `Seat ${s.seat}: ${s.player ? s.player.name : 'open'}${s.seat === me ? ' (you)' : ''}`,
      v.awaiting.includes(s.seat) ? h('span', { class: 'tag tag-you' }, 'to play') : null,
      v.draw_offers.includes(s.seat) ? h('span', { class: 'tag' }, 'offers a draw') : null)));

    // Prompt: what is owed by me.
    this.renderPrompt(myTurn);

    // Invitations, while open.
    const invites = v.status === 'open' ? loadInvites(v.id).filter((inv) => !v.seats[inv.seat]?.player) : [];
    clear(this.invitesEl, invites.length ? [h('h2', {}, 'Invitations'),
      invites.map((inv) => copyField(`Invitation for seat ${inv.seat}`, inviteLink(v.id, inv.code), `invite-${inv.seat}`))] : []);

    // Renderer's panel.
    let panel = null;
    try { panel = v.state ? this.renderer.panel(v, { seatName: (s) => seatName(v, s) }) : null; } catch (err) { console.error(err); }
    clear(this.panelEl, panel ? [h('h2', {}, 'The state'), panel] : []);

    this.renderBoard();
    this.renderActions(myTurn);
    this.renderControls();
    this.renderResult();
  }

  renderPrompt(myTurn) {
    const v = this.view;
    const pend = (v.state && Array.isArray(v.state.pending) ? v.state.pending : []);
    const minePend = pend.filter((p) => p.seat === v.you);
    const parts = [];
    if (myTurn) {
      if (minePend.length) {
        for (const p of minePend) {
          if (p.prompt) parts.push(`Your move: ${p.prompt.replace(/[.?!]?$/, (m) => m || '.')}`);
          else parts.push(p.kind === 'turn' ? 'It is your turn.' : `A decision is owed by you: ${words(p.kind)}.`);
        }
      } else parts.push('It is your turn.');
      const boardish = this.actions.some((a) => sourceOf(a) || targetOf(a));
      const other = this.actions.some((a) => !sourceOf(a) && !targetOf(a));
      parts.push(boardish && other ? 'Choose on the board or with a button, then post.'
        : boardish ? 'Choose a piece, then where it goes, then post.' : 'Choose one, then post.');
    } else if (v.status === 'active') {
      // Who is awaited is in the status line; say what for, when it is
      // more than a plain turn.
      for (const p of pend) {
        if (p.prompt) parts.push(`${seatName(v, p.seat)}: ${p.prompt}.`);
        else if (p.kind && p.kind !== 'turn') parts.push(`${seatName(v, p.seat)} is to decide: ${words(p.kind)}.`);
      }
    }
    clear(this.promptEl, parts.length ? h('p', { class: myTurn ? 'prompt-you' : 'prompt-other' }, parts.join(' ')) : null);
    this.promptEl.hidden = !parts.length;
  }

  // The actions indexed for the board.
  index() {
    const bySource = new Map();
    const direct = new Map();
    const other = [];
    for (const a of this.actions) {
      const from = sourceOf(a);
      const to = targetOf(a);
      if (from) bySource.set(from, [...(bySource.get(from) || []), a]);
      else if (to) direct.set(to, [...(direct.get(to) || []), a]);
      else other.push(a);
    }
    return { bySource, direct, other };
  }

  scene() {
    const v = this.view;
    let pieces = [];
    let terrain = [];
    try {
      pieces = v.state ? this.renderer.pieces(v) : [];
      terrain = v.state ? this.renderer.terrain(v) : [];
    } catch (err) { console.error('renderer failed', err); }
    const { bySource, direct } = this.index();
    // How a target is marked: a dot on an empty square, a red ring on
    // another seat's piece, a green ring on one of mine (activate, swap).
    const owner = new Map(pieces.map((p) => [p.square, p.seat]));
    const how = (sq) => (!owner.has(sq) ? 'move' : owner.get(sq) === v.you ? 'own' : 'capture');
    const targets = new Map();
    if (this.selected && bySource.has(this.selected)) {
      for (const a of bySource.get(this.selected)) {
        const t = targetOf(a) || this.selected;
        targets.set(t, t === this.selected ? 'own' : how(t));
      }
    } else {
      for (const sq of direct.keys()) targets.set(sq, how(sq));
    }
    // The squares of the last post's events.
    const lastPost = [...this.posts].reverse().find((p) => p.kind === 'turn');
    const last = new Set();
    for (const e of lastPost?.events || []) for (const k of ['from', 'to']) if (isSquare(e[k])) last.add(e[k]);
    return { pieces, terrain, selected: this.selected, sources: new Set(bySource.keys()), targets, last: [...last] };
  }

  renderBoard() {
    if (!this.view) return;
    this.board.render(this.scene());
  }

  phrase(a) {
    try { return this.renderer.action(a, this.view) || actionText(a, this.view); } catch { return actionText(a, this.view); }
  }

  renderActions(myTurn) {
    const { other } = this.index();
    this.actionsBox.hidden = !myTurn && !this.draft;
    if (this.selected) {
      const p = this.scene().pieces.find((x) => x.square === this.selected);
      const n = (this.index().bySource.get(this.selected) || []).length;
      this.selectionEl.textContent = `Selected ${this.selected}${p ? ` (${p.label})` : ''}: ${n} action${n === 1 ? '' : 's'}, highlighted on the board.`;
    } else this.selectionEl.textContent = '';
    const MAX_BUTTONS = 24;
    clear(this.otherActionsEl, other.length ? [
      h('p', { class: 'label' }, 'Choose:'),
      h('div', { class: 'row wrap' }, other.slice(0, MAX_BUTTONS).map((a) => h('button', {
        type: 'button', class: 'action-btn', onclick: () => this.setDraft([a]),
      }, this.phrase(a)))),
      other.length > MAX_BUTTONS ? h('p', { class: 'hint' }, `${other.length - MAX_BUTTONS} more choices: see "All your legal actions" below (it has a filter).`) : null] : []);
    clear(this.allActionsEl, this.actions.length ? this.actionList() : []);
    this.renderDraft();
  }

  // Every legal action as a button, with a filter for long lists.
  actionList() {
    const LIMIT = 200;
    const items = this.actions.map((a) => [a, this.phrase(a)]);
    const ul = h('ul', { class: 'action-list' });
    const more = h('p', { class: 'hint', 'aria-live': 'polite' });
    const show = (q) => {
      const words = q.toLowerCase().split(/\s+/).filter(Boolean);
      const hits = items.filter(([, t]) => words.every((w) => t.toLowerCase().includes(w)));
      clear(ul, hits.slice(0, LIMIT).map(([a, t]) => h('li', {},
        h('button', { type: 'button', class: 'link', onclick: () => this.setDraft([a]) }, t))));
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

  // Advanced: any actions as JSON (for rulesets whose choices the list
  // cannot spell out, such as building an army).
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
    this.draftEl.textContent = d ? `Your choice: ${d.actions.map((a) => this.phrase(a)).join('; ')}` : 'Nothing chosen yet.';
    this.postBtn.disabled = !d;
    this.clearBtn.disabled = !d;
  }

  setDraft(actions) {
    this.draft = actions ? { actions, seq: this.view.seq } : null;
    this.selected = null;
    this.selectionEl.textContent = '';
    this.closeMenu();
    this.renderDraft();
    this.renderBoard();
    if (this.draft) this.postBtn.focus();
  }

  // ------------------------------------------------------- board input

  onSquare(sq) {
    if (!this.view) return;
    const { bySource, direct } = this.index();
    this.closeMenu();
    if (this.selected && this.selected !== sq) {
      const here = (bySource.get(this.selected) || []).filter((a) => (targetOf(a) || this.selected) === sq);
      if (here.length) { this.choose(here, sq); return; }
    }
    if (this.selected === sq) {
      const self = (bySource.get(sq) || []).filter((a) => !targetOf(a) || targetOf(a) === sq);
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
    if (list.length === 1) { this.setDraft([list[0]]); return; }
    // Several actions share the square: a small menu.
    clear(this.menuEl, h('p', { class: 'label' }, `Several actions on ${sq}:`),
      h('div', { class: 'row wrap', role: 'group', 'aria-label': `Actions on ${sq}` },
        list.map((a) => h('button', { type: 'button', class: 'action-btn', onclick: () => this.setDraft([a]) }, this.phrase(a))),
        h('button', { type: 'button', onclick: () => { this.closeMenu(); this.board.setFocus(sq); } }, 'Cancel')));
    this.menuEl.hidden = false;
    this.menuEl.onkeydown = (e) => { if (e.key === 'Escape') { this.closeMenu(); this.board.setFocus(sq); } };
    this.menuEl.querySelector('button').focus();
  }

  closeMenu() {
    if (this.menuEl) { this.menuEl.hidden = true; this.menuEl.replaceChildren(); }
  }

  // ----------------------------------------------------------- posting

  // A post keeps its Idempotency-Key until it succeeds or is refused, so a
  // retry after a lost answer is never applied twice.
  loadAttempt() {
    try { return JSON.parse(localStorage.getItem(this.attemptKey)); } catch { return null; }
  }
  saveAttempt(a) {
    if (a) localStorage.setItem(this.attemptKey, JSON.stringify(a)); else localStorage.removeItem(this.attemptKey);
  }

  async sendPost() {
    if (!this.draft) return;
    const body = { seq: this.draft.seq, actions: this.draft.actions };
    const c = this.comment.value.trim();
    if (c) { body.comment = c; body.comment_hidden = this.hidden.checked; }
    const text = JSON.stringify(body);
    const prev = this.loadAttempt();
    const attempt = prev && prev.body === text && prev.path.endsWith('/turns') ? prev
      : { path: `/api/games/${this.id}/turns`, body: text, key: randomHex(16), seq: this.draft.seq };
    await this.send(attempt);
  }

  async send(attempt, quiet = false) {
    this.saveAttempt(attempt);
    this.postBtn.disabled = true;
    if (!quiet) clear(this.postMsg, h('p', { class: 'note' }, 'Posting…'));
    try {
      await request('POST', attempt.path, { rawBody: attempt.body, headers: { 'Idempotency-Key': attempt.key } });
      this.saveAttempt(null);
      clear(this.postMsg);
      if (attempt.path.endsWith('/turns')) {
        this.draft = null;
        this.comment.value = '';
        this.hidden.checked = false;
        this.renderDraft();
        const a = document.activeElement;
        if (!a || a === document.body || a === this.postBtn) this.board.setFocus(this.board.focus);
      }
      if (attempt.after) attempt.after();
      this.refresh();
      return true;
    } catch (err) {
      if (!err.retryable) this.saveAttempt(null);
      if (quiet && !err.retryable) return false;
      clear(this.postMsg, errorBox(err, err.retryable ? () => this.send(attempt) : null, 'Retry (safe: it is never applied twice)'));
      if (err.slug === 'stale-sequence' || err.slug === 'not-awaited') this.refresh();
      this.renderDraft();
      return false;
    }
  }

  // A post whose answer was lost, while the match moved on: send it again
  // with its key. If it was applied, the server answers as the first time;
  // if not, it is refused as stale, and nothing happens twice.
  async retryUnknownAttempt() {
    const a = this.loadAttempt();
    if (!a || a.seq === undefined || a.seq === this.view.seq || this.retrying) return;
    this.retrying = true;
    try { await this.send(a, true); } finally { this.retrying = false; }
  }

  matchPost(path, body, label) {
    return this.send({ path: `/api/games/${this.id}/${path}`, body: JSON.stringify(body), key: randomHex(16), label });
  }

  // ---------------------------------------------------- match controls

  renderControls() {
    const v = this.view;
    const me = v.you;
    if (me === null || me === undefined || !token() || (v.status !== 'active' && v.status !== 'open')) {
      clear(this.controlsEl);
      return;
    }
    const items = [];
    if (v.status === 'active') {
      const offeredByMe = v.draw_offers.includes(me);
      const offeredByOthers = v.draw_offers.some((s) => s !== me);
      if (offeredByOthers && !offeredByMe) {
        items.push(h('p', { class: 'prompt-you' }, `${v.draw_offers.map((s) => seatName(v, s)).join(', ')} offer${v.draw_offers.length === 1 ? 's' : ''} a draw.`),
          h('div', { class: 'row' },
            h('button', { type: 'button', onclick: () => this.matchPost('draw', { action: 'accept' }) }, 'Accept the draw'),
            h('button', { type: 'button', onclick: () => this.matchPost('draw', { action: 'decline' }) }, 'Decline the draw')));
      } else if (offeredByMe) {
        items.push(h('p', {}, 'You offered a draw; the others have not all answered.'));
      } else {
        items.push(h('button', { type: 'button', onclick: () => this.matchPost('draw', { action: 'offer' }) }, 'Offer a draw'));
      }
    }
    items.push(this.confirmButton('Resign…', 'Resign this match? You lose it.', 'Resign', () => this.matchPost('resign', {})));
    if (v.status === 'open' || v.seq <= 1) {
      items.push(this.confirmButton('Abort…', 'Abort this match for everyone? It can be done only before the first turn.', 'Abort the match', () => this.matchPost('abort', {})));
    }
    const orders = this.ordersForm();
    clear(this.controlsEl, h('h2', {}, 'Match'), h('div', { class: 'row wrap' }, items), orders);
  }

  confirmButton(label, question, yes, action) {
    const box = h('div', { class: 'confirm', hidden: true, role: 'group', 'aria-label': question },
      h('p', {}, question),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'danger', onclick: () => { box.hidden = true; action(); } }, yes),
        h('button', { type: 'button', onclick: () => { box.hidden = true; btn.focus(); } }, 'Cancel')));
    const btn = h('button', {
      type: 'button', onclick: () => { box.hidden = false; box.querySelector('button').focus(); },
    }, label);
    return h('div', { class: 'confirm-wrap' }, btn, box);
  }

  ordersForm() {
    const v = this.view;
    if (v.status !== 'active' || !v.state) return null;
    const send = (orders) => this.matchPost('orders', { orders });
    let form = null;
    try { form = this.renderer.orders ? this.renderer.orders(v, send) : null; } catch (err) { console.error(err); }
    if (!form && v.state.orders === undefined) return null;
    if (!form) {
      const ta = h('textarea', { id: 'orders-json', rows: 3, spellcheck: false },
        JSON.stringify(typeof v.state.orders === 'object' ? v.state.orders : {}));
      form = h('form', {
        onsubmit: (e) => {
          e.preventDefault();
          try { send(JSON.parse(ta.value)); } catch { clear(this.postMsg, errorBox({ sentence: 'The orders are not valid JSON.' })); }
        },
      }, h('label', { for: 'orders-json' }, 'Orders (JSON)'), ta, h('button', { type: 'submit' }, 'Save orders'));
    }
    return h('details', { class: 'orders' }, h('summary', {}, 'Standing orders'), form);
  }

  renderResult() {
    const v = this.view;
    if (!v.result && v.status !== 'aborted') { clear(this.resultEl); this.resultEl.className = 'result'; return; }
    this.resultEl.className = 'result card';
    const scores = Array.isArray(v.result?.scores)
      ? h('p', {}, 'Scores: ', v.result.scores.map((s, i) => `${seatName(v, i)} ${s}`).join(' · ')) : null;
    clear(this.resultEl, h('h2', {}, 'Result'), h('p', { class: 'result-text' }, resultText(v)), scores,
      v.status === 'over' ? h('p', {},
        h('a', { href: `#/verify/${v.id}` }, 'Verify the dice'), ' · ',
        h('a', { href: `/api/games/${v.id}/export`, download: `match-${v.id}.json` }, 'Download the match')) : null);
  }

  // ------------------------------------------------------------ thread

  postItem(p) {
    const v = this.view;
    let heading = postHeading(p, v);
    if (p.kind === 'turn' && Array.isArray(p.actions)) {
      heading = `${seatName(v, p.seat)}: ${p.actions.map((a) => this.phrase(a)).join('; ')}`;
    }
    const events = (p.events || []).map((e) => {
      const base = eventText(e, v);
      let custom = null;
      try { custom = this.renderer.event(e, v); } catch { custom = null; }
      // A renderer's phrase names its own dice (words.js diceText).
      return h('li', {}, custom || base.text);
    });
    let comment = null;
    if (p.comment) {
      comment = h('blockquote', { class: 'comment' }, p.comment,
        p.comment_hidden ? h('span', { class: 'tag' }, v.result ? 'was hidden until the end' : 'hidden until the end') : null);
    } else if (p.comment_hidden) {
      comment = h('p', { class: 'comment muted' }, 'A hidden comment, shown when the match ends.');
    }
    const when = p.at ? new Date(p.at) : null;
    return h('li', { class: `post post-${p.kind}` },
      h('div', { class: 'post-head' },
        h('span', { class: 'post-seq' }, `#${p.seq}`),
        Number.isInteger(p.seat) ? h('span', { class: `swatch seat-${p.seat % 6}`, 'aria-hidden': 'true' }) : null,
        h('span', { class: 'post-title' }, heading),
        when && !Number.isNaN(when.getTime()) ? h('time', { datetime: p.at }, when.toLocaleString()) : null),
      events.length ? h('ul', { class: 'events' }, events) : null,
      comment);
  }
}
