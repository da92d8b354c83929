// Reads the API contract (schemas/api/<Service>.api.json). The same files drive the Fastify routes,
// the OpenAPI document and the generated client types, so the three can never disagree.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperationDecl, ServiceDecl } from '../src/engine/types';
import { isRecord } from './json';

export interface ContractOperation extends OperationDecl {
  id: string;
  service: string;
  /** full URL path: /api/<Service><path> */
  url: string;
}

export const SERVICES = [
  'Attendance',
  'Authentication',
  'Billing',
  'Communication',
  'Customer',
  'Demographics',
  'Location',
  'ParentApplication',
  'Registration',
] as const;

export function readContract(root: string): ServiceDecl[] {
  const dir = join(root, 'schemas', 'api');
  const files = readdirSync(dir).filter((f) => f.endsWith('.api.json')).sort();
  return files.map((file) => {
    const decl: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    if (!isServiceDecl(decl)) throw new Error(`${file}: not a service declaration (service and operations)`);
    const expected = file.replace(/\.api\.json$/, '');
    if (decl.service !== expected) throw new Error(`${file}: service is "${decl.service}", expected "${expected}"`);
    for (const id of Object.keys(decl.operations)) {
      if (!id.startsWith(`${decl.service}.`)) throw new Error(`${file}: operation id "${id}" must start with "${decl.service}."`);
    }
    return decl;
  });
}

function isServiceDecl(v: unknown): v is ServiceDecl {
  return isRecord(v) && typeof v.service === 'string' && isRecord(v.operations);
}

export function contractOperations(services: ServiceDecl[]): ContractOperation[] {
  const ops: ContractOperation[] = [];
  const seen = new Set<string>();
  for (const s of services) {
    for (const [id, op] of Object.entries(s.operations)) {
      const url = `/api/${s.service}${op.path}`;
      const key = `${op.method} ${url}`;
      if (seen.has(key)) throw new Error(`duplicate route ${key} (${id})`);
      seen.add(key);
      ops.push({ ...op, id, service: s.service, url });
    }
  }
  return ops;
}

/** A response that is a file download rather than JSON. */
export function isFileResponse(op: OperationDecl): boolean {
  return op.response.file === true;
}
