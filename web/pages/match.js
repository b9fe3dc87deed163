// A match: the board, my legal actions, the thread of posts, live updates
// through the long-poll, and the match-level choices (draw, resign, abort).
//
// What the player sees, top down: a banner with what awaits them (the
// prompt, reactions owed, a draw offer, what happened since their last
// visit), a few always-visible buttons, the ruleset's set-up form when it
// has one (an army list), a tray of pieces to place, the board (the last
// turn drawn as arrows, battles and ghosts; the chosen action previewed
// before Post), the post box; beside or below: seats, state, the move list
// with a step-through replay, and the thread. Everything ruleset-specific
// comes from the renderer's hooks (renderers/registry.js).

import { get, request, token, randomHex, loadInvites, inviteLink, ApiError } from '../api.js';
import { h, clear, errorBox, copyField, setTitle } from '../ui.js';
import { Board } from '../board.js';
import { rendererFor } from '../renderers/registry.js';
import { actionText, eventText, postHeading, resultText, seatName, seatColour, words } from '../words.js';
import { notifyTurn, setFaviconCount } from '../notify.js';
import { seatClock, claimButton } from '../clock.js';
import { openStream } from '../live.js';
import { undoLast, undoText } from '../undo.js';
import { watchNotice, shareBox } from '../watch.js';

const WAIT = 50;           // seconds per long-poll (the server allows 60)
const MAX_BUTTONS = 4;     // a type with more actions than this becomes a list
const OPEN_EVENTS = 4;     // the latest posts show their events; older ones fold them

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

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
    this.trayKey = null;       // the piece chosen in the tray
    this.draft = null;         // {actions:[...], seq, sticky}
    this.replay = null;        // index into turnPosts() while stepping through
    this.stopped = false;
    this.poller = null;        // AbortController of the long-poll
    this.flippedSet = false;
    this.attemptKey = `warpost.attempt.${id}`;
    this.seenKey = `warpost.seen.${id}`;
    this.seenAt = Number(localStorage.getItem(this.seenKey)) || null;   // last post seen on an earlier visit
    this.summaryClosed = false;
    this.wasMyTurn = null;
  }

  stop() {
    this.stopped = true;
    document.removeEventListener('visibilitychange', this.wake);
    window.removeEventListener('online', this.wake);
    if (this.poller) this.poller.abort();
    this.closeStream();
    document.title = 'Warpost';
    setFaviconCount(0);
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

  // A renderer hook, guarded: a failing renderer never breaks the page.
  hook(name, ...args) {
    const f = this.renderer && this.renderer[name];
    if (typeof f !== 'function') return undefined;
    try { return f.apply(this.renderer, args); } catch (err) { console.error(`renderer ${name}`, err); return undefined; }
  }

  // ------------------------------------------------------------ layout

  build() {
    this.titleEl = h('h1', { class: 'match-title' }, `Match #${this.id}`);
    this.statusEl = h('p', { class: 'match-status', role: 'status' }, 'Loading the match…');
    this.liveEl = h('span', { class: 'live', 'aria-live': 'polite' });
    this.watchEl = h('p', { class: 'watch-note', id: 'watch-note', hidden: true });
    this.shareEl = h('details', { class: 'share', id: 'share' });
    this.seatsEl = h('ul', { class: 'seats' });
    this.bannerEl = h('section', { class: 'banner', 'aria-label': 'What awaits you', 'aria-live': 'polite' });
    this.promptEl = h('div', { class: 'prompt' });
    this.drawEl = h('div', { class: 'draw-offer' });
    this.sinceEl = h('div', { class: 'since' });
    this.bannerEl.append(this.promptEl, this.drawEl, this.sinceEl);
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
    this.pieceMenuEl = h('div', { class: 'menu piece-menu', hidden: true });
    this.flipBtn = h('button', { type: 'button', class: 'small', onclick: () => { this.board.setFlipped(!this.board.flipped); } }, 'Flip board');
    this.legendEl = h('details', { class: 'legend' });
    this.replayBar = h('div', { class: 'replay-bar', hidden: true, 'aria-live': 'polite' });
    this.selectionEl = h('p', { class: 'selection', 'aria-live': 'polite' });
    this.otherActionsEl = h('div', { class: 'other-actions' });
    this.builderEl = h('div', { class: 'builder' });
    this.trayEl = h('div', { class: 'tray' });
    this.allActionsEl = h('div', { class: 'all-actions' });
    this.comment = h('textarea', { id: 'comment', rows: 2, maxlength: 2000, placeholder: 'A comment with your post (optional)' });
    this.hidden = h('input', { type: 'checkbox', id: 'comment-hidden' });
    this.postBtn = h('button', { type: 'button', class: 'primary', id: 'post-btn', onclick: () => this.sendPost() }, 'Post');
    this.undoBtn = h('button', { type: 'button', id: 'undo-btn', onclick: () => this.undoLast() }, 'Remove the last choice');
    this.takeBackBtn = h('button', { type: 'button', id: 'take-back-btn', hidden: true, onclick: () => this.takeBack() }, 'Undo my last post');
    this.clearBtn = h('button', { type: 'button', onclick: () => this.setDraft(null) }, 'Clear');
    this.draftEl = h('div', { class: 'draft', 'aria-live': 'polite' });
    this.postMsg = h('div', { 'aria-live': 'polite' });
    this.composer = h('section', { class: 'card composer', 'aria-label': 'Your post' },
      this.draftEl,
      h('div', { class: 'row wrap' }, this.postBtn, this.undoBtn, this.clearBtn, this.takeBackBtn),
      h('details', { class: 'comment-box' }, h('summary', {}, 'Add a comment'),
        h('label', { for: 'comment' }, 'Comment'),
        this.comment,
        h('div', { class: 'field-check' }, this.hidden, h('label', { for: 'comment-hidden' }, 'Hide my comment until the match ends'))),
      this.postMsg);
    // The post box sits straight in the board's column, so that it can stay
    // in sight (sticky) over the board on a phone.
    this.actionsBox = h('div', { class: 'actions' }, this.selectionEl, this.menuEl);
    this.panelEl = h('div', { class: 'panel' });
    this.controlsEl = h('section', { class: 'controls', 'aria-label': 'Match' });
    this.resultEl = h('section', { class: 'result', 'aria-live': 'polite' });
    this.invitesEl = h('section', { class: 'invites' });
    this.movesEl = h('details', { class: 'moves' });
    this.threadTools = h('div', { class: 'row wrap thread-tools' });
    this.threadEl = h('ol', { class: 'thread', 'aria-label': 'Posts' });
    clear(this.main,
      h('div', { class: 'match' },
        h('div', { class: 'match-head' }, this.titleEl, this.statusEl, this.watchEl, this.liveEl),
        this.bannerEl,
        h('div', { class: 'match-grid' },
          h('div', { class: 'board-col' },
            this.otherActionsEl,
            this.builderEl,
            this.trayEl,
            this.replayBar,
            h('div', { class: 'board-wrap' }, this.board.el),
            this.pieceMenuEl,
            h('div', { class: 'board-tools' }, this.flipBtn, this.boardHint),
            this.legendEl,
            this.actionsBox,
            this.composer,
            this.allActionsEl),
          h('div', { class: 'side-col' },
            this.resultEl,
            this.seatsEl,
            this.invitesEl,
            this.panelEl,
            this.controlsEl,
            this.shareEl,
            h('section', { 'aria-labelledby': 'thread-h', class: 'thread-section' },
              h('h2', { id: 'thread-h' }, 'Posts'), this.threadTools, this.movesEl, this.threadEl)))));
  }

  // ---------------------------------------------------------- updating

  async loop() {
    let backoff = 1;
    while (!this.stopped) {
      this.poller = new AbortController();
      try {
        const headers = this.etag ? { 'If-None-Match': this.etag } : {};
        let url = `/api/games/${this.id}`;
        if (this.etag && this.view && this.isLive()) {
          // While the match is played, the event stream says when to look;
          // before it starts (joins are not posts) and when the stream
          // cannot be used, the long-poll waits instead.
          // refresh() asks to look now, even when the stream's event for
          // that change came (and was used) while an earlier read was cut.
          if (this.view.status === 'active' && this.streamUsable()) {
            if (!this.lookNow) await this.waitStream(this.poller.signal);
            if (this.stopped) return;
            this.poller = new AbortController();
          } else url += `?wait=${WAIT}`;
        }
        this.lookNow = false;
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
          this.closeStream();
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

  // The match's event stream (live.js), opened once the match is under
  // way: each post wakes the loop, which then reads the view (a 304 when
  // a spectator's delayed view did not move). Once it fails, the page
  // long-polls for good.
  streamUsable() {
    if (this.streamFailed) return false;
    if (!this.stream) {
      this.streamTicks = 0;
      this.streamSeen = 0;
      this.stream = openStream(`/api/games/${this.id}/events`, {
        after: this.view.seq,
        onEvent: () => { this.streamTicks++; this.streamWake?.(); },
        onFail: () => { this.streamFailed = true; this.stream = null; this.streamWake?.(); },
      });
    }
    return true;
  }

  waitStream(signal) {
    return new Promise((done) => {
      const go = () => { this.streamWake = null; this.streamSeen = this.streamTicks; done(); };
      if (this.streamTicks !== this.streamSeen || !this.stream || signal.aborted) { go(); return; }
      this.streamWake = go;
      signal.addEventListener('abort', go, { once: true });
    });
  }

  closeStream() {
    if (this.stream) this.stream.close();
    this.stream = null;
  }

  isLive() {
    return !this.view || this.view.status === 'open' || this.view.status === 'active';
  }

  // Ask the long-poll to come back now (after my own post).
  refresh() {
    this.lookNow = true;
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
      const size = view.state && typeof view.state.board === 'object' ? view.state.board : {};
      this.board.setSize(size.files || 8, size.ranks || 8);
      this.board.setFlipped(this.renderer.flipped(view));
      this.flippedSet = true;
    }
    if (seqChanged) {
      this.selected = null;
      this.closeMenu();
    }
    await Promise.all([this.loadActions(), this.loadPosts()]);
    if (seqChanged && this.draft && this.draft.seq !== view.seq) {
      // A form's draft (an army list) survives a side move of another seat
      // when its first action is still legal; anything else is cleared.
      if (this.draft.sticky && this.actions.some((a) => same(a, this.draft.actions[0]))) {
        this.draft.seq = view.seq;
      } else {
        this.setDraft(null);
        clear(this.postMsg, h('p', { class: 'note' }, 'The match moved on: your choice was cleared.'));
      }
    }
    await this.retryUnknownAttempt();
    this.render();
  }

  async loadActions() {
    const v = this.view;
    const mine = v.you !== null && v.you !== undefined;
    if (!mine || v.status !== 'active' || !v.awaiting.includes(v.you)) {
      this.actions = [];
      this.canUndo = false;
      this.actionsSeq = v.seq;
      return;
    }
    if (this.actionsSeq === v.seq) return;
    try {
      const r = await get(`/api/games/${this.id}/actions`);
      this.actions = r.body.awaited ? r.body.actions || [] : [];
      this.canUndo = Boolean(r.body.awaited && r.body.can_undo);
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
    }
    try {
      for (let guard = 0; guard < 100; guard++) {
        const r = await get(`/api/games/${this.id}/turns?after=${this.postsAfter}&limit=500`);
        const list = r.body.posts || [];
        for (const p of list) {
          this.posts.push(p);
          this.postsAfter = p.seq;
        }
        if (r.body.next_after === null || r.body.next_after === undefined || !list.length) break;
      }
      this.postsError = null;
    } catch (err) {
      this.postsError = err;
    }
    // Posts read before an undo do not say they were taken back: the undo
    // post names them.
    for (const u of this.posts) {
      if (u.kind !== 'undo') continue;
      for (const e of u.events || []) {
        if (e.type !== 'undo') continue;
        for (const p of this.posts) if ((e.posts || []).includes(p.seq)) p.undone_by = u.seq;
      }
    }
  }

  // ------------------------------------------------------------ render

  myTurn() {
    const v = this.view;
    return v && v.you !== null && v.you !== undefined && v.status === 'active' && v.awaiting.includes(v.you);
  }

  render() {
    const v = this.view;
    if (!v) return;
    const me = v.you;
    const mine = me !== null && me !== undefined;
    const myTurn = this.myTurn();
    setTitle(`${myTurn ? 'Your turn · ' : ''}Match #${v.id}`);
    setFaviconCount(myTurn ? 1 : 0);
    if (this.wasMyTurn === false && myTurn) notifyTurn(`Your turn in match #${v.id}`, `${v.title}: ${this.statusWords()}`, `#/match/${v.id}`);
    this.wasMyTurn = myTurn;
    this.titleEl.textContent = `Match #${v.id} · ${v.title}`;
    this.boardHint.hidden = !(mine && v.status === 'active');
    this.statusEl.textContent = this.statusWords();
    const note = watchNotice(v);
    this.watchEl.textContent = note || '';
    this.watchEl.hidden = !note;

    // Seats: the colour, the player, whose move it is.
    clear(this.seatsEl, v.seats.map((s) => h('li', { class: v.awaiting.includes(s.seat) ? 'awaited' : '' },
      h('span', { class: `swatch seat-${s.seat % 6}`, 'aria-hidden': 'true' }),
      `${seatColour(s.seat)}: ${s.player ? s.player.name : 'open seat'}${s.seat === me ? ' (you)' : ''}`,
      v.status === 'active' && v.awaiting.includes(s.seat) ? h('span', { class: 'tag tag-you' }, 'to play') : null,
      v.draw_offers.includes(s.seat) ? h('span', { class: 'tag' }, 'offers a draw') : null,
      seatClock(v, s.seat))));

    // Invitations, while open.
    const invites = v.status === 'open' ? loadInvites(v.id).filter((inv) => !v.seats[inv.seat]?.player) : [];
    clear(this.invitesEl, invites.length ? [h('h2', {}, 'Invitations'),
      invites.map((inv) => copyField(`Invitation for ${seatColour(inv.seat)}`, inviteLink(v.id, inv.code), `invite-${inv.seat}`))] : []);

    // Renderer's panel.
    const panel = v.state ? this.hook('panel', v, { seatName: (s) => seatName(v, s) }) : null;
    clear(this.panelEl, panel ? [h('h2', {}, 'The state'), panel] : []);

    this.renderBuilder(myTurn);
    this.renderBanner(myTurn);
    this.renderBoard();
    this.renderLegend();
    this.renderActions(myTurn);
    this.renderControls();
    this.renderResult();
    this.renderThread();
    this.renderShare();
    if (document.visibilityState === 'visible') localStorage.setItem(this.seenKey, String(v.seq));
  }

  statusWords() {
    const v = this.view;
    const me = v.you;
    if (v.status === 'open') {
      const free = v.seats.filter((s) => !s.player).length;
      return `Waiting for ${free} more player${free === 1 ? '' : 's'} to join.`;
    }
    if (v.status === 'active') {
      const others = v.awaiting.filter((s) => s !== me).map((s) => seatName(v, s));
      return this.myTurn() ? 'Your turn.' + (others.length ? ` Also awaited: ${others.join(', ')}.` : '')
        : `Waiting for ${others.join(', ') || 'the other players'}.`;
    }
    if (v.status === 'over') return `The match is over. ${resultText(v)}`;
    return 'The match was aborted.';
  }

  // Everything that awaits me, at the top: the prompt (reactions owed
  // included), a draw offer to answer, and what happened since my last visit.
  renderBanner(myTurn) {
    const v = this.view;
    const pend = (v.state && Array.isArray(v.state.pending) ? v.state.pending : []);
    const parts = [];
    if (myTurn) {
      const minePend = pend.filter((p) => p.seat === v.you);
      if (minePend.length) {
        for (const p of minePend) {
          if (p.prompt) parts.push(`${p.prompt[0].toUpperCase()}${p.prompt.slice(1).replace(/[.?!]?$/, (m) => m || '.')}`);
          else parts.push(p.kind === 'turn' ? 'It is your turn.' : `A decision is owed by you: ${words(p.kind)}.`);
        }
      } else parts.push('It is your turn.');
      const { bySource, direct, other } = this.index();
      if (this.draft) parts.push('Your choice is on the board: post it when ready.');
      else if (this.builderShown) parts.push('Fill in the form, then post.');
      else if (this.trayShown) parts.push('Choose squares for your pieces (or auto-deploy), then post.');
      else if ((bySource.size || direct.size) && other.length) parts.push('Choose on the board or with a button, then post.');
      else if (bySource.size || direct.size) parts.push('Choose a piece, then where it goes, then post.');
      else parts.push('Choose one, then post.');
    } else if (v.status === 'active') {
      // Prompts are written to the seat they await: to the others, say who
      // decides what, in the third person.
      for (const p of pend) {
        if (p.seat === v.you) continue;
        const addressed = !p.prompt || /\byou(r)?\b/i.test(p.prompt);
        if (p.kind && p.kind !== 'turn') parts.push(`${seatName(v, p.seat)} is to decide: ${addressed ? words(p.kind) : p.prompt}.`);
      }
    }
    clear(this.promptEl, parts.length ? h('p', { class: myTurn ? 'prompt-you' : 'prompt-other' }, parts.join(' ')) : null);
    this.promptEl.hidden = !parts.length;

    // A draw offer to answer.
    const me = v.you;
    const offers = v.status === 'active' && token() && me !== null && me !== undefined ? v.draw_offers : [];
    if (offers.some((s) => s !== me) && !offers.includes(me)) {
      clear(this.drawEl, h('p', { class: 'prompt-you' }, `${offers.map((s) => seatName(v, s)).join(', ')} offer${offers.length === 1 ? 's' : ''} a draw.`),
        h('div', { class: 'row wrap' },
          h('button', { type: 'button', onclick: () => this.matchPost('draw', { action: 'accept' }) }, 'Accept the draw'),
          h('button', { type: 'button', onclick: () => this.matchPost('draw', { action: 'decline' }) }, 'Decline the draw')));
    } else clear(this.drawEl);

    // Since my last visit: the others' posts in words.
    const since = this.seenAt === null || this.summaryClosed ? []
      : this.posts.filter((p) => p.seq > this.seenAt && p.seat !== me && p.kind !== 'start');
    if (since.length) {
      const lines = since.map((p) => `${this.postTitle(p)}`);
      clear(this.sinceEl, h('div', { class: 'since-box' },
        h('p', { class: 'label' }, `Since your last visit (${since.length} post${since.length === 1 ? '' : 's'}):`),
        h('ul', {}, lines.slice(-6).map((t) => h('li', {}, t))),
        lines.length > 6 ? h('p', { class: 'hint' }, `and ${lines.length - 6} earlier, in the posts below.`) : null,
        h('button', { type: 'button', class: 'small', onclick: () => { this.summaryClosed = true; this.renderBanner(this.myTurn()); } }, 'Got it')));
    } else clear(this.sinceEl);
    this.bannerEl.hidden = !parts.length && !this.drawEl.childNodes.length && !since.length;
  }

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

  // ----------------------------------------------------- the board model

  squaresOf(a) {
    const r = this.hook('actionSquares', a, this.view);
    return r || { from: null, to: null };
  }

  // The actions I may choose now: the legal list, or, while a draft of
  // several actions is being built (placements), what the renderer says
  // is still legal after it.
  available() {
    if (!this.draft) return this.actions;
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
    return this.hook('trayItem', a, this.view) || null;
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
        const keep = list.filter((a) => this.placement(a)?.key === key || !this.placement(a));
        if (keep.length) direct.set(sq, keep); else direct.delete(sq);
      }
    }
    return { bySource, direct, other, tray };
  }

  pieces() {
    const v = this.view;
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
    const pieces = this.pieces();
    const terrain = v.state ? this.hook('terrain', v) || [] : [];
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
      const ctx = {
        squares: (a) => this.squaresOf(a),
        pieceAt: (sq) => pieces.find((p) => p.square === sq) || null,
        trayItem: (a) => this.hook('trayItem', a, v),
      };
      for (const a of this.draft.actions) {
        const pv = this.hook('preview', a, v, ctx) || {};
        scene.arrows.push(...(pv.arrows || []));
        scene.battles.push(...(pv.battles || []));
        scene.ghosts.push(...(pv.ghosts || []));
        // A piece moving away is shown where it goes, faded where it was.
        for (const ar of pv.arrows || []) {
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

  phrase(a) {
    return this.hook('action', a, this.view) || actionText(a, this.view);
  }

  previewOf(a) {
    const pieces = this.pieces();
    return this.hook('preview', a, this.view, {
      squares: (x) => this.squaresOf(x),
      pieceAt: (sq) => pieces.find((p) => p.square === sq) || null,
      trayItem: (x) => this.hook('trayItem', x, this.view),
    }) || {};
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
    const selfActs = this.selected ? (this.index().bySource.get(this.selected) || [])
      .filter((a) => { const t = this.squaresOf(a).to; return !t || t === this.selected; }) : [];
    clear(this.pieceMenuEl, selfActs.length ? [h('p', { class: 'label' }, `Also for the piece on ${this.selected}:`),
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
      clear(this.draftEl, lines.length > 3
        ? [h('p', {}, `Your choice (${lines.length} actions, one post):`), h('ol', { class: 'draft-list', tabindex: '0', 'aria-label': 'The actions of your post' }, lines.map((t) => h('li', {}, t)))]
        : h('p', {}, `Your choice: ${lines.join('; ')}`),
      this.replay === null && d.actions.some((a) => this.squaresOf(a).to) ? h('p', { class: 'hint' }, 'Shown on the board (green; red for an attack) until you post.') : null);
    }
    this.postBtn.disabled = !d;
    this.clearBtn.disabled = !d;
    this.composer.classList.toggle('has-draft', !!d);
    this.undoBtn.hidden = !d || d.actions.length < 2;
    // A refusal (a barrier the listing could not see) hides it until the
    // match moves on.
    this.takeBackBtn.hidden = !(this.canUndo && this.myTurn() && this.undoRefusedAt !== this.view.seq);
  }

  setDraft(actions, { sticky = false } = {}) {
    this.draft = actions ? { actions, seq: this.view.seq, sticky } : null;
    this.selected = null;
    this.selectionEl.textContent = '';
    this.closeMenu();
    this.renderActions(this.myTurn());
    this.renderBanner(this.myTurn());
    this.renderBoard();
    if (this.draft && !this.trayShown) this.postBtn.focus();
  }

  // Undo (issue 14): take back my last post of this turn, while the
  // actions list says it can be (no die rolled, nothing revealed since).
  // A retry after a lost answer reuses the key: never applied twice.
  async takeBack() {
    const seq = this.view.seq;
    if (!this.undoKey || this.undoKey.seq !== seq) this.undoKey = { seq, key: randomHex(16) };
    this.takeBackBtn.disabled = true;
    clear(this.postMsg, h('p', { class: 'note' }, 'Taking back your last post…'));
    try {
      await undoLast(this.id, seq, 1, this.undoKey.key);
      this.undoKey = null;
      this.draft = null;
      this.canUndo = false;
      clear(this.postMsg, h('p', { class: 'note', id: 'undo-done' }, 'Your last post was taken back: the board shows the position before it.'));
      this.renderDraft();
      this.refresh();
    } catch (err) {
      if (!err.retryable) this.undoKey = null;
      clear(this.postMsg, errorBox(err, err.retryable ? () => this.takeBack() : null, 'Retry (safe: it is never applied twice)'));
      if (err.slug === 'undo-not-allowed') { this.undoRefusedAt = seq; this.renderDraft(); }
      if (!err.retryable) { this.actionsSeq = -1; this.refresh(); }
    } finally {
      this.takeBackBtn.disabled = false;
    }
  }

  undoLast() {
    if (!this.draft) return;
    const list = this.draft.actions.slice(0, -1);
    this.setDraft(list.length ? list : null);
  }

  // An action chosen: added to a draft of several when the renderer can
  // tell it follows (placements), else the draft.
  pick(a) {
    if (this.draft && this.batchAfter(this.draft.actions)?.some((x) => same(x, a))) {
      this.setDraft([...this.draft.actions, a]);
    } else this.setDraft([a]);
  }

  // ------------------------------------------------------- board input

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
      if (offeredByMe) items.push(h('p', {}, 'You offered a draw; the others have not all answered.'));
      else if (!offeredByOthers) items.push(h('button', { type: 'button', onclick: () => this.matchPost('draw', { action: 'offer' }) }, 'Offer a draw'));
    }
    items.push(claimButton(v, (path, body) => this.matchPost(path, body)));
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
    let form = this.renderer.orders ? this.hook('orders', v, send) : null;
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
    return h('details', { class: 'orders' }, h('summary', {}, 'Standing orders'),
      h('p', { class: 'hint' }, 'Answers given ahead of time, so the match need not wait for you.'), form);
  }

  renderResult() {
    const v = this.view;
    if (!v.result && v.status !== 'aborted') { clear(this.resultEl); this.resultEl.className = 'result'; return; }
    this.resultEl.className = 'result card';
    const scores = Array.isArray(v.result?.scores)
      ? h('p', {}, 'Scores: ', v.result.scores.map((s, i) => `${seatName(v, i)} ${s}`).join(' · ')) : null;
    const me = v.you;
    const mine = me !== null && me !== undefined;
    let outcome = null;
    if (mine && v.result) {
      outcome = v.result.draw ? 'draw' : (v.result.winners || []).includes(me) ? 'win' : (v.result.winners || []).length ? 'loss' : null;
    }
    clear(this.resultEl, h('h2', {}, 'Result'),
      h('p', { class: 'result-text' }, resultText(v)),
      outcome ? h('p', { class: `tag tag-${outcome}` }, { win: 'You won', loss: 'You lost', draw: 'A draw' }[outcome]) : null,
      scores,
      v.status === 'over' ? h('p', {},
        h('a', { href: `#/verify/${v.id}` }, 'Verify the dice'), ' · ',
        h('button', { type: 'button', class: 'link', onclick: () => this.download() }, 'Download the match'), ' · ',
        h('button', { type: 'button', class: 'link', onclick: () => this.setReplay(0) }, 'Replay from the start')) : null);
  }

  // The export under a name that says which match it is (the server's
  // Content-Disposition would name every file match.json).
  async download() {
    try {
      const r = await get(`/api/games/${this.id}/export`);
      const blob = new Blob([JSON.stringify(r.body, null, 1)], { type: 'application/json' });
      const a = h('a', { href: URL.createObjectURL(blob), download: `warpost-${this.view.ruleset}-${this.id}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    } catch (err) {
      clear(this.resultEl.lastChild, errorBox(err));
    }
  }

  // ------------------------------------------------------------ thread

  // The turns that stand (not taken back by an undo).
  turnPosts() {
    return this.posts.filter((p) => p.kind === 'turn' && !p.undone_by);
  }

  // The post in words: who, and what (the actions when I may see them,
  // else what the events show).
  postTitle(p) {
    const v = this.view;
    if (p.kind === 'undo') {
      const e = (p.events || []).find((x) => x.type === 'undo');
      if (e) return undoText(e, (s) => seatName(v, s));
    }
    const custom = this.hook('summary', p, v);
    if (custom) return custom;
    if (p.kind === 'turn' && Array.isArray(p.actions) && p.actions.length) {
      const list = p.actions.map((a) => this.phrase(a));
      return `${seatName(v, p.seat)}: ${list.length > 4 ? `${list.slice(0, 3).join('; ')} and ${list.length - 3} more` : list.join('; ')}`;
    }
    if (p.kind === 'turn') {
      const ev = (p.events || []).filter((e) => !/^(turn|turn_start|turn_end|phase|dice|roll|battle_result|attack_result|activation_end)$/.test(e.type))
        .map((e) => this.eventPhrase(e));
      // "Black (Dee): pawn placed on d7", not "Black (Dee): Black (Dee) pawn …".
      const who = seatName(v, p.seat);
      const short = ev.map((t) => (t.startsWith(`${who} `) ? t.slice(who.length + 1) : t));
      if (short.length) return `${who}: ${short.slice(0, 3).join('; ')}${short.length > 3 ? '…' : ''}`;
    }
    return postHeading(p, v);
  }

  eventPhrase(e) {
    if (e.type === 'undo') return undoText(e, (s) => seatName(this.view, s));
    return this.hook('event', e, this.view) || eventText(e, this.view).text;
  }

  // Set-up posts end where the play begins (a `phase` event to play).
  playStart() {
    const p = this.posts.find((x) => (x.events || []).some((e) => e.type === 'phase' && e.phase === 'play'));
    return p ? p.seq : null;
  }

  renderThread() {
    const v = this.view;
    const start = this.playStart();
    const items = [];
    const setup = start === null ? [] : this.posts.filter((p) => p.seq < start);
    const rest = start === null ? this.posts : this.posts.filter((p) => p.seq >= start);
    const openFrom = rest.length - OPEN_EVENTS;
    if (setup.length) {
      items.push(h('li', { class: 'setup-group' }, h('details', {},
        h('summary', {}, `Set-up: ${setup.length} post${setup.length === 1 ? '' : 's'}`),
        h('ol', { class: 'thread-inner' }, setup.map((p) => this.postItem(p, false))))));
    }
    rest.forEach((p, i) => items.push(this.postItem(p, i >= openFrom)));
    if (this.postsError) items.push(h('li', {}, errorBox(this.postsError)));
    const keep = this.threadEl.scrollTop + this.threadEl.clientHeight >= this.threadEl.scrollHeight - 20;
    clear(this.threadEl, items);
    if (keep) this.threadEl.scrollTop = this.threadEl.scrollHeight;

    // Jump links, and the compact move list with the replay.
    const unread = this.seenAt !== null ? this.posts.find((p) => p.seq > this.seenAt && p.seat !== v.you && p.kind !== 'start') : null;
    clear(this.threadTools,
      this.posts.length ? h('button', { type: 'button', class: 'small', onclick: () => this.jumpTo(this.posts[this.posts.length - 1].seq) }, 'Jump to the latest') : null,
      unread ? h('button', { type: 'button', class: 'small', onclick: () => this.jumpTo(unread.seq) }, 'First unread') : null,
      this.turnPosts().length ? h('button', { type: 'button', class: 'small', id: 'replay-btn', onclick: () => this.setReplay(Math.max(0, this.turnPosts().length - 1)) }, 'Step through') : null);
    const turns = this.turnPosts();
    const wasOpen = this.movesEl.open;
    clear(this.movesEl, h('summary', {}, `Move list (${turns.length})`),
      h('ol', { class: 'move-list' }, turns.map((p, i) => h('li', {},
        h('button', { type: 'button', class: 'link', onclick: () => this.setReplay(i) },
          h('span', { class: `swatch seat-${(p.seat ?? 0) % 6}`, 'aria-hidden': 'true' }),
          ` #${p.seq} ${this.postTitle(p)}`)))));
    this.movesEl.open = wasOpen;
    this.renderReplayBar();
  }

  jumpTo(seq) {
    const el = this.threadEl.querySelector(`[data-seq="${seq}"]`);
    if (!el) return;
    const group = el.closest('details');
    if (group) group.open = true;
    el.scrollIntoView({ block: 'center' });
    el.focus({ preventScroll: true });
  }

  // Step through the posts: the board shows what each post did, on the
  // position after it as the server replays it (GET /api/games/{id}?at=SEQ,
  // every ruleset); until that answer comes, or when it fails, on the
  // position the renderer rebuilds (`position`), else on the position of now.
  setReplay(i) {
    const turns = this.turnPosts();
    this.replay = i === null || !turns.length ? null : Math.max(0, Math.min(turns.length - 1, i));
    this.renderReplayBar();
    this.renderBoard();
    if (this.replay !== null) this.replayBar.querySelector('button.replay-next, button')?.focus();
    if (this.replay !== null) this.fetchPast(turns[this.replay].seq);
    this.renderShare();
  }

  // "Share an image": the board.svg link of the position shown (a past
  // one while stepping through).
  renderShare() {
    const p = this.replay !== null ? this.turnPosts()[this.replay] : null;
    shareBox(this.shareEl, this.view, p ? p.seq : null);
  }

  // The server's view after post `seq`, kept per post (a past view changes
  // only when the match ends and everything is revealed).
  pastView(i) {
    const p = this.turnPosts()[i];
    const got = p && this.pastViews?.get(p.seq);
    return got && got.status === this.view.status ? got.view : null;
  }

  async fetchPast(seq) {
    this.pastViews = this.pastViews || new Map();
    const had = this.pastViews.get(seq);
    if (had && (had.status === this.view.status || had.loading)) return;
    this.pastViews.set(seq, { loading: true });
    try {
      const r = await get(`/api/games/${this.id}?at=${seq}`);
      this.pastViews.set(seq, { view: r.body, status: this.view.status });
    } catch (err) {
      this.pastViews.delete(seq);
      return;
    }
    if (this.stopped || this.replay === null || this.turnPosts()[this.replay]?.seq !== seq) return;
    this.renderReplayBar();
    this.renderBoard();
  }

  // The pieces after turn post i, when the renderer can rebuild positions
  // from the events (`position`) and its rebuild of every post gives the
  // board of now exactly; else null (the current position is shown).
  replayPieces(i) {
    if (this.replayCheckedAt !== this.posts.length) {
      this.replayCheckedAt = this.posts.length;
      const all = this.hook('position', this.posts, this.view);
      const sig = (list) => (list || []).map((p) => `${p.square}:${p.seat}:${p.glyph}`).sort().join(' ');
      this.replayExact = Array.isArray(all) && sig(all) === sig(this.pieces());
    }
    const p = this.turnPosts()[i];
    if (!this.replayExact || !p) return null;
    return this.hook('position', this.posts.filter((x) => x.seq <= p.seq), this.view) || null;
  }

  renderReplayBar() {
    const turns = this.turnPosts();
    if (this.replay === null || !turns[this.replay]) { this.replayBar.hidden = true; clear(this.replayBar); return; }
    const i = this.replay;
    const p = turns[i];
    this.replayBar.hidden = false;
    clear(this.replayBar,
      h('p', { class: 'replay-what' }, `Post ${i + 1} of ${turns.length} (#${p.seq}): ${this.postTitle(p)}`),
      h('div', { class: 'row wrap' },
        h('button', { type: 'button', class: 'small', disabled: i === 0, onclick: () => this.setReplay(0) }, '|◀ First'),
        h('button', { type: 'button', class: 'small', disabled: i === 0, onclick: () => this.setReplay(i - 1) }, '◀ Back'),
        h('button', { type: 'button', class: 'small replay-next', disabled: i === turns.length - 1, onclick: () => this.setReplay(i + 1) }, 'Next ▶'),
        h('button', { type: 'button', class: 'small', onclick: () => this.setReplay(null) }, 'Back to now')),
      h('p', { class: 'hint replay-hint', 'data-past': this.pastView(i) ? 'server' : '' },
        this.pastView(i) || this.replayPieces(i) ? 'The position after this post; the arrows show what it did.'
          : 'Loading the position after this post; the arrows show what it did.'));
  }

  postItem(p, openEvents) {
    const v = this.view;
    const heading = this.postTitle(p);
    const events = (p.events || []).map((e) => h('li', {}, this.eventPhrase(e)));
    let comment = null;
    if (p.comment) {
      comment = h('blockquote', { class: 'comment' }, p.comment,
        p.comment_hidden ? h('span', { class: 'tag' }, v.result ? 'was hidden until the end' : 'hidden until the end') : null);
    } else if (p.comment_hidden) {
      comment = h('p', { class: 'comment muted' }, 'A hidden comment, shown when the match ends.');
    }
    const when = p.at ? new Date(p.at) : null;
    const list = events.length ? h('ul', { class: 'events' }, events) : null;
    return h('li', { class: `post post-${p.kind}${p.undone_by ? ' post-undone' : ''}`, 'data-seq': p.seq, tabindex: '-1' },
      h('div', { class: 'post-head' },
        h('span', { class: 'post-seq' }, `#${p.seq}`),
        Number.isInteger(p.seat) ? h('span', { class: `swatch seat-${p.seat % 6}`, 'aria-hidden': 'true' }) : null,
        h('span', { class: 'post-title' }, heading),
        p.undone_by ? h('span', { class: 'tag' }, `taken back (#${p.undone_by})`) : null,
        when && !Number.isNaN(when.getTime()) ? h('time', { datetime: p.at }, ago(when)) : null),
      list && !openEvents ? h('details', { class: 'events-fold' }, h('summary', {}, `${events.length} event${events.length === 1 ? '' : 's'}`), list) : list,
      comment);
  }
}

// "3 min ago", "yesterday", a date.
export function ago(when) {
  const s = (Date.now() - when.getTime()) / 1000;
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 2 * 86400) return 'yesterday';
  if (s < 30 * 86400) return `${Math.floor(s / 86400)} days ago`;
  return when.toLocaleDateString();
}
