// The JSON API: fetch wrapper, identity (the player's token in localStorage),
// problem+json errors turned into sentences a player understands.

const TOKEN_KEY = 'warpost.token';
const NAME_KEY = 'warpost.name';

export function token() { return localStorage.getItem(TOKEN_KEY); }
export function myName() { return localStorage.getItem(NAME_KEY); }
export function setIdentity(tok, name) {
  if (tok) localStorage.setItem(TOKEN_KEY, tok); else localStorage.removeItem(TOKEN_KEY);
  if (name) localStorage.setItem(NAME_KEY, name); else localStorage.removeItem(NAME_KEY);
}

// Random hex from the Web Crypto API (works on plain http too, unlike randomUUID).
export function randomHex(bytes = 16) {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

const SENTENCES = {
  'not-found': 'That address does not exist on this server.',
  'game-not-found': 'There is no such match. Check the link.',
  'method-not-allowed': 'The server does not accept this request here.',
  'body-too-large': 'What you sent is too long.',
  'malformed-json': 'The server could not read the request.',
  'unsupported-media-type': 'The server could not read the request.',
  'invalid-request': 'Something in the request is not valid.',
  'bad-path': 'That address is not valid.',
  'bad-framing': 'The server could not read the request.',
  'unauthorized': 'Your player key is missing or not known to this server. Sign in again.',
  'forbidden': 'You are not allowed to do that.',
  'not-a-player': 'You hold no seat in this match; you can only watch it.',
  'invalid-invitation': 'This invitation link is not valid for this match.',
  'invitation-used': 'Someone else has already taken the seat of this invitation.',
  'already-seated': 'You already hold a seat in this match.',
  'game-not-open': 'This match is no longer open for new players.',
  'game-not-started': 'The match starts when every seat is taken.',
  'game-over': 'The match is over.',
  'game-under-way': 'The first turn has been played: the match can no longer be aborted. Resign instead.',
  'game-not-over': 'The dice can be checked only when the match is over.',
  'stale-sequence': 'The match moved on while you were choosing. The board is up to date now: choose again.',
  'not-awaited': 'It is not your turn now.',
  'not-in-play': 'Your seat is out of the match.',
  'draw-already-offered': 'You have already offered a draw.',
  'no-draw-offer': 'No draw is on offer any more.',
  'undo-not-allowed': 'That can no longer be taken back.',
  'unknown-ruleset': 'This server does not know that ruleset.',
  'invalid-option': 'One of the match options is not valid.',
  'illegal-action': 'The rules do not allow that.',
  'invalid-orders': 'Those standing orders are not valid.',
  'idempotency-key-reused': 'This post was changed after it failed; post it again.',
  'idempotency-key-in-use': 'Your first try may have gone through, but its answer was lost. Look whether it did (My matches, Challenges, Tournaments) before you try again.',
  'rate-limited': 'Too many requests in a short time. Wait a moment and try again.',
  'too-many-open-matches': 'You have as many unfinished matches as this server allows. Finish, resign or abort one first.',
  'database-unavailable': 'The server cannot reach its database right now. Try again in a minute.',
  'overloaded': 'The server is too busy right now. Try again in a minute.',
  'internal-error': 'The server ran into a problem. Try again; if it persists, tell the server admin.',
  'precondition-failed': 'The file changed on the server. Reload the page.',
  'uri-too-long': 'That address is too long.',
  'header-too-large': 'What your browser sent was too large for the server.',
  'bad-gateway': 'The server cannot be reached right now. Try again in a minute.',
  'gateway-timeout': 'The server did not answer in time. Try again in a minute.',
  'time-expired': 'Your time for this move ran out. You may still resign; your opponent may claim the win.',
  'time-not-expired': 'No opponent has run out of time.',
  'vacation-unavailable': 'You cannot start that vacation: you are on one already, or you have too few days.',
  'not-implemented': 'This server cannot do that (it was built without it).',
  'webhook-target-refused': 'This server will not call that address (README "Private targets").',
  'challenge-not-found': 'There is no such challenge.',
  'challenge-closed': 'This challenge is no longer open: it was taken, cancelled or it expired.',
  'rating-out-of-range': 'Your rating is outside the range this challenge asks for.',
  'invalid-code': 'This code is not valid: mistyped, used already or expired.',
  'tournament-not-found': 'There is no such tournament.',
  'tournament-closed': 'Not now: the tournament is full, has started or is over, or has too few players to start.',
};

export class ApiError extends Error {
  constructor(status, problem, network = false, retryAfter = null) {
    const slug = problem && typeof problem.type === 'string'
      ? problem.type.replace(/^urn:warpost:problem:/, '') : null;
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.slug = slug;
    this.network = network;
    // The seconds the server asked to wait before trying again (the
    // Retry-After of a 503 or 429), or null.
    this.retryAfter = retryAfter;
  }
  // Worth retrying unchanged: the request may not have reached the server,
  // or the server could not finish it.
  get retryable() {
    return this.network || this.status >= 500 || this.status === 0;
  }
  // A sentence for the player, then the server's own detail when it adds something.
  get sentence() {
    if (this.network) return 'The server does not answer. Check your connection, then retry.';
    const s = SENTENCES[this.slug] || this.problem.title || `The server answered with an error (${this.status}).`;
    const d = this.problem.detail;
    return d && d !== s ? `${s} (${d})` : s;
  }
}

// request(method, path, {body, auth, headers, signal}) -> {status, body, headers}
// Throws ApiError for network failures and every status >= 400.
// A read that index.html's inline script began as the page was parsed,
// before this script arrived, taken once and only for the same player
// key. It stands until the page first asks for it, however slowly the
// script arrived (a page that reads its match again reads it anew); once
// the page leaves the match it was loaded on, the early reads are dropped
// unused.
function takeEarly(path, tok) {
  const all = window.__wpEarly;
  const e = all && all[path];
  if (!e) return null;
  delete all[path];
  return e.tok === tok ? e.res : null;
}
if (typeof window !== 'undefined') {
  window.addEventListener('hashchange', () => { window.__wpEarly = null; });
}

export async function request(method, path, opts = {}) {
  const headers = { Accept: 'application/json', ...(opts.headers || {}) };
  const tok = opts.auth === false ? null : token();
  if (tok && !headers.Authorization) headers.Authorization = `Bearer ${tok}`;
  let bodyText;
  if (opts.rawBody !== undefined) bodyText = opts.rawBody;
  else if (opts.body !== undefined) bodyText = JSON.stringify(opts.body);
  if (bodyText !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    const early = method === 'GET' && !opts.headers?.['If-None-Match'] ? takeEarly(path, tok) : null;
    res = await (early || fetch(path, { method, headers, body: bodyText, cache: 'no-store', signal: opts.signal }));
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new ApiError(0, null, true);
  }
  let body = null;
  let text = '';
  if (res.status !== 304) {
    try {
      text = await res.text();
    } catch (err) {
      if (err.name === 'AbortError') throw err;
      throw new ApiError(0, null, true);
    }
  }
  if (text) {
    try { body = JSON.parse(text); } catch { body = null; }
  }
  // The stored key is not known (any more): this device was signed out.
  if (res.status === 401 && tok && tok === token() && !opts.headers?.Authorization) {
    setIdentity(null, null);
    window.dispatchEvent(new Event('warpost:signed-out'));
  }
  if (res.status >= 400) {
    const after = /^\d{1,6}$/.test(res.headers.get('Retry-After') || '') ? Number(res.headers.get('Retry-After')) : null;
    throw new ApiError(res.status, body, false, after);
  }
  return { status: res.status, body, headers: res.headers };
}

// A write that makes something (a match, a challenge, an event), sent so
// that trying it again cannot make it twice: while what is sent stays the
// same, each try carries the same Idempotency-Key and the same client seed,
// so the server answers a retry whose first try went through (its answer
// lost on a bad connection) with that first answer. A success, a changed
// form, or an answer that the first try's outcome is unknown
// (idempotency-key-in-use: the player is told to look first) starts afresh.
export function oncePoster(path) {
  let last = null;   // { text, key }
  const poster = {
    seed: randomHex(16),
    async post(body) {
      const text = JSON.stringify(body);
      if (!last || last.text !== text) last = { text, key: randomHex(16) };
      try {
        const r = await request('POST', path, { rawBody: text, headers: { 'Idempotency-Key': last.key } });
        last = null;
        poster.seed = randomHex(16);
        return r;
      } catch (err) {
        if (err.slug === 'idempotency-key-in-use') {
          last = null;
          poster.seed = randomHex(16);
        }
        throw err;
      }
    },
  };
  return poster;
}

export const get = (path, opts) => request('GET', path, opts);
export const post = (path, body, opts = {}) => request('POST', path, { ...opts, body });

// Invitation codes are returned once, at creation: keep them so the creator
// can copy the links again later.
export function saveInvites(gameId, invitations) {
  localStorage.setItem(`warpost.invites.${gameId}`, JSON.stringify(invitations));
}
export function loadInvites(gameId) {
  try { return JSON.parse(localStorage.getItem(`warpost.invites.${gameId}`)) || []; } catch { return []; }
}
export function inviteLink(gameId, code) {
  return `${location.origin}/#/join/${gameId}/${code}`;
}

// A draft tried before it is posted (issue 30): the seat's view and legal
// actions after the actions, or the refusal a turn of them would get;
// nothing changes on the server.
export function previewDraft(gameId, seq, actions) {
  return post(`/api/games/${gameId}/preview`, { seq, actions });
}
