// The match page (pages/match.js), the match controls and the result:
// offer a draw, claim on time, resign and abort behind a confirmation,
// the standing orders (the renderer's form or JSON), and once it is over
// the result, the dice audit link, the download and the replay from the
// start. A part lent to Match: see loading.js.

import { get, token } from '../../api.js';
import { h, clear, errorBox } from '../../ui.js';
import { resultText, seatName } from '../../words.js';
import { claimButton } from '../../clock.js';
import { takebackItems } from './takeback.js';

export class MatchControls {
  renderControls() {
    const v = this.view;
    const me = v.you;
    if (me === null || me === undefined || !token() || (v.status !== 'active' && v.status !== 'open')) {
      clear(this.controlsEl);
      return;
    }
    const items = [];
    if (v.status === 'active') {
      const offeredByMe = v.draw_offers.includes(me);
      const offeredByOthers = v.draw_offers.some((s) => s !== me);
      if (offeredByMe) items.push(h('p', {}, 'You offered a draw; the others have not all answered.'));
      else if (!offeredByOthers) items.push(h('button', { type: 'button', onclick: () => this.matchPost('draw', { action: 'offer' }) }, 'Offer a draw'));
      items.push(...takebackItems(v, this.posts || [], (path, body) => this.matchPost(path, body)));
    }
    items.push(claimButton(v, (path, body) => this.matchPost(path, body)));
    items.push(this.confirmButton('Resign…', 'Resign this match? You lose it.', 'Resign', () => this.matchPost('resign', {})));
    if (v.status === 'open' || v.seq <= 1) {
      items.push(this.confirmButton('Abort…', 'Abort this match for everyone? It can be done only before the first turn.', 'Abort the match', () => this.matchPost('abort', {})));
    }
    const orders = this.ordersForm();
    clear(this.controlsEl, h('h2', {}, 'Match'), h('div', { class: 'row wrap' }, items), orders);
  }

  confirmButton(label, question, yes, action) {
    const box = h('div', { class: 'confirm', hidden: true, role: 'group', 'aria-label': question },
      h('p', {}, question),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'danger', onclick: () => { box.hidden = true; action(); } }, yes),
        h('button', { type: 'button', onclick: () => { box.hidden = true; btn.focus(); } }, 'Cancel')));
    const btn = h('button', {
      type: 'button', onclick: () => { box.hidden = false; box.querySelector('button').focus(); },
    }, label);
    return h('div', { class: 'confirm-wrap' }, btn, box);
  }

  ordersForm() {
    const v = this.view;
    if (v.status !== 'active' || !v.state) return null;
    const send = (orders) => this.matchPost('orders', { orders });
    let form = this.renderer.orders ? this.hook('orders', v, send) : null;
    if (!form && v.state.orders === undefined) return null;
    if (!form) {
      const ta = h('textarea', { id: 'orders-json', rows: 3, spellcheck: false },
        JSON.stringify(typeof v.state.orders === 'object' ? v.state.orders : {}));
      form = h('form', {
        onsubmit: (e) => {
          e.preventDefault();
          try { send(JSON.parse(ta.value)); } catch { clear(this.postMsg, errorBox({ sentence: 'The orders are not valid JSON.' })); }
        },
      }, h('label', { for: 'orders-json' }, 'Orders (JSON)'), ta, h('button', { type: 'submit' }, 'Save orders'));
    }
    return h('details', { class: 'orders' }, h('summary', {}, 'Standing orders'),
      h('p', { class: 'hint' }, 'Answers given ahead of time, so the match need not wait for you.'), form);
  }

  renderResult() {
    const v = this.view;
    if (!v.result && v.status !== 'aborted') { clear(this.resultEl); this.resultEl.className = 'result'; return; }
    this.resultEl.className = 'result card';
    const scores = Array.isArray(v.result?.scores)
      ? h('p', {}, 'Scores: ', v.result.scores.map((s, i) => `${seatName(v, i)} ${s}`).join(' · ')) : null;
    const me = v.you;
    const mine = me !== null && me !== undefined;
    let outcome = null;
    if (mine && v.result) {
      outcome = v.result.draw ? 'draw' : (v.result.winners || []).includes(me) ? 'win' : (v.result.winners || []).length ? 'loss' : null;
    }
    clear(this.resultEl, h('h2', {}, 'Result'),
      h('p', { class: 'result-text' }, resultText(v)),
      outcome ? h('p', { class: `tag tag-${outcome}` }, { win: 'You won', loss: 'You lost', draw: 'A draw' }[outcome]) : null,
      scores,
      v.status === 'over' ? h('p', {},
        h('a', { href: `#/verify/${v.id}` }, 'Verify the dice'), ' · ',
        h('button', { type: 'button', class: 'link', onclick: () => this.download() }, 'Download the match'), ' · ',
        h('button', { type: 'button', class: 'link', onclick: () => this.setReplay(0) }, 'Replay from the start')) : null);
  }

  // The export under a name that says which match it is (the server's
  // Content-Disposition would name every file match.json).
  async download() {
    try {
      const r = await get(`/api/games/${this.id}/export`);
      const blob = new Blob([JSON.stringify(r.body, null, 1)], { type: 'application/json' });
      const a = h('a', { href: URL.createObjectURL(blob), download: `warpost-${this.view.ruleset}-${this.id}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    } catch (err) {
      clear(this.resultEl.lastChild, errorBox(err));
    }
  }
}
