// The match page (pages/match.js), posting: the draft sent with an
// Idempotency-Key kept (localStorage) until the server answers, a retry
// byte for byte, a lost post resent once the match moved on; the
// match-level posts (draw, resign, abort, claim, orders); and "Undo my
// last post". A part lent to Match: see loading.js.

import { request, randomHex } from '../../api.js';
import { h, clear, errorBox } from '../../ui.js';
import { undoLast } from '../../undo.js';

// Times a post is sent again by itself before the player is asked, and
// the answers that are worth it: a server or gateway that is busy or
// cannot reach its backend for a moment (a 500 is not).
const RESENDS = 3;
const BUSY = [502, 503, 504];

export class MatchPosting {
  // A post keeps its Idempotency-Key until it succeeds or is refused, so a
  // retry after a lost answer is never applied twice.
  loadAttempt() {
    try { return JSON.parse(localStorage.getItem(this.attemptKey)); } catch { return null; }
  }

  // Without its count of automatic resends: a post tried again later
  // (Post, or the page loaded anew) gets its own.
  saveAttempt(a) {
    if (a) localStorage.setItem(this.attemptKey, JSON.stringify({ ...a, resends: undefined }));
    else localStorage.removeItem(this.attemptKey);
  }

  async sendPost() {
    // A choice still being tried (drafting.js) is posted once the server
    // has tried it, and not at all when it refused it.
    // Its answer is dropped when the view moved on meanwhile: the choice,
    // if the new view kept it, is tried once more.
    for (let tries = 0; this.draft && this.draft.pending && this.draftRun && tries < 4; tries++) {
      const run = this.draftRun;
      await run;
      if (run === this.draftRun && this.draft && this.draft.pending) this.tryDraft(this.draft.actions);
    }
    if (!this.draft) return;
    if (this.draft.pending) {
      // Never a silent no: the choice is still being checked.
      clear(this.postMsg, h('p', { class: 'note' }, 'Your choice is still being checked against the match: post again in a moment.'));
      this.refresh();
      return;
    }
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
    clearTimeout(this.resendTimer);
    this.resendTimer = null;
    this.saveAttempt(attempt);
    this.postBtn.disabled = true;
    if (!quiet && !attempt.resends) clear(this.postMsg, h('p', { class: 'note' }, 'Posting…'));
    try {
      const r = await request('POST', attempt.path, { rawBody: attempt.body, headers: { 'Idempotency-Key': attempt.key } });
      this.saveAttempt(null);
      // Until the view shows this post, a choice waits for it (drafting.js).
      if (r.body && Number.isInteger(r.body.seq)) this.settleSeq = r.body.seq;
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
      if (!quiet && (err.network || BUSY.includes(err.status)) && (attempt.resends || 0) < RESENDS) {
        this.resendLater(attempt, err);
        return false;
      }
      attempt.resends = 0;
      clear(this.postMsg, errorBox(err, err.retryable ? () => this.send(attempt) : null, 'Retry (safe: it is never applied twice)'));
      if (err.slug === 'stale-sequence' || err.slug === 'not-awaited') this.refresh();
      this.renderDraft();
      return false;
    }
  }

  // A busy server (a 503 saying when to come back, a gateway's 502 or
  // 504) or a lost connection: the post is sent again by itself, with its
  // key, after the wait the server asked for (1 to 10 s; 2, 4 and 6 s
  // without one), a few times before the player is asked. A phone that drops its
  // connection for a moment, or a server shedding load, costs the player
  // no second tap.
  resendLater(attempt, err) {
    const n = attempt.resends || 0;
    const wait = Math.min(Math.max(err.retryAfter ?? 2 * (n + 1), 1), 10);
    attempt.resends = n + 1;
    clear(this.postMsg, h('div', { class: 'note', role: 'status', id: 'resend-note' },
      h('p', {}, `${err.sentence} Your post is sent again in ${wait} s by itself (safe: it is never applied twice).`),
      h('button', { type: 'button', onclick: () => this.send(attempt) }, 'Send it now')));
    this.resendTimer = setTimeout(() => {
      this.resendTimer = null;
      this.send(attempt);
    }, wait * 1000);
  }

  // A post whose answer was lost, while the match moved on: send it again
  // with its key, at once (one waiting to be sent again included). If it
  // was applied, the server answers as the first time; if not, it is
  // refused as stale, and nothing happens twice.
  async retryUnknownAttempt() {
    const a = this.loadAttempt();
    if (!a || a.seq === undefined || a.seq === this.view.seq || this.retrying) return;
    this.retrying = true;
    try { await this.send(a, true); } finally { this.retrying = false; }
  }

  matchPost(path, body, label) {
    return this.send({ path: `/api/games/${this.id}/${path}`, body: JSON.stringify(body), key: randomHex(16), label });
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
}
