// Live updates through Server-Sent Events (issue 14, "Live updates"):
// GET /api/games/{id}/events and GET /api/me/events. A browser's
// EventSource cannot send the player key (Authorization), so a signed-in
// page reads the same stream with fetch() and splits it at blank lines; a
// page without a key (a spectator) uses EventSource, which resumes with
// Last-Event-ID by itself. Either way the caller is told of each event
// (onEvent) and, when the stream cannot be used, once (onFail) so that it
// falls back to the long-poll. A 204 (the match is over, everything sent)
// is onEnd.

import { token } from './api.js';

// openStream('/api/games/3/events', {after, onEvent, onFail, onEnd}) -> {close()}
export function openStream(path, { after = null, onEvent, onFail, onEnd }) {
  let closed = false;
  let lastId = after === null || after === undefined ? null : String(after);
  const ctl = new AbortController();
  let es = null;
  const fail = (why) => { if (!closed) { closed = true; ctl.abort(); if (es) es.close(); onFail(why); } };
  const end = () => { if (!closed) { closed = true; if (es) es.close(); (onEnd || onFail)('over'); } };

  const tok = token();
  if (!tok) {
    if (typeof EventSource === 'undefined') { queueMicrotask(() => fail('no EventSource')); return { close() { closed = true; } }; }
    es = new EventSource(lastId === null ? path : `${path}?after=${encodeURIComponent(lastId)}`);
    const deliver = (e) => { if (!closed) onEvent({ type: e.type, id: e.lastEventId, data: e.data }); };
    es.addEventListener('post', deliver);
    es.addEventListener('games', deliver);
    // CLOSED: the server said no (an error status, or 204 once the match
    // is over); CONNECTING: EventSource retries by itself.
    es.onerror = () => { if (es.readyState === EventSource.CLOSED) fail('closed'); };
    return { close() { closed = true; es.close(); } };
  }

  (async () => {
    let retry = 1000;
    let failures = 0;
    while (!closed) {
      const headers = { Accept: 'text/event-stream', Authorization: `Bearer ${tok}` };
      if (lastId !== null) headers['Last-Event-ID'] = lastId;
      let res;
      try {
        res = await fetch(path, { headers, cache: 'no-store', signal: ctl.signal });
      } catch {
        if (closed) return;
        // One network failure is retried; two in a row go back to polling.
        if (++failures > 1) { fail('network'); return; }
        await new Promise((r) => setTimeout(r, retry));
        continue;
      }
      if (res.status === 204) { end(); return; }
      if (res.status !== 200 || !res.body || !(res.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
        fail(`status ${res.status}`);
        return;
      }
      failures = 0;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done || closed) break;
          buf += value;
          let cut;
          while ((cut = buf.search(/\r?\n\r?\n/)) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut).replace(/^\r?\n\r?\n/, '');
            const ev = { type: 'message', id: null, data: null };
            for (const line of block.split(/\r?\n/)) {
              const m = /^([a-z]+):? ?(.*)$/i.exec(line);
              if (!m || line.startsWith(':')) continue;
              if (m[1] === 'id') ev.id = m[2];
              else if (m[1] === 'event') ev.type = m[2];
              else if (m[1] === 'data') ev.data = ev.data === null ? m[2] : `${ev.data}\n${m[2]}`;
              else if (m[1] === 'retry' && /^\d+$/.test(m[2])) retry = Number(m[2]);
            }
            if (ev.id !== null) lastId = ev.id;
            if (ev.data !== null && !closed) onEvent(ev);
          }
        }
      } catch {
        if (closed) return;
      }
      // The answer ended (every answer does, after at most a few minutes):
      // ask again from the last id.
      if (!closed) await new Promise((r) => setTimeout(r, Math.min(retry, 5000)));
    }
  })();
  return { close() { closed = true; ctl.abort(); } };
}
