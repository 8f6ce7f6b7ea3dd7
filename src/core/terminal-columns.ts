/**
 * The width to lay tables out for: the `COLUMNS` environment variable when it holds a sensible width
 * (the user asked for it, as `COLUMNS=200 ls` does), else what the terminal reports. Pure.
 */
export function terminalColumns(envColumns: string | undefined, reported: number | undefined): number | undefined {
  const asked = envColumns === undefined || !/^\d+$/.test(envColumns.trim()) ? Number.NaN : Number(envColumns.trim());
  return Number.isInteger(asked) && asked >= 20 && asked <= 10_000 ? asked : reported;
}
