// A post's heading that says what happened, with the dice (issue 30
// item 7): the renderer's `summary` hook for a post whose events include
// outcomes (rolls, results, removals). "Black (Bob): defend without
// spending a token — White Knight rolls for attack: ⚄ 5, total 5; …;
// Attack 5 against defence 3: success; Black Pawn is slain on e5".
// Posts without an outcome keep the page's own heading (null).

import { actionText, eventText, seatName } from '../words.js';

// Events that only mark time, left out of a heading.
const NOISE = /^(turn|turn_start|turn_end|phase|segment|round|activation_end)$/;

export function outcomeSummary(post, view, { action, event, outcomes }) {
  if (!post || post.kind !== 'turn') return null;
  const events = Array.isArray(post.events) ? post.events : [];
  if (!events.some((e) => outcomes.has(e.type))) return null;
  const who = seatName(view, post.seat);
  const say = (e) => {
    let t = null;
    try { t = event(e, view); } catch { t = null; }
    t = t || eventText(e, view).text;
    return t.startsWith(`${who} `) ? t.slice(who.length + 1) : t;
  };
  const acts = Array.isArray(post.actions) ? post.actions : [];
  // With the actions to show: they, then the outcomes; else every event
  // that is not a mark of time.
  const head = acts.map((a) => { try { return action(a, view) || actionText(a, view); } catch { return actionText(a, view); } });
  const tail = events.filter((e) => (acts.length ? outcomes.has(e.type) : !NOISE.test(e.type))).map(say);
  return `${who}: ${head.length ? `${head.join('; ')} — ` : ''}${tail.join('; ')}`;
}
