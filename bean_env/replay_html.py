"""A recorded game as ONE self-contained HTML file that steps through it in a browser.

    from bean_env.replay_html import write_replay_html
    write_replay_html(game.record(), "game.html")      # or: bean-env replay game.json --html game.html

The page needs no network and loads nothing: the frames are embedded as JSON, the cards are drawn as
SVG by a small inline script. A *frame* is what one perspective sees after a number of actions; there
is one list of frames per seat, computed in Python from that seat's ``PlayerView`` (so a seat's
frames name only cards it could see, INFO-3), and one ``open`` list with every card (for review).
Controls: first / previous / next / last, a slider and a step box to jump, a seat selector, the arrow
keys. The URL hash ``#step=5&seat=1`` opens a step and perspective; ``clicks=N`` presses *next* N
times after loading (used by the browser tests).
"""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Union

from .cards import TYPES
from .engine.actions import Action, Kind
from .engine.game import Game, new_game
from .engine.views import mask_history
from .render import score_texts

# card colours per type code (fill, text)
COLOURS = ("#6b4423", "#e8d36b", "#3b6fb6", "#a52a2a", "#d9381e", "#8fa35a", "#7a6a3a", "#4caf50",
           "#2e8b57", "#c2b280", "#f0e68c", "#f5f5dc", "#c0392b", "#9acd32", "#5d3a1a")
TEXT_ON = ("#fff", "#222", "#fff", "#fff", "#fff", "#222", "#fff", "#222", "#fff", "#222", "#222", "#222",
           "#fff", "#222", "#fff")


def _record_of(source: Union[Game, dict, str, Path]) -> dict:
    if isinstance(source, Game):
        return source.record()
    if isinstance(source, (str, Path)):
        try:
            data = json.loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{source}: cannot read a game record: {exc}") from None
        if isinstance(data, dict) and "actions" not in data and str(data.get("format", "")).startswith("bean_env.game/"):
            s = data["state"]
            return {"variant": s["variant"], "config": s["config"], "seed": s["seed"], "actions": data["history"]}
        source = data
    if not isinstance(source, dict) or not {"variant", "seed", "actions"} <= set(source):
        raise ValueError("not a game record: expected a Game, or a dict/JSON file with keys variant, config, "
                         "seed, actions (game.record()) or game.to_json() output")
    return source


def _last_text(history: list, seat: int, state) -> str:
    """The last action as ``seat`` may read it (``mask_history``, run only over the tail it depends on:
    the offer or takeover that a hidden part belongs to)."""
    if not history:
        return ""
    last = history[-1]
    if last.kind not in (Kind.GIVE_HAND, Kind.HT_DEFEND):
        return str(last)
    k = len(history) - 1
    while k > 0 and history[k].kind not in (Kind.OFFER, Kind.HT_ATTACK):
        k -= 1
    return str(mask_history(history[k:], seat, state)[-1])


def frame(game: Game, seat: int | None) -> dict:
    """What ``seat`` sees now (``None``: every card), as compact JSON-able data."""
    if seat is None:
        s = game.state
        last = str(game.history[-1]) if game.history else ""
    else:
        view = game.view(seat)
        s = view.state
        last = _last_text(game.history, seat, s)
    n = s.n
    offer = None
    if s.o_prop >= 0:
        hand = s.hands[s.o_prop]
        hidden = seat is not None and s.decision == "compose" and s.o_prop != seat  # positions not yet shown
        offer = {"from": s.o_prop, "to": s.o_to,
                 "gh": [[-1, -1] if hidden else [i, hand[i] if i < len(hand) else -1] for i in s.o_hand],
                 "gt": list(s.o_trade), "w": list(s.o_want), "pend": list(s.o_pending), "acc": list(s.o_accept)}
    mafia = None
    if hasattr(s, "treasury"):
        from .engine.mafia import BOSS_NAMES, THRESHOLDS
        mafia = {"b": [[s.btype[b] if s.bcount[b] else -1, s.bcount[b], BOSS_NAMES[b], THRESHOLDS[b]]
                       for b in range(len(s.btype))], "t": len(s.treasury)}
    return {
        "t": s.turn, "a": s.active, "x": s.actor, "d": s.decision, "o": s.over,
        "h": [list(h) for h in s.hands],
        "f": [[[s.ftype[p * 3 + f] if s.fcount[p * 3 + f] else -1, s.fcount[p * 3 + f]]
               for f in range(s.nfields[p])] for p in range(n)],
        "c": [len(c) for c in s.coins],
        "p": [sorted(c) for c in s.to_plant],
        "u": sorted(s.face_up),
        "dc": len(s.discard), "dt": s.discard[-1] if s.discard else -1,
        "k": len(s.deck), "r": s.runouts, "l": s.limit,
        "of": offer, "m": mafia, "e": game.rules.render_extra(s).strip(),
        "last": last,
    }


def replay_data(source: Union[Game, dict, str, Path]) -> dict:
    """Every frame of a recorded game for every perspective, plus what the page needs to draw cards."""
    record = _record_of(source)
    game = new_game(record["variant"], seed=record["seed"], **record.get("config", {}))
    n = game.num_players
    perspectives: dict[str, list] = {"open": []}
    perspectives.update({str(p): [] for p in range(n)})
    actors: list[int] = []

    def snap():
        perspectives["open"].append(frame(game, None))
        for p in range(n):
            perspectives[str(p)].append(frame(game, p))

    snap()
    for a in record["actions"]:
        action = Action.from_json(a) if isinstance(a, list) else a
        actors.append(game.current_player)
        game.apply(action)
        snap()
    result = None
    if game.is_over:
        result = {"scores": game.scores(), "score_text": score_texts(game), "winners": game.winners(), "mafia": game.mafia_score(),
                  "truncated": game.is_truncated}
    types = [{"name": t.name, "meter": list(t.meter), "count": t.count, "fill": COLOURS[i], "ink": TEXT_ON[i]}
             for i, t in enumerate(TYPES)]
    return {"variant": record["variant"], "config": game.config, "seed": record["seed"], "n": n,
            "types": types, "actors": actors, "frames": perspectives, "result": result}


def replay_html(source: Union[Game, dict, str, Path], title: str | None = None) -> str:
    """The self-contained HTML page of a recorded game (see the module docstring)."""
    data = replay_data(source)
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    title = title or f"bean_env replay: {data['variant']} seed {data['seed']}"
    return (_PAGE.replace("__TITLE__", html.escape(title)).replace("__DATA__", payload))


def write_replay_html(source: Union[Game, dict, str, Path], path: Union[str, Path], title: str | None = None) -> Path:
    """Write the replay page of ``source`` (a Game, a record dict or a record/game JSON file) to ``path``."""
    out = Path(path)
    out.write_text(replay_html(source, title), encoding="utf-8")
    return out


_PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>__TITLE__</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#2f4f2f;color:#f4f1e8}
header{background:#1e331e;padding:8px 12px;display:flex;flex-wrap:wrap;gap:8px;align-items:center}
header h1{font-size:16px;margin:0 12px 0 0}
button{font-size:14px;padding:3px 9px}
#jump{width:260px}
#status{padding:6px 12px;background:#264026;font-size:14px}
#main{display:flex;gap:10px;padding:10px}
#table{flex:1;display:flex;flex-direction:column;gap:8px}
#center,.seat{background:#3d633d;border-radius:8px;padding:8px}
.seat.active{outline:3px solid #f5c542}.seat.deciding .name::after{content:"  \2190 decides";color:#f5c542}
.row{display:flex;flex-wrap:wrap;gap:6px;align-items:flex-end;margin:4px 0}
.lbl{font-size:12px;opacity:.8;min-width:64px}
.field{display:inline-flex;flex-direction:column;align-items:center;background:#2a472a;border-radius:6px;padding:3px}
.field .cnt{font-size:12px}
.card{display:inline-block;position:relative}
.offer{background:#5a4a1e;border-radius:6px;padding:6px;margin-top:6px}
#log{width:300px;padding-left:40px!important;max-height:80vh;overflow:auto;background:#1e331e;border-radius:8px;padding:6px;font-size:12px}
#log li.cur{background:#f5c542;color:#222}
#result{font-weight:bold;color:#f5c542}
.extra{white-space:pre-wrap;font-family:monospace;font-size:12px}
</style></head>
<body>
<header><h1 id="title">__TITLE__</h1>
<button id="first" title="first step">|&#x25C0;</button><button id="prev" title="previous (left arrow)">&#x25C0;</button>
<button id="next" title="next (right arrow)">&#x25B6;</button><button id="last" title="last step">&#x25B6;|</button>
<input id="jump" type="range" min="0" value="0"> step <input id="stepbox" type="number" min="0" value="0" style="width:64px">
<span>/ <span id="nsteps"></span></span>
<label>seen by <select id="seat"></select></label>
</header>
<div id="status"><span id="step-label"></span> <span id="info"></span><div id="result"></div></div>
<div id="main"><div id="table"><div id="center"></div><div id="seats"></div></div>
<ol id="log" start="1"></ol></div>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const NS = "http://www.w3.org/2000/svg";
const N = D.frames.open.length - 1;
let step = 0, seat = "open";
const $ = id => document.getElementById(id);
function el(tag, cls, text){const e=document.createElement(tag); if(cls) e.className=cls; if(text!==undefined) e.textContent=text; return e;}
function svg(tag, attrs, text){const e=document.createElementNS(NS, tag); for(const k in attrs) e.setAttribute(k, attrs[k]); if(text!==undefined) e.textContent=text; return e;}
function card(code, count){
  const w=58,h=84, wrap=el("span","card");
  const s=svg("svg",{width:w,height:h,viewBox:`0 0 ${w} ${h}`});
  if(code<0){
    wrap.classList.add("back"); wrap.dataset.type="?";
    s.appendChild(svg("rect",{x:1,y:1,width:w-2,height:h-2,rx:6,fill:"#7b5b2e",stroke:"#3b2a12"}));
    s.appendChild(svg("text",{x:w/2,y:h/2+8,"text-anchor":"middle","font-size":24,fill:"#e9d8a6"},"?"));
  } else {
    const t=D.types[code]; wrap.dataset.type=t.name; wrap.title=t.name+" ("+t.count+" cards)";
    s.appendChild(svg("rect",{x:1,y:1,width:w-2,height:h-2,rx:6,fill:t.fill,stroke:"#111"}));
    s.appendChild(svg("text",{x:w/2,y:18,"text-anchor":"middle","font-size":t.name.length>7?9:11,"font-weight":"bold",fill:t.ink},t.name));
    s.appendChild(svg("circle",{cx:w/2,cy:38,r:9,fill:"rgba(255,255,255,.35)"}));
    const m=t.meter.map((v,i)=>v===null?null:[v,i+1]).filter(x=>x);
    s.appendChild(svg("text",{x:w/2,y:h-18,"text-anchor":"middle","font-size":8,fill:t.ink},m.length?m.map(x=>x[0]).join(" ")+"":"no meter"));
    s.appendChild(svg("text",{x:w/2,y:h-8,"text-anchor":"middle","font-size":8,fill:t.ink},m.length?m.map(x=>x[1]+"c").join(" "):""));
  }
  if(count!==undefined){s.appendChild(svg("circle",{cx:w-12,cy:h-30,r:10,fill:"#111"}));
    s.appendChild(svg("text",{x:w-12,y:h-26,"text-anchor":"middle","font-size":11,fill:"#fff",class:"count"},String(count)));}
  wrap.appendChild(s); return wrap;
}
function who(p){return (seat!=="open" && String(p)===seat) ? "you (player "+p+")" : "player "+p;}
function cards(row, codes){for(const c of codes) row.appendChild(card(c));}
function render(){
  const F=D.frames[seat][step];
  $("jump").value=step; $("stepbox").value=step;
  $("step-label").textContent="Step "+step+" of "+N;
  $("info").textContent=" | turn "+F.t+" | active "+who(F.a)+" | "+(F.o?"game over":"decision '"+F.d+"' of "+who(F.x))
    +(step>0?" | last: "+who(D.actors[step-1])+": "+F.last:"");
  const C=$("center"); C.replaceChildren();
  let r=el("div","row"); r.appendChild(el("span","lbl","deck"));
  const deck=card(-1, F.k); deck.id="deck"; r.appendChild(deck);
  r.appendChild(el("span","lbl","discard ("+F.dc+")")); if(F.dt>=0){const d=card(F.dt); d.id="discard-top"; r.appendChild(d);}
  r.appendChild(el("span","lbl","run-outs "+F.r+"/"+F.l)); C.appendChild(r);
  r=el("div","row"); r.id="faceup"; r.appendChild(el("span","lbl", D.variant==="bohnanza"?"trade area":"face up")); cards(r,F.u); C.appendChild(r);
  if(F.of){const o=el("div","offer"); o.id="offer";
    const to=F.of.to>=D.n?"all":who(F.of.to);
    o.appendChild(el("div","", "Offer by "+who(F.of.from)+" to "+to+(F.of.pend.length?" | to answer: "+F.of.pend.map(who).join(", "):"")+(F.of.acc.length?" | accepted: "+F.of.acc.map(who).join(", "):"")));
    const g=el("div","row"); g.appendChild(el("span","lbl","gives")); for(const [i,c] of F.of.gh){const k=card(c); if(i>=0) k.title="hand card "+(i+1); g.appendChild(k);} cards(g,F.of.gt); o.appendChild(g);
    const w=el("div","row"); w.appendChild(el("span","lbl","wants")); cards(w,F.of.w); o.appendChild(w); C.appendChild(o);}
  if(F.m){r=el("div","row"); r.id="mafia"; r.appendChild(el("span","lbl","mafia: "+F.m.t+" coins"));
    for(const [t,c,name,th] of F.m.b){const f=el("span","field"); f.appendChild(el("span","cnt",name+" (>="+th+")")); f.appendChild(t>=0?card(t,c):el("span","cnt","empty")); r.appendChild(f);} C.appendChild(r);}
  if(F.e){C.appendChild(el("div","extra",F.e));}
  const S=$("seats"); S.replaceChildren();
  for(let p=0;p<D.n;p++){
    const box=el("div","seat"); box.dataset.seat=p; if(p===F.a) box.classList.add("active"); if(p===F.x && !F.o) box.classList.add("deciding");
    box.appendChild(el("div","name",who(p)+" | coins "+F.c[p]+" | hand "+F.h[p].length));
    let row=el("div","row fields"); row.appendChild(el("span","lbl","fields"));
    F.f[p].forEach(([t,c],i)=>{const f=el("span","field"); f.dataset.field=i+1; f.appendChild(el("span","cnt","field "+(i+1))); f.appendChild(t>=0?card(t,c):el("span","cnt","empty")); row.appendChild(f);});
    box.appendChild(row);
    row=el("div","row hand"); row.appendChild(el("span","lbl","hand")); cards(row,F.h[p]); box.appendChild(row);
    if(F.p[p].length){row=el("div","row toplant"); row.appendChild(el("span","lbl","to plant")); cards(row,F.p[p]); box.appendChild(row);}
    S.appendChild(box);
  }
  const L=$("log"); L.replaceChildren();
  for(let i=1;i<=step;i++){const li=el("li",i===step?"cur":"",who(D.actors[i-1])+": "+D.frames[seat][i].last); L.appendChild(li);}
  if(L.lastChild) L.lastChild.scrollIntoView({block:"nearest"});
  const R=$("result"); R.textContent="";
  if(step===N && D.result){R.textContent="Result: scores "+D.result.score_text.join(", ")+" | winners "+(D.result.winners.length?D.result.winners.map(w=>"player "+w).join(", "):"none")
    +(D.result.mafia!==null?" | mafia "+D.result.mafia:"")+(D.result.truncated?" (truncated)":"");}
  try{history.replaceState(null,"","#step="+step+"&seat="+seat);}catch(e){}
}
function go(k){step=Math.max(0,Math.min(N,k)); render();}
function init(){
  $("nsteps").textContent=N; $("jump").max=N; $("stepbox").max=N;
  const sel=$("seat"); sel.appendChild(new Option("everyone (all cards)","open"));
  for(let p=0;p<D.n;p++) sel.appendChild(new Option("player "+p,String(p)));
  $("first").onclick=()=>go(0); $("prev").onclick=()=>go(step-1); $("next").onclick=()=>go(step+1); $("last").onclick=()=>go(N);
  $("jump").oninput=e=>go(+e.target.value); $("stepbox").onchange=e=>go(+e.target.value||0);
  sel.onchange=e=>{seat=e.target.value; render();};
  document.addEventListener("keydown",e=>{if(e.key==="ArrowRight")go(step+1); else if(e.key==="ArrowLeft")go(step-1);});
  const q=new URLSearchParams(location.hash.slice(1)); 
  if(q.has("seat") && (q.get("seat")==="open" || D.frames[q.get("seat")])) seat=q.get("seat");
  sel.value=seat; go(+q.get("step")||0);
  const clicks=+q.get("clicks")||0; for(let i=0;i<clicks;i++) $("next").click();
  document.body.dataset.ready="1";
}
init();
</script></body></html>
"""
