// Started beside the bundle, before it arrives (issue 32, "the board on a
// phone"): on a match page, the reads the page makes first (the view, my
// legal actions, the posts) begin while the script downloads, instead of
// one round trip after it. A classic script of its own, not a module, and
// not inline: the Content-Security-Policy allows only scripts from 'self'.
// api.js request() takes each answer once, when the page asks for that
// path with nothing to change (no If-None-Match, the same player key).
(function () {
  var m = /^#\/match\/(\d+)$/.exec(location.hash);
  // The page's script ran first (early.js is async) and reads for itself.
  if (!m || !window.fetch || window.__wpAsked) return;
  var tok = null;
  try { tok = localStorage.getItem('warpost.token'); } catch (e) { return; }
  var headers = { Accept: 'application/json' };
  if (tok) headers.Authorization = 'Bearer ' + tok;
  var base = '/api/games/' + m[1];
  var paths = [base];
  // Only a player has actions; a spectator's page never asks for them.
  if (tok) paths.push(base + '/actions');
  paths.push(base + '/turns?after=0&limit=500');
  var early = {};
  paths.forEach(function (p) {
    var res = fetch(p, { headers: headers, cache: 'no-store' });
    res.catch(function () {});   // a failure shows when the page takes it
    early[p] = { at: Date.now(), tok: tok, res: res };
  });
  window.__wpEarly = early;
})();
