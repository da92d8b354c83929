// In-progress application data of multi-step flows, kept in session.applications under the random
// hex `key` query parameter (spec 2.1 and 9: "change-schedule session key: random hex characters").
import type { FlowApplication, SessionState } from './session';

/** A new flow key: 32 random hex characters. */
export function newFlowKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const FLOW_KEY_PATTERN = /^[0-9a-f]{8,64}$/;

export function getFlow(session: SessionState, key: string | undefined | null): FlowApplication | undefined {
  if (!key) return undefined;
  return Object.prototype.hasOwnProperty.call(session.applications, key) ? session.applications[key] : undefined;
}

const ID_FIELDS = ['prAccountID', 'programPeriodID', 'applicationTypeID'] as const;

/**
 * Sets values of the flow under key (creating it when absent): the three ids go to their own fields,
 * everything else into data. Returns a new session; the input is not changed.
 */
export function setFlowValues(session: SessionState, key: string, values: Record<string, unknown>): SessionState {
  if (!FLOW_KEY_PATTERN.test(key)) throw new Error(`Invalid flow key: ${key}`);
  const current: FlowApplication = getFlow(session, key) ?? { prAccountID: 0, programPeriodID: 0, applicationTypeID: 0, data: {} };
  const next: FlowApplication = { ...current, data: { ...current.data } };
  for (const [k, v] of Object.entries(values)) {
    if ((ID_FIELDS as readonly string[]).includes(k)) {
      const n = Number(v);
      if (!Number.isFinite(n)) throw new Error(`Flow field ${k} must be a number`);
      (next as unknown as Record<string, number>)[k] = n;
    } else if (v === undefined) {
      delete next.data[k];
    } else {
      next.data[k] = v;
    }
  }
  return { ...session, applications: { ...session.applications, [key]: next } };
}

/** Drops the flow under key (exit 'return' and the end of a flow clear the in-progress data). */
export function clearFlow(session: SessionState, key: string): SessionState {
  if (!getFlow(session, key)) return session;
  const applications = { ...session.applications };
  delete applications[key];
  return { ...session, applications };
}
