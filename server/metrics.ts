// Metrics in Prometheus' text format (GET /metrics when METRICS=1 or METRICS_TOKEN is set): requests
// by operation and status, latency per operation, background job runs and failures, the database pool.
// One registry per process, since Prometheus scrapes a process; the job runner counts its runs with
// countJobRun, whether or not metrics are served.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const metricsRegistry = new Registry();

export const httpRequests = new Counter({
  name: 'portal_http_requests_total',
  help: 'Requests answered, by operation (the contract operation id, or the route) and status code',
  labelNames: ['operation', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'portal_http_request_duration_seconds',
  help: 'Time from a request to its answer, by operation',
  labelNames: ['operation'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const jobRuns = new Counter({
  name: 'portal_job_runs_total',
  help: 'Runs of background jobs, by job',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
});

export const jobFailures = new Counter({
  name: 'portal_job_failures_total',
  help: 'Runs of background jobs that failed, by job',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
});

/** One run of a background job (server/jobs, the sweeper, the reconciler), and whether it failed. */
export function countJobRun(job: string, failed = false): void {
  jobRuns.inc({ job });
  if (failed) jobFailures.inc({ job });
}

export interface PoolStats {
  /** connections open, idle among them, requests waiting for one, and the most allowed */
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

let poolSource: (() => PoolStats | null) | null = null;
const poolGauge = new Gauge({
  name: 'portal_db_pool_connections',
  help: 'The PostgreSQL connection pool: connections open (total), idle, requests waiting, and the maximum',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    const s = poolSource?.();
    if (!s) return;
    for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, s[state]);
  },
});
void poolGauge;

/** Where the pool's use is read when metrics are collected (PostgreSQL; PGlite has no pool). */
export function watchPool(source: (() => PoolStats | null) | null): void {
  poolSource = source;
}

let processMetrics = false;
/** The process' own metrics (CPU, memory, event loop), once, when metrics are first served. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'portal_' });
}
