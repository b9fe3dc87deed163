// Telling the player it is their turn: a count on the favicon (and the
// title, set by the pages), and a browser notification when the tab is in
// the background — only after the player allowed it, asked once from a
// button (browsers refuse a request that no click started).

const ASKED = 'warpost.notify.asked';

export function notificationsState() {
  if (!('Notification' in window)) return 'unsupported';
  return Notification.permission;   // default | granted | denied
}

export function askedBefore() {
  return localStorage.getItem(ASKED) === '1';
}

export async function askNotifications() {
  localStorage.setItem(ASKED, '1');
  if (!('Notification' in window)) return 'unsupported';
  try { return await Notification.requestPermission(); } catch { return Notification.permission; }
}

export function notifyTurn(title, body, href) {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  if (document.visibilityState === 'visible') return;
  try {
    const n = new Notification(title, { body, tag: href, icon: '/favicon.svg' });
    n.onclick = () => { window.focus(); location.hash = href; n.close(); };
  } catch { /* some browsers only notify from a service worker */ }
}

// The favicon with a red count when something awaits the player.
export function setFaviconCount(n) {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  if (!link.dataset.plain) link.dataset.plain = link.getAttribute('href');
  if (!n) { link.setAttribute('href', link.dataset.plain); return; }
  const text = n > 9 ? '9+' : String(n);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="4" y="4" width="56" height="56" rx="10" fill="#b08660"/>`
    + `<rect x="4" y="4" width="28" height="28" fill="#ecdcbc"/><rect x="32" y="32" width="28" height="28" fill="#ecdcbc"/>`
    + `<circle cx="44" cy="20" r="18" fill="#c62828"/><text x="44" y="28" font-size="${text.length > 1 ? 18 : 24}" font-family="sans-serif" font-weight="700" fill="#fff" text-anchor="middle">${text}</text></svg>`;
  link.setAttribute('href', `data:image/svg+xml,${encodeURIComponent(svg)}`);
}
