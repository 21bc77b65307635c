import { partialSuccessWith } from '../support.js';

export const partialSuccess201 = partialSuccessWith(201, 'Created');
