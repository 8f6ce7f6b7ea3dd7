import type { Command } from 'commander';
import { addSharedOptions, runInstallCommand, type InstallFlags } from './install.js';

export function registerUninstall(program: Command): void {
  const command = program
    .command('uninstall')
    .description("remove recall's hooks from the agent's settings file (only recall's; backs the file up)");
  addSharedOptions(command, 'uninstall').action((flags: InstallFlags) => runInstallCommand('uninstall', flags));
}
