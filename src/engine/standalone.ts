// ajv standalone code for a provider's effective schemas: an ES module the browser imports, so the
// Content Security Policy can forbid eval. The custom formats are inlined from their source.
import standaloneCode from 'ajv/dist/standalone';
import { createAjv } from './ajv';
import { formatsFor, type Country } from './formats';
import type { DeclarationSet } from './types';

const RUNTIME_INLINE: Record<string, string> = {
  // string length in code points (what maxLength counts)
  'require("ajv/dist/runtime/ucs2length").default':
    '((s) => { let n = 0; for (const _c of s) n++; return n; })',
  // deep equality for enum/const of objects and uniqueItems
  'require("ajv/dist/runtime/equal").default':
    '(function eq(a, b) { if (a === b) return true; if (a && b && typeof a == "object" && typeof b == "object") { if (Array.isArray(a) !== Array.isArray(b)) return false; const ka = Object.keys(a), kb = Object.keys(b); return ka.length === kb.length && ka.every((k) => eq(a[k], b[k])); } return a !== a && b !== b; })',
};

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Export name of a schema's validate function (the $id when it is a valid identifier). */
export function exportNameOf(schemaId: string): string {
  return IDENT.test(schemaId) ? schemaId : `schema_${schemaId.replace(/[^A-Za-z0-9_$]/g, '_')}`;
}

/**
 * ESM source exporting one validate function per schema $id, plus a default export mapping $id to
 * function. No eval is needed to load it.
 */
export function compileStandaloneModule(set: Pick<DeclarationSet, 'schemas'>, country: Country): string {
  const ajv = createAjv({ country, standalone: true });
  const ids = Object.keys(set.schemas).sort();
  for (const id of ids) ajv.addSchema(set.schemas[id]);
  const refs: Record<string, string> = {};
  for (const id of ids) refs[exportNameOf(id)] = id;
  let code = standaloneCode(ajv, refs);
  // ajv's runtime helpers are CommonJS requires; the browser module must be self-contained
  for (const [req, inline] of Object.entries(RUNTIME_INLINE)) code = code.split(req).join(inline);
  const leftover = /require\("[^"]+"\)/.exec(code);
  if (leftover) throw new Error(`standalone validators need an unsupported ajv runtime helper: ${leftover[0]}`);
  const formats = Object.entries(formatsFor(country))
    .map(([name, fn]) => `  ${JSON.stringify(name)}: { type: "string", validate: (${fn.toString()}) },`)
    .join('\n');
  // __name: bundlers that keep function names may wrap inner functions with it
  const prelude = `// Generated: form validators for country ${country}. Do not edit.\nconst __name = (f) => f;\nconst __formats = {\n${formats}\n};\n`;
  const table = `\nexport default {\n${ids.map((id) => `  ${JSON.stringify(id)}: ${exportNameOf(id)},`).join('\n')}\n};\n`;
  return `${prelude}${code}${table}`;
}
