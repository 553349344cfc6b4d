// Two sessions side by side (`/sessions/A?b=B`): bisect's first divergence
// marked (GET /v1/bisect), both states at the cursor's seq, and the
// difference the server finds between them (GET /v1/diff).
import { getJSON, q } from './api.js';
import { h, replace } from './dom.js';
import { drawScenes } from './scene.js';

function flatten(prefix, value, out) {
  if (value && typeof value === 'object' && !Array.isArray(value) && !('a' in value && 'b' in value)) {
    for (const [key, inner] of Object.entries(value)) flatten(prefix ? `${prefix}.${key}` : key, inner, out);
  } else {
    out.push([prefix, value]);
  }
}

function text(value) {
  if (Array.isArray(value)) return value.map((v) => (v && v.type ? (v.id === undefined ? v.type : `${v.type}/${v.id}`) : JSON.stringify(v))).join(' › ') || '[]';
  return JSON.stringify(value);
}

export function compareView(a, b) {
  const divergence = h('p', { class: 'divergence', 'data-testid': 'divergence' }, 'Looking for the first divergence…');
  const paneA = h('section', { class: 'pane', 'data-testid': 'session-pane', 'data-session': a, 'aria-label': `session ${a}` });
  const paneB = h('section', { class: 'pane', 'data-testid': 'session-pane', 'data-session': b, 'aria-label': `session ${b}` });
  const difference = h('section', { class: 'diff', 'data-testid': 'diff', 'aria-label': `difference of ${a} and ${b}` });
  const element = h('div', { class: 'compare' }, divergence, h('div', { class: 'panes' }, paneA, paneB), difference);
  getJSON(`/v1/bisect?a=${q(a)}&b=${q(b)}`).then((found) => {
    if (!found.diverged) {
      divergence.dataset.seq = '';
      divergence.textContent = `${a} and ${b} never diverge.`;
      return;
    }
    const seq = found.a && found.a.event ? found.a.event.seq : found.position;
    divergence.dataset.seq = String(seq);
    replace(divergence, `First divergence at position ${found.position} (seq ${seq}): `,
      h('a', { href: `/sessions/${q(a)}?at=${seq}&b=${q(b)}` }, 'go there'));
  }).catch((error) => { divergence.textContent = `bisect: ${error.message}`; });
  return {
    element,
    async show(at, stateA, visibleA) {
      const base = `/v1/sessions/${q(b)}`;
      const [stateB, visibleB, diff] = await Promise.all([
        getJSON(`${base}/state?at=${at}`), getJSON(`${base}/visible?at=${at}`), getJSON(`/v1/diff?a=${q(a)}&b=${q(b)}&at=${at}`),
      ]);
      replace(paneA, h('h3', {}, a), drawScenes(stateA, visibleA));
      replace(paneB, h('h3', {}, b), drawScenes(stateB, visibleB));
      const rows = [];
      flatten('', diff.scenes || {}, rows);
      replace(difference, diff.same ? h('p', {}, `At seq ${at} the two states are equal.`) : h('table', { class: 'diff-table' },
        h('caption', {}, `At seq ${at}: ${a} against ${b}`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'where'), h('th', { scope: 'col' }, a), h('th', { scope: 'col' }, b))),
        h('tbody', {}, rows.map(([path, value]) => h('tr', {}, h('th', { scope: 'row' }, path),
          h('td', {}, value && typeof value === 'object' && 'a' in value ? text(value.a) : text(value)),
          h('td', {}, value && typeof value === 'object' && 'b' in value ? text(value.b) : ''))))));
    },
  };
}
