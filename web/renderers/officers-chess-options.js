// Officers Chess's lobby options in words, the custom map drawn on a board
// tile by tile, the scenario's marked tiles clicked on a board, and the
// activations per turn as two counts (issue 30 items 5 and 6): nothing to
// type as a code.

import { h } from '../ui.js';
import { seatColour } from '../words.js';
import { squarePicker, boardRows } from './square-picker.js';

// Tile letters of the grid (rules/officers-chess/README.md, "Map").
export const TILES = {
  M: ['Mountain', 'Mt'], W: ['Woods', 'Wd'], P: ['Pillar', 'Pi'], T: ['Thicket', 'Th'],
  Z: ['Fog', 'Fg'], F: ['Fort', 'Ft'], R: ['Protection Tile', 'Pr'], H: ['Heal Tile', 'He'],
  D: ['Gate/Door', 'Gt'], '~': ['Water', '~'], S: ['Stone Pillars', 'St'], V: ['Vines', 'Vi'],
  X: ['Flames', 'Fl'], I: ['Ice', 'Ic'], _: ['Floor', ''], r: ['Ruins', 'Ru'],
};
export const FILL = {
  M: '#a1887f', W: '#66bb6a', P: '#9e9e9e', T: '#8bc34a', Z: '#cfd8dc', F: '#ffb74d',
  R: '#ffe082', H: '#f48fb1', D: '#6d4c41', '~': '#64b5f6', S: '#bdbdbd', V: '#aed581',
  X: '#ff7043', I: '#b3e5fc', _: '#eeeeee', r: '#d7ccc8',
};

// A tile drawn in its colour with its letters (the board and the picker).
export function tileDraw(c) {
  const [name, glyph] = TILES[c];
  return (g, S, svg) => {
    g.append(svg('rect', { class: `terrain oc-tile oc-tile-${name.toLowerCase().replace(/[^a-z]+/g, '-')}`, x: 2, y: 2, width: S - 4, height: S - 4, fill: FILL[c], opacity: 0.55 }));
    const t = svg('text', { class: 'terrain-glyph', x: 8, y: 26, 'aria-hidden': 'true' });
    t.textContent = glyph;
    g.append(t);
  };
}

// The value of another lobby field (selects hold JSON).
function lobbyValue(name) {
  const el = document.getElementById(`opt-${name}`);
  try { return el ? JSON.parse(el.value) : undefined; } catch { return el?.value; }
}

const SCENARIO = { rout: 'Rout: defeat every enemy unit', seize: 'Seize: take the marked tiles', escape: 'Escape: leave through the marked tiles', raze: 'Raze: destroy the marked tiles' };
const WHO = { seat0: 'White', random: 'A random player' };

function gridInput(id) {
  const kinds = Object.fromEntries(Object.entries(TILES).map(([c, [name, glyph]]) => [c, { text: `${name}${glyph ? ` (${glyph})` : ''}`, label: `${name}${glyph ? `, marked ${glyph}` : ''}`, glyph, css: name, draw: tileDraw(c) }]));
  const picker = squarePicker({
    id, label: 'Custom map board', kinds,
    describe: (marks) => (marks.size ? `${marks.size} tile${marks.size === 1 ? '' : 's'} drawn; the rest is Plains.` : 'All Plains: choose a tile, then click squares to draw the map.'),
  });
  const grid = () => boardRows(8, 8, (sq) => picker.marks.get(sq) || '.').join('/');
  return { node: picker.node, value: () => (lobbyValue('map') === 'custom' ? grid() : ''), when: (v) => v.map === 'custom' };
}

function marksInput(id) {
  const picker = squarePicker({
    id, label: 'Marked tiles board', kinds: { mark: { text: 'Marked tile', glyph: '★', css: 'marked' } },
    describe: (m) => (m.size ? `${m.size} marked tile${m.size === 1 ? '' : 's'}.` : 'None clicked: the scenario\'s usual tiles (Seize d8 e8, Escape a8 h8, Raze c6 f6, seen from that side).'),
  });
  const marks = () => [...picker.marks.keys()].sort().join(' ');
  return { node: picker.node, value: () => ((lobbyValue('scenario') || 'rout') === 'rout' ? '' : marks()), when: (v) => v.scenario && v.scenario !== 'rout' };
}

// "1" or "1,3": a count of units per turn for each side.
function activationsInput(id) {
  const sel = (seat) => h('select', { id: `${id}-${seat}` }, [1, 2, 3, 4].map((n) => h('option', { value: n }, String(n))));
  const a = sel(0);
  const b = sel(1);
  return {
    node: h('div', { class: 'field-pair' },
      h('div', { class: 'field' }, h('label', { for: `${id}-0` }, seatColour(0)), a),
      h('div', { class: 'field' }, h('label', { for: `${id}-1` }, seatColour(1)), b)),
    value: () => (a.value === b.value ? a.value : `${a.value},${b.value}`),
  };
}

export const officersOptions = {
  optionWords: {
    units: { label: 'Units per army', hint: 'How many units each player recruits.' },
    promoted: { label: 'Promoted classes', hint: 'Armies may recruit the stronger, promoted classes.' },
    fog: { label: 'Fog of war', hint: 'A unit sees 3 tiles around it, and the deployment is secret.' },
    first: { label: 'Who activates first each round', hint: '', values: WHO },
    activations: {
      label: 'Units activated per turn', hint: 'How many units each side moves before the other side plays (1 to 4).',
      values: (v) => { const [x, y = x] = String(v).split(','); return x === y ? `${x} for each side` : `${seatColour(0)} ${x}, ${seatColour(1)} ${y}`; },
    },
    round_limit: { label: 'Round limit', hint: 'The match ends after this round (0: no limit); then the side that routed more units wins.', values: (v) => (v ? `after round ${v}` : 'none') },
    scenario: { label: 'Victory', hint: '', values: SCENARIO },
    scenario_seat: { label: 'Whose units have the scenario\'s role', hint: 'Their Leader seizes, their units flee or raid.', values: (v) => seatColour(Number(v)), when: (v) => v.scenario && v.scenario !== 'rout' },
    map: { label: 'Map', hint: '', values: { plains: 'Plains: an open field', crossing: 'Crossing: woods, forts, mountains and two rows of water', keep: 'Keep: every kind of tile', custom: 'A map of one\'s own, drawn on a board' } },
    grid: { label: 'Custom map', hint: 'Choose a tile, then click squares; a second click takes it off.', values: (v) => { const n = [...v].filter((c) => c !== '.' && c !== '/').length; return `${n} tile${n === 1 ? '' : 's'} drawn, the rest Plains`; }, when: (v) => v.map === 'custom' },
    marks: { label: 'Marked tiles', hint: 'Click the tiles the scenario is about, or leave none for its usual ones.', values: (v) => v.split(/\s+/).join(', '), when: (v) => v.scenario && v.scenario !== 'rout' },
  },

  optionInput(name, spec, ctx) {
    if (name === 'grid') return gridInput(ctx.id);
    if (name === 'marks') return marksInput(ctx.id);
    if (name === 'activations') return activationsInput(ctx.id);
    if (name === 'scenario_seat') {
      const sel = h('select', { id: ctx.id, 'aria-label': 'Whose units have the scenario\'s role' }, [0, 1].map((n) => h('option', { value: n }, seatColour(n))));
      return { node: sel, value: () => Number(sel.value), when: (v) => v.scenario && v.scenario !== 'rout' };
    }
    return null;
  },
};
