// The part of autocannon's API bench-api.ts uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    overallRate?: number;
    duration?: number;
    requests?: Array<{ method?: string; path: string; headers?: Record<string, string> }>;
  }
  interface Result {
    latency: { p50: number; p99: number; average: number };
    requests: { average: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
