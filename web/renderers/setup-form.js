// The parts every ruleset's set-up form shares (renderers' `builder` and
// placement hooks): a card with a heading, rows of counts with their price,
// a running total, the list so far, what is still required, and one submit
// button that posts the whole set-up as one post of several actions.

import { h, clear } from '../ui.js';

// A number input for one kind of piece, with its price beside it; `onInput`
// runs on every change.
export function countRow({ id, label, price, min = 0, max, value = 0, onInput }) {
  const input = h('input', { id, type: 'number', min, max, value, inputmode: 'numeric', class: 'count' });
  if (onInput) input.addEventListener('input', onInput);
  return { input, row: h('div', { class: 'army-row' }, h('label', { for: id }, label), h('span', { class: 'price' }, price || ''), input) };
}

// A whole number from an input (0 for nothing or nonsense).
export function count(input) {
  return Math.max(0, parseInt(input?.value, 10) || 0);
}

// A labelled <select> of [value, text] pairs.
export function selectField({ id, label, choices, value = '', onInput, placeholder }) {
  const sel = h('select', { id },
    placeholder ? h('option', { value: '' }, placeholder) : null,
    choices.map(([v, t]) => h('option', { value: v }, t)));
  sel.value = value;
  if (onInput) sel.addEventListener('input', onInput);
  return { select: sel, field: h('div', { class: 'field' }, h('label', { for: id }, label), sel) };
}

// The form: `check()` -> {total, list, problems}; `actions()` -> the post's
// actions, called on submit when nothing is wrong. The returned `update`
// recomputes the total, the list and the problems.
export function setupForm({ title, hint, body, submitLabel, check, actions, submit }) {
  const totalEl = h('p', { class: 'army-total', 'aria-live': 'polite' });
  const listEl = h('p', { class: 'army-list' });
  const problemsEl = h('ul', { class: 'army-problems' });
  const button = h('button', { type: 'submit', class: 'primary', id: 'army-submit' }, submitLabel);
  let ok = false;
  function update() {
    const r = check();
    totalEl.textContent = r.total || '';
    totalEl.hidden = !r.total;
    listEl.textContent = r.list || '';
    clear(problemsEl, (r.problems || []).map((p) => h('li', {}, p)));
    ok = !(r.problems || []).length;
    button.disabled = !ok;
  }
  const form = h('form', {
    class: 'card army-form', 'aria-labelledby': 'army-h',
    onsubmit: (e) => { e.preventDefault(); update(); if (ok) submit(actions()); },
  }, h('h2', { id: 'army-h' }, title), hint ? h('p', { class: 'hint' }, hint) : null, body, totalEl, listEl, problemsEl, button);
  form.addEventListener('input', update);
  return { form, update };
}

// Placements of several pieces in one post: after the draft, the legal
// placements of what is left on the squares still free, then `finish`
// (the action that ends the set-up, when the ruleset has one) once nothing
// is left. `isPlace(a)`, `keyOf(a)`, `squareOf(a)`; `left` {key: count}.
export function placementsAfter({ legal, draft, isPlace, keyOf, squareOf, left, finish }) {
  const finished = (a) => !!finish && a.type === finish.type;
  if (!draft.length || !draft.every((a) => isPlace(a) || finished(a))) return null;
  const rest = { ...left };
  for (const a of draft) if (isPlace(a)) rest[keyOf(a)] = (rest[keyOf(a)] || 0) - 1;
  const taken = new Set(draft.filter(isPlace).map(squareOf));
  const places = legal.filter((a) => isPlace(a) && rest[keyOf(a)] > 0 && !taken.has(squareOf(a)));
  if (places.length || !finish || draft.some(finished)) return places;
  return Object.values(rest).every((n) => n <= 0) ? [finish] : [];
}
