// Draws a state (GET /v1/sessions/{id}/state) the way the app shows it:
// per scene the tab bar with its selection, each stack as a row of cards,
// split columns, modals layered on top; the visible screen's element
// highlighted where the server says it is (GET …/visible). Nothing here
// decides what is visible: it draws what the server answered.
import { h } from './dom.js';

/** A route value's screen name: `type`, or `type/id` when it has an id (docs/events.md). */
export function screenName(value) {
  return value.id === undefined ? value.type : `${value.type}/${value.id}`;
}

function card(value) {
  return h('li', { class: 'card', 'data-testid': 'card', 'data-value': screenName(value), title: screenName(value) },
    h('span', { class: 'card-type' }, value.type),
    value.id === undefined ? null : h('span', { class: 'card-id' }, value.id));
}

function cards(values) {
  return h('ol', { class: 'cards' }, values.map((value) => card(value)));
}

function stack(name, values, selected) {
  return h('section', { class: `stack${selected ? ' current' : ''}`, 'data-testid': 'stack', 'data-stack': name, 'aria-label': `stack ${name}` },
    h('h4', {}, name, h('span', { class: 'count' }, ` ${values.length}`)),
    values.length ? cards(values) : h('p', { class: 'empty' }, 'empty'));
}

function tabbar(tabs) {
  const hidden = new Set(tabs.hidden);
  return h('div', { class: 'tabbar', 'data-testid': 'tabbar', role: 'tablist', 'aria-label': 'tabs' },
    tabs.order.map((tab) => h('span', {
      class: `tab${hidden.has(tab) ? ' hidden-tab' : ''}`, 'data-testid': 'tab', 'data-tab': tab, role: 'tab',
      'aria-selected': tabs.selected === tab ? 'true' : 'false',
    }, tab, hidden.has(tab) ? ' (hidden)' : '')));
}

function split(name, value) {
  return h('section', { class: 'split', 'data-testid': 'split', 'data-split': name, 'aria-label': `split ${name}` },
    h('h4', {}, `split ${name}`, h('span', { class: 'count' }, ` ${value.visibility}`)),
    h('div', { class: 'columns' }, ['sidebar', 'content', 'detail'].map((column) => h('div', {
      class: 'column', 'data-testid': 'column', 'data-column': column,
    }, h('h5', {}, column), value[column].length ? cards(value[column]) : h('p', { class: 'empty' }, 'none')))));
}

/** Marks the element the server named as the visible screen. */
function markVisible(section, place) {
  if (!place) return;
  const name = (place.name || '').replace(/["\\]/g, '\\$&');
  let el = null;
  switch (place.place) {
    case 'stack': {
      const list = section.querySelectorAll(`[data-testid=stack][data-stack="${name}"] [data-testid=card]`);
      el = list[list.length - 1];
      break;
    }
    case 'column':
      el = section.querySelector(`[data-testid=split][data-split="${name}"] [data-column="${place.column}"] [data-testid=card]`);
      break;
    case 'modal': el = section.querySelector(`[data-testid=modal][data-modal="${name}"]`); break;
    case 'tab': el = section.querySelector(`[data-testid=tab][data-tab="${name}"]`); break;
    case 'split': el = section.querySelector(`[data-testid=split][data-split="${name}"]`); break;
    default: el = section.querySelector('.scene-root');
  }
  if (el) el.dataset.visible = 'true';
}

/** The scenes of `state`, each with its visible screen marked from `visible` (`{scenes:{id:place}}`). */
export function drawScenes(state, visible) {
  const ids = Object.keys(state.scenes);
  if (ids.length === 0) return [h('p', { class: 'empty' }, `No scene yet at seq ${state.seq}.`)];
  return ids.map((id) => {
    const scene = state.scenes[id];
    const modalIds = new Set(scene.modals.map((m) => m.modal));
    const stackNames = Object.keys(scene.stacks).filter((name) => !modalIds.has(name));
    const section = h('section', { class: 'scene', 'data-testid': 'scene', 'data-scene': id, 'aria-label': `scene ${id || '(unnamed)'}` },
      h('header', { class: 'scene-head' },
        h('h3', {}, id === '' ? 'scene (unnamed)' : `scene ${id}`),
        h('span', { class: 'scene-root' }, 'showing '),
        h('strong', { class: 'screen', 'data-testid': 'visible-screen' }, scene.screen),
        scene.sizeClass ? h('span', { class: 'size' }, scene.sizeClass) : null),
      scene.tabs.order.length ? tabbar(scene.tabs) : null,
      h('div', { class: 'stacks' }, stackNames.map((name) => stack(name, scene.stacks[name], scene.tabs.selected === name))),
      Object.entries(scene.splits).map(([name, value]) => split(name, value)),
      scene.modals.length ? h('div', { class: 'modals' }, scene.modals.map((m, depth) => {
        const el = h('section', { class: `modal modal-${m.style}`, 'data-testid': 'modal', 'data-modal': m.modal, 'aria-label': `${m.style} ${m.modal}` },
          h('h4', {}, `${m.style} ${m.modal}`),
          scene.stacks[m.modal] ? stack(m.modal, scene.stacks[m.modal], false) : null);
        el.style.setProperty('--depth', String(depth));
        return el;
      })) : null);
    markVisible(section, visible && visible.scenes && visible.scenes[id]);
    return section;
  });
}

/** Why each card is there, from `navlog blame --json` (`blame`): its title says which event put it there and what caused that. */
export function annotateBlame(container, blame) {
  for (const section of container.querySelectorAll('[data-testid=scene]')) {
    const scene = blame.scenes && blame.scenes[section.dataset.scene];
    if (!scene) continue;
    for (const stackEl of section.querySelectorAll('[data-testid=stack]')) {
      const entries = scene.stacks && scene.stacks[stackEl.dataset.stack];
      if (!entries) continue;
      stackEl.querySelectorAll('[data-testid=card]').forEach((cardEl, i) => {
        const by = entries[i] && entries[i].by;
        if (!by) return;
        let cause = '';
        if (by.url) cause = `, caused by the deep link at seq ${by.url.seq} (${by.url.url})`;
        else if (by.cause !== undefined) cause = `, caused by seq ${by.cause}`;
        cardEl.title = `${cardEl.dataset.value}: ${by.type} at seq ${by.seq}${cause}`;
        cardEl.tabIndex = 0;
        if (!cardEl.querySelector('.blame')) cardEl.append(h('span', { class: 'blame' }, `seq ${by.seq}`));
      });
    }
  }
}
