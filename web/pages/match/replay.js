// The match page (pages/match.js), the step-through: post by post, the
// position after each as the server replays it (?at=SEQ, kept per post),
// or the renderer's own rebuild until it comes; the bar that steps; and
// "Share an image" of the position shown. A part lent to Match: see
// loading.js.

import { get } from '../../api.js';
import { h, clear } from '../../ui.js';
import { shareBox } from '../../watch.js';

export class MatchReplay {
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
}
