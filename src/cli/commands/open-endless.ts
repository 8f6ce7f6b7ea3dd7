/** What the endless commands run with: the command's config and log, wired by the composition root. */
import { endlessParts, type EndlessParts } from '../../app/endless-parts.js';
import { openState } from '../context.js';

export function openEndless(component: string): EndlessParts {
  const { loaded, logger } = openState(component);
  return endlessParts(loaded, logger);
}
