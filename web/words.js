// Actions, events and posts in words, from their type and fields, for any
// ruleset. A renderer may override with its own phrase(action|event).

// Up to 16 files and 16 ranks (ChessWar plays on boards larger than 8×8).
const SQUARE = /^[a-p]([1-9]|1[0-6])$/;
const DICE_FACES = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];
// Fields whose numbers are dice rolls (shown as faces).
const DICE_FIELDS = /^(roll|rolls|die|dice|attacker|defender|attack_roll|defence_roll|defense_roll|faces|result_roll|d6)$/;

export function words(type) {
  return String(type || '').replace(/[_-]+/g, ' ').trim();
}

// Seats are named by the colour their pieces are drawn in (style.css
// .seat-N): "White (Alice)", "Black (you)".
export const SEAT_COLOURS = ['White', 'Black', 'Red', 'Blue', 'Green', 'Purple'];
export function seatColour(seat) {
  return Number.isInteger(seat) ? SEAT_COLOURS[seat % 6] : 'Nobody';
}

export function seatName(view, seat) {
  if (seat === null || seat === undefined) return 'The server';
  const you = view && view.you === seat;
  const who = view?.seats?.[seat]?.player?.name;
  return `${seatColour(seat)} (${you ? 'you' : who || 'open seat'})`;
}

// "1 point", "2 points".
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function isSquare(v) {
  return typeof v === 'string' && SQUARE.test(v);
}

// Dice: {text, faces:[n...]} for a number or an array of numbers.
export function diceOf(key, value) {
  if (!DICE_FIELDS.test(key)) return null;
  const list = Array.isArray(value) ? value : [value];
  if (!list.length || !list.every((n) => Number.isInteger(n) && n >= 1)) return null;
  return list;
}

export function diceText(list) {
  return list.map((n) => (n <= 6 ? `${DICE_FACES[n - 1]}\u00a0${n}` : String(n))).join(' ');
}

function valueText(key, v, view) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if ((key === 'seat' || key === 'owner' || key.endsWith('_seat')) && Number.isInteger(v)) return seatName(view, v);
  if (Array.isArray(v)) {
    if (!v.length) return 'none';
    if (v.every((x) => typeof x !== 'object' || x === null)) return v.join(', ');
    return `${v.length} items`;
  }
  if (typeof v === 'object') {
    // A reference to a piece: {"seat": 1, "id": 4, "type": "rook"}.
    const owner = [v.seat, v.owner].find(Number.isInteger);
    const kind = v.type || v.kind;
    if (owner !== undefined && typeof kind === 'string') return `${seatName(view, owner)} ${words(kind)}`;
    const parts = Object.entries(v).map(([k, x]) => {
      const t = valueText(k, x, view);
      return t === null ? null : `${words(k)} ${t}`;
    }).filter(Boolean);
    return parts.join(', ');
  }
  return String(v);
}

// "move d1→d2", "attack e4→e5", "dodge: yes", "place knight on c3".
export function actionText(a, view) {
  if (!a || typeof a !== 'object') return String(a);
  const type = words(a.type || 'action');
  const from = isSquare(a.from) ? a.from : null;
  const to = ['to', 'target', 'square', 'at'].map((k) => a[k]).find(isSquare) || null;
  let text = type;
  if (from && to) text += ` ${from}→${to}`;
  else if (from) text += ` ${from}`;
  else if (to) text += ` ${to}`;
  const used = new Set(['type', 'from']);
  if (to) used.add(['to', 'target', 'square', 'at'].find((k) => a[k] === to));
  if (a.type && a[a.type] !== undefined && a.type !== 'type') {
    // {"type":"dodge","dodge":true} reads "dodge: yes"
    used.add(a.type);
    const t = valueText(a.type, a[a.type], view);
    if (t !== null) text += `: ${t}`;
  }
  const rest = [];
  for (const [k, v] of Object.entries(a)) {
    if (used.has(k)) continue;
    const t = valueText(k, v, view);
    if (t !== null) rest.push(`${words(k)} ${t}`);
  }
  if (rest.length) text += ` (${rest.join(', ')})`;
  return text;
}

// An event: {text, dice:[n...]|null}.
export function eventText(e, view) {
  if (!e || typeof e !== 'object') return { text: String(e), dice: null };
  const type = words(e.type || 'event');
  const parts = [];
  let dice = [];
  const from = isSquare(e.from) ? e.from : null;
  const to = ['to', 'square', 'target', 'at'].map((k) => e[k]).find(isSquare) || null;
  let head = type;
  if (from && to) head += ` ${from}→${to}`;
  else if (to) head += ` ${to}`;
  else if (from) head += ` ${from}`;
  for (const [k, v] of Object.entries(e)) {
    if (k === 'type' || (k === 'from' && from) || (v === to && isSquare(v))) continue;
    const d = diceOf(k, v);
    if (d) {
      dice.push(...d);
      parts.push(`${words(k)} ${diceText(d)}`);
      continue;
    }
    const t = valueText(k, v, view);
    if (t === null) continue;
    parts.push(k === 'seat' && Number.isInteger(v) ? t : `${words(k)} ${t}`);
  }
  return { text: parts.length ? `${head}: ${parts.join(', ')}` : head, dice: dice.length ? dice : null };
}

const KIND = {
  start: 'The match started',
  resign: 'resigned',
  claim: 'claimed the win on time',
  draw_offer: 'offered a draw',
  draw_accept: 'accepted the draw',
  draw_decline: 'declined the draw',
  abort: 'aborted the match',
  orders: 'changed standing orders',
  takeback_request: 'asked to take back their last move',
  takeback_decline: 'declined the takeback',
};

// A tournament organiser's adjudication (issue 29): who it gave the match to.
function adjudicationText(p, view) {
  const a = p.actions || {};
  const by = a.by && a.by.name ? `The organiser, ${a.by.name},` : 'The organiser';
  return a.winner === null || a.winner === undefined ? `${by} adjudicated the match a draw`
    : `${by} adjudicated the match: ${seatName(view, a.winner)} wins`;
}

// The heading of a post: "White (Alice): move d1→d2".
export function postHeading(p, view) {
  if (p.kind === 'start') return KIND.start;
  if (p.kind === 'adjudication') return adjudicationText(p, view);
  const who = seatName(view, p.seat);
  if (p.kind === 'turn') {
    if (Array.isArray(p.actions)) return `${who}: ${p.actions.map((a) => actionText(a, view)).join('; ')}`;
    const ev = (p.events || []).map((e) => eventText(e, view).text);
    return ev.length ? `${who}: ${ev.slice(0, 3).join('; ')}${ev.length > 3 ? '…' : ''}` : `${who} played a turn`;
  }
  if (p.kind === 'orders') {
    if (p.actions && typeof p.actions === 'object' && !Array.isArray(p.actions)) {
      return `${who} set standing orders: ${valueText('orders', p.actions, view)}`;
    }
    return `${who} ${KIND.orders}`;
  }
  return `${who} ${KIND[p.kind] || words(p.kind)}`;
}

export function resultText(view) {
  const r = view.result;
  if (!r) return '';
  if (view.status === 'aborted') return 'The match was aborted.';
  const reason = r.reason ? ` (${r.reason})` : '';
  if (r.draw) return `Draw${reason}.`;
  const winners = r.winners || [];
  if (!winners.length) return `The match is over${reason}.`;
  const names = winners.map((s) => seatName(view, s)).join(' and ');
  const youWon = view.you !== null && view.you !== undefined && winners.includes(view.you);
  return `${names} ${winners.length > 1 ? 'win' : 'wins'}${reason}.` + (youWon ? ' Well played!' : '');
}
