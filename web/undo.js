// Undo (issue 14, "Correspondence play"): the seat takes back its last
// posts of its turn. The board shows an Undo button while
// GET /api/games/{id}/actions says `can_undo`, calls undoLast() with the
// match's current seq, then reloads the match; a 409 `undo-not-allowed`
// carries `code` (not-your-turn, nothing-to-undo, dice-rolled,
// information-revealed). The log's `undo` posts read with undoText().
import { post, randomHex } from './api.js';

// A retry of the same undo (a network failure) reuses its key, so it is
// answered again rather than applied twice.
export function undoLast(gameId, seq, count = 1, key = randomHex(16)) {
  return post(`/api/games/${gameId}/undo`, { seq, count }, { headers: { 'Idempotency-Key': key } });
}

// The event {"type": "undo", "seat", "posts": [...]} as a sentence.
export function undoText(event, nameOf) {
  const n = (event.posts || []).length;
  return `${nameOf(event.seat)} took back ${n === 1 ? 'their last post' : `their last ${n} posts`}.`;
}
