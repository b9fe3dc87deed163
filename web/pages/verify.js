// The dice audit of a finished match: GET /api/games/{id}/verify replays
// every post from the revealed seed and checks every roll.

import { get } from '../api.js';
import { h, clear, errorBox, setTitle } from '../ui.js';

export async function show(main, { game }) {
  setTitle(`Dice of match #${game}`);
  const body = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Replaying the match from its seed…'));
  clear(main, h('h1', {}, `Dice of match #${game}`), body,
    h('p', {}, h('a', { href: `#/match/${game}` }, 'Back to the match')));
  async function load() {
    try {
      const r = (await get(`/api/games/${game}/verify`)).body;
      const ok = r.verified;
      clear(body,
        h('p', { class: ok ? 'verdict ok' : 'verdict bad', role: 'status' }, ok
          ? `Verified: the seed matches the commitment published at the start, and all ${r.rolls_checked} rolls of the ${r.posts} posts come from it.`
          : 'NOT verified: the replay does not match what was recorded. See the differences below.'),
        h('dl', { class: 'state-facts' },
          h('dt', {}, 'Commitment (published at the start)'), h('dd', { class: 'mono' }, r.commitment),
          h('dt', {}, 'Seed (revealed at the end)'), h('dd', { class: 'mono' }, r.seed),
          h('dt', {}, 'Seed matches the commitment'), h('dd', {}, r.commitment_ok ? 'yes' : 'NO'),
          h('dt', {}, 'Final position matches'), h('dd', {}, r.state_ok ? 'yes' : 'NO')),
        (r.mismatches || []).length ? h('section', {}, h('h2', {}, 'Differences'),
          h('ul', {}, r.mismatches.map((m) => h('li', {}, `Post #${m.seq}: ${m.what}`)))) : null,
        (r.rolls || []).length ? h('section', {}, h('h2', {}, 'Rolls by post'), h('p', { class: 'hint' }, 'Each draw as the value rolled and the number of sides (a d6 shows "4 of 6").'),
          h('ul', { class: 'rolls' }, r.rolls.filter((x) => (x.dice || []).length).map((x) => h('li', {},
            `Post #${x.seq}: `, x.dice.map(([bound, value]) => `${value + 1} of ${bound}`).join(', '))))) : null);
    } catch (err) {
      clear(body, errorBox(err, err.retryable ? load : null));
    }
  }
  await load();
  return null;
}
