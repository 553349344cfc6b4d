"""How the viewer's pages read, checked in the browser (used by viewer_check.py).

Each check takes the Selenium driver of a page that is drawn and returns its
first problem as one line, or None. They measure the page as laid out: what
fits the window, what shares a line, what a focused control shows.
"""

import math

# The focused element's ring: [name, problem or null]; null when focus left the page.
FOCUS_RING = (
    "const el = document.activeElement; if (!el || el === document.body) return null;"
    "const css = getComputedStyle(el); const width = parseFloat(css.outlineWidth) || 0;"
    "const offset = parseFloat(css.outlineOffset) || 0; const name = `${el.tagName.toLowerCase()}.${el.className}`;"
    "if (css.outlineStyle === 'none' || width < 2) return [name, `no focus ring (outline ${css.outlineStyle} ${css.outlineWidth})`];"
    "const r = el.getBoundingClientRect(); const reach = width + offset;"
    "for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {"
    " const o = getComputedStyle(box); if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;"
    " const b = box.getBoundingClientRect();"
    " if (reach > 0 && (r.left - reach < b.left + box.clientLeft || r.right + reach > b.left + box.clientLeft + box.clientWidth))"
    "  return [name, `its ring is cut off by the scrolling ${box.className}`];"
    " break; }"
    "return [name, null];")

# The session list's rows: every id on one line, every cell inside the window, no box scrolling sideways.
SESSION_ROWS = (
    "const out = []; const w = window.innerWidth;"
    "for (const box of document.querySelectorAll('.table-wrap')) {"
    " if (box.scrollWidth > box.clientWidth + 1) out.push(`the list scrolls in its box (${box.scrollWidth} px in ${box.clientWidth})`); }"
    "for (const row of document.querySelectorAll('[data-testid=session-row]')) {"
    " const link = row.querySelector('a');"
    " if (link.getClientRects().length !== 1) out.push(`${row.dataset.session}: the id breaks over lines`);"
    " for (const cell of row.children) { const r = cell.getBoundingClientRect();"
    "  if (r.left < 0 || r.right > w + 1) out.push(`${row.dataset.session}: a cell reaches ${Math.round(r.right)} px`); } }"
    "return out;")

# Each funnel step as drawn: the bar's and its track's widths, the count's text, where the label and the count sit.
FUNNEL_ROWS = (
    "return [...document.querySelectorAll('[data-testid=funnel-step]')].map(li => {"
    " const r = (s) => li.querySelector(s).getBoundingClientRect();"
    " return {bar: r('.bar').width, track: r('.bar-track').width, text: li.querySelector('.step-count').textContent,"
    " name: [r('.step-name').top, r('.step-name').bottom, r('.step-name').right],"
    " count: [r('.step-count').top, r('.step-count').bottom, r('.step-count').left]}; })")


def focus_rings(driver, limit=80):
    """Tabs through the page from the skip link (its first control), by keyboard only, at most `limit` times:
    each control focused shows a ring that no scrolling box cuts off."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    driver.execute_script("document.querySelector('.skip').focus()")
    seen = set()
    for _ in range(limit):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        found = driver.execute_script(FOCUS_RING)
        if found is None:
            break
        name, problem = found
        if problem:
            return f"focus on {name}: {problem}"
        seen.add(name)
    if len(seen) < 3:
        return f"Tab reached only {sorted(seen)}"
    return None


def sign_out(driver, wanted):
    """"Sign out" is shown exactly when the server asks for keys (`wanted`)."""
    from selenium.webdriver.common.by import By
    shown = any(b.is_displayed() for b in driver.find_elements(By.CSS_SELECTOR, ".signout button"))
    if shown != wanted:
        return f"Sign out is {'shown' if shown else 'hidden'}, the server {'asks' if wanted else 'asks no'} key"
    return None


def session_rows(driver):
    """The session list reads in the window: no id broken over lines, no cell off screen, nothing scrolling sideways."""
    problems = driver.execute_script(SESSION_ROWS)
    return f"{problems[0]} ({len(problems)} problems)" if problems else None


def funnel_rows(driver, wanted):
    """Each step's bar fills its track by the share `navlog funnel --json` gives (`wanted`: its steps), the
    percentage says the same share, the caption names the sessions that reached step 1 (that share's base), and
    the count reads on the label's line, after it."""
    from selenium.webdriver.common.by import By
    captions = [c.text for c in driver.find_elements(By.CSS_SELECTOR, ".funnel-chart figcaption")]
    if wanted and not any(f"{wanted[0]['sessions']} reached step 1" in c for c in captions):
        return f"the caption {captions} does not name the {wanted[0]['sessions']} sessions that reached step 1 (the bars' 100%)"
    for row, step in zip(driver.execute_script(FUNNEL_ROWS), wanted):
        share = step["conversion_from_start"] or 0
        if abs(row["bar"] / row["track"] - share) > 0.01:
            return (f"step {step['step']}'s bar fills {row['bar'] / row['track']:.2f} of its track, "
                    f"navlog funnel says {share:.2f} of those that started")
        percent = math.floor(share * 100 + 0.5)  # as the page's Math.round
        if f"({percent}%)" not in row["text"]:
            return f"step {step['step']} says {row['text']!r}, not {percent}%"
        if row["count"][0] >= row["name"][1] or row["name"][0] >= row["count"][1] or row["count"][2] < row["name"][2]:
            return f"step {step['step']}'s count is not on its label's line"
    return None
