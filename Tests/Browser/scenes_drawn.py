"""The state as the viewer draws it and as `navlog state --json` says it should be drawn (used by viewer_check.py)."""


# What the page draws of the state, read from its stable hooks.
DRAWN_JS = """
const owner = (card) => card.closest('[data-testid=stack],[data-testid=column]');
const cards = (el) => [...el.querySelectorAll('[data-testid=card]')].filter(c => owner(c) === el).map(c => c.dataset.value);
const scenes = {};
for (const s of document.querySelectorAll('[data-testid=scene]')) {
  const q = (sel) => [...s.querySelectorAll(sel)].filter(e => e.closest('[data-testid=scene]') === s);
  const screen = q('[data-testid=visible-screen]');
  const stacks = {};
  for (const st of q('[data-testid=stack]')) stacks[st.dataset.stack] = cards(st);
  const splits = {};
  for (const sp of q('[data-testid=split]')) {
    const cols = {};
    for (const c of sp.querySelectorAll('[data-testid=column]')) cols[c.dataset.column] = cards(c);
    splits[sp.dataset.split] = cols;
  }
  const tabs = q('[data-testid=tab]');
  const selected = tabs.filter(t => t.getAttribute('aria-selected') === 'true').map(t => t.dataset.tab);
  const visible = q('[data-visible=true]').map(e => ({testid: e.dataset.testid, value: e.dataset.value,
    tab: e.dataset.tab, modal: e.dataset.modal, split: e.dataset.split}));
  scenes[s.dataset.scene] = {
    screen: screen.length === 1 ? screen[0].textContent.trim() : `(${screen.length} visible-screen elements)`,
    tabs: tabs.map(t => t.dataset.tab), selected: selected.length ? selected : [null],
    stacks, splits, modals: q('[data-testid=modal]').map(m => m.dataset.modal), visible};
}
const status = document.querySelector('[role=status]');
return {scenes, status: status ? status.textContent.trim() : null, at: document.body.dataset.at};
"""


def screen_name(value):
    return value["type"] + ("/" + value["id"] if value.get("id") is not None else "")


def expected_scenes(state):
    out = {}
    for name, scene in state["scenes"].items():
        tabs = scene.get("tabs") or {}
        splits = {}
        for split, columns in (scene.get("splits") or {}).items():
            splits[split] = {col: [screen_name(v) for v in columns.get(col, [])] for col in ("sidebar", "content", "detail")}
        out[name] = {
            "screen": scene["screen"],
            "tabs": list(tabs.get("order") or []),
            "selected": [tabs.get("selected")],
            "stacks": {stack: [screen_name(v) for v in values] for stack, values in (scene.get("stacks") or {}).items()},
            "splits": splits,
            "modals": [m["modal"] for m in scene.get("modals") or []],
        }
    return out


def visible_problem(scene, drawn):
    screen, shown = scene["screen"], drawn["visible"]
    if screen == "root":
        return None if len(shown) <= 1 else f"{len(shown)} elements marked visible at root"
    kind, _, name = screen.partition(":")
    if kind == "tab" and name:
        want = lambda e: e["tab"] == name  # noqa: E731
    elif kind == "modal" and name:
        want = lambda e: e["modal"] == name  # noqa: E731
    elif kind == "split" and name:
        want = lambda e: e["split"] == name  # noqa: E731
    else:
        want = lambda e: e["value"] == screen  # noqa: E731
    if len(shown) != 1 or not want(shown[0]):
        return f"data-visible marks {shown}, not the element of {screen}"
    return None
