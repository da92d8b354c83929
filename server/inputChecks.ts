// Checks every request's input passes before any handler or database sees it: the nesting depth of a
// JSON body (a deep body would overflow the recursive checks), NUL and other control characters
// (PostgreSQL refuses 0x00 in text), text that is not well-formed Unicode (a lone surrogate, which
// PostgreSQL's text and jsonb refuse), numbers that are not finite (what ajv's coercion makes of
// "Infinity" and "1e999"), and single-line fields bound for mail headers.

/** Deepest JSON nesting accepted in a body; the deepest declared body nests 5 levels. */
export const MAX_BODY_DEPTH = 32;

/** How deep a JSON text nests, scanned without parsing (strings skipped), stopping past `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

// C0 controls except tab, line feed and carriage return (multi-line texts keep those), and DEL
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * The first string in value (keys included) holding a control character, named by its code "U+0000";
 * iterative, so no input nests the stack.
 */
export function findControlCharacter(value: unknown): string | null {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      const m = CONTROL.exec(v);
      if (m) return `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, x] of Object.entries(v)) stack.push(k, x);
    }
  }
  return null;
}

// String.prototype.isWellFormed (Node 20), beyond the ES2023 library the project compiles against
declare global {
  interface String {
    isWellFormed(): boolean;
  }
}
const wellFormed = (s: string): boolean => s.isWellFormed();

/**
 * The JSON pointer of the first string in value (keys included) that is not well-formed Unicode (a
 * lone surrogate: half of a pair, which a cut emoji or a forged "\\ud800" leaves), or null;
 * iterative, so no input nests the stack.
 */
export function findIllFormedText(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, at] = top;
    if (typeof v === 'string') {
      if (!wellFormed(v)) return at;
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push([x, `${at}/${i}`]));
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (!wellFormed(k)) return at;
        stack.push([x, `${at}/${k}`]);
      }
    }
  }
  return null;
}

/**
 * The JSON pointer of the first number in value that is not finite, or null. A JSON body cannot
 * hold one, nor can the text of a query or path, so it is what ajv's type coercion made of "Infinity",
 * "-Infinity" or "1e999" for an integer or number: its range checks (minimum, maximum) skip a
 * number that is not finite, so without this an id of Infinity reached the database.
 */
export function findNonFiniteNumber(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, at] = top;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return at;
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push([x, `${at}/${i}`]));
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, x] of Object.entries(v)) stack.push([x, `${at}/${k}`]);
    }
  }
  return null;
}

/** PostgreSQL's integer (int4): the columns every id of the contract names. */
export const INT4_MIN = -2147483648;
export const INT4_MAX = 2147483647;

/**
 * A copy of a contract schema whose integers without a declared range get int4's: an integer the
 * database cannot hold is bad input (400), not a failed query (500). Declared bounds are kept.
 */
export function withInt4Bounds(schema: Record<string, unknown>): unknown {
  return bound(schema, false);
}

// keywords whose values are data, not schemas
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required']);

function bound(node: unknown, namesAreProperties: boolean): unknown {
  if (Array.isArray(node)) return node.map((s) => bound(s, false));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (namesAreProperties) out[k] = bound(v, false);
    else out[k] = DATA_KEYWORDS.has(k) ? v : bound(v, k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'definitions');
  }
  if (namesAreProperties) return out;
  const type = out.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = INT4_MIN;
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = INT4_MAX;
  }
  return out;
}

/** A field that ends up in a mail header (a subject): line breaks and tabs become one space. */
export function singleLine(s: string): string {
  return s.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();
}
