// A curl command line that reproduces a recorded exchange. Exchanges are stored redacted (secrets are "***"), so
// each mask becomes a reference to an environment variable the reader sets: the line can be pasted into a shell,
// shared in a ticket or printed in a report without ever carrying a secret.
import type { Exchange } from '../core/results.js';
import { MASK } from '../http/redact.js';

export interface CurlVariables {
  /** Stands for a masked bearer token (header or access_token query parameter). */
  accessToken: string;
  /** Stands for a masked client_secret of a token request. */
  clientSecret: string;
  /** Stands for masked Basic credentials (base64 of client_id:client_secret). */
  basicCredentials: string;
}

export const DEFAULT_VARIABLES: CurlVariables = {
  accessToken: 'RDX_ACCESS_TOKEN', clientSecret: 'RDX_CLIENT_SECRET', basicCredentials: 'RDX_BASIC_CREDENTIALS',
};

/** A piece of one shell word: text sent as is, or an environment variable expanded by the shell. */
export type Part = { text: string } | { variable: string };

// curl computes these itself; copying them would be wrong as soon as the body or the connection differs.
// Accept-Encoding becomes --compressed: curl then asks for what it can decode and prints the body decoded.
const DROPPED_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding', 'keep-alive', 'accept-encoding']);

/**
 * The exchange's request as one bash command line. Masks become "$RDX_ACCESS_TOKEN" (bearer tokens, access_token in
 * the query) or "$RDX_CLIENT_SECRET" (client_secret in a token request body); any other mask becomes the access
 * token variable too, since tokens are the only other secrets a request carries.
 */
export function curlCommand(exchange: Exchange, variables: CurlVariables = DEFAULT_VARIABLES): string {
  const { method, url, headers, body } = exchange.request;
  const words: string[] = ['curl', '-sS', '-i'];
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'accept-encoding')) words.push('--compressed');
  if (method !== 'GET' || body !== undefined) words.push('-X', quote([{ text: method }]));
  words.push(quote(withVariables(url, () => variables.accessToken)));
  for (const [name, value] of Object.entries(headers)) {
    if (DROPPED_HEADERS.has(name.toLowerCase())) continue;
    // A masked Basic credential is base64(client_id:client_secret), not a token.
    words.push('-H', quote(withVariables(`${name}: ${value}`, (before) => (/\bbasic\s+$/i.test(before) ? variables.basicCredentials : variables.accessToken))));
  }
  if (body !== undefined) words.push('--data-raw', quote(bodyParts(body, variables)));
  return words.join(' ');
}

/** Splits text at every mask, calling `name` for the variable that stands for the mask at that position. */
function withVariables(text: string, name: (before: string) => string): Part[] {
  const parts: Part[] = [];
  let rest = text;
  let seen = '';
  for (let at = rest.indexOf(MASK); at >= 0; at = rest.indexOf(MASK)) {
    const before = rest.slice(0, at);
    seen += before;
    if (before) parts.push({ text: before });
    parts.push({ variable: name(seen) });
    rest = rest.slice(at + MASK.length);
  }
  if (rest) parts.push({ text: rest });
  return parts;
}

/** In a body, a mask right after a client_secret key (JSON or form) is the client secret; any other is a token. */
function bodyParts(body: string, variables: CurlVariables): Part[] {
  return withVariables(body, (before) =>
    /(?:"client_secret"\s*:\s*"|(?:^|&)client_secret=)$/.test(before) ? variables.clientSecret : variables.accessToken);
}

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;
// Inside double quotes, bash still gives meaning to these (and `!` to history expansion in an interactive shell).
const DOUBLE_QUOTE_SPECIAL = /["\\$`!]/;
// Single quotes cannot carry control characters visibly, and a newline would split "one line" into several.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * One shell word from its parts, quoted so the shell passes the text through untouched and expands only the variables.
 * Chooses the most readable safe form: bare, 'single', "double with $VAR", or concatenated pieces.
 */
export function quote(parts: Part[]): string {
  const texts = parts.filter((p): p is { text: string } => 'text' in p).map((p) => p.text);
  const hasVariable = parts.some((p) => 'variable' in p);
  if (parts.length === 0) return "''";
  if (!hasVariable) return quoteText(texts.join(''));
  if (texts.every((t) => !DOUBLE_QUOTE_SPECIAL.test(t) && !CONTROL.test(t))) {
    // "$NAMEabc" would read the variable NAMEabc: a name followed by a name character is written ${NAME}.
    return `"${parts.map((p, i) => {
      if ('text' in p) return p.text;
      const after = parts[i + 1];
      return after && 'text' in after && /^\w/.test(after.text) ? `\${${p.variable}}` : `$${p.variable}`;
    }).join('')}"`;
  }
  return parts.map((p) => ('text' in p ? quoteText(p.text) : `"$${p.variable}"`)).join('');
}

function quoteText(text: string): string {
  if (text === '') return "''";
  if (PLAIN.test(text)) return text;
  if (CONTROL.test(text)) {
    // ANSI-C quoting ($'…', bash and zsh): keeps the command on one line and the bytes exact.
    const escaped = text.replace(/[\\']/g, (c) => `\\${c}`)
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, (c) => ({ '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
    return `$'${escaped}'`;
  }
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
