// The match page (pages/match.js), takeback requests (issue 30, item 9):
// after my turn has passed, "Ask to take back" my last post; the other
// seat reads "X asks to take back their last move: Accept / Decline"; both
// read the outcome. The request stands while it is the match's last post
// (srv/api/takeback.c), so it is read from the log's last post.

import { h } from '../../ui.js';
import { seatName } from '../../words.js';

// The controls' lines about takebacks, for the seat `me` of view `v`.
export function takebackItems(v, posts, post) {
  const me = v.you;
  const last = posts.length ? posts[posts.length - 1] : null;
  if (!last || last.seq !== v.seq || v.status !== 'active') return [];
  if (last.kind === 'takeback_request') {
    if (last.seat === me) return [h('p', { id: 'takeback-status' }, 'You asked to take back your last move; waiting for the answer.')];
    return [h('div', { class: 'takeback-ask', role: 'group', 'aria-label': 'Takeback request' },
      h('p', { id: 'takeback-status' }, `${seatName(v, last.seat)} asks to take back their last move.`),
      h('div', { class: 'row wrap' },
        h('button', { type: 'button', onclick: () => post('takeback/accept', {}) }, 'Accept'),
        h('button', { type: 'button', onclick: () => post('takeback/decline', {}) }, 'Decline')))];
  }
  const before = posts.length > 1 ? posts[posts.length - 2] : null;
  const lines = [];
  if (last.kind === 'takeback_decline') {
    lines.push(h('p', { id: 'takeback-status' }, `${seatName(v, last.seat)} declined the takeback.`));
  } else if (last.kind === 'undo' && before && before.kind === 'takeback_request') {
    lines.push(h('p', { id: 'takeback-status' }, `The takeback was accepted: ${seatName(v, last.seat)}'s last move was taken back.`));
  }
  const mine = last.kind === 'turn' && last.seat === me && !last.undone_by && !v.awaiting.includes(me) &&
    !(last.rolls || []).length;
  if (mine) lines.push(h('button', { type: 'button', id: 'takeback-ask', onclick: () => post('takeback', {}) }, 'Ask to take back'));
  return lines;
}
