/**
 * The tags recall wraps around the context it injects into a session (SessionStart hook).
 * The transcript parser drops everything between them, so recall never reads its own output back
 * as if the user had said it. Node built-ins only (none needed): the hook imports this file.
 */
export const RECALL_CONTEXT_OPEN_TAG = '<recall-context>';
export const RECALL_CONTEXT_CLOSE_TAG = '</recall-context>';

/** Wraps injected context so the transcript parser can recognise and drop it later. */
export function wrapRecallContext(text: string): string {
  return `${RECALL_CONTEXT_OPEN_TAG}\n${text}\n${RECALL_CONTEXT_CLOSE_TAG}`;
}
