// The session list: search by id glob, app version and time; a page at a
// time (the server pages by id, so a million sessions are never loaded at
// once); the filtered total from GET /v1/session-count; the page sorted by
// a column.
import { getJSON, getNDJSON, q } from './api.js';
import { h, replace, ready, announce } from './dom.js';

const PAGE = 50;
const COLUMNS = [['session', 'session'], ['events', 'events'], ['appVersion', 'app version'], ['first', 'first event'], ['last', 'last event']];

export async function sessionList(main, params) {
  const field = (name, label, attrs = {}) => {
    const input = h('input', { id: `f-${name}`, name, value: params.get(name) ?? '', ...attrs });
    return [input, h('label', { for: `f-${name}` }, label, input)];
  };
  const [id, idField] = field('id', 'Session id (glob)', { 'data-testid': 'session-search', type: 'search', placeholder: 's-0001*' });
  const [version, versionField] = field('version', 'App version (glob)', { type: 'search', placeholder: '3.*' });
  const [since, sinceField] = field('since', 'Since', { placeholder: '2026-11-20T10:00:00Z' });
  const [until, untilField] = field('until', 'Until', { placeholder: '2026-11-21T00:00:00Z' });
  const count = h('p', { class: 'count', 'data-testid': 'session-count' });
  const body = h('tbody');
  const next = h('button', { type: 'button', 'data-testid': 'next-page' }, 'Next page');
  const previous = h('button', { type: 'button' }, 'Previous page');
  const message = h('p', { class: 'error', role: 'alert' });
  let sortKey = params.get('sort') ?? 'session';
  let rows = [];
  const pages = [params.get('after') ?? ''];

  const headers = COLUMNS.map(([key, label]) => {
    const button = h('button', { type: 'button', class: 'sort', onclick: () => { sortKey = key; drawRows(); } }, label);
    return h('th', { scope: 'col', 'data-key': key }, button);
  });

  function query(extra) {
    const p = new URLSearchParams();
    for (const [name, input] of [['id', id], ['version', version], ['since', since], ['until', until]]) {
      if (input.value.trim()) p.set(name, input.value.trim());
    }
    for (const [k, v] of Object.entries(extra)) if (v !== '' && v !== undefined) p.set(k, v);
    return p;
  }

  function drawRows() {
    const sorted = [...rows].sort((a, b) => {
      const x = a[sortKey] ?? '';
      const y = b[sortKey] ?? '';
      if (typeof x === 'number' && typeof y === 'number') return sortKey === 'events' ? y - x : x - y;
      return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
    });
    for (const th of headers) th.setAttribute('aria-sort', th.dataset.key === sortKey ? (sortKey === 'events' ? 'descending' : 'ascending') : 'none');
    replace(body, sorted.map((s) => h('tr', { 'data-testid': 'session-row', 'data-session': s.session },
      h('th', { scope: 'row' }, h('a', { href: `/sessions/${q(s.session)}` }, s.session)),
      // data-label names the column where a narrow page draws each row as a card without the header.
      h('td', { class: 'number', 'data-label': 'events' }, s.events), h('td', { 'data-label': 'app version' }, s.appVersion ?? ''),
      h('td', { 'data-label': 'first event' }, s.first ?? ''), h('td', { 'data-label': 'last event' }, s.last ?? ''))));
  }

  async function load() {
    ready(false);
    message.textContent = '';
    const after = pages[pages.length - 1];
    try {
      // The page is drawn as soon as it comes; the total (a count over the whole store) when it comes.
      const counting = getJSON(`/v1/session-count?${query({})}`);
      const page = await getNDJSON(`/v1/sessions?${query({ after, limit: String(PAGE + 1) })}`);
      rows = page.slice(0, PAGE);
      next.disabled = page.length <= PAGE;
      previous.disabled = pages.length <= 1;
      count.textContent = rows.length ? `showing ${rows.length} from ${rows[0].session}; counting…` : 'no session on this page';
      drawRows();
      const url = new URL(window.location.href);
      url.search = query({ after, sort: sortKey === 'session' ? '' : sortKey }).toString();
      window.history.replaceState(null, '', url);
      const total = await counting;
      count.textContent = `${total.sessions} session${total.sessions === 1 ? '' : 's'}, ${total.events} events${rows.length ? ` · showing ${rows.length} from ${rows[0].session}` : ''}`;
      announce(`${total.sessions} sessions`);
    } catch (error) {
      message.textContent = error.message;
    }
    ready(true);
  }

  next.addEventListener('click', () => { if (rows.length) { pages.push(rows[rows.length - 1].session); load(); } });
  previous.addEventListener('click', () => { if (pages.length > 1) { pages.pop(); load(); } });
  const form = h('form', { class: 'filters', role: 'search', onsubmit: (event) => { event.preventDefault(); pages.length = 1; pages[0] = ''; load(); } },
    idField, versionField, sinceField, untilField, h('button', { type: 'submit' }, 'Search'));
  replace(main, h('h2', {}, 'Sessions'), form, message, count,
    h('div', { class: 'table-wrap' }, h('table', { class: 'sessions' }, h('thead', {}, h('tr', {}, headers)), body)),
    h('div', { class: 'pager' }, previous, next));
  await load();
}
