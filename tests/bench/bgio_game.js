// The boardgame.io baseline's game (tests/bench/run.py): two players, each
// moving its Scout back and forth (d1<->d2, d8<->d7), one move a turn, as
// tests/bench/turnload.c does with the test ruleset.
const { INVALID_MOVE } = require("boardgame.io/core");

const HOME = ["d1", "d8"], AWAY = ["d2", "d7"];

module.exports = {
  name: "skirmish-bench",
  // The move log is boardgame.io's own (its storage keeps every action).
  setup: () => ({ at: HOME.slice() }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    move: ({ G, playerID }, from, to) => {
      const p = Number(playerID);
      const want = G.at[p] === HOME[p] ? AWAY[p] : HOME[p];
      if (from !== G.at[p] || to !== want) return INVALID_MOVE;
      G.at[p] = to;
    },
  },
};
