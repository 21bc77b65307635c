// Placeholder until the simulator lands (issue 3): the command exists so the CLI wiring can be tested.
import type { Argv } from 'yargs';
import { UsageError } from '../../errors.js';

export function builder(y: Argv): Argv {
  return y;
}

export async function handler(): Promise<number> {
  throw new UsageError('rdx simulate is not built yet');
}
