// describeWaitFor is what a vendor reads when a container never gets ready: it must name the wait and the flag that
// chose it, for each kind. Runs without a Docker engine (src/container/index.ts's tests need one).
import { expect } from 'chai';
import { describeWaitFor } from './options.js';

describe('rdx run --image: how the wait for the container reads in messages', () => {
  it('names what is waited for, on which port, and the --wait-for flag that says so', () => {
    expect(describeWaitFor({ kind: 'port' }, 8080)).to.equal('port 8080 to accept connections (--wait-for port)');
    expect(describeWaitFor({ kind: 'log', pattern: /listening on \d+/ }, 8080)).to.equal('a log line matching /listening on \\d+/ (--wait-for log:listening on \\d+)');
    expect(describeWaitFor({ kind: 'http', path: '/health' }, 9000)).to.equal('GET /health on port 9000 to answer 2xx (--wait-for http:/health)');
  });
});
