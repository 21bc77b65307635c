// The simulator's socket: node:http with the limits a shared sandbox needs (connections, header and request time),
// a JSON error body for what never reaches a handler (unparsable requests, CONNECT, an unknown Expect), and the
// error a port that cannot be listened on becomes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { UsageError } from '../src/errors.js';
import { errorBody } from './envelope.js';
import type { ResolvedOptions } from './options.js';
import { rules } from './rules.js';

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** How long a closed-off client gets to read its last answer before its socket is destroyed. */
const LINGER_MS = 1_000;

/**
 * The JSON error body written straight to the socket, then closed: for requests that never reach the pipeline.
 * The socket is destroyed once the answer is flushed (or after LINGER_MS): end() alone only half-closes it, and a
 * client that never closes its side (a slow-loris one) would hold the descriptor for as long as it likes.
 */
function answerOnSocket(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify(errorBody(message));
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * Keeps at most `max` connections open. A newcomer past the cap takes the place of the oldest idle connection (no
 * request under way: silent, half-sent headers, or kept alive), so a client holding thousands of silent sockets
 * cannot lock others out; only when every connection is busy is the newcomer answered 503 and closed.
 */
function capConnections(server: Server, max: number): (req: IncomingMessage, res: ServerResponse) => void {
  /** Open connections, oldest first, with the number of requests each has under way. */
  const open = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      let idle: Socket | undefined;
      for (const [s, busy] of open) {
        if (busy === 0) {
          idle = s;
          break;
        }
      }
      if (!idle) {
        answerOnSocket(socket, 503, `The simulator is serving ${max} connections (--max-connections), all busy; retry in a moment.`);
        return;
      }
      open.delete(idle);
      idle.destroy();
    }
    open.set(socket, 0);
    socket.once('close', () => open.delete(socket));
  });
  // One function for every response, not a closure each: this runs on every request.
  function responseClosed(this: ServerResponse): void {
    const socket = this.req.socket;
    if (open.has(socket)) open.set(socket, Math.max(0, (open.get(socket) ?? 1) - 1));
  }
  // Called by the request listener rather than added as a second one: an event with two listeners costs more.
  return (req, res) => {
    const socket = req.socket;
    if (!open.has(socket)) return;
    open.set(socket, (open.get(socket) ?? 0) + 1);
    res.on('close', responseClosed);
  };
}

/** A request node:http could not parse never reaches the pipeline; it still gets the JSON error body. */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  answerOnSocket(socket, status, `The HTTP request could not be read: ${STATUS_CODES[status] ?? 'bad request'}.`);
}

/** Where a server listening on host:port answers: a wildcard address names loopback. */
export function originOf(host: string, port: number): string {
  return `http://${urlHost(host)}:${port}`;
}

/** Listens as the options say, with handle for every request; resolves once listening, with the origin it answers at. */
export async function listen(
  options: ResolvedOptions, handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string }> {
  let countRequest: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const server = createServer({
    headersTimeout: options.headersTimeoutMs,
    requestTimeout: options.requestTimeoutMs,
    // Node enforces both limits only when it checks, every 30 s by default: a slow client would outlive them.
    connectionsCheckingInterval: Math.min(1_000, options.headersTimeoutMs),
    // Far longer than a client keeps an idle socket (the harness: at most 10 s): at Node's 5 s, a loaded machine saw
    // a harness POST sent on a pooled socket just as the simulator closed it (an error no answer explains).
    keepAliveTimeout: 30_000,
  }, (req, res) => {
    countRequest(req, res);
    handle(req, res);
  });
  server.on('clientError', answerClientError);
  countRequest = capConnections(server, options.maxConnections);
  // Left to itself, Node answers an unknown Expect with an empty 417 and drops a CONNECT without a word.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify(errorBody(`The expectation ${JSON.stringify(req.headers.expect ?? '')} is not supported; only 100-continue is.`));
    res.writeHead(417, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), connection: 'close' });
    res.end(body);
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => answerOnSocket(socket, rules().status.methodNotAllowed, 'CONNECT is not supported: this is not a proxy.'));
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error & { code?: string }): void => {
      const where = `${options.host}:${options.port}`;
      if (error.code === 'EADDRINUSE') reject(new UsageError(`cannot listen on ${where}: the port is in use`));
      else if (error.code === 'EACCES') reject(new UsageError(`cannot listen on ${where}: permission denied`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new UsageError(`cannot listen on ${where}: no such address`));
      else reject(error);
    };
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, origin: originOf(options.host, port) };
}

/** Stops listening and ends every connection, keep-alive ones included. */
export function stopListening(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
