// A difference between two states drawn as a list of what changed: each
// path (scene, stack, tab, …) whose value differs, before and after. It
// compares JSON values; it knows nothing of how states are made.
import { h } from './dom.js';

function show(value) {
  if (value === undefined) return '(none)';
  if (Array.isArray(value) && value.every((v) => v && typeof v === 'object' && typeof v.type === 'string')) {
    return value.length ? value.map((v) => (v.id === undefined ? v.type : `${v.type}/${v.id}`)).join(' › ') : '[]';
  }
  return JSON.stringify(value);
}

function walk(path, a, b, out) {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const objects = a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
  if (!objects) {
    out.push({ path, before: show(a), after: show(b) });
    return;
  }
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const key of keys) walk(path ? `${path}.${key}` : key, a[key], b[key], out);
}

/** The changes from `before`'s scenes to `after`'s, as {path, before, after}. */
export function changes(before, after) {
  const out = [];
  walk('', before.scenes, after.scenes, out);
  return out;
}

/** The changes as a table, titled `title`. */
export function diffTable(title, list) {
  if (list.length === 0) return h('p', { class: 'empty' }, `${title}: no difference.`);
  return h('table', { class: 'diff-table' }, h('caption', {}, title),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'where'), h('th', { scope: 'col' }, 'pinned'), h('th', { scope: 'col' }, 'cursor'))),
    h('tbody', {}, list.map((c) => h('tr', {}, h('th', { scope: 'row' }, c.path), h('td', {}, c.before), h('td', {}, c.after)))));
}
