// Small DOM helpers shared by the pages.

// h('button', {class: 'x', onclick: fn}, 'text', child...) -> element
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// An error box: the sentence, and a retry button when one is given.
export function errorBox(err, retry, retryLabel = 'Retry') {
  const text = err && err.sentence ? err.sentence : String(err?.message || err);
  return h('div', { class: 'error', role: 'alert' },
    h('p', {}, text),
    retry ? h('button', { type: 'button', onclick: retry }, retryLabel) : null);
}

// Copy text: the Clipboard API where allowed (https, localhost), else select
// the given input and use the older command.
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      try { return document.execCommand('copy'); } catch { return false; }
    }
    return false;
  }
}

// A read-only field with a copy button, for links and keys.
export function copyField(label, value, id) {
  const input = h('input', { type: 'text', readonly: true, value, id, class: 'copy-input' });
  const status = h('span', { class: 'copy-status', 'aria-live': 'polite' });
  const btn = h('button', {
    type: 'button',
    onclick: async () => {
      const ok = await copyText(value, input);
      status.textContent = ok ? 'Copied.' : 'Select the text and copy it.';
    },
  }, 'Copy');
  return h('div', { class: 'copy-field' },
    h('label', { for: id }, label), h('div', { class: 'copy-row' }, input, btn), status);
}

export function setTitle(text) {
  document.title = text ? `${text} — Warpost` : 'Warpost';
}

// The badge beside a player's name when the player is a program: the
// server's computer player or a bot account (issue 27).
export function botBadge(player) {
  return player && player.bot ? h('span', { class: 'tag tag-bot', title: 'A computer program plays this seat' }, 'bot') : null;
}
