/** What the routes of `recall ui` are built from, and how a page is put in its frame. */
import type { Context } from 'hono';
import type { Logger } from '../core/log.js';
import type { Runtime } from '../app/runtime.js';
import type { Html } from './ui-layout.js';
import type { UiAccess } from './ui-security.js';

export interface UiDeps {
  runtime: Runtime;
  logger: Logger;
  access: UiAccess;
  env: NodeJS.ProcessEnv;
  cwd: string;
  servedBy: string;
}

/** Renders a page in the frame, with the review count and the notice of the change that led here. */
export type PageRenderer = (c: Context, title: string, body: Html | Promise<Html>, status?: 200 | 404) => Promise<Response>;
