// An invitation link: #/join/GAME/CODE. Who invites, to which ruleset,
// with which options and which seat; sign in if needed, then take the seat
// and open the match.

import { get, token, oncePoster } from '../api.js';
import { h, clear, errorBox, setTitle, botBadge } from '../ui.js';
import { signInForms } from './identity.js';
import { rulesets } from './rulesets.js';
import { seatColour } from '../words.js';
import { optionLines } from './new.js';
import { rendererFor } from '../renderers/registry.js';

export async function show(main, { game, code }) {
  setTitle(`Invitation to match #${game}`);
  const head = h('h1', {}, `Invitation to match #${game}`);
  const about = h('div', { class: 'card invitation' }, h('p', {}, 'Loading the invitation…'));
  clear(main, head, about);
  let view = null;
  try {
    view = (await get(`/api/games/${game}`, { auth: false })).body;
  } catch (err) {
    clear(about, errorBox(err));
  }
  if (view) {
    const spec = (await rulesets().catch(() => [])).find((r) => r.id === view.ruleset);
    const host = view.seats.find((s) => s.player);
    const free = view.seats.filter((s) => !s.player);
    const renderer = await rendererFor(view.ruleset).catch(() => null);
    const lines = optionLines(spec, view.options || {}, renderer);
    clear(about,
      h('p', { class: 'lead' }, `${host ? host.player.name : 'A player'} invites you to a match of ${view.title || view.ruleset}.`),
      h('dl', { class: 'state-facts' },
        h('dt', {}, 'Players'), h('dd', {}, view.seats.map((s, i) => [i ? ' · ' : '', `${seatColour(s.seat)}: ${s.player ? s.player.name : 'open seat'}`, botBadge(s.player)])),
        h('dt', {}, 'Options'), h('dd', {}, lines.length ? lines.join('; ') : 'the standard rules')),
      view.status !== 'open' ? h('p', { class: 'note' }, view.status === 'active' ? 'The match has started.' : 'The match is over.')
        : free.length ? h('p', {}, `You would play ${free.map((x) => seatColour(x.seat)).join(' or ')}.`) : h('p', { class: 'note' }, 'Every seat is taken.'));
    if (view.you !== null && view.you !== undefined && token()) {
      about.append(h('p', {}, h('a', { class: 'button primary', href: `#/match/${game}` }, 'You play in this match: open it')));
      return null;
    }
    if (view.status !== 'open' || !free.length) {
      // A used link: say it once, and where to go.
      about.append(h('p', {}, 'This invitation can no longer be used. ',
        h('a', { href: `#/match/${game}` }, 'Look at the match'), ' · ', h('a', { href: '#/' }, 'My matches')));
      return null;
    }
  }
  if (!token()) {
    main.append(h('p', {}, 'To accept, first choose the name you play under.'),
      signInForms(() => show(main, { game, code })));
    return null;
  }
  const msg = h('div', { 'aria-live': 'polite' });
  const btn = h('button', { type: 'button', class: 'primary', id: 'join-btn', onclick: () => join() }, 'Accept and take my seat');
  main.append(h('div', { class: 'row wrap' }, btn, h('a', { class: 'button', href: '#/' }, 'Not now')), msg);
  const joining = oncePoster(`/api/games/${game}/join`);
  async function join() {
    btn.disabled = true;
    clear(msg, h('p', {}, 'Taking your seat…'));
    try {
      await joining.post({ code, client_seed: joining.seed });
      location.replace(`#/match/${game}`);
    } catch (err) {
      if (err.slug === 'already-seated') { location.replace(`#/match/${game}`); return; }
      // One message, and where to go from here.
      clear(msg, errorBox(err, err.retryable ? join : null),
        h('p', {}, h('a', { href: `#/match/${game}` }, 'Look at the match'), ' · ', h('a', { href: '#/' }, 'My matches')));
      btn.hidden = !err.retryable;
      btn.disabled = false;
    }
  }
  btn.focus();
  return null;
}
