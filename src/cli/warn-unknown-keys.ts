import { unknownKeysWarning } from '../config/unknown-keys-warning.js';
import { out } from './output.js';
import { commandEnv } from './terminal.js';

/** Every command says when config.json holds keys recall ignores (a typo leaves a setting without effect). */
export function warnUnknownConfigKeys(): void {
  const warning = unknownKeysWarning(commandEnv());
  if (warning !== null) out.warn(warning);
}
