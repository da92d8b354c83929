// A generated file: written by `npm run gen`, or compared by `--check` (run by `npm run check`),
// which exits 1 when the committed file is not what the generator writes.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function writeOrCheck(file: string, label: string, text: string, check = process.argv.includes('--check')): void {
  if (check) {
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current !== text) {
      console.error(`${label} is stale: run \`npm run gen\``);
      process.exit(1);
    }
    console.log(`${label} is up to date`);
    return;
  }
  writeFileSync(file, text);
  console.log(`wrote ${file}`);
}
