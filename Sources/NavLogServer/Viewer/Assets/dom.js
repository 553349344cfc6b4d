// Small helpers to build the page's elements without HTML strings.

/** An element: `attrs` are attributes (`text` sets its text, `on*` functions are listeners). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') el.textContent = String(value);
    else if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces `parent`'s children. */
export function replace(parent, ...children) {
  parent.replaceChildren(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
}

/** Marks the page as drawing (`false`) or drawn (`true`), for tests and timing. */
export function ready(flag) {
  document.body.dataset.ready = flag ? 'true' : 'false';
}

/** Says `text` in the live region (screen readers announce it). */
export function announce(text) {
  const status = document.getElementById('status');
  if (status && status.textContent !== text) status.textContent = text;
}

/** An error drawn in place of a view. */
export function failure(message) {
  return h('p', { class: 'error', role: 'alert' }, message);
}
