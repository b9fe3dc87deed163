// Officers Chess (rules/officers-chess/README.md, "View" and "Events").
// Units are in `units` [{name, seat, class, hp, max_hp, square, items,
// ratings, tags, status, activated}]; the map is `grid` (8 rows of tile
// letters, rank 8 first); `seen` lists the tiles a seat sees under fog.
// Units are discs with their class initials and an HP bar; terrain is
// drawn per tile; an attack's forecast is read out before it is posted.

import { drawPiece } from '../board.js';
import { drawBadges } from './badges.js';
import { h } from '../ui.js';
import { seatName, seatColour, words } from '../words.js';
import { selectField, setupForm, placementsAfter } from './setup-form.js';
import { TILES, tileDraw, officersOptions } from './officers-chess-options.js';
import { outcomeSummary } from './outcome.js';

// Events that say what happened in a post (the heading names them with the dice).
const OUTCOMES = new Set(['combat', 'special', 'routed', 'tile_attacked', 'ambushed']);

// Default names, different for each army, so that the two sides' units
// never read alike (issue 30 item 8); the player may change them.
const NAMES = [
  ['Alric', 'Brenna', 'Cedric', 'Dara', 'Edwin', 'Fiona', 'Gareth', 'Hilde', 'Ivor', 'Jora', 'Kael', 'Lyra'],
  ['Morwen', 'Nils', 'Orla', 'Piet', 'Quinn', 'Runa', 'Sven', 'Tova', 'Ulf', 'Vera', 'Wulf', 'Ysolde'],
];

function unitsOf(view) {
  return Array.isArray(view.state?.units) ? view.state.units : [];
}

function initials(cls) {
  const w = String(cls || '?').replace(/\(.*\)/, '').trim().split(/\s+/);
  return (w.length > 1 ? w[0][0] + w[1][0] : w[0].slice(0, 2)).toUpperCase();
}

function unitAt(view, sq) {
  return unitsOf(view).find((u) => u.square === sq && u.where === 'map');
}

function who(view, u) {
  if (!u) return 'a hidden unit';
  return `${u.name} (${seatName(view, u.seat)} ${u.class})`;
}

function tileAt(view, sq) {
  const g = view.state?.grid;
  if (typeof g !== 'string' || !sq) return '.';
  const rows = g.split('/');
  const f = sq.charCodeAt(0) - 97;
  const r = Number(sq[1]);
  return rows[8 - r]?.[f] || '.';
}

function itemName(u, slot) {
  const it = u?.items?.[slot];
  return it ? it.name : `slot ${slot}`;
}

// "hit 75%, crit 10%, 8 damage (19 on a crit) x1"
function side(s) {
  if (!s) return '';
  return `hit ${s.hit}%, crit ${s.crit}%, ${s.damage} damage (${s.crit_damage} on a crit) ×${s.strikes}${s.follow_up ? ' with a follow-up' : ''}`;
}

export function forecastText(f) {
  if (!f) return '';
  if (!f.attacker) return Number.isInteger(f.hit) ? ` — hit ${f.hit}%` : '';
  const counter = f.defender?.counter ? `counter: ${side(f.defender)}` : 'no counter';
  const extra = [];
  if (f.defender_first) extra.push('the defender strikes first (Heavy)');
  if (f.backup) extra.push('Backup +3');
  if (f.triangle > 0) extra.push('triangle advantage');
  if (f.triangle < 0) extra.push('triangle disadvantage');
  return ` — you: ${side(f.attacker)}; ${counter}${extra.length ? `; ${extra.join(', ')}` : ''}`;
}

const R = {
  id: 'officers-chess',

  // A post's heading with its dice and results (outcome.js).
  summary(post, view) {
    return outcomeSummary(post, view, { action: (a, v) => R.action(a, v), event: (e, v) => R.event(e, v), outcomes: OUTCOMES });
  },
  ...officersOptions,

  pieces(view) {
    return unitsOf(view).filter((u) => u.where === 'map' && u.square).map((u) => {
      const badges = [];
      if (u.activated) badges.push('act');
      if (u.status?.length) badges.push(u.status[0].slice(0, 3));
      // The label carries the letters drawn on the disc and its badges
      // (axe: label-content-name-mismatch).
      const label = `${who(view, u)}, marked ${initials(u.class)}${badges.length ? ` ${badges.join(' ')}` : ''}, HP ${u.hp}/${u.max_hp}` +
        `${u.status?.length ? `, ${u.status.join(', ')}` : ''}` +
        `${u.items ? `, items ${u.items.filter(Boolean).map((i) => i.name + (i.equipped ? ' (equipped)' : '')).join(', ') || 'none'}` : ''}`;
      const p = { square: u.square, seat: u.seat, glyph: initials(u.class), badges, label };
      p.draw = (g, S, svg) => {
        drawPiece(g, { ...p, badges: [] });
        drawBadges(g, S, svg, badges);
        const w = S - 24;
        const frac = u.max_hp ? Math.max(0, Math.min(1, u.hp / u.max_hp)) : 0;
        g.append(svg('rect', { class: 'oc-hp-bg', x: 12, y: S - 16, width: w, height: 9, fill: '#424242', rx: 3 }));
        g.append(svg('rect', {
          class: 'oc-hp', x: 12, y: S - 16, width: Math.round(w * frac), height: 9, rx: 3,
          fill: frac > 0.5 ? '#43a047' : frac > 0.25 ? '#fbc02d' : '#e53935',
          'data-hp': String(u.hp),
        }));
      };
      return p;
    });
  },

  terrain(view) {
    const s = view.state || {};
    const out = [];
    const rows = typeof s.grid === 'string' ? s.grid.split('/') : [];
    rows.forEach((row, i) => {
      [...row].forEach((c, f) => {
        if (c === '.' || !TILES[c]) return;
        const sq = String.fromCharCode(97 + f) + (8 - i);
        const [name, glyph] = TILES[c];
        const dmg = s.tile_damage?.[sq];
        out.push({
          // The label carries the letters drawn on the tile (axe: label-content-name-mismatch).
          square: sq, kind: name, glyph, label: `${name}${glyph ? `, marked ${glyph}` : ''}${dmg ? `, ${dmg} of 15 damage dealt` : ''}`,
          draw: tileDraw(c),
        });
      });
    });
    for (const sq of s.marks || []) out.push({ square: sq, kind: 'marked', glyph: '★', label: `marked tile (${words(s.options?.scenario || '')})` });
    if (Array.isArray(s.seen)) {
      const seen = new Set(s.seen);
      for (let r = 1; r <= 8; r++) {
        for (let f = 0; f < 8; f++) {
          const sq = String.fromCharCode(97 + f) + r;
          if (seen.has(sq)) continue;
          out.push({
            square: sq, kind: 'fog of war', glyph: '', label: 'not seen (fog of war)',
            draw: (g, S, svg) => g.append(svg('rect', { class: 'oc-fog', x: 0, y: 0, width: S, height: S, fill: '#000', opacity: 0.28 })),
          });
        }
      }
    }
    if (s.active?.unit) out.push({ square: s.active.unit, kind: 'active', glyph: '', label: `taking its turn: ${s.active.name}` });
    return out;
  },

  panel(view) {
    const s = view.state;
    const dl = document.createElement('dl');
    dl.className = 'state-facts';
    const row = (k, v) => {
      const dt = document.createElement('dt'); dt.textContent = k;
      const dd = document.createElement('dd'); dd.textContent = v;
      dl.append(dt, dd);
    };
    row('Phase', words(s.phase));
    if (s.round) row('Round', `${s.round}${s.options?.round_limit ? ` of ${s.options.round_limit}` : ''}`);
    if (Number.isInteger(s.turn_seat)) row('Activating', seatName(view, s.turn_seat));
    if (s.active) row('Turn of', `${s.active.name} at ${s.active.unit}${s.active.moved ? ', moved' : ''}${s.active.acted ? ', acted' : ''}${s.active.canto ? `, Canto ${s.active.canto}` : ''}`);
    const o = s.options || {};
    row('Match', `${o.units} units, map ${o.map}${o.fog ? ', fog of war' : ''}, ${words(o.scenario)}${o.promoted ? ', promoted classes' : ''}`);
    for (const u of unitsOf(view)) {
      const items = (u.items || []).filter(Boolean).map((i) => `${i.name}${i.uses ? ` (${i.uses})` : ''}${i.equipped ? '*' : ''}`).join(', ');
      const place = u.where === 'map' ? u.square : words(u.where);
      row(`${u.name}`, `${seatName(view, u.seat)} ${u.class}, HP ${u.hp}/${u.max_hp}, ${place}; ${items || 'no items'}${u.status?.length ? `; ${u.status.join(', ')}` : ''}${u.activated ? '; activated' : ''}`);
    }
    return dl;
  },

  flipped(view) {
    return view.you === 1;
  },

  // The banner names the unit taking its turn (issue 30 item 3).
  prompt(view) {
    const s = view.state || {};
    if (s.phase !== 'battle' && s.phase !== 'play') return null;
    if (s.active?.unit) {
      const u = unitAt(view, s.active.unit);
      const whose = u && u.seat === view.you ? 'Your' : u ? `${seatName(view, u.seat)}'s` : 'The';
      const mine = u && u.seat === view.you;
      return `${whose} ${s.active.name}${u ? ` (${u.class})` : ''} on ${s.active.unit} takes its turn${mine ? ': move, act, or end its turn, then post.' : '.'}`;
    }
    if (!Number.isInteger(s.turn_seat)) return null;
    return s.turn_seat === view.you ? 'Your units activate: choose the unit that takes its turn, then post.'
      : `${seatName(view, s.turn_seat)} chooses a unit to take its turn.`;
  },

  // Standing order for Qi Adept (RULINGS.md G3): always, never, or ask me.
  orders(view, send) {
    const mine = (view.state?.seats || []).find((x) => x.seat === view.you);
    const current = mine?.qi_adept_order;
    if (!current) return null;
    const text = { ask: 'Ask me each time', always: 'Always take it', never: 'Never take it' };
    const sel = h('select', { id: 'orders-qi' },
      Object.entries(text).map(([v, t]) => h('option', { value: v, selected: v === current }, t)));
    return h('form', {
      class: 'orders-form',
      onsubmit: (e) => { e.preventDefault(); send({ qi_adept: sel.value }); },
    }, h('label', { for: 'orders-qi' }, 'When a Qi Adept of mine at full health stands next to an attacked ally:'), sel,
    h('button', { type: 'submit' }, 'Save orders'));
  },

  action(a, view) {
    const u = a.from ? unitAt(view, a.from) : null;
    switch (a.type) {
      case 'recruit': return `recruit ${a.name}: ${a.class} with ${(a.items || []).join(', ') || 'no items'}`;
      case 'army': return `army of ${a.units.length}: ${a.units.map((x) => `${x.name} (${x.class}: ${(x.items || []).join(', ')})`).join('; ')}`;
      case 'deploy': return `deploy ${a.unit} on ${a.to}`;
      case 'activate': return `activate ${who(view, unitAt(view, a.at))} on ${a.at}`;
      case 'move': return `move ${u ? u.name : a.from} to ${a.to} (${TILES[tileAt(view, a.to)]?.[0] || 'Plains'})`;
      case 'attack': {
        const t = unitAt(view, a.target);
        const what = t ? who(view, t) : (TILES[tileAt(view, a.target)]?.[0] || 'the tile');
        return `attack ${what} on ${a.target} with ${itemName(u, a.slot)}${forecastText(a.forecast)}`;
      }
      case 'staff': {
        const t = a.target ? unitAt(view, a.target) : null;
        return `${itemName(u, a.slot)}${a.target ? ` on ${t ? who(view, t) : a.target}` : ''}${a.to ? ` to ${a.to}` : ''}${forecastText(a.forecast)}`;
      }
      case 'dance': return `dance for ${who(view, unitAt(view, a.target))}`;
      case 'pick': return `pick the lock of ${a.target}`;
      case 'use': return `use ${itemName(u, a.slot)}`;
      case 'equip': return `equip ${itemName(u, a.slot)}`;
      case 'discard': return `discard ${itemName(u, a.slot)}`;
      case 'trade': {
        const p = unitAt(view, a.target);
        const parts = [];
        if (Number.isInteger(a.give)) parts.push(`give ${itemName(u, a.give)}`);
        if (Number.isInteger(a.take)) parts.push(`take ${itemName(p, a.take)}`);
        return `trade with ${p ? p.name : a.target}: ${parts.join(', ')}`;
      }
      case 'seize': return 'Seize this tile';
      case 'escape': return 'Escape from the map';
      case 'raze': return 'Raze this tile';
      case 'end': return `end ${u ? u.name : ''}'s turn`;
      case 'guard': return `${who(view, unitAt(view, a.at))} takes the first strike (halved)`;
      case 'no_guard': return 'no Qi Adept takes the strike';
      default: return null;
    }
  },

  event(e, view) {
    const U = (x) => (x ? `${x.name} (${x.class})` : 'a hidden unit');
    switch (e.type) {
      case 'recruited': return `${U(e.unit)} recruited`;
      case 'army_ready': return `${seatName(view, e.seat)} is ready`;
      case 'deployed': return `${U(e.unit)} deployed on ${e.to}`;
      case 'deployment_done': return 'Both armies are deployed: the battle begins';
      case 'round': return `Round ${e.round}`;
      case 'activated': return `${U(e.unit)} takes its turn${e.from ? ` on ${e.from}` : ''}`;
      case 'moved': return `${U(e.unit)} moves${e.from ? ` from ${e.from}` : ''}${e.to ? ` to ${e.to}` : ' out of sight'}`;
      case 'ambushed': return `${U(e.unit)} runs into an unseen enemy and stops on ${e.to}`;
      case 'combat': {
        // A strike by or on an attacker the seat cannot see (O13) comes
        // without what would tell of it: no target number, no outcome.
        const s = (e.strikes || []).map((k) => `${k.by === 'attacker' ? 'attack' : 'counter'}:${k.roll === undefined ? '' : ` roll ${k.roll}`}${k.need === undefined ? '' : ` vs ${k.need}`} ${k.hit === undefined ? 'unseen' : k.hit ? (k.crit ? `CRIT ${k.damage}` : `hit ${k.damage}`) : 'miss'}${k.hp === undefined || k.hp === null ? '' : ` (HP ${k.hp})`}${k.broken ? ', Broken' : ''}${k.pushed_to ? `, pushed to ${k.pushed_to}` : ''}`);
        return `${U(e.unit)} attacks ${U(e.defender)}${e.weapon ? ` with ${e.weapon}` : ''}: ${s.join('; ')}`;
      }
      case 'tile_attacked': return `${U(e.unit)} strikes the ${e.tile} on ${e.to} for ${e.damage}${e.destroyed ? ': destroyed' : ''}`;
      case 'special': return `${U(e.unit)} uses ${e.item || words(e.action)}${e.other ? ` on ${U(e.other)}` : e.to ? ` on ${e.to}` : ''}${e.roll ? ` (roll ${e.roll} vs ${e.need})` : ''}: ${e.hit ? (e.healed ? `heals ${e.healed}` : 'done') : 'missed'}`;
      case 'item_used': return `${U(e.unit)} uses ${e.item}${e.healed ? `, heals ${e.healed}` : ''}`;
      case 'routed': return `${U(e.unit)} is routed`;
      case 'equipped': return `${U(e.unit)} equips ${e.item}`;
      case 'discarded': return `${U(e.unit)} discards ${e.item}`;
      case 'traded': return `${U(e.unit)} trades with ${U(e.other)}${e.gave ? `: gives ${e.gave}` : ''}${e.took ? `${e.gave ? ',' : ':'} takes ${e.took}` : ''}`;
      case 'escaped': return `${U(e.unit)} escapes from the map`;
      case 'seized': return `${U(e.unit)} seizes the tile`;
      case 'razed': return `${U(e.unit)} razes the tile`;
      case 'turn_end': return e.unit ? `${U(e.unit)}'s turn ends` : 'The turn ends';
      case 'vein_end': return `The ${e.tile} made by a Vein staff fades`;
      case 'tile_effect': return `${U(e.unit)}: ${e.tile} ${e.hp_change > 0 ? `heals ${e.hp_change}` : `burns for ${-e.hp_change}`} (HP ${e.hp})`;
      case 'game_over': return `The battle is over (${e.reason})`;
      case 'guard_asked': return `${U(e.unit)} attacks ${U(e.other)}: ${seatName(view, e.seat)} decides whether a Qi Adept takes the first strike`;
      default: return null;
    }
  },

  // The army in one form: for each unit a name, a class and a loadout (the
  // ones the server offers for that class), posted as one `army` action so
  // the recruits stay secret until both armies are in (O4, O5).
  builder(view, ctx) {
    const s = view.state;
    if (s?.phase !== 'recruit' || !ctx.actions.some((a) => a.type === 'army')) return null;
    const n = s.options?.units || ctx.actions.find((a) => a.type === 'army').units.length;
    const loadouts = new Map();   // class -> [items lists]
    for (const a of ctx.actions) {
      if (a.type !== 'recruit') continue;
      const list = loadouts.get(a.class) || [];
      if (!list.some((x) => x.join('|') === a.items.join('|'))) list.push(a.items);
      loadouts.set(a.class, list);
    }
    const sample = ctx.actions.find((a) => a.type === 'army').units;
    const rows = [];
    for (let i = 0; i < n; i++) {
      const cls = selectField({ id: `unit-${i}-class`, label: 'Class', value: sample[i]?.class || '', choices: [...loadouts.keys()].map((c) => [c, c]) });
      const kit = h('div');
      const name = h('input', { id: `unit-${i}-name`, type: 'text', maxlength: 24, value: NAMES[view.you % 2]?.[i] || `${seatColour(view.you)} ${i + 1}` });
      const row = { cls: cls.select, name, kit: null };
      const renderKit = () => {
        const f = selectField({ id: `unit-${i}-items`, label: 'Items', choices: (loadouts.get(row.cls.value) || []).map((x, k) => [String(k), x.join(', ') || 'no items']) });
        row.kit = f.select;
        kit.replaceChildren(f.field);
      };
      cls.select.addEventListener('input', renderKit);
      renderKit();
      rows.push(row);
      rows[i].node = h('fieldset', { class: 'unit-row' }, h('legend', {}, `Unit ${i + 1}`),
        h('div', { class: 'field' }, h('label', { for: `unit-${i}-name` }, 'Name'), name), cls.field, kit);
    }
    const units = () => rows.map((r) => ({ name: r.name.value.trim(), class: r.cls.value, items: (loadouts.get(r.cls.value) || [])[Number(r.kit.value)] || [] }));
    const built = setupForm({
      title: 'Recruit your army',
      hint: `${n} units, each with a class and its items. Your opponent sees your army only when both are in.`,
      body: rows.map((r) => r.node),
      submitLabel: 'Use this army',
      check() {
        const u = units();
        const problems = [];
        if (u.some((x) => !x.name)) problems.push('Every unit needs a name.');
        if (new Set(u.map((x) => x.name)).size !== u.length) problems.push('The names must differ.');
        if (u.some((x) => new TextEncoder().encode(x.name).length > 24)) problems.push('A name is at most 24 bytes.');
        return { problems, list: `Your army: ${u.map((x) => `${x.name || '?'} (${x.class})`).join(', ')}.` };
      },
      actions: () => [{ type: 'army', units: units() }],
      submit: ctx.submit,
    });
    built.update();
    return built.form;
  },

  // The secret deployment: each unit from the tray, several per post.
  trayItem(a, view) {
    if (a.type !== 'deploy') return null;
    const u = unitsOf(view).find((x) => x.seat === view.you && x.name === a.unit);
    return { key: a.unit, label: `${a.unit}${u ? ` (${u.class})` : ''}`, count: 1, piece: { seat: view.you, glyph: initials(u?.class || a.unit), label: `your ${a.unit}` } };
  },

  after(view, legal, draft) {
    const left = Object.fromEntries(unitsOf(view).filter((u) => u.seat === view.you && !u.square).map((u) => [u.name, 1]));
    return placementsAfter({ legal, draft, left, isPlace: (a) => a.type === 'deploy', keyOf: (a) => a.unit, squareOf: (a) => a.to });
  },
};
export default R;
