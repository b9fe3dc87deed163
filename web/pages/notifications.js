// Notifications (issue 14): webhooks (GET/POST /api/me/webhooks, DELETE
// /api/me/webhooks/{id}, the delivery log …/deliveries) and the e-mail
// digest (GET/PUT /api/me/email). The secret of a webhook is shown once,
// in the answer that registers it.

import { get, request, token, oncePoster } from '../api.js';
import { h, clear, errorBox, copyField, setTitle } from '../ui.js';
import { signInForms } from './identity.js';

const EVENT_WORDS = {
  your_turn: 'Your turn', match_over: 'Match over', draw_offered: 'Draw offered', time_running_out: 'Time running out',
};
const MAX_HOOKS = 5;

const when = (iso) => (iso ? new Date(iso).toLocaleString([], { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }) : '');

export async function show(main) {
  setTitle('Notifications');
  if (!token()) {
    clear(main, h('h1', {}, 'Notifications'), h('p', {}, 'First, choose the name you play under.'),
      signInForms(() => show(main)));
    return null;
  }
  clear(main, h('h1', {}, 'Notifications'),
    h('p', { class: 'lead' }, 'Be told when it is your turn, a match ends, a draw is offered or your time runs low — outside this page.'),
    webhooksCard(), emailCard());
  return null;
}

function deliveryLine(d) {
  const what = h('a', { href: `#/match/${d.game}` }, `${EVENT_WORDS[d.event] || d.event} · match #${d.game}, post #${d.seq}`);
  const answer = d.last_status ? `the receiver answered ${d.last_status}` : d.last_error ? d.last_error : 'no answer';
  let state;
  if (d.state === 'delivered') state = `delivered ${when(d.delivered_at)}`;
  else if (d.state === 'failed') state = `gave up after ${d.attempts} attempt${d.attempts === 1 ? '' : 's'} (${answer})`;
  else state = d.attempts ? `not delivered yet (${answer}); next try ${when(d.next_attempt_at)}` : 'waiting to be sent';
  return h('li', { class: `delivery delivery-${d.state}` }, what, h('span', { class: 'hint' }, ` — ${state}`));
}

// The delivery log of one webhook, read when opened.
function deliveryLog(hook) {
  const body = h('div', { 'aria-live': 'polite' });
  const box = h('details', { class: 'deliveries' }, h('summary', {}, 'Delivery log'), body);
  async function load() {
    clear(body, h('p', {}, 'Loading…'));
    try {
      const r = await get(`/api/me/webhooks/${hook.id}/deliveries?limit=50`);
      const list = r.body.deliveries || [];
      clear(body, list.length ? h('ul', { class: 'delivery-list' }, list.map(deliveryLine)) : h('p', { class: 'hint' }, 'Nothing sent yet.'),
        h('button', { type: 'button', class: 'small', onclick: load }, 'Reload the log'));
    } catch (err) {
      clear(body, errorBox(err, load));
    }
  }
  box.addEventListener('toggle', () => { if (box.open) load(); });
  return box;
}

function webhooksCard() {
  const card = h('section', { class: 'card webhooks', 'aria-labelledby': 'webhooks-h' });
  const list = h('ul', { class: 'webhook-list' });
  const created = h('div', { 'aria-live': 'polite' });
  const msg = h('div', { 'aria-live': 'polite' });
  const url = h('input', { id: 'hook-url', type: 'url', required: true, placeholder: 'https://example.org/warpost', autocomplete: 'off', 'aria-describedby': 'hook-url-hint' });
  const secret = h('input', { id: 'hook-secret', type: 'text', minlength: 16, maxlength: 256, autocomplete: 'off', 'aria-describedby': 'hook-secret-hint' });
  const registering = oncePoster('/api/me/webhooks');
  const form = h('form', {
    class: 'hook-form',
    onsubmit: async (e) => {
      e.preventDefault();
      clear(msg);
      const body = { url: url.value.trim() };
      if (secret.value.trim()) body.secret = secret.value.trim();
      const btn = form.querySelector('button[type=submit]');
      btn.disabled = true;
      try {
        const r = await registering.post(body);
        url.value = '';
        secret.value = '';
        clear(created, h('div', { class: 'card created-hook' },
          h('p', {}, `Registered: ${r.body.url}`),
          r.body.secret ? [h('p', { class: 'prompt-you' }, 'Keep this secret now: it is shown only once. Your receiver uses it to check each call.'),
            copyField('Secret', r.body.secret, 'hook-secret-new')]
            : h('p', {}, 'Calls are signed with the secret you gave.')));
        load();
      } catch (err) {
        clear(msg, errorBox(err));
      } finally {
        btn.disabled = false;
      }
    },
  },
  h('div', { class: 'field' }, h('label', { for: 'hook-url' }, 'Address to call'), url,
    h('p', { class: 'hint', id: 'hook-url-hint' }, 'An http or https address of yours that accepts a POST.')),
  h('div', { class: 'field' }, h('label', { for: 'hook-secret' }, 'Secret (optional)'), secret,
    h('p', { class: 'hint', id: 'hook-secret-hint' }, '16 characters or more. Leave it empty and the server makes one, shown to you once.')),
  h('button', { type: 'submit', class: 'primary', id: 'hook-add' }, 'Register the webhook'));

  function row(hook) {
    const confirm = h('div', { class: 'confirm', hidden: true, role: 'group', 'aria-label': 'Delete this webhook?' },
      h('p', {}, 'Delete this webhook and its delivery log?'),
      h('div', { class: 'row' },
        h('button', {
          type: 'button', class: 'danger',
          onclick: async () => {
            try {
              await request('DELETE', `/api/me/webhooks/${hook.id}`);
              clear(created);
              load();
            } catch (err) { clear(msg, errorBox(err)); }
          },
        }, 'Delete'),
        h('button', { type: 'button', onclick: () => { confirm.hidden = true; del.focus(); } }, 'Cancel')));
    const del = h('button', { type: 'button', class: 'small', onclick: () => { confirm.hidden = false; confirm.querySelector('button').focus(); } }, 'Delete…');
    return h('li', { class: 'webhook', 'data-hook': hook.id },
      h('p', { class: 'hook-url' }, hook.url),
      h('p', { class: 'hint' }, `Registered ${when(hook.created_at)}`),
      h('div', { class: 'row wrap' }, del), confirm, deliveryLog(hook));
  }

  async function load() {
    try {
      const r = await get('/api/me/webhooks');
      const hooks = r.body.webhooks || [];
      clear(list, hooks.length ? hooks.map(row) : h('li', { class: 'hint' }, 'No webhook yet.'));
      form.hidden = hooks.length >= MAX_HOOKS;
    } catch (err) {
      clear(list, h('li', {}, errorBox(err, load)));
    }
  }
  clear(card, h('h2', { id: 'webhooks-h' }, 'Webhooks'),
    h('p', { class: 'hint' }, 'The server calls your address (a chat bot, a home server) with a short message on each of those events, signed with your secret so that your receiver can tell it comes from here, and tries again later when it gets no answer. How to check a signature is in the API documentation.'),
    list, created, form, msg);
  load();
  return card;
}

function emailCard() {
  const card = h('section', { class: 'card email', 'aria-labelledby': 'email-h' });
  async function load(note) {
    try {
      const s = (await get('/api/me/email')).body;
      const addr = h('input', { id: 'email-address', type: 'email', autocomplete: 'email', value: s.address || '', maxlength: 254 });
      const on = h('input', { id: 'email-digest', type: 'checkbox', checked: s.digest === 'daily' });
      const msg = h('div', { 'aria-live': 'polite' }, note || null);
      const form = h('form', {
        onsubmit: async (e) => {
          e.preventDefault();
          const address = addr.value.trim();
          if (!address) { clear(msg, errorBox({ sentence: 'Give the address the e-mail goes to.' })); return; }
          try {
            await request('PUT', '/api/me/email', { body: { address, digest: on.checked ? 'daily' : 'off' } });
            load(h('p', { class: 'note', id: 'email-saved' }, on.checked ? 'Saved: digests are on.' : 'Saved: no digests.'));
          } catch (err) { clear(msg, errorBox(err)); }
        },
      },
      h('div', { class: 'field' }, h('label', { for: 'email-address' }, 'E-mail address'), addr),
      h('div', { class: 'field-check' }, on, h('label', { for: 'email-digest' }, 'Send me a digest of the matches awaiting me, at most one a day')),
      h('button', { type: 'submit', id: 'email-save' }, 'Save'), msg);
      clear(card, h('h2', { id: 'email-h' }, 'E-mail digest'),
        h('p', { class: 'hint' }, 'One e-mail listing the matches where it is your turn. Each one has a link to stop them.'
          + (s.last_digest_at ? ` The last one was sent ${when(s.last_digest_at)}.` : '')),
        form);
    } catch (err) {
      clear(card, h('h2', { id: 'email-h' }, 'E-mail digest'), errorBox(err, () => load()));
    }
  }
  load();
  return card;
}
