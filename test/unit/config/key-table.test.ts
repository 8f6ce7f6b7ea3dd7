/** The key table is the one source: the zod schema, the hooks' reader and the imports all follow it. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getPath, listConfigKeys } from '../../../src/config/config-keys.js';
import { ENV_OVERRIDES, setPath } from '../../../src/config/env-overrides.js';
import { evaluateConfig } from '../../../src/config/evaluate-config.js';
import { listTableKeys, type KeySpec } from '../../../src/config/key-table.js';
import { checkValue } from '../../../src/config/read-known-keys.js';
import { configSchema, keySchema, SECRET_KEYS } from '../../../src/config/schema.js';
import { importClosure } from '../../support/import-graph.js';

const SRC = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../src');
const table = listTableKeys();
const schemaKeys = listConfigKeys();

/** Values around each bound, of every type, to hold the schema and the hooks' reader to the same verdicts. */
function probes(spec: KeySpec): unknown[] {
  const common: unknown[] = [undefined, null, true, false, '', 'x', ' ', 'localhost:4000', 'http://[bad', 'ftp://h', 'hash:8', 1.5, 0, -1, 7, '7', [], ['a'], [''], [1], {}];
  if (spec.kind !== 'int' && spec.kind !== 'number') return common;
  const edges = [spec.min, spec.max].filter((n): n is number => n !== undefined).flatMap((n) => [n - 1, n - 0.5, n, n + 0.5, n + 1, String(n)]);
  return [...common, ...edges];
}

describe('the config key table', () => {
  it('has the same keys as the schema, in the same order, with the same defaults, env vars and descriptions', () => {
    expect(schemaKeys.map((k) => k.key)).toEqual(table.map((k) => k.key));
    for (const { key, spec } of table) {
      const walked = schemaKeys.find((k) => k.key === key)!;
      expect(walked.defaultValue, key).toEqual(spec.default);
      expect(walked.optional, key).toBe(spec.kind === 'string' && spec.optional === true);
      expect(walked.envVar, key).toBe(spec.env);
      expect(walked.description, key).toBe(spec.description);
      expect(walked.kind, key).toBe(spec.kind === 'int' ? 'number' : spec.kind);
    }
  });

  it('gives the schema each key\'s bounds: the bound itself passes, one step past it fails', () => {
    for (const { key, spec } of table) {
      if (spec.kind !== 'int' && spec.kind !== 'number') continue;
      const parse = (v: number) => keySchema(spec).safeParse(v).success;
      if (spec.min !== undefined) expect([parse(spec.min), parse(spec.min - 1)], key).toEqual([true, false]);
      if (spec.max !== undefined) expect([parse(spec.max), parse(spec.max + 1)], key).toEqual([true, false]);
      if (spec.kind === 'int') expect(parse((spec.min ?? 0) + 1.5), key).toBe(false);
    }
    expect(getPath(configSchema.parse({}), ['endless', 'syncTimeoutMs'])).toBe(60_000);
  });

  it('lets the hooks\' reader accept exactly the values the CLI accepts, key by key', () => {
    for (const { key, path, spec } of table) {
      for (const value of probes(spec)) {
        if (value === undefined) continue;
        const file: Record<string, unknown> = {};
        setPath(file, path, value);
        const byCli = evaluateConfig(file, {}).ok;
        expect(checkValue(spec, value).ok === true, `${key} = ${JSON.stringify(value)}`).toBe(byCli);
      }
    }
  });

  it('names in each description the environment variable the key has, and no other', () => {
    for (const { key, spec } of table) {
      const named = [...spec.description.matchAll(/\(env ([A-Z0-9_]+)\)/g)].map((m) => m[1]);
      expect(named, key).toEqual(spec.env === undefined ? [] : [spec.env]);
    }
  });

  it('is where the environment overrides and the secret keys come from', () => {
    expect(ENV_OVERRIDES.map(([name, path]) => `${name}=${path.join('.')}`)).toEqual(
      table.filter((k) => k.spec.env !== undefined).map((k) => `${k.spec.env}=${k.key}`),
    );
    expect([...SECRET_KEYS]).toEqual(['store.s3.secretAccessKey', 'store.s3.sessionToken']);
  });

  it('is plain data the hooks can load: its import closure holds no package', () => {
    for (const file of ['config/key-table.ts', 'config/read-known-keys.ts', 'config/unknown-keys.ts', 'config/env-overrides.ts']) {
      const { files, packages } = importClosure(join(SRC, file), { followDynamic: true });
      expect(packages.filter((name) => !name.startsWith('node:')), file).toEqual([]);
      expect(files.map((f) => f.slice(SRC.length + 1)).filter((f) => !/^(config|core)\//.test(f)), file).toEqual([]);
    }
  });
});

describe('the config folder', () => {
  it('imports only the core folder, node built-ins and zod', () => {
    const imports: string[] = [];
    for (const name of readdirSync(join(SRC, 'config')).filter((f) => f.endsWith('.ts'))) {
      const code = readFileSync(join(SRC, 'config', name), 'utf8');
      for (const m of code.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)) imports.push(`${name}: ${m[1]!}`);
    }
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.filter((line) => !/: (\.\/|\.\.\/core\/|node:|zod$)/.test(line))).toEqual([]);
  });
});
