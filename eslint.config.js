import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // A command's exit code goes through setExitCode (cli/terminal.ts): inside `recall serve` the
    // process's exit code would carry over from one request to the next.
    files: ['src/cli/commands/**'],
    ignores: ['src/cli/commands/endless-fork-fast.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "AssignmentExpression[left.object.name='process'][left.property.name='exitCode']",
          message: 'use setExitCode() from cli/terminal.ts',
        },
      ],
    },
  },
  {
    // The only places that own terminal output.
    files: ['src/cli/output.ts', 'scripts/**', 'bench/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
);
