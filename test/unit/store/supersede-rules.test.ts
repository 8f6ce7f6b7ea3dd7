import { describe, expect, it } from 'vitest';
import { judgePair } from '../../../src/store/supersede-rules.js';

const THRESHOLD = 0.85;
const judge = (oldText: string, newText: string, similarity = 0.7) => judgePair(oldText, newText, similarity, THRESHOLD);

describe('supersede rules', () => {
  it('reads a flipped negation about the same thing as a changed decision', () => {
    expect(judge('You MUST use npm.', 'You MUST NOT use npm; use pnpm.')).toEqual({ verdict: 'supersede', reason: 'negation-flipped' });
    expect(judge('Run migrations on deploy.', "Don't run migrations on deploy.").verdict).toBe('supersede');
    expect(judge('Use class components.', 'Avoid class components.').verdict).toBe('supersede');
  });

  it('reads a changed number or version as a changed decision', () => {
    expect(judge('Use PostgreSQL 15 for the orders database.', 'Use PostgreSQL 16 for the orders database.')).toEqual({ verdict: 'supersede', reason: 'number-changed' });
    expect(judge('Retry failed uploads twice.', 'Retry failed uploads 4 times.').verdict).toBe('supersede');
  });

  it('does not read a number that only the new rule has, among fewer of the old words, as a changed number', () => {
    expect(judgePair('You MUST keep zorvi plenta quaso drimbel enabled.', 'You MUST keep flag7 enabled.', 0.6, 0.85).verdict).toBe('different');
    expect(judgePair('Use Node for the build scripts.', 'Use Node 20 for the build scripts.', 0.7, 0.85)).toEqual({ verdict: 'supersede', reason: 'number-changed' });
  });

  it('reads one named tool replaced by another as a changed decision', () => {
    expect(judge('Install packages with npm.', 'Install packages with pnpm.').verdict).toBe('supersede');
    expect(judge('Write unit tests with jest.', 'Write unit tests with vitest.').verdict).toBe('supersede');
    expect(judge('Host the docs on Netlify.', 'Host the docs on Cloudflare Pages.').verdict).toBe('supersede');
  });

  it('reads "instead of X", "from X to Y" and "X, not Y" as turning away from what the old rule chose', () => {
    expect(judge('Bundle with webpack.', 'Bundle with esbuild instead of webpack.')).toEqual({ verdict: 'supersede', reason: 'rejects-old-choice' });
    expect(judge('Lint shell scripts with bashate.', 'We moved from bashate to shellcheck for shell scripts.').verdict).toBe('supersede');
    expect(judge('Use yarn for installs.', 'Use bun for installs, not yarn.').verdict).toBe('supersede');
  });

  it('keeps a rule that already rejected the old tool the same when it is said again', () => {
    expect(judge('Use pnpm, not npm.', 'Always use pnpm instead of npm.').verdict).toBe('same');
  });

  it('reads a reworded rule as the same', () => {
    expect(judge('Never force-push to the main branch.', 'Do not force push to main.').verdict).toBe('same');
    expect(judge('The frontend is deployed to Vercel.', 'Deploy the frontend to Vercel.').verdict).toBe('same');
  });

  it('reads a changed subject as a different rule, not a replacement', () => {
    expect(judge('Deploy the frontend to Vercel.', 'Deploy the backend to Vercel.')).toEqual({ verdict: 'different', reason: 'subject-changed' });
    expect(judge('Use ESLint for linting TypeScript.', 'Use Prettier for formatting TypeScript.').verdict).toBe('different');
  });

  it('does not read two numbers about different things as a changed number', () => {
    expect(judge('Keep functions under 50 lines.', 'Keep files under 400 lines.').verdict).not.toBe('supersede');
  });

  it('reads rules with few words in common as different', () => {
    expect(judge('Format Go code with gofmt.', 'Rotate API keys every 90 days.').verdict).toBe('different');
  });

  it('leaves a pair it cannot tell apart to the model', () => {
    expect(judge('Store secrets in the vault, never in the repository.', 'Secrets live in the vault and never in the repo.').verdict).toBe('ambiguous');
  });
});
