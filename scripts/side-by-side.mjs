// Runs shell commands side by side and fails when any fails: `npm test` lints while it builds (ESLint, the layer
// rule and tsc are each one core's work, and the machine has two). Each command's output is held and printed
// whole when all have ended, in the order given, so the log reads as if they had run one after the other; both run
// to their end, so one run shows every lint problem and every type error.
//   node scripts/side-by-side.mjs "npm run lint" "npm run build"
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  process.stderr.write('usage: node scripts/side-by-side.mjs "COMMAND" ["COMMAND" ...]\n');
  process.exit(2);
}

/** Runs one command, its output held as [stream, chunk] in arrival order. */
function run(command) {
  return new Promise((resolve) => {
    const started = performance.now();
    const output = [];
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => output.push([process.stdout, chunk]));
    child.stderr.on('data', (chunk) => output.push([process.stderr, chunk]));
    child.on('error', (error) => output.push([process.stderr, `${error.message}\n`]));
    child.on('close', (code, signal) => resolve({ command, code: code ?? 1, signal, output, seconds: (performance.now() - started) / 1000 }));
  });
}

const results = await Promise.all(commands.map(run));
for (const { command, code, signal, output, seconds } of results) {
  process.stdout.write(`\n[side-by-side] ${command}\n`);
  for (const [stream, chunk] of output) stream.write(chunk);
  const how = signal ? `ended by ${signal}` : code === 0 ? 'passed' : `failed (exit code ${code})`;
  (code === 0 ? process.stdout : process.stderr).write(`[side-by-side] ${command}: ${how} in ${seconds.toFixed(1)} s\n`);
}
const failed = results.find((r) => r.code !== 0 || r.signal);
process.exitCode = failed ? (failed.code || 1) : 0;
