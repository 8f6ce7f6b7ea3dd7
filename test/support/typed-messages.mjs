// The messages a user typed in a JSONL transcript, found independently of recall's own parser and renderer, so
// the memory-quality benchmark and the compatibility tests can check what reaches the extraction prompt.
// Counted: user lines that are not meta, sidechain, compaction summaries, tool results, task notifications,
// command wrappers or output, or interrupt markers. Each is given as the first line of its text (system
// reminders removed), whitespace collapsed.

const collapse = (text) => text.replace(/\s+/g, ' ').trim();

/** @param {string} jsonl @returns {string[]} */
export function typedUserMessages(jsonl) {
  const typed = [];
  for (const line of jsonl.split('\n')) {
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (record === null || typeof record !== 'object') continue;
    if (record.isMeta || record.isSidechain || record.isCompactSummary) continue;
    const message = record.message ?? record;
    const role = record.type === 'user' ? 'user' : record.type === 'message' || record.type === undefined ? message?.role : undefined;
    if (role !== 'user') continue;
    const content = message.content;
    const parts = typeof content === 'string' ? [content] : Array.isArray(content) ? content.filter((b) => b?.type === 'text').map((b) => b.text) : [];
    const raw = parts.join('\n').replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim();
    const text = collapse(raw.split('\n')[0] ?? '');
    if (text === '' || /^<(task-notification|local-command-|command-name|command-message)/.test(text) || /^\[Request interrupted/.test(text)) continue;
    typed.push(text);
  }
  return typed;
}
