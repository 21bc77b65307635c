// The page's small DOM helpers. Every piece of data goes into the page with textContent, never as HTML.

type Attrs = Record<string, unknown>;
type Kid = Node | string | null | undefined | false;

/** An element of the page's markup (page.html): a missing one is a bug of the page, not of the data. */
export function $(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (!node) throw new Error('the page has no #' + id);
  return node;
}
export function input(id: string): HTMLInputElement { return $(id) as HTMLInputElement; }
export function button(id: string): HTMLButtonElement { return $(id) as HTMLButtonElement; }
export function h(tag: string, attrs?: Attrs, kids?: Kid[]): HTMLElement {
  const node = document.createElement(tag);
  const a = attrs || {};
  Object.keys(a).forEach(function (k) {
    const v = a[k];
    if (v === undefined || v === null || v === false) return;
    if (k === 'text') node.textContent = String(v);
    else if (k === 'class') node.className = String(v);
    else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v as EventListener);
    else node.setAttribute(k, v === true ? '' : String(v));
  });
  (kids || []).forEach(function (kid) {
    if (kid === null || kid === undefined || kid === false) return;
    node.appendChild(typeof kid === 'string' ? document.createTextNode(kid) : kid);
  });
  return node;
}
export function clear(node: HTMLElement): HTMLElement { while (node.firstChild) node.removeChild(node.firstChild); return node; }
export function fmt(n: number): string { return Number(n).toLocaleString('en-US'); }
export function plural(n: number, one: string, many?: string): string { return fmt(n) + ' ' + (n === 1 ? one : (many || one + 's')); }
function pad(n: number, w: number): string { let s = String(n); while (s.length < w) s = '0' + s; return s; }
export function clock(iso: string): string {
  const d = new Date(iso);
  if (isNaN(d.getTime())) return iso;
  return pad(d.getHours(), 2) + ':' + pad(d.getMinutes(), 2) + ':' + pad(d.getSeconds(), 2) + '.' + pad(d.getMilliseconds(), 3);
}
export function pretty(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; }
}

let toastTimer: number | undefined;
export function toast(message: string | undefined, bad: boolean): void {
  const t = $('toast');
  t.textContent = message || '';
  t.className = bad ? 'toast bad' : 'toast';
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(function () { t.hidden = true; }, 3800);
}
