// E-mail for recovery (issue 28): the address on the Account page and
// whether it is confirmed (GET/PUT /api/me/email, POST
// /api/me/email/confirmation); "I lost my key" on the sign-in (POST
// /api/recovery); and the two pages the mailed links open:
//   #/email/confirm/TOKEN  confirms the address (POST /api/email/confirm)
//   #/recover/TOKEN        signs this device in (POST /api/recovery/redeem),
//                          then offers to sign the other devices out

import { get, post, request, setIdentity, myName } from '../api.js';
import { h, clear, errorBox, setTitle } from '../ui.js';
import { updateWhoami } from '../app.js';

const LINK_GONE = 'This link is not valid any more: it was used already, it is too old, or the address changed since. Ask for a new one.';

// The Account page's e-mail card.
export function emailCard() {
  const body = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading…'));
  const card = h('section', { class: 'card', id: 'email' }, h('h2', {}, 'E-mail, in case you lose your key'), body);
  async function load() {
    try {
      render((await get('/api/me/email')).body);
    } catch (err) {
      clear(body, errorBox(err, load));
    }
  }
  function render(e) {
    const msg = h('div', { 'aria-live': 'polite' });
    const input = h('input', { id: 'email-address', type: 'email', required: true, maxlength: 254, autocomplete: 'email', value: e.address || '' });
    const form = h('form', {
      onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          render((await request('PUT', '/api/me/email', { body: { address: input.value.trim(), digest: e.digest } })).body);
        } catch (err) {
          clear(msg, errorBox(err));
        }
      },
    },
    h('label', { for: 'email-address' }, e.address ? 'Change the address' : 'Your e-mail address'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit', class: 'primary' }, 'Save')));
    let state;
    if (!e.address) {
      state = h('p', {}, 'With a confirmed address, a lost key is no lost account: we mail you a link that signs a new device in.');
    } else if (e.confirmed) {
      state = h('p', { id: 'email-state' }, `${e.address} — `, h('strong', {}, 'confirmed'), '. If you lose your key, choose “I lost my key” when signing in.');
    } else {
      const again = h('button', {
        type: 'button',
        onclick: async () => {
          try {
            await post('/api/me/email/confirmation');
            clear(msg, h('p', {}, 'A new link is on its way.'));
          } catch (err) {
            clear(msg, errorBox(err));
          }
        },
      }, 'Send the link again');
      state = h('div', { id: 'email-state' },
        h('p', {}, `${e.address} — `, h('strong', {}, 'waiting for confirmation'), '. Open the link we mailed to it; until then it cannot recover your account.'),
        again);
    }
    clear(body, state, form, msg);
  }
  load();
  return card;
}

// "I lost my key": a sign-in link to a confirmed address. The answer is
// the same whatever the address.
export function lostKeyForm() {
  const input = h('input', { id: 'recovery-address', type: 'email', required: true, maxlength: 254, autocomplete: 'email' });
  const msg = h('div', { 'aria-live': 'polite' });
  return h('details', { class: 'card', id: 'lost-key' },
    h('summary', {}, 'I lost my key'),
    h('form', {
      onsubmit: async (e) => {
        e.preventDefault();
        msg.replaceChildren();
        try {
          await post('/api/recovery', { address: input.value.trim() }, { auth: false });
          msg.append(h('p', { id: 'recovery-sent' }, 'If this address is confirmed on an account here, a sign-in link is on its way to it. Open it on this device; it works once, within an hour.'));
        } catch (err) {
          msg.append(errorBox(err));
        }
      },
    },
    h('p', {}, 'If you confirmed an e-mail address on your account, we can mail you a link that signs this device in.'),
    h('label', { for: 'recovery-address' }, 'Your e-mail address'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit' }, 'Mail me a link')),
    msg));
}

export async function show(main, params) {
  if (params.confirm) return confirmPage(main, params.confirm);
  return recoverPage(main, params.recover);
}

async function confirmPage(main, token) {
  setTitle('Confirm your address');
  const out = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Confirming…'));
  clear(main, h('h1', {}, 'Confirm your address'), out);
  try {
    await post('/api/email/confirm', { token }, { auth: false });
    clear(out, h('p', { id: 'confirm-done' }, 'Your address is confirmed. If you ever lose your key, choose “I lost my key” when signing in.'),
      h('a', { class: 'button', href: '#/' }, 'My matches'));
  } catch (err) {
    clear(out, errorBox(err.slug === 'invalid-code' ? { sentence: LINK_GONE } : err));
  }
  return null;
}

async function recoverPage(main, token) {
  setTitle('Sign in again');
  const msg = h('div', { 'aria-live': 'polite' });
  const device = h('input', { id: 'recover-device', maxlength: 40, autocomplete: 'off', value: 'New device' });
  const form = h('form', {
    class: 'card',
    onsubmit: async (e) => {
      e.preventDefault();
      msg.replaceChildren();
      try {
        const r = await post('/api/recovery/redeem', { token, device: device.value.trim() || undefined }, { auth: false });
        setIdentity(r.body.token, r.body.name);
        updateWhoami();
        clear(main, h('h1', {}, 'Welcome back'), signedIn(r.body.name));
      } catch (err) {
        msg.append(errorBox(err.slug === 'invalid-code' ? { sentence: LINK_GONE } : err));
      }
    },
  },
  h('p', {}, myName() ? `This browser plays as ${myName()} now; signing in replaces that here.` : 'This link signs this device in to your account.'),
  h('label', { for: 'recover-device' }, 'A name for this device'),
  h('div', { class: 'row' }, device, h('button', { type: 'submit', class: 'primary' }, 'Sign in')),
  msg);
  clear(main, h('h1', {}, 'Sign in again'), form);
  return null;
}

// After a recovery: nothing was revoked; offer it.
function signedIn(name) {
  const msg = h('div', { 'aria-live': 'polite' });
  const btn = h('button', {
    type: 'button',
    class: 'danger',
    id: 'recover-sign-out-others',
    onclick: async () => {
      btn.disabled = true;
      try {
        const r = await request('DELETE', '/api/me/devices');
        clear(msg, h('p', {}, `Signed out: ${r.body.revoked} other device${r.body.revoked === 1 ? '' : 's'}.`));
      } catch (err) {
        clear(msg, errorBox(err));
        btn.disabled = false;
      }
    },
  }, 'Sign out every other device');
  return h('div', { class: 'card', id: 'recovered' },
    h('p', {}, `You play as ${name} on this device again. Your other devices are still signed in.`),
    h('p', {}, 'Lost one, or someone else may have it? Sign them all out; only this one stays.'),
    h('div', { class: 'row wrap' }, btn, h('a', { class: 'button', href: '#/' }, 'My matches')),
    msg);
}
