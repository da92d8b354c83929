// When a recurring job runs: every N milliseconds (slots counted from the epoch, so every instance
// names the same slot) or a five-field cron expression in UTC ("*/5 * * * *", "0 6 * * 1-5").
// The slot's time is the run's idempotency key: ten instances schedule one run.

export type Schedule = { every: number } | { cron: string };

interface CronFields {
  minute: Set<number>;
  hour: Set<number>;
  day: Set<number>;
  month: Set<number>;
  weekday: Set<number>;
  /** day of month and day of week: when both are restricted, either matches (cron's rule) */
  anyDay: boolean;
  anyWeekday: boolean;
}

const RANGES: [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

function field(text: string, [min, max]: [number, number], what: string): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new Error(`cron: bad ${what} "${part}"`);
    const from = m[1] === '*' ? min : Number(m[2]);
    const to = m[1] === '*' ? max : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? max : from;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (from < min || to > max || from > to || step < 1) throw new Error(`cron: ${what} "${part}" outside ${min}-${max}`);
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

export function parseCron(expr: string): CronFields {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`cron: "${expr}" needs five fields (minute hour day month weekday)`);
  const names = ['minute', 'hour', 'day of month', 'month', 'day of week'];
  const [minute, hour, day, month, weekday] = parts.map((p, i) => field(p, RANGES[i], names[i]));
  // 7 is Sunday too
  if (weekday.has(7)) weekday.add(0);
  return { minute, hour, day, month, weekday, anyDay: parts[2] === '*', anyWeekday: parts[4] === '*' };
}

function cronMatches(f: CronFields, d: Date): boolean {
  if (!f.minute.has(d.getUTCMinutes()) || !f.hour.has(d.getUTCHours()) || !f.month.has(d.getUTCMonth() + 1)) return false;
  const dom = f.day.has(d.getUTCDate());
  const dow = f.weekday.has(d.getUTCDay());
  if (f.anyDay || f.anyWeekday) return dom && dow;
  return dom || dow;
}

/** The first slot strictly after `now`. */
export function nextSlot(schedule: Schedule, now: Date): Date {
  if ('every' in schedule) {
    if (!(schedule.every >= 1000)) throw new Error('a recurring job runs at most every second');
    return new Date((Math.floor(now.getTime() / schedule.every) + 1) * schedule.every);
  }
  const f = parseCron(schedule.cron);
  const d = new Date(now.getTime());
  d.setUTCSeconds(0, 0);
  // minute by minute, skipping whole hours and days that cannot match; at most a few years ahead
  for (let i = 0; i < 4 * 366 * 24 * 60; i++) {
    d.setUTCMinutes(d.getUTCMinutes() + 1);
    if (!f.month.has(d.getUTCMonth() + 1) || !f.hour.has(d.getUTCHours())) {
      d.setUTCMinutes(59);
      continue;
    }
    if (cronMatches(f, d)) return d;
  }
  throw new Error(`cron: "${schedule.cron}" never matches`);
}
