import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A small Claude Code session for fork tests: each call is an assistant tool_use line answered by a
 * user tool_result line, on one uuid/parentUuid chain, written as `<sessionId>.jsonl`.
 */
export function sessionBuilder(sessionId: string) {
  const lines: unknown[] = [];
  let parent: string | null = null;
  const push = (body: Record<string, unknown>): void => {
    const uuid = `u${lines.length + 1}`;
    lines.push({ parentUuid: parent, uuid, sessionId, cwd: '/p', ...body });
    parent = uuid;
  };
  return {
    /** `text`: an assistant text block before the call; `toolUseResult`: the line's structured result. */
    call(id: string, name: string, input: unknown, content: string, options: { toolUseResult?: unknown; isError?: boolean; text?: string } = {}): void {
      const use = { type: 'tool_use', id, name, input };
      push({ type: 'assistant', message: { role: 'assistant', content: options.text === undefined ? [use] : [{ type: 'text', text: options.text }, use] } });
      const result = { type: 'tool_result', tool_use_id: id, content, ...(options.isError ? { is_error: true } : {}) };
      push({ type: 'user', message: { role: 'user', content: [result] }, ...(options.toolUseResult === undefined ? {} : { toolUseResult: options.toolUseResult }) });
    },
    write(dir: string): string {
      const file = join(dir, `${sessionId}.jsonl`);
      writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      return file;
    },
  };
}
