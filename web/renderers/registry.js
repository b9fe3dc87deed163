// Which renderer draws which ruleset. Adding a ruleset's look is one file
// in this directory plus one line here; a ruleset without a line is drawn
// by the generic renderer, which can play any ruleset.
//
// A renderer module's default export is an object with any of these
// (generic.js has them all; a renderer may spread it and override some).
// Every hook is called guarded: a throwing hook falls back to nothing.
//
// Drawing
//   pieces(view)  -> [{square, seat, glyph, label, badges?, dashed?, shape?, draw?(g, size, svg)}]
//                    shape: 'king'|'queen'|'rook'|'bishop'|'knight'|'pawn'|'joker' draws
//                    a silhouette (pieces.js; by default from the glyph K Q R B N P J),
//                    null keeps the lettered disc. Several pieces on one square
//                    (a stack, an attacker engaged with its defender) are all drawn.
//   terrain(view) -> [{square, kind, glyph?, label, transient?, draw?(g, size, svg)}]
//                    transient: a mark of now (a battle under way), not shown
//                    on past positions of the step-through
//   flipped(view) -> boolean        whether to show rank 8 at the bottom
//   legend(view)  -> [[mark, meaning]] what the badges and glyphs mean ("S1": …),
//                    shown under the board in "What the marks mean"
//   panel(view, ctx) -> Node|null   side panel under the board (ctx: {seatName})
//
// Words
//   action(a, view) -> string|null  an action in words (null: the generic phrase)
//   event(e, view)  -> string|null  an event in words (null: the generic phrase)
//   summary(post, view) -> string|null  a post's heading in the thread and the
//                    move list (null: the actions, or for another seat's post the
//                    phrases of its events)
//   optionWords: {name: {label, hint, values?: {value: words} | (value) -> words, when?(values)}}
//                    the lobby's and the invitation's words for the ruleset's
//                    options (no raw names, no citations); `when` hides an
//                    option that does not apply (in the lobby and the invitation)
//   optionInput(name, spec, ctx) -> {node, value(), when?(values), hidden?}|null
//                    a lobby input of its own: terrain on a board
//                    (square-picker.js), a sheet form; `hidden`: no box of its
//                    own (its value is set with another option's input)
//   prompt(view) -> string|null     the banner's prompt naming who must act (the
//                    piece, unit or character, or the seat); null keeps the
//                    server's pending prompts
//
// Choosing on the board
//   actionSquares(a, view) -> {from, to}  where an action sits on the board: the
//                    piece that acts (from) and the square it acts on (to).
//                    Default: `from`, and `to`/`target`/`square`/`at`. Return
//                    {from: a.a, to: a.b} for a swap, {to} for an action of the
//                    activated piece. Actions with neither are buttons.
//   pinned(view) -> [{type, label, why}]  buttons always shown (disabled with
//                    `why` when no action of that type is legal): "End the turn"
//   preview(a, view, ctx) -> {arrows?:[{from,to,kind}], battles?:[{square,kind}],
//                    ghosts?:[{square, piece, kind}], attack?}  a chosen action
//                    drawn before Post (kind 'preview' or 'attack'; attack:true
//                    names it an attack). ctx: {squares(a), pieceAt(sq), trayItem(a)}
//   trace(e, view) -> {arrow?:{from,to}, battle?:square, removed?:{square, piece},
//                    placed?:square}  what an event did, to draw the last turn
//                    (and each post of the step-through) on the board
//   position(posts, view) -> [pieces as pieces() gives them]|null  the board
//                    after the given posts, rebuilt from their events: the
//                    step-through's fallback until (or when) the server's
//                    past view, GET /api/games/{id}?at=SEQ, does not come;
//                    used only when the rebuild of every post equals
//                    pieces(view) (else the current position is shown)
//
// Set-up
//   builder(view, ctx) -> Node|null  a form for a set-up step (army, team)
//                    shown instead of its buttons; ctx: {actions, phrase(a),
//                    submit(list)} — submit puts several actions in one post
//   trayItem(a, view) -> {key, label, count?, piece}|null  a placement action
//                    (a square and no piece moving) as a piece in the tray;
//                    placements of one key share a tray button
//   after(view, legal, draft) -> [actions]|null  the actions still legal after
//                    the draft (several placements in one post; auto-deploy
//                    uses it); null: one action per post
//
// Orders
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
