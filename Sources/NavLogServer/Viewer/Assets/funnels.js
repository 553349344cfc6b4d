// Funnels: the steps, window and breakdown in a form (POST /v1/funnel);
// a bar per step; a click on a step's drop-off lists the sessions that
// left there (POST /v1/funnel/dropoffs), each a link that opens the
// session at the moment it left.
import { postJSON, q } from './api.js';
import { h, replace, ready, announce, failure } from './dom.js';

export async function funnelView(main, params) {
  const steps = h('input', { id: 'f-steps', name: 'steps', 'data-testid': 'funnel-steps', required: true, value: params.get('steps') ?? '', placeholder: 'tab:home, Recipe/*, mark:purchase' });
  const windowInput = h('input', { id: 'f-window', name: 'window', 'data-testid': 'funnel-window', value: params.get('window') ?? '', placeholder: '10m' });
  const by = h('input', { id: 'f-by', name: 'by', value: params.get('by') ?? '', placeholder: 'app.version' });
  const result = h('section', { class: 'funnel-result', 'aria-live': 'polite' });
  const dropoffs = h('section', { class: 'dropoffs', 'aria-label': 'sessions that left' });
  const form = h('form', { 'data-testid': 'funnel-form', class: 'funnel-form', onsubmit: (event) => { event.preventDefault(); run(); } },
    h('label', { for: 'f-steps' }, 'Steps (screens, comma-separated)', steps),
    h('label', { for: 'f-window' }, 'Within', windowInput),
    h('label', { for: 'f-by' }, 'By field', by),
    h('button', { type: 'submit', 'data-testid': 'funnel-run' }, 'Run'));

  function question() {
    const list = steps.value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    const body = { steps: list };
    if (windowInput.value.trim()) body.within = windowInput.value.trim();
    return body;
  }

  async function run() {
    ready(false);
    replace(dropoffs);
    const body = question();
    if (by.value.trim()) body.by = by.value.trim();
    const url = new URL(window.location.href);
    url.search = '';
    url.searchParams.set('steps', body.steps.join(','));
    if (body.within) url.searchParams.set('window', body.within);
    if (body.by) url.searchParams.set('by', body.by);
    window.history.replaceState(null, '', url);
    try {
      const report = await postJSON('/v1/funnel', body);
      replace(result, report.segments.map((segment) => chart(report, segment)));
      announce(`funnel of ${report.steps.length} steps over ${report.sessions} sessions`);
    } catch (error) {
      replace(result, failure(error.message));
    }
    ready(true);
  }

  function chart(report, segment) {
    return h('figure', { class: 'funnel-chart' },
      h('figcaption', {}, segment.segment === null ? `${segment.sessions} sessions` : `${report.by} = ${segment.segment}: ${segment.sessions} sessions`,
        segment.steps.length ? `; ${segment.steps[0].sessions} reached step 1, the 100% of each bar` : ''),
      h('ol', { class: 'bars' }, segment.steps.map((row, k) => {
        const bar = h('span', { class: 'bar' });
        // The bar and its percentage are one number: the share of the sessions that reached step 1.
        const share = row.conversion_from_start ?? 0;
        bar.style.width = `${100 * share}%`;
        const previous = k > 0 ? segment.steps[k - 1].sessions : null;
        return h('li', { class: 'funnel-step', 'data-testid': 'funnel-step', 'data-step': row.step, 'data-count': row.sessions },
          h('span', { class: 'step-name' }, `${row.step}. ${row.pattern}`),
          h('span', { class: 'bar-track' }, bar),
          h('span', { class: 'step-count' }, `${row.sessions} (${Math.round(share * 100)}%)`),
          k > 0 ? h('button', { type: 'button', class: 'dropoff', 'data-testid': 'dropoff', 'data-step': row.step,
            onclick: () => showDropoffs(k) }, `${previous - row.sessions} left after step ${k}`) : null);
      })));
  }

  async function showDropoffs(reached) {
    ready(false);
    try {
      const left = await postJSON('/v1/funnel/dropoffs', { ...question(), reached });
      replace(dropoffs, h('h3', {}, `${left.sessions} sessions left after step ${reached}`),
        h('ul', {}, left.dropoffs.map((d) => h('li', {}, h('a', {
          'data-testid': 'dropoff-session', 'data-session': d.session, href: `/sessions/${q(d.session)}?at=${d.seq}`,
        }, d.session), ` left at seq ${d.seq} (${d.t})`))));
      const firstLink = dropoffs.querySelector('a');
      if (firstLink) firstLink.focus();
    } catch (error) {
      replace(dropoffs, failure(error.message));
    }
    ready(true);
  }

  replace(main, h('h2', {}, 'Funnels'), form, result, dropoffs);
  if (steps.value) await run();
}
