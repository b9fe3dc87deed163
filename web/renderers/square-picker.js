// A lobby option picked on a board (issue 30 item 6): choose a kind from a
// list, click squares to mark them with it (a second click takes the mark
// off), and read the option's value from the marks. Confrontation's
// terrain areas, ChessWar's Forest and Hills and the Officers Chess map
// grid are all this picker with their own kinds and value.
//
// squarePicker({id, label, kinds: {kind: {text, glyph, label?, css?, draw?}}, size?() -> [files, ranks],
//               initial?: Map(square -> kind), describe(marks) -> sentence})
// -> {node, marks (the Map), refresh()}

import { h } from '../ui.js';
import { squareName } from '../board.js';

export function squarePicker({ id, label, kinds, size = () => [8, 8], initial, describe }) {
  const marks = new Map(initial || []);
  const entries = Object.entries(kinds);
  const kindSel = h('select', { id: `${id}-kind` }, entries.map(([k, x]) => h('option', { value: k }, x.text)));
  const summary = h('p', { class: 'hint', 'aria-live': 'polite' });
  const holder = h('div', { class: 'terrain-board' });
  const clearBtn = h('button', { type: 'button', onclick: () => { marks.clear(); refresh(); } }, 'Clear the board');
  let board = null;
  function refresh() {
    const [files, ranks] = size();
    // A smaller board drops the marks that no longer fit on it.
    for (const sq of [...marks.keys()]) {
      const f = sq.charCodeAt(0) - 97;
      const r = Number(sq.slice(1));
      if (f >= files || r > ranks) marks.delete(sq);
    }
    if (board) {
      board.setSize(files, ranks);
      board.render({
        pieces: [],
        terrain: [...marks].map(([square, kind]) => ({
          square, kind: kinds[kind]?.css || kind, glyph: kinds[kind]?.glyph || '', label: kinds[kind]?.label || kinds[kind]?.text || kind, draw: kinds[kind]?.draw,
        })),
      });
    }
    summary.textContent = describe(marks);
  }
  import('../board.js').then(({ Board }) => {
    board = new Board({
      label: label,
      onSquare: (sq) => {
        if (marks.get(sq) === kindSel.value) marks.delete(sq);
        else marks.set(sq, kindSel.value);
        refresh();
        holder.dispatchEvent(new Event('change', { bubbles: true }));
      },
    });
    holder.append(board.el);
    refresh();
  });
  refresh();
  const pick = entries.length > 1
    ? [h('label', { for: `${id}-kind` }, 'What a click places'), kindSel]
    : [];
  return {
    node: h('div', { class: 'square-picker' }, ...pick, holder, summary, clearBtn),
    marks,
    refresh,
    kindSelect: kindSel,
  };
}

// The squares of a board, rank by rank from the top (rank 8 first), for
// options written as rows of letters.
export function boardRows(files, ranks, fn) {
  const rows = [];
  for (let r = ranks - 1; r >= 0; r--) {
    let row = '';
    for (let f = 0; f < files; f++) row += fn(squareName(f, r));
    rows.push(row);
  }
  return rows;
}
