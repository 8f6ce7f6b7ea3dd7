/** A plain JSON-style object: not null, not an array. Node built-ins only (none): hooks may import this. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
