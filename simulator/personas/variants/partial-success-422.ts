import { partialSuccessWith } from '../support.js';

export const partialSuccess422 = partialSuccessWith(422, 'Unprocessable Content');
