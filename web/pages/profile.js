// A player's profile (issue 28): its ratings per ruleset, provisional
// while the deviation is above 110, its record, a small plot of its rating
// history drawn here as inline SVG, and its recent finished matches.
// GET /api/players/{id}: matches a stranger may not see are not named.

import { get } from '../api.js';
import { h, clear, errorBox, setTitle, botBadge } from '../ui.js';
import { rulesetTitles } from './rulesets.js';

const SVG = 'http://www.w3.org/2000/svg';
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) if (c !== null) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

export const ratingText = (r) => String(Math.round(r));

// The rating before the first of these rated matches (of one ruleset and
// pool, oldest first), then after each, as a line over a viewBox that
// scales to the page's width.
export function historyPlot(history, label) {
  const W = 320, H = 120, PAD = 6;
  const points = [{ rating: history[0].before, start: true }, ...history];
  const ys = points.map((p) => p.rating);
  const lo = Math.min(...ys, 1500) - 20, hi = Math.max(...ys, 1500) + 20;
  const x = (i) => PAD + (points.length > 1 ? (i * (W - 2 * PAD)) / (points.length - 1) : (W - 2 * PAD) / 2);
  const y = (r) => PAD + ((hi - r) * (H - 2 * PAD)) / (hi - lo);
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join(' ');
  return s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-plot', role: 'img', 'aria-label': label },
    s('title', {}, label),
    s('line', { x1: PAD, x2: W - PAD, y1: y(1500), y2: y(1500), class: 'rating-plot-base' }),
    s('text', { x: W - PAD, y: y(1500) - 3, 'text-anchor': 'end', class: 'rating-plot-label' }, '1500'),
    s('path', { d: path, class: 'rating-plot-line' }),
    ...points.map((p, i) => p.start ? null : s('circle', { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 2.5, class: `rating-plot-dot ${p.outcome}` },
      s('title', {}, `${p.at.slice(0, 10)}: ${ratingText(p.rating)} (${p.outcome})`))));
}

function ratingsTable(p, titles) {
  if (!p.ratings.length) return h('p', {}, 'No rated matches yet.');
  return h('div', { class: 'table-wrap' }, h('table', { class: 'ratings' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Ruleset'), h('th', { scope: 'col' }, 'Rating'),
      h('th', { scope: 'col' }, 'W-D-L'))),
    h('tbody', {}, p.ratings.map((r) => h('tr', { 'data-ruleset': r.ruleset },
      h('th', { scope: 'row' }, h('a', { href: `#/leaderboards/${r.ruleset}${r.pool === 'bot' ? '/bot' : ''}` }, titles[r.ruleset] || r.ruleset),
        r.pool === 'bot' ? ' (bots)' : ''),
      h('td', { class: 'rating' }, ratingText(r.rating),
        r.provisional ? h('span', { class: 'tag', title: 'Provisional: too few rated matches yet' }, '?') : null,
        h('span', { class: 'rd' }, `±${Math.round(2 * r.rd)}`)),
      h('td', { class: 'record' }, `${r.wins}-${r.draws}-${r.losses}`, h('span', { class: 'rd' }, `${r.games} rated`)))))));
}

function plots(p, titles) {
  const groups = new Map();
  for (const pt of p.history) {
    const k = `${pt.ruleset}/${pt.pool}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(pt);
  }
  return [...groups.entries()].map(([k, pts]) => {
    const [rs, pool] = k.split('/');
    const name = `${titles[rs] || rs}${pool === 'bot' ? ' (bots)' : ''}`;
    return h('figure', { class: 'rating-history', 'data-ruleset': rs },
      historyPlot(pts, `${p.name}'s ${name} rating over ${pts.length} rated match${pts.length === 1 ? '' : 'es'}`),
      h('figcaption', {}, `${name}: ${ratingText(pts[0].before)} → ${ratingText(pts[pts.length - 1].rating)}`));
  });
}

const OUTCOME = { win: 'Won', draw: 'Draw', loss: 'Lost' };
function recentList(p, titles) {
  if (!p.recent.length) return h('p', {}, 'No finished matches to show.');
  return h('ul', { class: 'recent' }, p.recent.map((m) => h('li', {},
    h('a', { href: `#/match/${m.id}` }, `Match #${m.id}`), ` · ${titles[m.ruleset] || m.ruleset} · vs `,
    (m.opponents || []).flatMap((o, i) => [i ? ', ' : '', h('a', { href: `#/players/${o.id}` }, o.name), botBadge(o)]),
    m.rated ? h('span', { class: 'tag tag-rated' }, 'Rated') : null,
    h('span', { class: `tag tag-${m.outcome}` }, OUTCOME[m.outcome]))));
}

export async function show(main, { player }) {
  setTitle('Player');
  clear(main, h('h1', {}, 'Player'), h('p', {}, 'Loading…'));
  let p, titles;
  try {
    [p, titles] = await Promise.all([get(`/api/players/${player}`).then((r) => r.body), rulesetTitles()]);
  } catch (err) {
    clear(main, h('h1', {}, 'Player'), errorBox(err.status === 404 ? { sentence: 'There is no such player.' } : err,
      () => show(main, { player })));
    return null;
  }
  setTitle(p.name);
  clear(main,
    h('h1', {}, p.name, botBadge(p)),
    h('section', { class: 'card', 'aria-labelledby': 'ratings-h' }, h('h2', { id: 'ratings-h' }, 'Ratings'),
      ratingsTable(p, titles), plots(p, titles),
      h('p', { class: 'hint' }, 'Glicko-2 ratings: ± is twice the rating deviation; “?” marks a provisional rating (deviation above 110). W-D-L: won, drawn, lost.')),
    h('section', { class: 'card', 'aria-labelledby': 'recent-h' }, h('h2', { id: 'recent-h' }, 'Recent matches'), recentList(p, titles)));
  return null;
}
