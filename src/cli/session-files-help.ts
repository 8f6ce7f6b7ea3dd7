/** The --help lines of commands that take a transcript: where each agent keeps its session files. */
import { SESSION_LOCATIONS } from '../transcript/check-transcript-file.js';

export function sessionFilesHelp(): string {
  return `\nSession files recall reads:\n${SESSION_LOCATIONS.map((line) => `  ${line}`).join('\n')}`;
}
