/** RJSF's id of a field at a JSON pointer: '<prefix>_children_0_childName'. */
export function fieldIdOf(prefix: string, pointer: string): string {
  const segs = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return [prefix, ...segs].join('_');
}
