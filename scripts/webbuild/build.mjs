// Bundles and minifies web/ (issue 32, "the board on a phone"): the ~40 ES
// modules become one script (dynamic imports of pages and renderers are
// inlined: no chunk to fetch after the first) and style.css one minified
// stylesheet, each named by a hash of its content; index.html is copied
// with its references rewritten (its inline script byte for byte: the
// Content-Security-Policy allows it by the hash of its text), and the
// other files (favicon.svg) as they are. Each hashed file gets brotli
// and gzip copies beside it (NAME.br, NAME.gz). web/ itself is untouched and
// still served as it is for development (WEB_ROOT=web).
//
// Usage: node scripts/webbuild/build.mjs OUTDIR   (npm ci --prefix
// scripts/webbuild first; CMake's target "web" runs it into build/web)

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '../../web');
const out = process.argv[2];
if (!out) {
  console.error('usage: node build.mjs OUTDIR');
  process.exit(2);
}
const OUT = resolve(out);
// Never the source tree itself.
if (OUT === WEB || OUT.startsWith(WEB + '/')) {
  console.error(`build.mjs: OUTDIR ${OUT} is inside web/`);
  process.exit(2);
}

// Built into memory first, so that a failed build leaves the last good
// output in place.
async function bundle(entry, opts) {
  const r = await build({
    entryPoints: [join(WEB, entry)], bundle: true, minify: true, write: false,
    outdir: OUT, logLevel: 'warning', legalComments: 'none', ...opts,
  });
  const file = r.outputFiles.find((f) => !f.path.endsWith('.map'));
  const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 12);
  const name = entry.replace(/\.(js|css)$/, `-${hash}.$1`);
  return { name, contents: file.contents };
}

const js = await bundle('app.js', { format: 'esm', target: ['es2020'] });
const css = await bundle('style.css', {});
let html = readFileSync(join(WEB, 'index.html'), 'utf8');
const named = [['/app.js', js], ['/style.css', css]];
for (const [from, o] of named) {
  const to = `/${o.name}`;
  if (!html.includes(`"${from}"`)) throw new Error(`index.html does not name ${from}`);
  html = html.replaceAll(`"${from}"`, `"${to}"`);
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
// Each hashed file with its compressed copies beside it, written after
// it (so never older): NAME.br (brotli, quality 11: the bundle's about 14%
// smaller than gzip's), which warpostd sends to a browser that accepts br
// (srv/core/static.c, brotli_beside), made here once since that takes
// about a second; and NAME.gz (level 9), which nginx sends (gzip_static,
// nginx/warpost.conf.in; warpostd makes its own gzip copy).
for (const [, o] of named) {
  writeFileSync(join(OUT, o.name), o.contents);
  writeFileSync(join(OUT, `${o.name}.br`), brotliCompressSync(o.contents, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: o.contents.length },
  }));
  writeFileSync(join(OUT, `${o.name}.gz`), gzipSync(o.contents, { level: 9 }));
}
writeFileSync(join(OUT, 'index.html'), html);
// The other files of web/'s top level (favicon.svg): what is not a module,
// the stylesheet, the page or the folder's README.
for (const f of readdirSync(WEB, { withFileTypes: true })) {
  if (!f.isFile() || /\.(js|css|html|md)$/.test(f.name)) continue;
  copyFileSync(join(WEB, f.name), join(OUT, basename(f.name)));
}
console.log(`build.mjs: ${OUT}: ${named.map(([, o]) => `${o.name} (${o.contents.length} B)`).join(', ')}`);
