// Checks every request's input passes before any handler or database sees it: the nesting depth of a
// JSON body (a deep body would overflow the recursive checks), NUL and other control characters
// (PostgreSQL refuses 0x00 in text), and single-line fields bound for mail headers.

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
 * The first string in value (keys included) holding a control character, as its code "U+0000";
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

/** A field that ends up in a mail header (a subject): line breaks and tabs become one space. */
export function singleLine(s: string): string {
  return s.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();
}
