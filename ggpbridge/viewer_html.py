"""The step-through page of a game view (`viewer.describe`): one self-contained HTML file.

No network and no framework: the view is embedded as JSON and a short script shows one step at
a time (previous / next buttons, the arrow keys, Home / End, a slider; `#N` in the address opens step N). Every step is also
written out in a <noscript> list, so the page says everything without a script, and a test can
find each step in the file.
"""
from __future__ import annotations

import html
import json

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;max-width:70em;color:#222}
h1{font-size:1.3em}nav{display:flex;gap:.6em;align-items:center;margin:.8em 0}
nav input[type=range]{flex:1}button{font-size:1em}
.step{border:1px solid #ccc;border-radius:6px;padding:.8em 1em}
.opts li.chosen{font-weight:bold;background:#e6f4e6}.seats{display:flex;flex-wrap:wrap;gap:1em;margin-top:.8em}
.seat{border:1px solid #ddd;border-radius:4px;padding:.5em .8em;min-width:16em;flex:1}
.seat.mover{border-color:#2a7;box-shadow:0 0 0 1px #2a7}.hidden{color:#888}
.card{font-family:ui-monospace,monospace;white-space:nowrap;margin-right:.5em;display:inline-block}code{font-family:ui-monospace,monospace}
.end{margin-top:1em;padding:.6em 1em;background:#f4f4f4;border-radius:6px}
"""

_SCRIPT = """
const V = JSON.parse(document.getElementById('view').textContent);
const S = V.steps, box = document.getElementById('step'), pos = document.getElementById('pos');
const slider = document.getElementById('slider');
let at = 0;
function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls; return e; }
function seats(sees, mover) {
  const d = el('div', undefined, 'seats');
  sees.forEach((v, p) => {
    const s = el('div', undefined, 'seat' + (p === mover ? ' mover' : ''));
    s.appendChild(el('strong', 'player ' + p + ' sees'));
    const ul = el('ul');
    v.locations.forEach(l => { const li = el('li');
      li.appendChild(el('code', l.where + ': '));
      if (l.cards) l.cards.forEach(c => li.appendChild(el('span', c, 'card')));
      else li.appendChild(el('span', l.hidden + ' hidden card' + (l.hidden === 1 ? '' : 's'), 'hidden'));
      ul.appendChild(li); });
    v.storages.forEach(t => ul.appendChild(el('li', t.name + ' = ' + t.value)));
    s.appendChild(ul); d.appendChild(s); });
  return d;
}
function show(i) {
  at = Math.max(0, Math.min(S.length, i)); slider.value = at; box.replaceChildren();
  history.replaceState(null, '', '#' + (at + 1));
  if (at === S.length) {
    pos.textContent = 'end (' + S.length + ' steps)';
    box.appendChild(el('h2', 'End: ' + V.end.node)); box.appendChild(seats(V.final, -1)); return;
  }
  const s = S[at];
  pos.textContent = 'step ' + (at + 1) + ' of ' + S.length;
  if (s.kind === 'chance') {
    box.appendChild(el('h2', 'Chance: ' + s.event + (s.where ? ' of ' + s.where : '')));
    box.appendChild(el('p', s.outcomes.length === 1
      ? 'outcome ' + s.outcomes[0] + ' of ' + s.of[0] + (s.detail ? ' (' + s.detail + ')' : '')
      : s.outcomes.length + ' draws (witness steps ' + s.first + '-' + s.last + '): ' + s.outcomes.join(' ')));
    return;
  }
  box.appendChild(el('h2', 'Player ' + s.player + ' chooses' + (s.options.length === 1 ? ' (forced)' : '')));
  const ol = el('ol', undefined, 'opts');
  s.options.forEach((o, k) => ol.appendChild(el('li', o, k === s.chosen ? 'chosen' : '')));
  box.appendChild(ol); box.appendChild(seats(s.sees, s.player));
}
slider.max = S.length;
document.getElementById('prev').onclick = () => show(at - 1);
document.getElementById('next').onclick = () => show(at + 1);
slider.oninput = () => show(+slider.value);
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowLeft') show(at - 1); else if (e.key === 'ArrowRight') show(at + 1);
  else if (e.key === 'Home') show(0); else if (e.key === 'End') show(S.length); else return;
  e.preventDefault(); });
// #N in the address opens step N (a link to a step); stepping keeps it up to date
show((parseInt(location.hash.slice(1), 10) || 1) - 1);
window.addEventListener('hashchange', () => show((parseInt(location.hash.slice(1), 10) || 1) - 1));
"""


def page(view: dict, heading: str) -> str:
    """The HTML page of a view, `heading` its title."""
    # "</" inside the JSON would end the script element early: a card named </script> cannot
    data = json.dumps(view, ensure_ascii=False).replace("</", "<\\/")
    steps = "\n".join(f"<li>{html.escape(step_line(s))}</li>" for s in view["steps"])
    end = view["end"]["node"]
    if view.get("status") not in (None, "finished"):   # a game shown up to where it stopped
        end = f"{view['status']}: {view.get('message') or end}"
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            f"<title>{html.escape(heading)}</title>\n<style>{_STYLE}</style></head><body>\n"
            f"<h1>{html.escape(heading)}</h1>\n"
            f"<nav><button id=\"prev\" title=\"left arrow\">&larr; previous</button>"
            f"<input id=\"slider\" type=\"range\" min=\"0\" value=\"0\" aria-label=\"step\">"
            f"<button id=\"next\" title=\"right arrow\">next &rarr;</button><span id=\"pos\"></span></nav>\n"
            f"<div id=\"step\" class=\"step\"></div>\n"
            f"<div class=\"end\">{html.escape(end)}</div>\n"
            f"<noscript><ol>\n{steps}\n</ol></noscript>\n"
            f"<script type=\"application/json\" id=\"view\">{data}</script>\n"
            f"<script>{_SCRIPT}</script>\n</body></html>\n")


def step_line(s: dict) -> str:
    """One step of a view as a line of text (the page's script-free list, and the CLI's trace)."""
    if s["kind"] == "chance":
        where = f" of {s['where']}" if s["where"] else ""
        if len(s["outcomes"]) == 1:
            return f"chance: {s['event']}{where}: outcome {s['outcomes'][0]} of {s['of'][0]}"
        return f"chance: {s['event']}{where}: {len(s['outcomes'])} draws"
    forced = " (forced)" if len(s["options"]) == 1 else f" (option {s['chosen'] + 1} of {len(s['options'])})"
    return f"player {s['player']}: {s['options'][s['chosen']]}{forced}"


__all__ = ["page", "step_line"]
