/**
 * A tool result's snippet, redacted and cut when it is first read. Most results of a long session are never
 * shown (the prompt keeps a few kilobytes of them), yet redacting the ends of each was most of the time spent
 * reading a session: the snippet is made from the result's ends (summarize-tool-use.ts) only when the renderer
 * measures or shows it, or an outcome may be read from it. What it is made from is held until then, copied
 * out of the line it was read from. The snippet made is exactly the one made at once, so the prompt is the same.
 */
import { detach } from './cut-text.js';
import { cutResultEnds, toolResultEnds, type ResultEnds } from './summarize-tool-use.js';

export class ToolOutput {
  #ends: ResultEnds | undefined;
  #text: string | undefined;
  readonly #max: number;

  private constructor(ends: ResultEnds | undefined, text: string | undefined, max: number) {
    this.#ends = ends;
    this.#text = text;
    this.#max = max;
  }

  /** The snippet of `raw` (a cleaned tool result), made when first read. */
  static deferred(raw: string, max: number): ToolOutput {
    const ends = toolResultEnds(raw, max);
    return new ToolOutput('whole' in ends ? { whole: detach(ends.whole) } : { head: detach(ends.head), tail: detach(ends.tail), total: ends.total }, undefined, max);
  }

  /** A snippet already made (redacted and cut). */
  static of(text: string): ToolOutput {
    return new ToolOutput(undefined, text, 0);
  }

  /** The redacted snippet. */
  get text(): string {
    return this.#text ?? this.#make();
  }

  /** True when the snippet is empty: only when the result is (redaction leaves a marker for what it takes, a cut a marker for what it drops). */
  get empty(): boolean {
    const ends = this.#ends;
    if (ends === undefined) return this.text === '';
    return 'whole' in ends && ends.whole === '';
  }

  /** Makes the snippet now and lets go of what it is made from. */
  settle(): void {
    if (this.#text === undefined) this.#make();
  }

  #make(): string {
    const text = detach(cutResultEnds(this.#ends as ResultEnds, this.#max));
    this.#text = text;
    this.#ends = undefined;
    return text;
  }

  /** Characters held until the snippet is made (0 once it is). */
  get held(): number {
    const ends = this.#ends;
    if (ends === undefined) return 0;
    return 'whole' in ends ? ends.whole.length : ends.head.length + ends.tail.length;
  }

  /**
   * False only when `words` cannot match the snippet. Once the snippet is made, it is what is searched; before,
   * what it would be made from is. That is enough when every match of `words` in the snippet holds text that no
   * redaction marker (`[REDACTED:kind]`, kinds in lower case) and no cut marker (` […N chars…] `) can be part of,
   * such as a word with a space or a capital in it: redaction puts markers in place of spans and adds no other
   * text, and the cut only drops text, so such a match in the snippet is a match in what it was made from.
   */
  mayHold(words: RegExp): boolean {
    const ends = this.#ends;
    if (ends === undefined) return words.test(this.text);
    return 'whole' in ends ? words.test(ends.whole) : words.test(ends.head) || words.test(ends.tail);
  }
}
