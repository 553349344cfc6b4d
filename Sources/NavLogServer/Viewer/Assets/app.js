// The viewer's entry: reads the address and draws the page it names.
import { h, replace, ready, failure } from './dom.js';
import { sessionView } from './session.js';
import { sessionList } from './sessions.js';
import { funnelView } from './funnels.js';

async function route() {
  const main = document.getElementById('main');
  const path = window.location.pathname;
  const params = new URLSearchParams(window.location.search);
  try {
    const match = /^\/sessions\/([^/]+)$/.exec(path);
    if (match) await sessionView(main, decodeURIComponent(match[1]), params);
    else if (path === '/funnels') await funnelView(main, params);
    else await sessionList(main, params);
  } catch (error) {
    replace(main, h('h2', {}, 'navlog'), failure(error.message));
  }
  ready(true);
}

route();
