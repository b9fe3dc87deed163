// Account (issue 28): the devices signed in as me (GET /api/me/devices),
// each renamed (PATCH) or signed out (DELETE /api/me/devices/{id}), all
// the others at once (DELETE /api/me/devices); a one-time code that signs
// in another device (POST /api/me/device-codes), typed there under
// "I have a code" (identity.js); the e-mail that recovers a lost key
// (recovery.js).

import { get, post, request, token, setIdentity } from '../api.js';
import { h, clear, errorBox, setTitle } from '../ui.js';
import { signInForms } from './identity.js';
import { updateWhoami } from '../app.js';
import { emailCard } from './recovery.js';

const when = (iso) => new Date(iso).toLocaleString([], { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export async function show(main) {
  setTitle('Account');
  if (!token()) {
    clear(main, h('h1', {}, 'Account'), h('p', {}, 'First, choose the name you play under, or sign in.'),
      signInForms(() => show(main)));
    return null;
  }
  clear(main, h('h1', {}, 'Account'),
    h('p', { class: 'lead' }, 'Play from several devices, see where you are signed in, and keep a way back if you lose one.'),
    codeCard(), devicesCard(), emailCard());
  return null;
}

// "Sign in another device": a code to type there, shown once.
function codeCard() {
  const out = h('div', { 'aria-live': 'polite' });
  const btn = h('button', {
    type: 'button',
    class: 'primary',
    id: 'make-code',
    onclick: async () => {
      btn.disabled = true;
      clear(out);
      try {
        const r = await post('/api/me/device-codes');
        const minutes = Math.round(r.body.expires_in / 60);
        clear(out,
          h('p', {}, 'On your other device, open Warpost, choose “I have a code” and type:'),
          h('p', { class: 'device-code', id: 'device-code' }, r.body.code),
          h('p', { class: 'hint' }, `It works once, within ${minutes} minutes. Anyone who has it can sign in as you until then: type it yourself, do not send it.`));
      } catch (err) {
        clear(out, errorBox(err));
      } finally {
        btn.disabled = false;
      }
    },
  }, 'Show a sign-in code');
  return h('section', { class: 'card' },
    h('h2', {}, 'Sign in another device'),
    h('p', {}, 'Play the same matches from a phone, a tablet or another browser.'),
    btn, out);
}

function devicesCard() {
  const list = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading your devices…'));
  const card = h('section', { class: 'card', id: 'devices' }, h('h2', {}, 'Your devices'), list);
  async function load() {
    try {
      const r = await get('/api/me/devices');
      const devices = r.body.devices;
      const others = devices.filter((d) => !d.this_device).length;
      clear(list,
        h('ul', { class: 'devices' }, devices.map((d) => deviceItem(d, load))),
        others ? othersRow(others, load) : h('p', { class: 'hint' }, 'Only this device is signed in.'));
    } catch (err) {
      clear(list, errorBox(err, load));
    }
  }
  load();
  return card;
}

function deviceItem(d, reload) {
  const msg = h('div', { 'aria-live': 'polite' });
  const used = d.last_used_at ? `last used ${when(d.last_used_at)}` : 'not used yet';
  const head = h('div', {},
    h('strong', { class: 'device-name' }, d.name),
    d.this_device ? h('span', { class: 'tag tag-you' }, 'this device') : null,
    h('div', { class: 'hint' }, `Added ${when(d.created_at)}, ${used}.`));
  const nameInput = h('input', { id: `device-name-${d.id}`, value: d.name, maxlength: 40, required: true, autocomplete: 'off', 'aria-label': 'New name' });
  const rename = h('form', {
    class: 'row wrap',
    hidden: true,
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        await request('PATCH', `/api/me/devices/${d.id}`, { body: { name: nameInput.value.trim() } });
        reload();
      } catch (err) {
        clear(msg, errorBox(err));
      }
    },
  },
  nameInput, h('button', { type: 'submit', class: 'primary' }, 'Save'),
  h('button', { type: 'button', onclick: () => { rename.hidden = true; buttons.hidden = false; } }, 'Cancel'));
  const what = d.this_device ? 'Sign out of this device? You will need a code from another device, or your key, to come back.'
    : `Sign out “${d.name}”? It will need a new code to come back.`;
  const confirm = h('div', { class: 'row wrap', hidden: true },
    h('span', {}, what),
    h('button', {
      type: 'button',
      class: 'danger',
      onclick: async () => {
        try {
          await request('DELETE', `/api/me/devices/${d.id}`);
          if (d.this_device) {
            setIdentity(null, null);
            updateWhoami();
            location.hash = '#/';
          } else {
            reload();
          }
        } catch (err) {
          clear(msg, errorBox(err));
        }
      },
    }, 'Sign out'),
    h('button', { type: 'button', onclick: () => { confirm.hidden = true; buttons.hidden = false; } }, 'Cancel'));
  const buttons = h('div', { class: 'row wrap' },
    h('button', { type: 'button', onclick: () => { buttons.hidden = true; rename.hidden = false; nameInput.focus(); } }, 'Rename'),
    h('button', { type: 'button', class: 'danger', onclick: () => { buttons.hidden = true; confirm.hidden = false; } }, 'Sign out…'));
  return h('li', { class: 'device', dataset: { device: String(d.id) } }, head, buttons, rename, confirm, msg);
}

function othersRow(n, reload) {
  const msg = h('div', { 'aria-live': 'polite' });
  const confirm = h('div', { class: 'row wrap', hidden: true },
    h('span', {}, `Sign out ${n === 1 ? 'the other device' : `all ${n} other devices`}? Only this one stays signed in.`),
    h('button', {
      type: 'button',
      class: 'danger',
      onclick: async () => {
        try {
          await request('DELETE', '/api/me/devices');
          reload();
        } catch (err) {
          clear(msg, errorBox(err));
        }
      },
    }, 'Sign them out'),
    h('button', { type: 'button', onclick: () => { confirm.hidden = true; } }, 'Cancel'));
  return h('div', {},
    h('button', { type: 'button', id: 'sign-out-others', onclick: () => { confirm.hidden = false; } }, 'Sign out every other device…'),
    confirm, msg);
}
