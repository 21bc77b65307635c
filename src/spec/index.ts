// The one door to spec/: every other module reads the API's rules, schemas and open points through here,
// so that a rule is written once (in spec/) and never restated in code. Each file is named for what it reads.
export * from './files.js';
export * from './registers.js';
export * from './operations.js';
export * from './schemas.js';
export * from './resources.js';
