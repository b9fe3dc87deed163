// The match page (pages/match.js), its loading: the view read through the
// event stream or the long-poll (an ETag, 304 while nothing changes), a
// back-off after a lost connection, and with each new view my legal
// actions and the posts after the last one seen.
//
// Like every part in this folder, a class whose methods pages/match.js
// lends to its Match (`this` is the page); it calls the other parts'
// methods through `this` and imports none of them but choosing.js.

import { get, ApiError } from '../../api.js';
import { h, clear, errorBox } from '../../ui.js';
import { rendererFor } from '../../renderers/registry.js';
import { openStream } from '../../live.js';
import { same } from './choosing.js';

const WAIT = 50;           // seconds per long-poll (the server allows 60)

export class MatchLoading {
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
        this.reveal();
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

  // The match's event stream (web/live.js), opened once the match is under
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
    const deferred = this.deferredDraft;
    if (deferred && !(this.settleSeq && view.seq < this.settleSeq)) {
      // A choice made while my post was on its way (drafting.js): tried
      // now if it still is one, else let go.
      this.deferredDraft = null;
      this.draft = null;
      const done = this.deferredDone || (() => {});
      this.deferredDone = null;
      if (this.actions.some((a) => same(a, deferred[0]))) done(this.tryDraft(deferred));
      else {
        this.setDraft(null);
        done(false);
      }
    }
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
}
