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

describe('subject before verdict', () => {
  it('keeps rules about different subjects of the same shape apart (issue 29)', () => {
    const pairs: Array<[string, string]> = [
      ['Run npm test in the api package.', 'Run npm test in the web package.'],
      ['The payments service timeout is 30 seconds.', 'The search service timeout is 5 seconds.'],
      ['Set the payments timeout to 30 seconds.', 'Set the search timeout to 5 seconds.'],
      ['Use 4 worker threads in dev.', 'Use 16 worker threads in prod.'],
      ['The web app listens on port 3000.', 'The docs app listens on port 3001.'],
      ['The users table keeps 30 days of history.', 'The orders table keeps 90 days of history.'],
      ['The coupon engine uses axios.', 'The migration runner now uses fetch instead of axios.'],
      ['Use feature flags for risky changes.', "Don't use feature flags for schema changes."],
      ['Production: SSH through the production bastion host.', 'Staging: SSH through the staging bastion host.'],
    ];
    for (const [oldText, newText] of pairs) expect([oldText, judge(oldText, newText, 0.9)]).toEqual([oldText, { verdict: 'different', reason: 'subject-changed' }]);
  });

  it('never replaces a rule by a shorter one that only shares a clause with it', () => {
    const verdict = judge("You MUST run the scenario tests inside a container; never drive the user's desktop browser.", 'You MUST run the tests.', 0.9).verdict;
    expect(verdict).not.toBe('supersede');
    expect(verdict).not.toBe('same');
  });

  it('leaves a narrowed scope to the model rather than deciding a replacement', () => {
    expect(judge('Use feature flags.', "Don't use feature flags for schema changes.")).toEqual({ verdict: 'ambiguous', reason: 'scope-changed' });
  });

  it('still reads a change within one subject as a replacement', () => {
    expect(judge('Use npm in the api package.', 'Use pnpm in the api package.').verdict).toBe('supersede');
    expect(judge('The users table keeps 30 days of history.', 'The users table keeps 90 days of history.').verdict).toBe('supersede');
    expect(judge('Use 4 worker threads in dev.', 'Use 8 worker threads in dev.').verdict).toBe('supersede');
    expect(judge('The coupon engine uses axios.', 'The coupon engine uses fetch instead of axios.').verdict).toBe('supersede');
  });

  it('does not read a plain word after a place word as a choice it can decide alone', () => {
    expect(judge('Never force-push to main.', 'Never force-push to release.').verdict).toBe('ambiguous');
  });

  it('does not read a rule that adds who, where or for what as a repeat of the shorter one', () => {
    // A phrase of its own, filler nouns counted ("from the security team").
    expect(judge('Review security-sensitive changes.', 'Security-sensitive changes need a review from the security team.', 0.81).verdict).toBe('ambiguous');
    // A modifier slipped between two words ("cache search responses"), a longer name ("react-dom").
    expect(judge('Cache API responses.', 'Cache API search responses.', 0.8).verdict).toBe('ambiguous');
    expect(judge('Pin react to 18.2.0.', 'Pin react-dom to 18.2.0.', 0.8).verdict).toBe('ambiguous');
    // A bare name in a scope phrase only the new rule has ("in Makefiles").
    expect(judge('Use tabs for indentation.', 'Use tabs for indentation in Makefiles.', 0.83).verdict).toBe('ambiguous');
    // Rewordings stay the same: a verb after a modal or before a preposition, a pronoun, "at all times".
    expect(judge('Keep translations in the locales folder.', 'Translations live in the locales folder.', 0.87).verdict).toBe('same');
    expect(judge('Close database connections in a finally block.', 'Database connections are closed in a finally block.', 0.86).verdict).toBe('same');
    expect(judge('Run make lint before pushing.', 'Before you push, run make lint.', 0.81).verdict).toBe('same');
  });

  it('does not read a number the new rule adds, a longer name or a modifier beside a number as a changed value', () => {
    expect(judge('Upload artifacts to S3.', 'Upload artifacts to S3 in eu-west-1.', 0.8).verdict).toBe('ambiguous');
    expect(judge('Respond within 200 ms.', 'Respond within 200 ms at p99.', 0.8).verdict).toBe('ambiguous');
    expect(judge('Pin react to 18.2.0.', 'Pin react-dom to 18.3.1.', 0.7).verdict).not.toBe('supersede');
    expect(judge('Bump axios to 1.6.', 'Bump axios-retry to 4.0.', 0.7).verdict).not.toBe('supersede');
    expect(judge('Cache responses for 60 seconds.', 'Cache search responses for 5 seconds.', 0.79).verdict).not.toBe('supersede');
    // A value changed, its unit beside it, is still a change.
    expect(judge('Retry failed uploads twice.', 'Retry failed uploads 4 times.').verdict).toBe('supersede');
    expect(judge('The request body limit is 1 MB.', 'The request body limit is 10 MB.').verdict).toBe('supersede');
  });

  it('does not read one tool against another plus the thing it acts on as a swapped choice', () => {
    expect(judge('Build with tsc.', 'Build the lambdas with esbuild.', 0.7).verdict).not.toBe('supersede');
    expect(judge('Build with tsc.', 'Build with esbuild.', 0.7).verdict).toBe('supersede');
  });

  it('reads a negated negation as no negation ("never disable" is not the flip of "enabled")', () => {
    expect(judge('Never disable TLS verification.', 'TLS verification must always stay enabled.', 0.8).verdict).not.toBe('supersede');
    expect(judge('Never disable TLS verification.', 'Disable TLS verification.', 0.8).verdict).toBe('supersede');
  });

  it('does not read a rule that adds a conjunct, or a modifier after an article, as a repeat or a changed value', () => {
    expect(judge('Docker images are tagged with the git SHA.', 'Docker images are tagged with the git SHA and the semver version.', 0.95).verdict).toBe('ambiguous');
    expect(judge('Run the tests before pushing.', 'Run the flaky tests before pushing.', 0.95).verdict).toBe('ambiguous');
    expect(judge('Rotate API keys every 90 days.', 'Rotate admin API keys every 30 days.', 0.8).verdict).toBe('ambiguous');
    expect(judge('Rotate API keys every 90 days.', 'Rotate API keys every 30 days.', 0.8).verdict).toBe('supersede');
  });
});
