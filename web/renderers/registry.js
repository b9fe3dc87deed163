// Which renderer draws which ruleset. Adding a ruleset's look is one file
// in this directory plus one line here; a ruleset without a line is drawn
// by the generic renderer, which can play any ruleset.
//
// A renderer module's default export is an object with any of these
// (generic.js has them all; a renderer may spread it and override some):
//   pieces(view)  -> [{square, seat, glyph, label, badges?, dashed?, draw?(g, size, svg)}]
//   terrain(view) -> [{square, kind, glyph?, label, draw?(g, size, svg)}]
//   panel(view, ctx) -> Node|null   side panel under the board (ctx: {seatName})
//   flipped(view) -> boolean        whether to show rank 8 at the bottom
//   action(a, view) -> string|null  an action in words (null: the generic phrase)
//   event(e, view)  -> string|null  an event in words (null: the generic phrase)
//   orders(view, send) -> Node|null a form for standing orders; send(ordersObject)

const RENDERERS = {
  'skirmish-test': () => import('./skirmish-test.js'),
  'wargame-chess': () => import('./wargame-chess.js'),
  'confrontation': () => import('./confrontation.js'),
  'officers-chess': () => import('./officers-chess.js'),
  'blood-chess': () => import('./blood-chess.js'),
  'chesswar': () => import('./chesswar.js'),
};

export async function rendererFor(ruleset) {
  const generic = (await import('./generic.js')).default;
  const load = RENDERERS[ruleset];
  if (!load) return generic;
  try {
    return { ...generic, ...(await load()).default };
  } catch (err) {
    console.error(`renderer for ${ruleset} failed to load; using the generic one`, err);
    return generic;
  }
}
