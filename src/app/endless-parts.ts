/** The parsed config turned into what the Endless Mode stages take, with the real model client. */
import type { LoadedConfig } from '../config/load-config.js';
import type { Logger } from '../core/log.js';
import type { CompleteDeps } from '../endless/complete-observation.js';
import { settingsFromConfig } from '../endless/endless-settings.js';
import { requestObservation } from '../endless/ollama-observe.js';

export type EndlessParts = CompleteDeps & { lockStaleMs: number; keepRecent: number };

export function endlessParts(loaded: LoadedConfig, logger: Logger): EndlessParts {
  const settings = settingsFromConfig(loaded.config);
  return {
    home: loaded.paths.home,
    settings,
    observe: requestObservation,
    now: () => Date.now(),
    logger,
    lockStaleMs: loaded.config.queue.lockStaleMs,
    keepRecent: settings.keepRecent,
  };
}
