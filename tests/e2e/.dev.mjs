import { startAll, stopAll } from './harness.mjs';
import { writeFileSync } from 'node:fs';
const env = await startAll();
writeFileSync('/tmp/webdev/base', env.base);
console.log(env.base);
process.on('SIGTERM', async () => { await stopAll(env); process.exit(0); });
setInterval(() => {}, 1000);
