// The web client's entry: a hash router over the pages, and the header.
//   #/              my matches, and who I am
//   #/new           the lobby: create a match
//   #/join/ID/CODE  an invitation link: take the seat, then open the match
//   #/match/ID      a match
//   #/verify/ID     the dice audit of a finished match
//   #/watch         matches open to watch
//   #/notifications webhooks and e-mail digests
//   #/challenges    open challenges: accept one, or post your own
//   #/players/ID    a player's profile: ratings, history, recent matches
//   #/leaderboards[/RULESET[/bot]]  the best rated players of a ruleset
//   #/account       my devices, sign-in codes, e-mail for recovery
//   #/email/confirm/TOKEN, #/recover/TOKEN  the links of account mail
//   #/unsubscribe/TOKEN  a digest's link: stop the digests (asks first)
//   #/tournaments, #/tournament/ID  tournaments: the list, one event (issue 29)

import { myName } from './api.js';

const routes = [
  [/^#?\/?$/, () => import('./pages/home.js'), []],
  [/^#\/new$/, () => import('./pages/new.js'), []],
  [/^#\/join\/(\d+)\/([0-9A-Za-z]+)$/, () => import('./pages/join.js'), ['game', 'code']],
  [/^#\/match\/(\d+)$/, () => import('./pages/match.js'), ['game']],
  [/^#\/verify\/(\d+)$/, () => import('./pages/verify.js'), ['game']],
  [/^#\/watch$/, () => import('./pages/watch.js'), []],
  [/^#\/notifications$/, () => import('./pages/notifications.js'), []],
  [/^#\/challenges$/, () => import('./pages/challenges.js'), []],
  [/^#\/players\/(\d+)$/, () => import('./pages/profile.js'), ['player']],
  [/^#\/leaderboards(?:\/([a-z0-9-]+)(?:\/(bot))?)?$/, () => import('./pages/leaderboard.js'), ['ruleset', 'pool']],
  [/^#\/account$/, () => import('./pages/account.js'), []],
  [/^#\/email\/confirm\/([0-9a-f]{64})$/, () => import('./pages/recovery.js'), ['confirm']],
  [/^#\/recover\/([0-9a-f]{64})$/, () => import('./pages/recovery.js'), ['recover']],
  [/^#\/unsubscribe\/([0-9a-f]{64})$/, () => import('./pages/unsubscribe.js'), ['token']],
  [/^#\/tournaments$/, () => import('./pages/tournaments.js'), []],
  [/^#\/tournament\/(\d+)$/, () => import('./pages/tournament.js'), ['tournament']],
];

let current = null;   // the page shown, with an optional stop()

export function updateWhoami() {
  const el = document.getElementById('whoami');
  const name = myName();
  el.textContent = name ? `Playing as ${name}` : 'Not signed in';
}

async function route() {
  const hash = location.hash || '#/';
  const main = document.getElementById('main');
  if (current && current.stop) current.stop();
  current = null;
  updateWhoami();
  for (const [re, load, names] of routes) {
    const m = re.exec(hash);
    if (!m) continue;
    const params = Object.fromEntries(names.map((n, i) => [n, m[i + 1]]));
    main.replaceChildren();
    try {
      const page = await load();
      current = await page.show(main, params) || null;
    } catch (err) {
      console.error(err);
      main.replaceChildren();
      const p = document.createElement('p');
      p.className = 'error';
      p.setAttribute('role', 'alert');
      p.textContent = 'This page could not be shown. Reload to try again.';
      main.append(p);
    }
    // Move focus to the new page for keyboard and screen-reader users,
    // unless the page already placed it.
    if (!main.contains(document.activeElement)) main.focus({ preventScroll: true });
    return;
  }
  location.hash = '#/';
}

window.addEventListener('hashchange', route);
// This device's key was refused (signed out from another device): the
// board forgets it and shows the sign-in (api.js).
window.addEventListener('warpost:signed-out', () => {
  if (location.hash && location.hash !== '#/') location.hash = '#/'; else route();
});
route();
