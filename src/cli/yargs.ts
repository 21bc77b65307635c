// yargs as the CLI loads it. The build replaces this module's output with one esbuild bundle of yargs and its
// dependencies (scripts/bundle.mjs): loaded as some thirty modules from node_modules, yargs took 120 ms of every
// `rdx` start-up (a quarter of the simulator's), as one file about 50. The types are yargs' own.
export { default } from 'yargs';
export { hideBin } from 'yargs/helpers';
