import { partialSuccessWith } from '../support.js';

export const partialSuccess400 = partialSuccessWith(400, 'Bad Request');
