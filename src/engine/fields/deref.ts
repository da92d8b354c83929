// $ref resolution of form schemas, on its own so that the light form renderer can read a schema's
// fields without loading the form engine.
import type { DeclarationSet, JsonSchema } from '../types';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follow $ref (across schema files of the set); sibling keywords win over the target's. */
export function derefSchema(set: Pick<DeclarationSet, 'schemas'>, schema: JsonSchema, docId: string): { schema: JsonSchema; docId: string } {
  let cur = schema;
  let doc = docId;
  for (let depth = 0; typeof cur.$ref === 'string' && depth < 20; depth++) {
    const [target, frag = ''] = (cur.$ref as string).split('#');
    const targetId = target === '' ? doc : target.replace(/\.json$/, '');
    let node: unknown = set.schemas[targetId];
    for (const raw of frag.replace(/^\//, '').split('/').filter(Boolean)) {
      node = isObject(node) ? node[raw.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    }
    if (!isObject(node)) throw new Error(`schema ${docId}: $ref ${String(cur.$ref)} points at nothing`);
    const { $ref: _drop, ...rest } = cur;
    cur = { ...(node as JsonSchema), ...rest };
    doc = targetId;
  }
  return { schema: cur, docId: doc };
}
