import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Journal } from '../journal.js';
import { EventHub } from './events.js';

describe('simulator: the dashboard\'s live feed', () => {
  it('starts no stream for a client already gone, as one can be while the dashboard\'s modules load', () => {
    const hub = new EventHub(new Journal(5));
    const written: string[] = [];
    const req = { socket: { destroyed: true, remoteAddress: '127.0.0.1' }, once: () => req } as unknown as IncomingMessage;
    const res = {
      writeHead: () => written.push('head'),
      write: (text: string) => written.push(text),
      end: () => written.push('end'),
      once: () => res,
    } as unknown as ServerResponse;
    try {
      expect(hub.connect(req, res)).to.equal('closed');
      expect(hub.clientCount, 'streams held').to.equal(0);
      expect(written).to.deep.equal([]);
    } finally {
      hub.close();
    }
  });
});
