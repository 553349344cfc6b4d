// One session: the timeline, the state at the cursor drawn as the app
// shows it, the event list, play, a pin to diff against, and a second
// session side by side (`b=`). The address bar follows the cursor.
import { getJSON, getNDJSON, q } from './api.js';
import { h, replace, ready, announce, failure } from './dom.js';
import { drawScenes, annotateBlame } from './scene.js';
import { timeline, lowerBound, MAX_MARKERS } from './timeline.js';
import { eventList } from './events.js';
import { changes, diffTable } from './diff.js';
import { compareView } from './compare.js';

/** States fetched on each side of a seq not fetched yet. */
const BLOCK = 25;
/** Steps fetched around the cursor when the whole session is too long to fetch. */
const WINDOW = 500;
/** Play: the longest wait between two events when idle time is skipped (ms). */
const SKIPPED_IDLE_MS = 400;

export async function sessionView(main, id, params) {
  const base = `/v1/sessions/${q(id)}`;
  const end = await getJSON(`${base}/state`);
  const last = end.seq;
  // What the page fetched, by seq: the state there and where its visible
  // screens are. The cursor's own comes alone; those around it a block at a
  // time (one fold on the server), so most cursor moves draw from here.
  const views = new Map();
  const single = (seq) => Promise.all([getJSON(`${base}/state?at=${seq}`), getJSON(`${base}/visible?at=${seq}`)])
    .then(([state, visible]) => ({ state, visible }));
  // A fetch that failed is forgotten, so that the next move asks again.
  const keep = (seq, promise) => {
    views.set(seq, promise);
    promise.catch(() => { if (views.get(seq) === promise) views.delete(seq); });
    return promise;
  };
  const fetchView = (seq) => views.get(seq) ?? keep(seq, single(seq));
  // The states of `from`…`to` not fetched yet, in one request.
  const fetchBlock = (from, to) => {
    const missing = [];
    for (let s = Math.max(1, from); s <= Math.min(last, to); s++) if (!views.has(s)) missing.push(s);
    if (!missing.length) return;
    const block = getNDJSON(`${base}/states?from=${missing[0]}&to=${missing[missing.length - 1]}`);
    for (const s of missing) {
      keep(s, block.then((lines) => {
        const found = lines.find((line) => line.state.seq === s);
        return found ? { state: found.state, visible: found.visible } : single(s);
      }));
    }
  };
  const fetchState = (seq) => fetchView(seq).then((view) => view.state);

  const whole = last <= MAX_MARKERS;
  let steps = [];
  const loaded = { from: Infinity, to: -Infinity };
  async function load(from, to) {
    from = Math.max(1, from);
    to = Math.min(last, to);
    if (from >= loaded.from && to <= loaded.to) return;
    const got = await getNDJSON(`${base}/replay?from=${from}&to=${to}`);
    // The steps kept are one run of seqs: a window apart from it replaces it.
    if (to + 1 < loaded.from || from > loaded.to + 1) {
      steps = [];
      loaded.from = Infinity;
      loaded.to = -Infinity;
    }
    const bySeq = new Map(steps.map((s) => [s.seq, s]));
    for (const s of got) bySeq.set(s.seq, s);
    steps = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    loaded.from = Math.min(loaded.from, from);
    loaded.to = Math.max(loaded.to, to);
    events.setSteps(steps);
  }

  const requested = Number.parseInt(params.get('at') ?? '', 10);
  let cursor = Number.isFinite(requested) ? Math.max(0, Math.min(requested, last)) : last;
  const pinned = Number.parseInt(params.get('pin') ?? '', 10);
  let pin = Number.isFinite(pinned) ? Math.max(0, Math.min(pinned, last)) : null;
  const other = params.get('b');

  const events = eventList({ onMove: (seq) => move(seq) });
  // A long session's steps come a window at a time, beside the first drawing.
  if (whole) await load(1, last); else load(cursor - WINDOW, cursor + WINDOW).catch(() => {});
  const first = steps.length ? steps[0].seq : 1;
  const line = timeline({
    steps: whole ? steps : null, range: { first: whole ? first : 1, last },
    onMove: (seq) => move(seq),
    onKey: (key) => {
      performance.mark('navlog-cursor-start');
      if (key === 'Home') move(whole ? first : 1, true);
      else if (key === 'End') move(last, true);
      else move(neighbour(key === 'ArrowRight' ? 1 : -1), true);
    },
  });

  function neighbour(direction) {
    if (!steps.length || cursor < steps[0].seq - 1 || cursor > steps[steps.length - 1].seq) {
      return Math.max(0, Math.min(last, cursor + direction));
    }
    const i = lowerBound(steps, cursor);
    if (direction > 0) {
      const j = steps[i] && steps[i].seq === cursor ? i + 1 : i;
      return j < steps.length ? steps[j].seq : Math.min(last, cursor + 1);
    }
    return i > 0 ? steps[i - 1].seq : Math.max(0, cursor - 1);
  }

  const scenes = h('div', { class: 'scenes', 'aria-label': 'state at the cursor' });
  const diffPanel = h('section', { class: 'diff', 'data-testid': 'diff', 'aria-label': 'difference from the pin' });
  const pinButton = h('button', { type: 'button', 'data-testid': 'pin', onclick: () => { pin = cursor; draw(); } }, 'Pin');
  const speed = h('select', { 'aria-label': 'play speed' }, [1, 2, 4, 8].map((x) => h('option', { value: x }, `${x}×`)));
  const skip = h('input', { type: 'checkbox', id: 'skip-idle', checked: true });
  const playButton = h('button', { type: 'button', 'aria-pressed': 'false', onclick: () => toggle() }, 'Play');
  const where = h('span', { class: 'where' });
  const heading = h('h2', {}, `Session ${id}`);
  const facts = h('p', { class: 'facts' }, `last seq ${last}${end.t ? ` at ${end.t}` : ''}`);
  getJSON(base).then((summary) => {
    facts.textContent = `${summary.events} events · app ${summary.appVersion ?? '?'} · ${summary.first} – ${summary.last}`;
  }).catch(() => {});
  const compare = other ? compareView(id, other) : null;
  replace(main, heading, facts,
    h('div', { class: 'controls' },
      h('button', { type: 'button', onclick: () => move(neighbour(-1), true), 'aria-label': 'previous event' }, '←'),
      playButton, speed, h('label', { for: 'skip-idle' }, skip, ' skip idle'),
      h('button', { type: 'button', onclick: () => move(neighbour(1), true), 'aria-label': 'next event' }, '→'),
      pinButton, where),
    line.element,
    compare ? compare.element : null,
    h('div', { class: 'session-body' }, compare ? null : scenes, events.element),
    compare ? null : diffPanel);

  // Blame (who put each card there) is asked for when the pointer or focus comes to the state.
  let blamed = null;
  const blame = () => {
    if (blamed !== null || compare) return;
    blamed = cursor;
    const token = drawing;
    getJSON(`${base}/blame?at=${blamed}`).then((answer) => { if (token === drawing) annotateBlame(scenes, answer); }).catch(() => {});
  };
  scenes.addEventListener('pointerenter', blame);
  scenes.addEventListener('focusin', blame);

  let drawing = 0;
  let opened = false;
  async function draw() {
    const token = ++drawing;
    ready(false);
    const at = cursor;
    try {
      const { state, visible } = await fetchView(at);
      if (token !== drawing) return;
      if (compare) await compare.show(at, state, visible); else replace(scenes, drawScenes(state, visible));
      if (token !== drawing) return;
      line.show(at);
      events.show(at);
      where.textContent = `seq ${at} of ${last}${state.t ? ` · ${state.t}` : ''}`;
      document.body.dataset.at = String(at);
      const screens = Object.entries(state.scenes).map(([scene, s]) => (Object.keys(state.scenes).length > 1 ? `${scene || '(unnamed)'} ${s.screen}` : s.screen));
      announce(`seq ${at}: ${screens.join('; ') || 'no scene'}`);
      const url = new URL(window.location.href);
      url.searchParams.set('at', String(at));
      if (pin !== null) url.searchParams.set('pin', String(pin));
      window.history.replaceState(null, '', url);
      if (!compare) await drawDiff(state, token);
      if (token !== drawing) return;
      ready(true);
      if (!opened) { opened = true; performance.mark('navlog-open-done'); }
      if (performance.getEntriesByName('navlog-cursor-start', 'mark').length) {
        performance.mark('navlog-cursor-done');
        performance.measure('navlog-cursor', 'navlog-cursor-start', 'navlog-cursor-done');
        performance.clearMarks('navlog-cursor-start');
      }
      prefetch(at);
      blamed = null;
      if (scenes.matches(':hover') || scenes.contains(document.activeElement)) blame();
    } catch (error) {
      if (token === drawing) { replace(scenes, failure(error.message)); ready(true); }
    }
  }

  async function drawDiff(state, token) {
    if (pin === null) { replace(diffPanel, h('p', { class: 'hint' }, 'Pin a point to see what changed since.')); return; }
    const pinned = await fetchState(pin);
    if (token !== drawing) return;
    replace(diffPanel, diffTable(`From seq ${pin} (pinned) to seq ${state.seq}`, changes(pinned, state)));
  }

  function prefetch(at) {
    const half = BLOCK / 2;
    for (let s = Math.max(1, at - half); s <= Math.min(last, at + half); s++) {
      if (!views.has(s)) { fetchBlock(at - BLOCK, at + BLOCK); break; }
    }
    if (!whole && (at - loaded.from < 50 || loaded.to - at < 50)) load(at - WINDOW, at + WINDOW).catch(() => {});
  }

  function move(seq, keepFocus) {
    cursor = Math.max(0, Math.min(last, seq));
    draw();
    if (keepFocus) line.element.focus();
  }

  let timer = null;
  function toggle() {
    if (timer !== null) { stop(); return; }
    playButton.textContent = 'Pause';
    playButton.setAttribute('aria-pressed', 'true');
    const tick = () => {
      const next = neighbour(1);
      if (next <= cursor) { stop(); return; }
      const i = lowerBound(steps, cursor);
      const j = lowerBound(steps, next);
      let wait = steps[i] && steps[j] ? Date.parse(steps[j].t) - Date.parse(steps[i].t) : 250;
      wait /= Number(speed.value);
      if (skip.checked) wait = Math.min(wait, SKIPPED_IDLE_MS);
      timer = setTimeout(() => { move(next); tick(); }, Math.max(16, wait));
    };
    tick();
  }
  function stop() {
    clearTimeout(timer);
    timer = null;
    playButton.textContent = 'Play';
    playButton.setAttribute('aria-pressed', 'false');
  }

  await draw();
  line.element.focus();
}
