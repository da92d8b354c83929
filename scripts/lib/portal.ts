// The portal's server as the benchmarks run it: a child process on a free port, waited for until it
// answers, stopped with SIGTERM (then SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Running {
  url: string;
  stop(): Promise<void>;
  /** the server process's CPU time so far (user + system), in ms; null where /proc is not there */
  cpuMs?: () => number | null;
  /** what the server printed so far */
  log?: () => string;
  /** the server's process, for a benchmark that kills it */
  process?: ChildProcess;
}

/** A process's CPU time (user + system) in ms, from /proc (Linux). */
export function processCpuMs(pid: number | undefined): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
}

/** CPU time (ms) of every process named `name` (PostgreSQL's backends: "postgres"); null off Linux. */
export function commandCpuMs(name: string): number | null {
  try {
    let total = 0;
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== name) continue;
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    }
    return total;
  } catch {
    return null;
  }
}

/** The machine's busy and total CPU time (ms, all cores) since boot; null off Linux. */
export function machineCpuMs(): { busy: number; total: number } | null {
  try {
    const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = ticks[3] + ticks[4];
    return { busy: ((total - idle) * 1000) / 100, total: (total * 1000) / 100 };
  } catch {
    return null;
  }
}

export async function waitFor(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`no answer from ${url} within 120 s:\n${log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export function stopper(child: ChildProcess, after?: () => Promise<void> | void) {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await after?.();
  };
}

/** The portal's server as production runs it (NODE_ENV=production, request logging off). */
export async function startPortal(env: Record<string, string>, cleanup?: () => Promise<void>): Promise<Running> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [...(process.env.PORTAL_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []), '--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PUBLIC_URL: `http://127.0.0.1:${port}`, PORT: String(port), HOST: '127.0.0.1', SMTP_URL: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/Customer/version?sourceApp=parentportal`, child, () => output);
  return { url, stop: stopper(child, cleanup), cpuMs: () => processCpuMs(child.pid), log: () => output, process: child };
}

