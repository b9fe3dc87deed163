// ChessWar's lobby options in words, and Forest and Hills picked on a
// board of the chosen size (issue 30 items 5 and 6): one picker for both
// options, read by `forest` and by `hills`.

import { squarePicker } from './square-picker.js';
import { plural } from '../words.js';

const KINDS = {
  forest: { text: 'Forest', glyph: 'Fo', css: 'forest' },
  hills: { text: 'Hill', glyph: 'Hi', css: 'hill' },
};

let picker = null;
let sizeOf = () => [8, 8];

const squaresOf = (kind, marks = picker?.marks) => [...(marks || [])].filter(([, k]) => k === kind).map(([sq]) => sq).sort();

export const terrainOptions = {
  optionWords: {
    total_massacre: { label: 'Total massacre', hint: 'Play until one army is wiped out, not until a general falls.' },
    board_files: { label: 'Board width (files)', hint: 'A larger board: 8 to 16 files (catapults then reach 8 squares).' },
    board_ranks: { label: 'Board height (ranks)', hint: 'A larger board: 8 to 16 ranks.' },
    forest: {
      label: 'Forest and Hills', hint: 'Forest blocks sight and gives +1 saves against shots; from a Hill a unit sees over others. Click squares to place them.',
      values: (v) => plural(v.length, 'Forest square') + `: ${v.join(', ')}`,
    },
    hills: { label: 'Hills', values: (v) => plural(v.length, 'Hill square') + `: ${v.join(', ')}` },
  },

  // A lobby input of its own: `forest` draws the picker, `hills` reads the
  // same one (its own box is hidden: `hidden`).
  optionInput(name, spec, ctx) {
    if (name === 'forest') {
      sizeOf = () => {
        const v = ctx.values();
        return [Number(v.board_files) || 8, Number(v.board_ranks) || 8];
      };
      picker = squarePicker({
        id: ctx.id, label: 'Forest and Hills board', kinds: KINDS, size: () => sizeOf(),
        describe: (marks) => {
          const f = squaresOf('forest', marks);
          const hl = squaresOf('hills', marks);
          return f.length || hl.length
            ? `${plural(f.length, 'Forest square')}, ${plural(hl.length, 'Hill square')}.`
            : 'An open field: choose Forest or Hill, then click squares.';
        },
      });
      // The board follows the size fields (the lobby asks `when` on each change).
      return { node: picker.node, value: () => squaresOf('forest'), when: () => { picker.refresh(); return true; } };
    }
    if (name === 'hills') return { node: document.createElement('div'), value: () => squaresOf('hills'), hidden: true };
    return null;
  },
};
