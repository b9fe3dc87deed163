// Drives the boardgame.io baseline: CLIENTS socket clients, two per match,
// each moving whenever the server's state says it is its turn, for SECONDS.
// Prints "moves N moves_per_s R".
// Usage: node bgio_load.js PORT CLIENTS SECONDS
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const game = require("./bgio_game");

const [port, clients, seconds] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}`;
const HOME = ["d1", "d8"], AWAY = ["d2", "d7"];

async function post(path, body) {
  const r = await fetch(base + path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

async function main() {
  const players = [];
  for (let m = 0; m < Math.max(1, clients / 2); m++) {
    const { matchID } = await post(`/games/${game.name}/create`, { numPlayers: 2 });
    for (const playerID of ["0", "1"]) {
      const { playerCredentials } = await post(`/games/${game.name}/${matchID}/join`,
                                               { playerID, playerName: "P" + playerID });
      players.push({ matchID, playerID, credentials: playerCredentials });
    }
  }
  let moves = 0, counting = false;
  const all = players.map(({ matchID, playerID, credentials }) => {
    const c = Client({ game, matchID, playerID, credentials, debug: false,
                       multiplayer: SocketIO({ server: base, socketOpts: { transports: ["websocket"] } }) });
    let last = -1;
    c.subscribe((s) => {
      // One move a turn, made once the server's state says it is ours.
      if (!s || !s.isActive || s.ctx.currentPlayer !== playerID || s.ctx.turn === last) return;
      last = s.ctx.turn;
      const p = Number(playerID), from = s.G.at[p];
      setImmediate(() => c.moves.move(from, from === HOME[p] ? AWAY[p] : HOME[p]));
      if (counting) moves++;
    });
    c.start();
    return c;
  });
  await new Promise((r) => setTimeout(r, 500)); // connected and playing
  counting = true;
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  counting = false;
  const dt = (Date.now() - t0) / 1000;
  console.log(`moves ${moves} moves_per_s ${(moves / dt).toFixed(0)}`);
  all.forEach((c) => c.stop());
  process.exit(0);
}
main().catch((e) => { console.error(e); process.exit(1); });
