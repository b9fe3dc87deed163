// A post's heading that says what happened, with the dice (issue 30
// item 7): the renderer's `summary` hook for a post whose events include
// outcomes (rolls, results, removals). "Black (Bob): defend without
// spending a token — White Knight rolls for attack: ⚄ 5, total 5; …;
// Attack 5 against defence 3: success; Black Pawn is slain on e5".
// Posts with actions but no outcome keep the page's own heading (null).

import { actionText, eventText, seatName } from '../words.js';

// Events that only mark time, left out of a heading.
const NOISE = /^(turn|turn_start|turn_end|phase|segment|round|activation_end)$/;

export function outcomeSummary(post, view, { action, event, outcomes }) {
  if (!post || post.kind !== 'turn') return null;
  const events = Array.isArray(post.events) ? post.events : [];
  const acts = Array.isArray(post.actions) ? post.actions : [];
  // With the actions to show and no outcome, the page's own heading.
  if (acts.length && !events.some((e) => outcomes.has(e.type))) return null;
  const who = seatName(view, post.seat);
  const say = (e) => {
    let t = null;
    try { t = event(e, view); } catch { t = null; }
    t = t || eventText(e, view).text;
    return t.startsWith(`${who} `) ? t.slice(who.length + 1) : t;
  };
  // With the actions: they, then the outcomes. Without (another seat's
  // hidden actions, the server's own post): the events that are not marks
  // of time, else those too ("Black (Ben): shooting phase"), in the
  // ruleset's words.
  const head = acts.map((a) => { try { return action(a, view) || actionText(a, view); } catch { return actionText(a, view); } });
  let shown = events.filter((e) => (acts.length ? outcomes.has(e.type) : !NOISE.test(e.type)));
  if (!acts.length && !shown.length) shown = events;
  if (!head.length && !shown.length) return null;
  const tail = shown.map(say);
  const cut = !acts.length && tail.length > 4 ? [...tail.slice(0, 3), `and ${tail.length - 3} more`] : tail;
  return `${who}: ${head.length ? `${head.join('; ')}${cut.length ? ' — ' : ''}` : ''}${cut.join('; ')}`;
}
