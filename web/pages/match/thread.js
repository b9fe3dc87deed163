// The match page (pages/match.js), the thread: the posts in words (an
// action, an event, a post's heading), set-up posts folded into one line,
// older posts' events folded, the jump links and the move list. A part
// lent to Match: see loading.js.

import { h, clear, errorBox } from '../../ui.js';
import { actionText, eventText, postHeading, seatName } from '../../words.js';
import { undoText } from '../../undo.js';

const OPEN_EVENTS = 4;     // the latest posts show their events; older ones fold them

export class MatchThread {
  // The turns that stand (not taken back by an undo).
  turnPosts() {
    return this.posts.filter((p) => p.kind === 'turn' && !p.undone_by);
  }

  phrase(a) {
    return this.hook('action', a, this.view) || actionText(a, this.view);
  }

  eventPhrase(e) {
    if (e.type === 'undo') return undoText(e, (s) => seatName(this.view, s));
    return this.hook('event', e, this.view) || eventText(e, this.view).text;
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
