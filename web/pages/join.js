// An invitation link: #/join/GAME/CODE. Sign in if needed, take the seat,
// then open the match.

import { post, token, randomHex } from '../api.js';
import { h, clear, errorBox, setTitle } from '../ui.js';
import { signInForms } from './identity.js';

export async function show(main, { game, code }) {
  setTitle(`Join match #${game}`);
  const head = h('h1', {}, `Join match #${game}`);
  if (!token()) {
    clear(main, head, h('p', {}, 'You are invited to a match. First, choose the name you play under.'),
      signInForms(() => show(main, { game, code })));
    return null;
  }
  const msg = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Taking your seat…'));
  clear(main, head, msg);
  async function join() {
    clear(msg, h('p', {}, 'Taking your seat…'));
    try {
      await post(`/api/games/${game}/join`, { code, client_seed: randomHex(16) });
      location.replace(`#/match/${game}`);
    } catch (err) {
      if (err.slug === 'already-seated') { location.replace(`#/match/${game}`); return; }
      clear(msg, errorBox(err, err.retryable ? join : null),
        h('p', {}, h('a', { href: `#/match/${game}` }, 'Look at the match'), ' · ', h('a', { href: '#/' }, 'My matches')));
    }
  }
  await join();
  return null;
}
