// The harness version, read once from package.json (the single place it is written).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './spec/index.js';

export const harnessVersion: string = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
