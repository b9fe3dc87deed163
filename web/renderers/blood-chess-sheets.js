// Blood Chess's lobby: its options in words, and the option `sheets`
// (characters of one's own, offered beside the built-in templates) built
// with a form that starts from a template (issue 30 item 6), never typed
// as JSON. The checks are the server's (rules/blood-chess bc_sheet_parse):
// what the form lets through, the server takes.

import { h, clear } from '../ui.js';

// The built-in templates (rules/blood-chess/bc_data.c): the lobby has no
// match view to read them from, so they are copied here to start from.
// [id, name, [dex spd ocv dcv con body stun rec pd ed rpd red], attacks
// [name, dice, killing, ranged, vs, area]].
const TEMPLATES = [
  ['brick', 'Brick', [14, 3, 5, 5, 28, 15, 50, 12, 25, 20, 15, 15], [['Punch', 12, 0, 0, 'PD', 0]]],
  ['blaster', 'Blaster', [20, 5, 7, 7, 23, 10, 40, 9, 10, 20, 10, 10], [['Energy Blast', 12, 0, 1, 'ED', 0], ['Punch', 3, 0, 0, 'PD', 0]]],
  ['martial-artist', 'Martial Artist', [26, 6, 9, 9, 20, 12, 35, 8, 12, 10, 4, 2], [['Martial Strike', 8, 0, 0, 'PD', 0], ['Throwing Blades', 2, 1, 1, 'PD', 0]]],
  ['speedster', 'Speedster', [23, 7, 8, 8, 20, 10, 32, 7, 12, 10, 5, 5], [['Punch', 7, 0, 0, 'PD', 0]]],
  ['slasher', 'Slasher', [21, 5, 7, 7, 25, 13, 40, 10, 15, 12, 8, 5], [['Claws', 3, 1, 0, 'PD', 0], ['Punch', 5, 0, 0, 'PD', 0]]],
  ['grenadier', 'Grenadier', [18, 4, 6, 6, 20, 10, 30, 8, 12, 12, 10, 10], [['Grenade', 8, 0, 1, 'PD', 1], ['Punch', 4, 0, 0, 'PD', 0]]],
  ['marksman', 'Marksman', [20, 4, 8, 6, 20, 11, 32, 8, 12, 10, 6, 6], [['Rifle', 3, 1, 1, 'PD', 0], ['Punch', 4, 0, 0, 'PD', 0]]],
];
// [key, label, min, max]
const STATS = [
  ['dex', 'DEX: who acts first', 1, 60], ['spd', 'SPD: phases a turn', 1, 12],
  ['ocv', 'OCV: to hit', 0, 30], ['dcv', 'DCV: to avoid hits', 0, 30],
  ['con', 'CON: against Stun', 1, 99], ['body', 'BODY: life', 1, 99],
  ['stun', 'STUN: before knocked out', 1, 199], ['rec', 'REC: recovery', 1, 99],
  ['pd', 'PD: physical defense', 0, 99], ['ed', 'ED: energy defense', 0, 99],
  ['rpd', 'rPD: resistant physical', 0, 99], ['red', 'rED: resistant energy', 0, 99],
];
const MAX_SHEETS = 8;
const MAX_ATTACKS = 3;

// A sheet in a few words: "DEX 20, SPD 5, Blast 12d6 ranged vs ED".
function sheetWords(s) {
  const att = s.attacks.map((a) => `${a.name} ${a.dice}d6${a.killing ? ' killing' : ''}${a.ranged ? ' ranged' : ''}${a.area ? ' area' : ''} vs ${a.vs}`);
  return `DEX ${s.dex}, SPD ${s.spd}, STUN ${s.stun}, BODY ${s.body}; ${att.join(', ')}`;
}

// What the server would refuse, in words (bc_sheet_valid and the parser).
function problemsOf(name, s, taken) {
  const p = [];
  const bytes = new TextEncoder().encode(name).length;
  if (!name || bytes > 23) p.push('A name of 1 to 23 characters.');
  if (TEMPLATES.some((t) => t[1].toLowerCase() === name.toLowerCase() || t[0] === name)) p.push('That is a built-in template\'s name.');
  if (taken.has(name)) p.push('Another of your sheets has that name.');
  for (const [k, label, lo, hi] of STATS) if (!Number.isInteger(s[k]) || s[k] < lo || s[k] > hi) p.push(`${label.split(':')[0]} is ${lo} to ${hi}.`);
  if (s.rpd > s.pd || s.red > s.ed) p.push('Resistant defenses are at most the defense.');
  if (!s.attacks.length) p.push('At least one attack.');
  for (const a of s.attacks) {
    if (!a.name || new TextEncoder().encode(a.name).length > 23) p.push('Every attack needs a name (up to 23 characters).');
    if (!Number.isInteger(a.dice) || a.dice < 1 || a.dice > 20) p.push(`${a.name || 'An attack'}: 1 to 20 dice.`);
    if (a.killing && a.dice > 6) p.push(`${a.name}: a killing attack has at most 6 dice.`);
    if (a.area && !a.ranged) p.push(`${a.name}: Area Effect only at range.`);
  }
  if (s.attacks.length && !s.attacks.some((a) => !a.ranged)) p.push('At least one hand-to-hand attack.');
  return [...new Set(p)];
}

function sheetsInput(id) {
  const sheets = new Map();   // name -> sheet
  const num = (k, lo, hi) => h('input', { id: `${id}-${k}`, type: 'number', inputmode: 'numeric', min: lo, max: hi, class: 'count' });
  const stats = Object.fromEntries(STATS.map(([k, , lo, hi]) => [k, num(k, lo, hi)]));
  const name = h('input', { id: `${id}-name`, type: 'text', maxlength: 23 });
  const from = h('select', { id: `${id}-from` }, TEMPLATES.map(([tid, tname]) => h('option', { value: tid }, tname)));
  const attackRows = Array.from({ length: MAX_ATTACKS }, (_, k) => {
    const f = {
      name: h('input', { id: `${id}-att${k}-name`, type: 'text', maxlength: 23 }),
      dice: h('input', { id: `${id}-att${k}-dice`, type: 'number', min: 1, max: 20, inputmode: 'numeric', class: 'count' }),
      vs: h('select', { id: `${id}-att${k}-vs` }, h('option', { value: 'PD' }, 'against PD (physical)'), h('option', { value: 'ED' }, 'against ED (energy)')),
      killing: h('input', { id: `${id}-att${k}-killing`, type: 'checkbox' }),
      ranged: h('input', { id: `${id}-att${k}-ranged`, type: 'checkbox' }),
      area: h('input', { id: `${id}-att${k}-area`, type: 'checkbox' }),
    };
    const check = (el, text) => h('span', { class: 'field-check' }, el, h('label', { for: el.id }, text));
    f.node = h('fieldset', { class: 'bc-attack' }, h('legend', {}, `Attack ${k + 1}${k ? ' (leave the name empty for none)' : ''}`),
      h('div', { class: 'field' }, h('label', { for: f.name.id }, 'Name'), f.name),
      h('div', { class: 'field' }, h('label', { for: f.dice.id }, 'Dice (d6)'), f.dice),
      h('div', { class: 'field' }, h('label', { for: f.vs.id }, 'Defense it meets'), f.vs),
      h('div', { class: 'row wrap' }, check(f.killing, 'Killing'), check(f.ranged, 'At range'), check(f.area, 'Area Effect')));
    return f;
  });
  function fill(tid) {
    const [, tname, vals, atts] = TEMPLATES.find((t) => t[0] === tid);
    STATS.forEach(([k], i) => { stats[k].value = vals[i]; });
    name.value = `My ${tname}`;
    attackRows.forEach((f, k) => {
      const a = atts[k];
      f.name.value = a ? a[0] : '';
      f.dice.value = a ? a[1] : '';
      f.killing.checked = !!a?.[2];
      f.ranged.checked = !!a?.[3];
      f.vs.value = a ? a[4] : 'PD';
      f.area.checked = !!a?.[5];
    });
  }
  from.addEventListener('change', () => { fill(from.value); update(); });
  const current = () => ({
    ...Object.fromEntries(STATS.map(([k]) => [k, Number(stats[k].value)])),
    attacks: attackRows.filter((f) => f.name.value.trim()).map((f) => ({
      name: f.name.value.trim(), dice: Number(f.dice.value), killing: f.killing.checked, ranged: f.ranged.checked, vs: f.vs.value, area: f.area.checked,
    })),
  });
  const problemsEl = h('ul', { class: 'army-problems', 'aria-live': 'polite' });
  const listEl = h('ul', { class: 'bc-sheet-list' });
  const addBtn = h('button', { type: 'button', id: `${id}-add` }, 'Add this sheet');
  function update() {
    const p = problemsOf(name.value.trim(), current(), new Set(sheets.keys()));
    if (sheets.size >= MAX_SHEETS) p.push(`At most ${MAX_SHEETS} sheets.`);
    clear(problemsEl, p.map((x) => h('li', {}, x)));
    addBtn.disabled = p.length > 0;
    clear(listEl, [...sheets].map(([n, s]) => h('li', {}, h('strong', {}, n), `: ${sheetWords(s)} `,
      h('button', { type: 'button', 'aria-label': `Remove ${n}`, onclick: () => { sheets.delete(n); update(); } }, 'Remove'))));
    listEl.hidden = !sheets.size;
  }
  addBtn.addEventListener('click', () => {
    if (addBtn.disabled) return;
    sheets.set(name.value.trim(), current());
    name.value = '';
    update();
  });
  const editor = h('details', { class: 'bc-sheet-editor' }, h('summary', {}, 'Make a character sheet'),
    h('div', { class: 'field' }, h('label', { for: from.id }, 'Start from'), from),
    h('div', { class: 'field' }, h('label', { for: name.id }, 'Name'), name),
    h('div', { class: 'bc-stats' }, STATS.map(([k, label]) => h('div', { class: 'field' }, h('label', { for: stats[k].id }, label), stats[k]))),
    attackRows.map((f) => f.node), problemsEl, addBtn);
  editor.addEventListener('input', update);
  fill(TEMPLATES[0][0]);
  update();
  return {
    node: h('div', {}, listEl, editor),
    value: () => Object.fromEntries(sheets),
  };
}

export const sheetOptions = {
  optionWords: {
    mirrors: { label: 'Mirrors', hint: 'Each side secretly chooses which Rook, Bishop and Knight are Mirrors (decoys), or the server picks them.', values: { choose: 'Each side secretly chooses its Mirrors', random: 'The server picks them at random' } },
    referee: { label: 'A referee', hint: 'A third player rules on every attack and sees everything. Needs 3 players.' },
    turn_limit: { label: 'Turn limit', hint: 'The match ends when a King falls, or on points after this many turns (0: no limit).', values: (v) => (v ? `${v} turns` : 'none: until a King falls') },
    sheets: { label: 'Your own character sheets', hint: 'Offered to both sides beside the built-in templates. Start from a template and change what you like.', values: (v) => Object.keys(v).join(', ') },
  },
  optionInput(name, spec, ctx) {
    return name === 'sheets' ? sheetsInput(ctx.id) : null;
  },
};
