// The match page (pages/match.js), drafting a whole turn (issue 30, item
// 1): each action chosen is added to the draft and the draft is tried on
// the server (POST /api/games/{id}/preview, a dry run that changes
// nothing): the board then shows the position after it and the choices
// left, and "Post" sends every action of the draft in one post. An action
// that rolls dice or reveals something hidden ends the draft (its outcome
// is the post's); one the rules refuse is not added. A part lent to
// Match: see loading.js.

import { previewDraft } from '../../api.js';
import { h, clear, errorBox } from '../../ui.js';

export class MatchDrafting {
  // The view the board shows: after the draft when the server tried it.
  shownView() {
    const p = this.draft && this.draft.preview;
    if (!p || this.replay !== null) return this.view;
    return { ...this.view, state: p.state, awaiting: p.awaiting };
  }

  // The actions the draft may still take, when the server tried it (none
  // while it is being tried).
  previewActions() {
    const d = this.draft;
    if (!d || (!d.preview && !d.pending)) return null;
    const p = d.preview;
    return p && p.awaited && !p.ends ? p.actions : [];
  }

  // Tries the actions as a draft: shown at once as the draft, then the
  // server's dry run puts the position after them on the board with the
  // choices left; when the rules refuse them, the draft goes back to what
  // it was and the refusal says why.
  // Post waits for the dry run under way (posting.js, sendPost): a post
  // sent beside it could reach the server first, and the dry run then be
  // asked of the position after the post (a 422 for a choice made).
  tryDraft(actions) {
    const run = this.runDraft(actions);
    this.draftRun = run;
    return run;
  }

  async runDraft(actions) {
    // Just posted and the view not there yet: the dry run would be asked
    // of a past position (a 409). The choice waits for the new view
    // (loading.js, applyView), which tries it again if it is still legal.
    if (this.settleSeq && this.view.seq < this.settleSeq) {
      this.deferredDraft = actions;
      this.setDraft(actions, { pending: true });
      // Look now: the stream's word of that post may already be used up.
      this.refresh();
      // Settled when the new view has tried it (or let it go).
      return new Promise((done) => {
        const before = this.deferredDone;
        this.deferredDone = done;
        if (before) before(false);
      });
    }
    const seq = this.view.seq;
    const prev = this.draft;
    const ticket = (this.draftTicket = (this.draftTicket || 0) + 1);
    this.setDraft(actions, { pending: true });
    try {
      // The dry run is of the match as it is now (no seq): when another
      // seat's post is still on its way to this page, the draft goes on
      // from the newer position the answer shows, not a 409 for the old.
      const r = await previewDraft(this.id, undefined, actions);
      if (ticket !== this.draftTicket || this.view.seq !== seq) return false;
      clear(this.postMsg);
      this.setDraft(actions, { preview: r.body, keepTicket: true });
      if (this.draft && Number.isInteger(r.body.seq) && r.body.seq !== seq) {
        this.draft.seq = r.body.seq;
        this.refresh();
      }
      this.followPiece(actions[actions.length - 1]);
      return true;
    } catch (err) {
      if (ticket !== this.draftTicket) return false;
      if (prev && prev.seq === this.view.seq) this.setDraft(prev.actions, { preview: prev.preview, sticky: prev.sticky, keepTicket: true });
      else this.setDraft(null);
      clear(this.postMsg, errorBox(err, err.retryable ? () => this.tryDraft(actions) : null));
      if (err.slug === 'stale-sequence' || err.slug === 'not-awaited') this.refresh();
      return false;
    }
  }

  // The piece that just acted: activated (an action on its own square,
  // nothing moving), it stays chosen, its choices on the board at once;
  // moved, its choices with no target (end its turn) are shown beside the
  // board (issue 30, item 2), and the next click is free to choose any
  // piece.
  followPiece(a) {
    const { from, to } = this.squaresOf(a, this.view);
    const at = to || from;
    if (!at || !this.index().bySource.has(at)) return;
    if (!from || !to || to === from) this.selected = this.autoSelected = at;
    else this.followed = at;
    this.renderActions(true);
    this.renderBoard();
  }

  // The action that ends the turn (or the unit's turn, or the phase) when
  // the draft may take it: one button ends and posts (issue 30: a unit's
  // move, then "End its turn and post", with no other click).
  endingAction() {
    const list = this.previewActions() || [];
    return list.find((a) => /^(end|end_turn|end_phase|pass|done|finish)$/.test(String(a.type)) && !this.squaresOf(a).to) || null;
  }

  renderPostEnd() {
    const end = this.draft && this.draft.preview ? this.endingAction() : null;
    this.postEndBtn.hidden = !end;
    const text = end ? this.hook('action', end, this.shownView()) || this.phrase(end) : '';
    if (end) this.postEndBtn.textContent = `${text.replace(/^./, (c) => c.toUpperCase())} and post`;
  }

  async postWithEnd() {
    const end = this.endingAction();
    if (!end || !this.draft) return;
    if (await this.tryDraft([...this.draft.actions, end])) await this.sendPost();
  }

  // A post of the others in one line for "Since your last visit": its
  // actions, then what came of them, dice included (issue 30: a whole
  // turn is one post, read as one line).
  sinceLine(p) {
    const title = this.postTitle(p);
    if (p.kind !== 'turn' || !Array.isArray(p.actions) || !p.actions.length) return title;
    const results = (p.events || [])
      .filter((e) => /roll|dice|battle|combat|attack|shot|hit|miss|save|damage|destroy|remove|captur|kill|die|result|repel/.test(String(e.type)))
      .map((e) => this.eventPhrase(e)).filter(Boolean);
    const seen = new Set();
    const uniq = results.filter((t) => !seen.has(t) && seen.add(t));
    if (!uniq.length) return title;
    return `${title}. ${uniq.length > 4 ? `${uniq.slice(0, 4).join('; ')}…` : uniq.join('; ')}`;
  }

  // What the draft's end means, under its list.
  draftNotice() {
    const p = this.draft && this.draft.preview;
    if (!p) return null;
    const n = this.draft.actions.length;
    if (p.ends) {
      return h('p', { class: 'hint draft-ends', id: 'draft-ends' }, p.ends.reason === 'dice'
        ? 'The last choice rolls dice: post to see what happens (nothing can follow it in this post).'
        : 'The last choice shows you something hidden: post to see it (nothing can follow it in this post).');
    }
    if (p.over) return h('p', { class: 'hint', id: 'draft-ends' }, 'This would end the match: post it.');
    if (!p.awaited) return h('p', { class: 'hint', id: 'draft-ends' }, 'Your turn ends with this: post it.');
    return h('p', { class: 'hint', id: 'draft-more' }, n === 1
      ? 'Shown on the board. Choose another piece to add it to this post, or post now.'
      : `Shown on the board: ${n} actions in one post. Add more, or post.`);
  }
}
