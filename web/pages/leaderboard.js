// The leaderboard of a ruleset (issue 28): players whose rating is no
// longer provisional, best first, the first 100, and my own rank.
// GET /api/leaderboards/{ruleset}; #/leaderboards lists the rulesets.

import { get, token } from '../api.js';
import { h, clear, errorBox, setTitle, botBadge } from '../ui.js';
import { rulesets } from './rulesets.js';
import { ratingText } from './profile.js';

function chooser(list, current, pool) {
  return h('nav', { class: 'row wrap leaderboard-nav', 'aria-label': 'Leaderboards' },
    list.map((r) => h('a', {
      class: `button small${r.id === current ? ' primary' : ''}`,
      href: `#/leaderboards/${r.id}${pool === 'bot' ? '/bot' : ''}`,
      'aria-current': r.id === current ? 'page' : null,
    }, r.title)),
    current ? h('a', { class: 'button small', href: `#/leaderboards/${current}${pool === 'bot' ? '' : '/bot'}` },
      pool === 'bot' ? 'Show humans' : 'Show bots') : null);
}

function you(b) {
  if (!token()) return h('p', { class: 'hint' }, 'Sign in and play rated matches to get a rank.');
  if (!b.you) return h('p', { class: 'hint', id: 'my-rank' }, 'You have no rating here yet: play a rated match.');
  return h('p', { id: 'my-rank' }, b.you.rank
    ? `Your rank: ${b.you.rank} (${ratingText(b.you.rating)}).`
    : `Your rating ${ratingText(b.you.rating)} is provisional: it is ranked after a few more rated matches.`);
}

export async function show(main, { ruleset, pool }) {
  setTitle('Leaderboards');
  clear(main, h('h1', {}, 'Leaderboards'), h('p', {}, 'Loading…'));
  let list;
  try {
    list = await rulesets();
  } catch (err) {
    clear(main, h('h1', {}, 'Leaderboards'), errorBox(err, () => show(main, { ruleset, pool })));
    return null;
  }
  if (!ruleset) {
    clear(main, h('h1', {}, 'Leaderboards'), h('p', {}, 'Choose a ruleset.'), chooser(list, null, 'human'));
    return null;
  }
  const rs = list.find((r) => r.id === ruleset);
  const title = `${rs ? rs.title : ruleset}${pool === 'bot' ? ' · bots' : ''}`;
  setTitle(`Leaderboard · ${title}`);
  let b;
  try {
    b = (await get(`/api/leaderboards/${encodeURIComponent(ruleset)}${pool === 'bot' ? '?pool=bot' : ''}`)).body;
  } catch (err) {
    clear(main, h('h1', {}, 'Leaderboard'), chooser(list, ruleset, pool),
      errorBox(err.status === 404 ? { sentence: 'This server has no such ruleset.' } : err, () => show(main, { ruleset, pool })));
    return null;
  }
  const rows = b.players.map((p) => h('tr', {},
    h('td', {}, String(p.rank)),
    h('th', { scope: 'row' }, h('a', { href: `#/players/${p.id}` }, p.name), botBadge(p)),
    h('td', { class: 'rating' }, ratingText(p.rating)),
    h('td', { class: 'record' }, `${p.wins}-${p.draws}-${p.losses}`)));
  clear(main, h('h1', {}, `Leaderboard · ${title}`), chooser(list, ruleset, pool), you(b),
    rows.length
      ? h('div', { class: 'table-wrap' }, h('table', { class: 'ratings leaderboard' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'Player'),
          h('th', { scope: 'col' }, 'Rating'), h('th', { scope: 'col' }, 'W-D-L'))),
        h('tbody', {}, rows)))
      : h('p', {}, 'Nobody is ranked yet: a rating counts here once it is no longer provisional (after several rated matches).'),
    h('p', { class: 'hint' }, 'Glicko-2 ratings of rated matches; the first 100 players whose rating deviation is at most 110.'));
  return null;
}
