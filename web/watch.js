// Spectators and board images on the board (issue 14, "Spectators" and
// "Board image"): the lobby's choice of who may watch and the delay, the
// list of matches open to watch (GET /api/games), the notice a spectator
// reads on the match page, and the "Share an image" box (board.svg).

import { get } from './api.js';
import { h, clear, errorBox, copyField } from './ui.js';
import { rulesetTitles } from './pages/rulesets.js';

const WHO = [
  ['open', 'Anyone', 'listed under “Watch” for everyone to find'],
  ['unlisted', 'Anyone with the link', 'not listed; you share the address of the match'],
  ['private', 'Only the players', 'nobody else can see it'],
];

const posts = (n) => `${n} post${n === 1 ? '' : 's'}`;

// The lobby's fields: value() is {spectators, spectator_delay}.
export function spectatorFields() {
  const radios = WHO.map(([v, label, hint]) => {
    const id = `watch-${v}`;
    const input = h('input', { type: 'radio', name: 'spectators', id, value: v, checked: v === 'unlisted' });
    return { v, input, node: h('div', { class: 'field-check field-radio' }, input,
      h('label', { for: id }, label, h('span', { class: 'hint' }, ` — ${hint}`))) };
  });
  const delay = h('input', { id: 'watch-delay', type: 'number', inputmode: 'numeric', min: 0, max: 1000, step: 1, value: 0, 'aria-describedby': 'watch-delay-hint' });
  const delayBox = h('div', { class: 'field' },
    h('label', { for: 'watch-delay' }, 'Spectators are this many posts behind'),
    delay,
    h('p', { class: 'hint', id: 'watch-delay-hint' },
      '0: they see each post at once. With a delay, a spectator cannot tell a player the position as it is; when the match ends, they see everything.'));
  const chosen = () => radios.find((r) => r.input.checked)?.v || 'unlisted';
  const relevance = () => { delayBox.hidden = chosen() === 'private'; };
  radios.forEach((r) => r.input.addEventListener('change', relevance));
  const node = h('fieldset', { class: 'options spectators' }, h('legend', {}, 'Who may watch'),
    radios.map((r) => r.node), delayBox);
  const value = () => {
    const n = parseInt(delay.value, 10);
    return { spectators: chosen(), spectator_delay: chosen() === 'private' || !(n > 0) ? 0 : Math.min(n, 1000) };
  };
  return { node, value };
}

// The match page's line for a spectator, or null for a player.
export function watchNotice(view) {
  if (view.you !== null && view.you !== undefined) return null;
  const d = view.spectator_delay || 0;
  if (view.status === 'active' && d > 0) {
    return `You are watching. You see the match as it was ${posts(d)} ago (the players chose this delay); when it ends, you see everything.`;
  }
  return view.status === 'over' || view.status === 'aborted' ? 'You are watching this match.' : 'You are watching: the board follows the match as it is played.';
}

// The board image of the position shown: a link to copy and to open.
export function shareBox(box, view, atSeq) {
  if (!view || !view.state) { box.hidden = true; return; }
  box.hidden = false;
  const url = `${location.origin}/api/games/${view.id}/board.svg${atSeq ? `?at=${atSeq}` : ''}`;
  const key = `${url} ${view.status}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const who = view.spectators === 'private' ? 'Only the players of this match can open it.'
    : `Whoever opens it sees the board as a spectator does: what is hidden stays hidden${view.spectator_delay && view.status === 'active' ? `, and ${posts(view.spectator_delay)} behind` : ''}.`;
  clear(box, h('summary', {}, 'Share an image of the board'),
    h('p', { class: 'hint' }, atSeq ? `The position after post #${atSeq}, the one shown now. ` : 'The position now. ', who),
    copyField(atSeq ? `Image of the board after post #${atSeq}` : 'Image of the board now', url, 'share-link'),
    h('p', {}, h('a', { href: url, target: '_blank', rel: 'noopener', id: 'share-open' }, 'Open the image')),
    view.spectators === 'private' ? null
      : copyField('Link to watch the match (read only)', `${location.origin}/#/match/${view.id}`, 'share-watch'));
}

function statusWords(g) {
  return { open: 'waiting for players', active: 'being played', over: 'finished', aborted: 'aborted' }[g.status] || g.status;
}

// The matches open to watch, newest first, 20 at a time.
export function watchList() {
  const box = h('section', { class: 'card watch-list', 'aria-labelledby': 'watch-h' });
  const list = h('ul', { class: 'watch-items' });
  const more = h('div', {});
  clear(box, h('h2', { id: 'watch-h' }, 'Watch'),
    h('p', { class: 'hint' }, 'Matches their players opened to everyone. Watching is read-only.'),
    list, more);
  let offset = 0;
  async function load() {
    clear(more, h('p', {}, 'Loading…'));
    try {
      const [r, titles] = await Promise.all([get(`/api/games?limit=20&offset=${offset}`, { auth: false }), rulesetTitles()]);
      const games = r.body.games || [];
      offset += games.length;
      for (const g of games) {
        list.append(h('li', {}, h('a', { href: `#/match/${g.id}`, class: 'watch-link' },
          `${titles[g.ruleset] || g.ruleset} · match #${g.id}`),
        h('span', { class: 'hint' }, ` ${g.seats} players, ${statusWords(g)}${g.spectator_delay && g.status === 'active' ? `, shown ${posts(g.spectator_delay)} behind` : ''}`),
        g.rated ? h('span', { class: 'tag tag-rated' }, 'Rated') : null));
      }
      clear(more, !offset ? h('p', {}, 'No match is open to watch right now.')
        : games.length === 20 ? h('button', { type: 'button', class: 'small', onclick: load }, 'Show more') : null);
    } catch (err) {
      clear(more, errorBox(err, load));
    }
  }
  load();
  return box;
}
