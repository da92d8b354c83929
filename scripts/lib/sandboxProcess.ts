// The sandbox gateway in a child process (scripts/lib/sandboxChild.ts) on a fixed port with a data
// file, so that a benchmark can restart it: the new process takes up the store and the deliveries the
// old one had not made.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { SandboxOptions } from '../../sandbox-gateway/app';
import { stopper, waitFor } from './portal';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface SandboxProcess {
  url: string;
  /** SIGTERM (the store written), then a new process on the same port and data file */
  restart(): Promise<void>;
  /** delivers every pending notification now */
  flush(): Promise<void>;
  stop(): Promise<void>;
  log(): string;
}

export async function startSandboxProcess(port: number, options: SandboxOptions & { dataFile: string }): Promise<SandboxProcess> {
  let child: ChildProcess;
  let output = '';
  const url = `http://127.0.0.1:${port}`;
  const start = async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/lib/sandboxChild.ts'], {
      cwd: ROOT,
      env: { ...process.env, SANDBOX_BENCH_OPTIONS: JSON.stringify({ ...options, port }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    await waitFor(`${url}/bench/alive`, child, () => output);
  };
  await start();
  return {
    url,
    async restart() {
      await stopper(child)();
      await start();
    },
    async flush() {
      const res = await fetch(`${url}/bench/flush`, { method: 'POST' });
      if (!res.ok) throw new Error(`the sandbox gateway's flush answered ${res.status}`);
    },
    stop: () => stopper(child)(),
    log: () => output,
  };
}
