/** A zod error option that names a missing argument as missing (zod's default says "received undefined"). */
export const REQUIRED = { error: (issue: { input: unknown }) => (issue.input === undefined ? 'Missing required argument' : undefined) };
