// Prints what each built chunk is made of: the portal is built with source maps into a temporary
// directory and every byte of a chunk is attributed to the source module (and npm package) it came
// from. Chunks the entry loads statically are marked "initial" (first load on every route).
//   npm run bench:chunks                 top 12 modules of every chunk over 2 kB gzip
//   npm run bench:chunks -- --top 30 --min 0 --packages
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'vite';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const TOP = option('--top', 12);
const MIN_KB = option('--min', 2);
const BY_PACKAGE = args.includes('--packages');

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = new Map([...B64].map((c, i) => [c, i]));

/** Source-map v3 "mappings": per generated line, the segments [column, sourceIndex]. */
function decodeMappings(mappings: string): Array<Array<[number, number]>> {
  const lines: Array<Array<[number, number]>> = [];
  const fields = [0, 0, 0, 0, 0];
  for (const line of mappings.split(';')) {
    const segments: Array<[number, number]> = [];
    fields[0] = 0;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      let field = 0;
      let value = 0;
      let shift = 0;
      for (const c of segment) {
        const digit = B64_VALUE.get(c)!;
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
          continue;
        }
        const delta = value & 1 ? -(value >>> 1) : value >>> 1;
        fields[field] += delta;
        field += 1;
        value = 0;
        shift = 0;
      }
      const source = field > 1 ? fields[1] : -1;
      segments.push([fields[0], source]);
    }
    lines.push(segments);
  }
  return lines;
}

/** "node_modules/@chakra-ui/react/dist/esm/x.js" → "@chakra-ui/react"; own files stay as paths. */
function ownerOf(file: string, root: string): string {
  const normalized = file.replace(/\\/g, '/');
  const at = normalized.lastIndexOf('node_modules/');
  if (at >= 0) {
    const parts = normalized.slice(at + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  return path.relative(root, normalized) || normalized;
}

function moduleName(file: string, root: string): string {
  const normalized = file.replace(/\\/g, '/');
  const at = normalized.lastIndexOf('node_modules/');
  return at >= 0 ? normalized.slice(at + 'node_modules/'.length) : path.relative(root, normalized);
}

const gzip = (text: string) => zlib.gzipSync(text, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

const root = process.cwd();
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-chunks-'));
try {
  await build({
    root,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: true, manifest: true, reportCompressedSize: false },
  });

  type ManifestEntry = { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestEntry>;
  const byFile = new Map(Object.values(manifest).map((m) => [m.file, m]));
  const initial = new Set<string>();
  const visit = (key: string) => {
    const entry = manifest[key];
    if (!entry || initial.has(entry.file)) return;
    initial.add(entry.file);
    for (const i of entry.imports ?? []) visit(i);
  };
  for (const [key, entry] of Object.entries(manifest)) if (entry.isEntry) visit(key);

  const chunks = fs
    .readdirSync(path.join(outDir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => {
      const file = `assets/${f}`;
      const code = fs.readFileSync(path.join(outDir, file), 'utf8');
      return { file, code, gzip: gzip(code) };
    })
    .sort((a, b) => b.gzip - a.gzip);

  let initialTotal = 0;
  for (const chunk of chunks) if (initial.has(chunk.file)) initialTotal += chunk.gzip;
  console.log(`${chunks.length} chunks; initial (entry and its static imports): ${kb(initialTotal)} gzip\n`);

  for (const chunk of chunks) {
    if (chunk.gzip < MIN_KB * 1024) continue;
    const mapFile = path.join(outDir, `${chunk.file}.map`);
    const kind = initial.has(chunk.file) ? 'initial' : byFile.get(chunk.file)?.isEntry ? 'entry' : 'lazy';
    console.log(`${chunk.file}  ${kb(chunk.gzip)} gzip, ${kb(chunk.code.length)} raw  [${kind}]`);
    if (!fs.existsSync(mapFile)) continue;
    const map = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string };
    const sources = map.sources.map((s) => path.resolve(path.dirname(mapFile), s));
    // each module's generated text, so its share can be measured raw and gzip-compressed
    const text = new Map<string, string[]>();
    const lines = chunk.code.split('\n');
    decodeMappings(map.mappings).forEach((segments, lineNo) => {
      const line = lines[lineNo] ?? '';
      let start = 0;
      let owner = '(no source)';
      const flush = (end: number) => {
        if (end <= start) return;
        const parts = text.get(owner) ?? [];
        parts.push(line.slice(start, end));
        text.set(owner, parts);
      };
      for (const [column, source] of segments) {
        flush(column);
        start = column;
        owner = source >= 0 ? (BY_PACKAGE ? ownerOf(sources[source], root) : moduleName(sources[source], root)) : '(no source)';
      }
      flush(line.length);
    });
    const rows = [...text].map(([name, parts]) => {
      const joined = parts.join('');
      return { name, raw: joined.length, gzip: gzip(joined) };
    });
    rows.sort((a, b) => b.raw - a.raw);
    for (const row of rows.slice(0, TOP)) {
      console.log(`    ${kb(row.raw).padStart(9)} raw ${kb(row.gzip).padStart(9)} gz  ${row.name}`);
    }
    if (rows.length > TOP) {
      const rest = rows.slice(TOP).reduce((n, r) => n + r.raw, 0);
      console.log(`    ${kb(rest).padStart(9)} raw               ${rows.length - TOP} more`);
    }
    console.log('');
  }
} finally {
  fs.rmSync(outDir, { recursive: true, force: true });
}
