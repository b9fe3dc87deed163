// The boardgame.io server of the baseline (in-memory storage, its default).
// Usage: node bgio_server.js PORT
const { Server, Origins } = require("boardgame.io/server");
const game = require("./bgio_game");

const server = Server({ games: [game], origins: [Origins.LOCALHOST] });
server.run(Number(process.argv[2]), () => console.log("listening"));
