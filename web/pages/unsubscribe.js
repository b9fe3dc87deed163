// #/unsubscribe/TOKEN: the page a digest's "receive no more digests" link
// opens. Opening it changes nothing (mail scanners follow links); the
// player confirms with the button, which posts the token
// (POST /api/unsubscribe, no sign-in needed: the link may be opened on
// any device).

import { request } from '../api.js';
import { h, clear, errorBox, setTitle } from '../ui.js';

const LINK_GONE = 'This link is not valid any more: the digests go to another address now, or the link was mistyped. Change your digests on the Notifications page.';

export async function show(main, params) {
  setTitle('Stop e-mail digests');
  const msg = h('div', { 'aria-live': 'polite' });
  const button = h('button', { type: 'submit', class: 'primary', id: 'unsubscribe-btn' }, 'Stop the digests');
  const form = h('form', {
    class: 'card',
    onsubmit: async (e) => {
      e.preventDefault();
      msg.replaceChildren();
      button.disabled = true;
      try {
        await request('POST', `/api/unsubscribe?token=${params.token}`, { auth: false });
        clear(main, h('h1', {}, 'Digests stopped'),
          h('p', { id: 'unsubscribe-done' }, 'You will get no more e-mail digests. To get them again, turn them on in Notifications.'),
          h('p', {}, h('a', { class: 'button', href: '#/notifications' }, 'Notifications'), ' ',
            h('a', { class: 'button', href: '#/' }, 'My matches')));
      } catch (err) {
        msg.append(errorBox(err.slug === 'not-found' ? { sentence: LINK_GONE } : err));
        button.disabled = false;
      }
    },
  },
  h('p', {}, 'Stop the e-mail digests that list the matches awaiting your move? Your matches, webhooks and everything else stay as they are.'),
  button,
  msg);
  clear(main, h('h1', {}, 'Stop e-mail digests'), form);
  return null;
}
