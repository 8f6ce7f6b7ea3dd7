/**
 * Condenses Claude Code's compaction summary to what says most about the session: its "Summary:" part (not
 * the agent's working notes before it, nor the preamble), without the sections that quote files and code or
 * plan the next step. Pure.
 */

const PREAMBLE = /^This session is being continued from a previous conversation[^\n]*\n(?:[^\n]*summary below[^\n]*\n)?/i;
/**
 * What Claude Code (2.1) puts after the summary: where the full transcript is and how to resume ("Resume
 * directly ... Pick up the last task as if the break never happened"). Instructions to the agent, not the
 * user's words, and phrased like rules, so an extraction model would keep them as preferences.
 */
const RESUME_TRAILER = /\n\s*(?:If you need specific details from before compaction|Continue the conversation from where it left off)[\s\S]*$/i;
const SUMMARY_HEADING = /^\s*(?:#+\s*)?Summary:?\s*$/im;
/** A numbered section heading: `3. Files and Code Sections:`. */
const SECTION = /^[ \t]*(?:#+[ \t]*)?\d{1,2}\.[ \t]+\**([^\n]{1,80}?)\**:\**[ \t]*$/gm;
const LEFT_OUT = /files and code|code sections|current work|next step/i;

export function condenseCompaction(raw: string): string {
  let text = raw.replace(PREAMBLE, '').replace(RESUME_TRAILER, '').trim();
  const summary = SUMMARY_HEADING.exec(text);
  if (summary !== null && text.length - summary.index > 200) text = text.slice(summary.index + summary[0].length).trim();
  const heads = [...text.matchAll(SECTION)];
  if (heads.length < 2) return text;
  const kept: string[] = [text.slice(0, heads[0]?.index ?? 0).trim()];
  heads.forEach((head, i) => {
    const end = heads[i + 1]?.index ?? text.length;
    if (!LEFT_OUT.test(head[1] ?? '')) kept.push(text.slice(head.index, end).trim());
  });
  return kept.filter((part) => part !== '').join('\n');
}
