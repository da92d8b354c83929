// The form engine with in-process schema compilation (ajv): the server, the CLIs and the tests. The
// browser uses ./form with the provider's standalone validators instead (no eval under its CSP).
import type Ajv from 'ajv';
import { createAjv } from './ajv';
import { createFormEngine as createCore, type FormEngine, type FormEngineOptions } from './form';
import type { DeclarationSet } from './types';

export function createFormEngine(set: DeclarationSet, opts: FormEngineOptions): FormEngine {
  let ajv: Ajv | undefined;
  const compile = (schemaId: string) => {
    if (!ajv) {
      ajv = createAjv({ country: opts.country });
      for (const s of Object.values(set.schemas)) ajv.addSchema(s);
    }
    return ajv.getSchema(schemaId);
  };
  return createCore(set, { compile, ...opts });
}
