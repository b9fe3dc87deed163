// Who am I: create a player (a name is enough), or sign in on another
// device by pasting the player key. The key lives in localStorage.

import { post, get, setIdentity, token, myName } from '../api.js';
import { h, errorBox, copyField } from '../ui.js';
import { updateWhoami } from '../app.js';
import { lostKeyForm } from './recovery.js';

// The sign-in forms; onDone() once a key is stored.
export function signInForms(onDone) {
  const nameInput = h('input', { id: 'player-name', name: 'name', required: true, maxlength: 40, autocomplete: 'nickname' });
  const msg = h('div', { 'aria-live': 'polite' });
  const create = h('form', {
    class: 'card',
    onsubmit: async (e) => {
      e.preventDefault();
      msg.replaceChildren();
      const btn = create.querySelector('button');
      btn.disabled = true;
      try {
        const r = await post('/api/players', { name: nameInput.value.trim() }, { auth: false });
        setIdentity(r.body.token, r.body.name);
        updateWhoami();
        onDone();
      } catch (err) {
        msg.append(errorBox(err));
      } finally {
        btn.disabled = false;
      }
    },
  },
  h('h2', {}, 'Choose a name to play'),
  h('p', {}, 'Your name is shown to the other players. This browser keeps a key that lets you come back to your matches.'),
  h('label', { for: 'player-name' }, 'Your name'),
  h('div', { class: 'row' }, nameInput, h('button', { type: 'submit', class: 'primary' }, 'Start playing')));

  const keyInput = h('input', { id: 'player-key', name: 'key', required: true, autocomplete: 'off', spellcheck: false });
  const msg2 = h('div', { 'aria-live': 'polite' });
  const signin = h('details', { class: 'card' },
    h('summary', {}, 'Already playing on another device? Use your player key'),
    h('form', {
      onsubmit: async (e) => {
        e.preventDefault();
        msg2.replaceChildren();
        const tok = keyInput.value.trim();
        try {
          const r = await get('/api/me', { headers: { Authorization: `Bearer ${tok}` } });
          setIdentity(tok, r.body.name);
          updateWhoami();
          onDone();
        } catch (err) {
          msg2.append(errorBox(err.status === 401 ? { sentence: 'This key is not known to this server. Check that you copied all of it.' } : err));
        }
      },
    },
    h('p', {}, 'On the device you play on, open "My matches", then "Your player key", and copy it here.'),
    h('label', { for: 'player-key' }, 'Player key'),
    h('div', { class: 'row' }, keyInput, h('button', { type: 'submit' }, 'Sign in')),
    msg2));
  return h('div', { class: 'signin' }, create, msg, codeForm(onDone), lostKeyForm(), signin);
}

// "I have a code": the one-time code another device of mine shows
// (Account, "Sign in another device") trades for a key of this device.
function codeForm(onDone) {
  const codeInput = h('input', { id: 'device-code-input', name: 'code', required: true, autocomplete: 'one-time-code', autocapitalize: 'characters', spellcheck: false, maxlength: 20, placeholder: 'XXXX-XXXX' });
  const deviceInput = h('input', { id: 'device-name', name: 'device', maxlength: 40, autocomplete: 'off', value: 'Phone' });
  const msg = h('div', { 'aria-live': 'polite' });
  return h('details', { class: 'card', id: 'have-code' },
    h('summary', {}, 'I have a code from my other device'),
    h('form', {
      onsubmit: async (e) => {
        e.preventDefault();
        msg.replaceChildren();
        const btn = e.target.querySelector('button');
        btn.disabled = true;
        try {
          const r = await post('/api/device-codes/redeem', { code: codeInput.value.trim(), device: deviceInput.value.trim() || undefined }, { auth: false });
          setIdentity(r.body.token, r.body.name);
          updateWhoami();
          onDone();
        } catch (err) {
          msg.append(errorBox(err.slug === 'invalid-code' ? { sentence: 'This code is not valid: it may be mistyped, used already or older than 15 minutes. Make a new one on your other device.' } : err));
        } finally {
          btn.disabled = false;
        }
      },
    },
    h('p', {}, 'On a device where you are signed in, open "Account" and choose "Show a sign-in code". Type that code here.'),
    h('label', { for: 'device-code-input' }, 'Code'),
    codeInput,
    h('label', { for: 'device-name' }, 'A name for this device'),
    h('div', { class: 'row' }, deviceInput, h('button', { type: 'submit', class: 'primary' }, 'Sign in')),
    msg));
}

// For a signed-in player: the key to copy to another device, and sign out.
export function identityCard(onChange) {
  const confirmRow = h('div', { class: 'row', hidden: true },
    h('span', {}, 'Sign out of this browser? Copy your key first, or you lose your matches here.'),
    h('button', { type: 'button', class: 'danger', onclick: () => { setIdentity(null, null); updateWhoami(); onChange(); } }, 'Sign out'),
    h('button', { type: 'button', onclick: () => { confirmRow.hidden = true; } }, 'Cancel'));
  return h('details', { class: 'card identity' },
    h('summary', {}, `You play as ${myName() || 'a player'} — your player key`),
    h('p', {}, 'To play on another device, paste this key there. Anyone who has it can play as you: keep it private.'),
    h('p', {}, h('a', { href: '#/account', id: 'account-link' }, 'Your devices and account'), ': sign in another device with a short code, see where you are signed in, sign a device out.'),
    copyField('Player key', token(), 'my-key'),
    h('button', { type: 'button', onclick: () => { confirmRow.hidden = false; } }, 'Sign out…'),
    confirmRow);
}
