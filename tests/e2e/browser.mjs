// The ctest run's shared browser (the fixture "e2e_browser",
// tests/e2e/CMakeLists.txt): one Chromium for every e2e test file of a
// run, served by playwright-core's launchServer; each file connects to it
// (harness.mjs, WP_E2E_BROWSER_FILE) and sees only the contexts it made
// itself. Starting and stopping a Chromium was about 1.9 core-seconds of
// each file's run, for 14 files in the default run.
//
//   node browser.mjs start DIR   starts the server, writes DIR/ws (its
//                                address) once it listens
//   node browser.mjs stop DIR    stops it
//
// The server is a process of its own ("serve"): it outlives the start
// step, and ends when stopped, when DIR/ws is removed, or when the ctest
// process that ran the start step is gone (a run killed before its
// cleanup step leaves no browser behind).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM, WAIT } from './harness.mjs';

const [cmd, dir, ownerArg] = process.argv.slice(2);
if (!cmd || !dir) {
  console.error('usage: node browser.mjs start|stop DIR');
  process.exit(2);
}
const WS = join(dir, 'ws');
const PID = join(dir, 'pid');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

// The server recorded in DIR, if it is still running and is ours.
function recorded() {
  if (!existsSync(PID)) return 0;
  const pid = Number(readFileSync(PID, 'utf8'));
  if (!pid || !alive(pid)) return 0;
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.includes('serve') && args.includes(dir) ? pid : 0;
  } catch { return 0; }
}

async function stop() {
  const pid = recorded();
  rmSync(WS, { force: true });
  if (pid) {
    process.kill(pid, 'SIGTERM');
    for (const until = Date.now() + 10000; alive(pid) && Date.now() < until;) await sleep(100);
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(PID, { force: true });
}

async function start() {
  await stop(); // one left by an interrupted run
  mkdirSync(dir, { recursive: true });
  const log = openSync(join(dir, 'log'), 'w');
  // ctest runs this step directly: its parent is the ctest process.
  const child = spawn(process.execPath, [process.argv[1], 'serve', dir, String(process.ppid)],
    { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  child.unref();
  writeFileSync(PID, String(child.pid));
  for (const until = Date.now() + WAIT; Date.now() < until; await sleep(100)) {
    if (existsSync(WS)) {
      console.log(`the shared browser listens at ${readFileSync(WS, 'utf8').trim()}`);
      return;
    }
    if (child.exitCode !== null || !alive(child.pid)) break;
  }
  console.error(readFileSync(join(dir, 'log'), 'utf8'));
  await stop();
  throw new Error('the shared browser did not start');
}

async function serve() {
  const owner = Number(ownerArg);
  // Playwright puts the browser profile under the temporary directory.
  const tmp = join(dir, 'tmp');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  process.env.TMPDIR = tmp;
  const { chromium } = await import('playwright-core');
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  let closing = false;
  const close = async (why) => {
    if (closing) return;
    closing = true;
    console.log(`closing: ${why}`);
    rmSync(WS, { force: true });
    await server.close().catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
    process.exit(0);
  };
  server.on('close', () => close('the browser exited'));
  process.on('SIGTERM', () => close('SIGTERM'));
  process.on('SIGINT', () => close('SIGINT'));
  writeFileSync(`${WS}.tmp`, server.wsEndpoint());
  renameSync(`${WS}.tmp`, WS);
  console.log(`listening at ${server.wsEndpoint()}`);
  setInterval(() => {
    if (!existsSync(WS)) close('its address file was removed');
    else if (owner && !alive(owner)) close(`the ctest run (pid ${owner}) is gone`);
  }, 1000);
}

if (cmd === 'start') await start();
else if (cmd === 'stop') await stop();
else if (cmd === 'serve') await serve();
else {
  console.error(`unknown command ${cmd}`);
  process.exit(2);
}
