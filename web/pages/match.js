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
//
// This file holds the page itself: its state, its layout, the render of
// one view (title, seats, invitations, the renderer's panel) and the
// banner. Its parts in match/ each lend Match the methods of one line of
// work, called through `this`:
//   match/loading.js   loading: the event stream, the long-poll, the view,
//                      my legal actions and the posts
//   match/scene.js     the board: actions by square, the scene drawn, a
//                      square chosen
//   match/choosing.js  the set-up form, the buttons, the tray, the action
//                      list and the draft of one post
//   match/posting.js   posting with an Idempotency-Key, match-level posts,
//                      undo of my last post
//   match/controls.js  draw, resign, abort, standing orders; the result
//   match/thread.js    the posts in words, the thread, the move list
//   match/replay.js    the step-through and "Share an image"
//   match/drafting.js  a whole turn drafted: each choice tried on the
//                      server (preview), the board after it
// Imports run one way: this file imports the parts, the parts import
// shared modules (and loading.js one helper of choosing.js), never this file.

import { token, loadInvites, inviteLink } from '../api.js';
import { h, clear, copyField, setTitle, botBadge } from '../ui.js';
import { Board } from '../board.js';
import { resultText, seatName, seatColour, words } from '../words.js';
import { notifyTurn, setFaviconCount } from '../notify.js';
import { seatClock } from '../clock.js';
import { watchNotice } from '../watch.js';
import { MatchLoading } from './match/loading.js';
import { MatchScene } from './match/scene.js';
import { MatchChoosing } from './match/choosing.js';
import { MatchPosting } from './match/posting.js';
import { MatchControls } from './match/controls.js';
import { MatchThread, ago } from './match/thread.js';
import { MatchReplay } from './match/replay.js';
import { MatchDrafting } from './match/drafting.js';

export { ago };

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
    // A post waiting to be sent again stays saved (posting.js): it is
    // not sent from a page the player left.
    clearTimeout(this.resendTimer);
    this.resendTimer = null;
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
    this.postEndBtn = h('button', { type: 'button', class: 'primary', id: 'post-end-btn', hidden: true, onclick: () => this.postWithEnd() }, 'End and post');
    this.undoBtn = h('button', { type: 'button', id: 'undo-btn', onclick: () => this.undoLast() }, 'Remove the last');
    this.takeBackBtn = h('button', { type: 'button', id: 'take-back-btn', hidden: true, onclick: () => this.takeBack() }, 'Undo my last post');
    this.clearBtn = h('button', { type: 'button', onclick: () => this.setDraft(null) }, 'Clear');
    this.draftEl = h('div', { class: 'draft', 'aria-live': 'polite' });
    this.postMsg = h('div', { 'aria-live': 'polite' });
    this.composer = h('section', { class: 'card composer', 'aria-label': 'Your post' },
      this.draftEl,
      h('div', { class: 'row wrap' }, this.postBtn, this.undoBtn, this.clearBtn, this.postEndBtn, this.takeBackBtn),
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
    // Hidden until the first view is drawn (reveal()), with a line of its
    // own meanwhile: the page appears laid out at once, nothing on it
    // shifting as the view fills it (issue 32, layout shift on a phone).
    this.loadingEl = h('p', { class: 'match-loading', role: 'status' }, 'Loading the match…');
    clear(this.main, this.loadingEl,
      h('div', { class: 'match', hidden: true },
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

  // ------------------------------------------------------------ render

  myTurn() {
    const v = this.view;
    return v && v.you !== null && v.you !== undefined && v.status === 'active' && v.awaiting.includes(v.you);
  }

  reveal() {
    if (!this.loadingEl) return;
    this.loadingEl.nextElementSibling.hidden = false;
    this.loadingEl.remove();
    this.loadingEl = null;
  }

  render() {
    const v = this.view;
    if (!v) return;
    this.reveal();
    const me = v.you;
    const mine = me !== null && me !== undefined;
    const myTurn = this.myTurn();
    setTitle(`${myTurn ? 'Your turn · ' : ''}Match #${v.id}`);
    setFaviconCount(myTurn ? 1 : 0);
    if (this.wasMyTurn === false && myTurn) notifyTurn(`Your turn in match #${v.id}`, `${v.title}: ${this.statusWords()}`, `#/match/${v.id}`);
    this.wasMyTurn = myTurn;
    this.titleEl.textContent = `Match #${v.id} · ${v.title}`;
    if (v.rated) this.titleEl.append(' ', h('span', { class: 'tag tag-rated', id: 'rated-badge' }, 'Rated'));
    this.boardHint.hidden = !(mine && v.status === 'active');
    this.statusEl.textContent = this.statusWords();
    const note = watchNotice(v);
    this.watchEl.textContent = note || '';
    this.watchEl.hidden = !note;

    // Seats: the colour, the player, whose move it is.
    clear(this.seatsEl, v.seats.map((s) => h('li', { class: v.awaiting.includes(s.seat) ? 'awaited' : '' },
      h('span', { class: `swatch seat-${s.seat % 6}`, 'aria-hidden': 'true' }),
      `${seatColour(s.seat)}: `, s.player ? h('a', { href: `#/players/${s.player.id}` }, s.player.name) : 'open seat', s.seat === me ? ' (you)' : '', botBadge(s.player),
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
    this.renderThreadSoon();
    this.renderShare();
    if (document.visibilityState === 'visible') localStorage.setItem(this.seenKey, String(v.seq));
  }

  // The thread (every post in words) is the longest part of the page:
  // the first time, it is drawn after the first paint, so that the board
  // and what awaits the player are laid out and painted without it (on a
  // slowed phone its layout was a third of the time from the view's
  // arrival to that paint; issue 32, "the board on a phone"). It comes
  // last on a phone and in the side column on a wide screen: what is
  // above it does not move when it fills.
  renderThreadSoon() {
    if (this.threadDrawn) {
      this.renderThread();
      return;
    }
    if (this.threadSoon) return;
    this.threadSoon = true;
    requestAnimationFrame(() => setTimeout(() => {
      this.threadSoon = false;
      this.threadDrawn = true;
      if (this.view) this.renderThread();
    }, 0));
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
      // The renderer's prompt names the piece that must act (issue 30 item 3).
      const named = this.hook('prompt', v);
      if (named) parts.push(named);
      else if (minePend.length) {
        for (const p of minePend) {
          if (p.prompt) parts.push(`${p.prompt[0].toUpperCase()}${p.prompt.slice(1).replace(/[.?!]?$/, (m) => m || '.')}`);
          else parts.push(p.kind === 'turn' ? 'It is your turn.' : `A decision is owed by you: ${words(p.kind)}.`);
        }
      } else parts.push('It is your turn.');
      const { bySource, direct, other } = this.index();
      if (this.draft && this.draft.preview && this.previewActions().length) parts.push('Your choice is on the board: add more to this post, or post it.');
      else if (this.draft) parts.push('Your choice is on the board: post it when ready.');
      else if (this.builderShown) parts.push('Fill in the form, then post.');
      else if (this.trayShown) parts.push('Choose squares for your pieces (or auto-deploy), then post.');
      else if ((bySource.size || direct.size) && other.length) parts.push('Choose on the board or with a button, then post.');
      else if (bySource.size || direct.size) parts.push('Choose a piece, then where it goes, then post.');
      else parts.push('Choose one, then post.');
    } else if (v.status === 'active') {
      // Prompts are written to the seat they await: to the others, say who
      // decides what, in the third person.
      const named = this.hook('prompt', v);
      if (named) parts.push(named);
      else for (const p of pend) {
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
      const lines = since.map((p) => this.sinceLine(p));
      clear(this.sinceEl, h('div', { class: 'since-box' },
        h('p', { class: 'label' }, `Since your last visit (${since.length} post${since.length === 1 ? '' : 's'}):`),
        h('ul', {}, lines.slice(-6).map((t) => h('li', {}, t))),
        lines.length > 6 ? h('p', { class: 'hint' }, `and ${lines.length - 6} earlier, in the posts below.`) : null,
        h('button', { type: 'button', class: 'small', onclick: () => { this.summaryClosed = true; this.renderBanner(this.myTurn()); } }, 'Got it')));
    } else clear(this.sinceEl);
    this.bannerEl.hidden = !parts.length && !this.drawEl.childNodes.length && !since.length;
  }
}

// The parts lend Match their methods; a name given by two parts (or by a
// part and Match) is a mistake caught here, on loading the page.
for (const part of [MatchLoading, MatchScene, MatchChoosing, MatchPosting, MatchControls, MatchThread, MatchReplay, MatchDrafting]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name === 'constructor') continue;
    if (Object.hasOwn(Match.prototype, name)) throw new Error(`match: ${name} is given twice`);
    Object.defineProperty(Match.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}
