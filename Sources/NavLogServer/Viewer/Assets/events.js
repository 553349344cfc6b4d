// The event list beside the state: the replay's steps around the cursor
// (or every loaded one matching a kind filter or a search), the cursor's
// row marked; a click moves the cursor there.
import { h, replace } from './dom.js';
import { lowerBound } from './timeline.js';

/** Rows shown on each side of the cursor when nothing filters. */
const AROUND = 40;
/** The most rows a filter or search shows. */
const MAX_ROWS = 500;

export function eventList({ onMove }) {
  const kind = h('select', { 'data-testid': 'event-filter', 'aria-label': 'filter by kind' }, h('option', { value: '' }, 'all kinds'));
  const search = h('input', { type: 'search', 'data-testid': 'event-search', placeholder: 'search events', 'aria-label': 'search events' });
  const list = h('ol', { class: 'events', 'aria-label': 'events' });
  const root = h('section', { class: 'event-panel', 'aria-label': 'event list' },
    h('div', { class: 'event-tools' }, kind, search), list);
  let steps = [];
  let cursor = 0;
  const kinds = new Set();

  function draw() {
    const wanted = kind.value;
    const text = search.value.trim().toLowerCase();
    let shown;
    if (wanted || text) {
      shown = steps.filter((step) => (!wanted || step.type === wanted)
        && (!text || `${step.seq} ${step.type} ${step.screen} ${step.effects.join(' ')} ${step.anomalies.join(' ')}`.toLowerCase().includes(text)))
        .slice(0, MAX_ROWS);
    } else {
      const i = lowerBound(steps, cursor);
      shown = steps.slice(Math.max(0, i - AROUND), i + AROUND + 1);
    }
    replace(list, shown.map((step) => h('li', {
      class: `event${step.anomalies.length ? ' anomaly' : ''}`, 'data-testid': 'event-row', 'data-seq': step.seq,
      'aria-current': step.seq === cursor ? 'true' : undefined,
    }, h('button', { type: 'button', class: 'event-button', onclick: () => onMove(step.seq) },
      h('span', { class: 'seq' }, step.seq), ' ', h('span', { class: 'kind' }, step.type), ' ',
      h('span', { class: 'event-screen' }, step.screen),
      step.anomalies.length ? h('span', { class: 'anomaly-note' }, ` ${step.anomalies.join(', ')}`) : null,
      step.effects.length ? h('span', { class: 'effects' }, step.effects.join('; ')) : null))));
    // The cursor's row is scrolled into the list's view, never the page (the list is its rows' offset parent).
    const current = list.querySelector('[aria-current=true]');
    if (current && (current.offsetTop < list.scrollTop || current.offsetTop + current.offsetHeight > list.scrollTop + list.clientHeight)) {
      list.scrollTop = current.offsetTop - (list.clientHeight - current.offsetHeight) / 2;
    }
  }

  kind.addEventListener('change', draw);
  search.addEventListener('input', draw);
  return {
    element: root,
    /** The steps known (sorted by seq). */
    setSteps(all) {
      steps = all;
      for (const step of all) {
        if (!kinds.has(step.type)) {
          kinds.add(step.type);
          kind.append(h('option', { value: step.type }, step.type));
        }
      }
      draw();
    },
    /** Marks the row of `seq`. */
    show(seq) {
      cursor = seq;
      draw();
    },
  };
}
