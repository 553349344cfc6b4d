// The timeline: a marker per event coloured by kind (a bucket per range of
// seqs when there are too many to draw), deep links and anomalies marked,
// idle gaps shaded, the cursor shown. Keys move the cursor; a click jumps.
import { h } from './dom.js';

/** The most markers drawn one per event; above, buckets. */
export const MAX_MARKERS = 2000;
/** A gap between two events longer than this (ms) is idle. */
export const IDLE_MS = 30000;

/** A kind's family, for its colour: `stack.push` → `stack`. */
export function family(kind) {
  const dot = kind.indexOf('.');
  return dot < 0 ? kind : kind.slice(0, dot);
}

/**
 * The timeline element. `steps` are replay steps (seq, t, type, anomalies)
 * when every event is known, else `null` with `range` {first, last} drawn
 * as buckets. `onMove(seq)` is called for a click; `onKey(key)` for
 * ArrowLeft/ArrowRight/Home/End.
 */
export function timeline({ steps, range, onMove, onKey }) {
  const track = h('div', { class: 'track' });
  const cursor = h('div', { class: 'cursor', 'aria-hidden': 'true' });
  const root = h('div', {
    class: 'timeline', 'data-testid': 'timeline', tabindex: 0, role: 'slider', 'aria-label': 'timeline: arrow keys move one event, Home and End to the start and end',
    'aria-valuemin': range.first, 'aria-valuemax': range.last,
    onkeydown: (event) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) {
        event.preventDefault();
        onKey(event.key);
      }
    },
  }, track);
  track.append(cursor);
  let position;
  if (steps && steps.length <= MAX_MARKERS) {
    const n = steps.length;
    position = (seq) => {
      const i = lowerBound(steps, seq);
      return n <= 1 ? 0 : (Math.min(i, n - 1) / (n - 1)) * 100;
    };
    steps.forEach((step, i) => {
      if (i > 0 && Date.parse(step.t) - Date.parse(steps[i - 1].t) > IDLE_MS) {
        const gap = h('div', { class: 'idle', title: `idle ${Math.round((Date.parse(step.t) - Date.parse(steps[i - 1].t)) / 1000)} s` });
        gap.style.left = `${position(steps[i - 1].seq)}%`;
        gap.style.width = `${position(step.seq) - position(steps[i - 1].seq)}%`;
        track.append(gap);
      }
      const special = step.anomalies.length ? ' anomaly' : step.type === 'url.open' ? ' deeplink' : '';
      const marker = h('button', {
        type: 'button', tabindex: -1, class: `marker kind-${family(step.type)}${special}`, 'data-testid': 'marker',
        'data-seq': step.seq, 'data-kind': step.type,
        title: `seq ${step.seq} ${step.type}${step.anomalies.length ? ` (${step.anomalies.join(', ')})` : ''}`,
        onclick: () => onMove(step.seq),
      });
      marker.style.left = `${position(step.seq)}%`;
      track.append(marker);
    });
  } else {
    const span = Math.max(1, range.last - range.first + 1);
    const buckets = Math.min(MAX_MARKERS / 4, span);
    position = (seq) => ((seq - range.first) / Math.max(1, span - 1)) * 100;
    for (let b = 0; b < buckets; b++) {
      const from = range.first + Math.floor((b * span) / buckets);
      const to = range.first + Math.floor(((b + 1) * span) / buckets) - 1;
      const marker = h('button', {
        type: 'button', tabindex: -1, class: 'marker bucket', 'data-testid': 'marker', 'data-seq': from, 'data-kind': 'bucket',
        'data-seq-from': from, 'data-seq-to': to, title: `seq ${from}–${to}`, onclick: () => onMove(from),
      });
      marker.style.left = `${position(from)}%`;
      track.append(marker);
    }
  }
  return {
    element: root,
    /** Shows the cursor after `seq`. */
    show(seq) {
      cursor.style.left = `${position(seq)}%`;
      root.setAttribute('aria-valuenow', seq);
      root.setAttribute('aria-valuetext', `seq ${seq}`);
    },
  };
}

/** The index of the first step whose seq is ≥ `seq` (steps sorted by seq). */
export function lowerBound(steps, seq) {
  let lo = 0;
  let hi = steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid].seq < seq) lo = mid + 1; else hi = mid;
  }
  return lo;
}
