// GET /api/rulesets, fetched once per page load.
import { get } from '../api.js';

let cached = null;
export function rulesets() {
  if (!cached) {
    cached = get('/api/rulesets', { auth: false }).then((r) => r.body.rulesets || [])
      .catch((err) => { cached = null; throw err; });
  }
  return cached;
}
export async function rulesetTitles() {
  try {
    return Object.fromEntries((await rulesets()).map((r) => [r.id, r.title]));
  } catch {
    return {};
  }
}
