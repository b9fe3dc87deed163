// My matches (awaiting me first), and who I am.

import { get, token } from '../api.js';
import { h, clear, errorBox, setTitle } from '../ui.js';
import { signInForms, identityCard } from './identity.js';
import { rulesetTitles } from './rulesets.js';

export async function show(main) {
  setTitle('My matches');
  const render = () => show(main);
  if (!token()) {
    clear(main, h('h1', {}, 'Warpost'),
      h('p', { class: 'lead' }, 'Play-by-post wargames on a chessboard: make your move whenever you have time; the server referees.'),
      signInForms(render));
    return null;
  }
  const list = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading your matches…'));
  clear(main,
    h('div', { class: 'page-head' }, h('h1', {}, 'My matches'), h('a', { class: 'button primary', href: '#/new' }, 'New match')),
    list,
    identityCard(render));
  let stopped = false;
  async function load() {
    try {
      const [r, titles] = await Promise.all([get('/api/me/games?limit=100'), rulesetTitles()]);
      if (stopped) return;
      const games = r.body.games || [];
      const waiting = games.filter((g) => g.awaiting_you).length;
      setTitle(waiting ? `(${waiting}) Your turn` : 'My matches');
      if (!games.length) {
        clear(list, h('p', {}, 'No matches yet. Create one, or open an invitation link a friend sent you.'));
        return;
      }
      clear(list, h('ul', { class: 'inbox' }, games.map((g) => {
        const state = g.awaiting_you ? 'Your turn'
          : g.status === 'open' ? 'Waiting for players'
            : g.status === 'active' ? 'Waiting for the others'
              : g.status === 'over' ? 'Over' : 'Aborted';
        return h('li', { class: g.awaiting_you ? 'awaiting' : '' },
          h('a', { href: `#/match/${g.id}` },
            h('span', { class: 'inbox-title' }, `Match #${g.id} · ${titles[g.ruleset] || g.ruleset}`),
            h('span', { class: `tag tag-${g.awaiting_you ? 'you' : g.status}` }, state),
            h('span', { class: 'inbox-meta' }, `Seat ${g.seat} of ${g.seats} · post ${g.seq} · ${new Date(g.updated_at).toLocaleString()}`)));
      })), r.body.count > games.length ? h('p', {}, `Showing ${games.length} of ${r.body.count}.`) : null);
    } catch (err) {
      if (stopped) return;
      clear(list, errorBox(err, load));
    }
  }
  await load();
  return { stop() { stopped = true; } };
}
