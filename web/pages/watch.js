// Matches open to watch (issue 14, "Spectators"): GET /api/games.
import { h, clear, setTitle } from '../ui.js';
import { watchList } from '../watch.js';

export async function show(main) {
  setTitle('Watch');
  clear(main, h('h1', {}, 'Watch a match'), watchList());
  return null;
}
