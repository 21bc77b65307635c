// Every check file's examples, by the check file they belong to (src/checks/<file>.ts ↔ examples/<file>.ts).
// A test checks that each check file has its examples here and that each check has a pass and a fail example.
import { examples as attributes } from './attributes.js';
import { examples as auth } from './auth.js';
import { examples as batch } from './batch.js';
import { examples as envelope } from './envelope.js';
import { examples as http } from './http.js';
import { examples as lists } from './lists.js';
import { examples as model } from './model.js';
import { examples as pages } from './pages.js';
import { examples as records } from './records.js';
import { examples as refusals } from './refusals.js';
import type { Examples } from './support.js';

export const examplesByFile: Readonly<Record<string, Examples>> = { attributes, auth, batch, envelope, http, lists, model, pages, records, refusals };

export type { CheckExample, Examples } from './support.js';
