// The web view: #/live (the board as it is), #/games (the archive), #/game/N (replay and analysis),
// #/stats, #/event (an event's boards from the broker) and #/event/BOARD/GAME (one of its games).  Data from the server's JSON API (docs/web.md); the board drawn by board.js.
"use strict";

const main = document.getElementById("main");
let META = {colours: {}, roles: {}, thresholds: {}};
let liveSource = null;
let leave = null;            // what the view shown needs undone when another is shown

function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
    else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) e.setAttribute(k, attrs[k]);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

async function api(path) {
  const r = await fetch(path);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

function signed(v) { return (v > 0 ? "+" : "") + v; }

function legend(roles, toMove) {
  const shown = [...new Set(Object.values(roles || {}).map(x => x[0]))];
  if (!shown.length) return h("p", {class: "muted"}, "No LED is lit.");
  return h("ul", {class: "legend"}, shown.map(r =>
    h("li", {}, h("span", {class: "swatch", style: "background:" + SowBoard.roleColour(r, META.colours, toMove)}),
      h("b", {}, r), " ", META.roles[r] || "")));
}

// ----- the live board ---------------------------------------------------------------------------

function showLive() {
  const boardBox = h("div", {id: "live-board", class: "board-box"});
  const info = h("div", {id: "live-info", class: "info"});
  const valuesBox = h("div", {id: "live-values"});
  const valuesBtn = h("button", {id: "live-analyse", onclick: async () => {
    valuesBtn.disabled = true;
    try {
      const a = await api("/api/live/analysis");
      valuesBox.replaceChildren(h("h3", {}, `Values of the moves for player ${a.to_move} (${a.depth} moves ahead, seeds)`),
        h("table", {class: "values", id: "live-values-table"}, h("tr", {}, h("th", {}, "move"), h("th", {}, "value")),
          a.moves.map(x => h("tr", {}, h("td", {}, x.notation), h("td", {class: "num"}, signed(x.value))))));
    } catch (e) {
      valuesBox.replaceChildren(h("p", {class: "warn"}, e.message));
    }
    valuesBtn.disabled = false;
  }}, "Values of the moves");
  main.replaceChildren(h("h1", {}, "Live board"), h("div", {class: "split"}, boardBox, info),
                       h("div", {class: "controls"}, valuesBtn), valuesBox);
  const conn = document.getElementById("conn");
  function render(s) {
    document.body.dataset.liveVersion = s.version;
    if (!s.layout) {
      boardBox.replaceChildren(h("p", {class: "message", id: "live-message"}, s.message || "no board"));
      info.replaceChildren();
      return;
    }
    boardBox.replaceChildren(SowBoard.draw({layout: s.layout, counts: s.counts, roles: s.roles, colours: META.colours,
                                            toMove: s.to_move, hand: s.hand,
                                            focus: s.step ? s.step[1] : null}));
    const rows = [
      ["board", s.board ? s.board.describe : "none"],
      ["game", s.title ? `${s.title} (board game ${s.board_game}, ply ${s.ply})` : "none"],
      ["to move", s.over ? "game over" : (s.to_move == null ? "-" : "player " + s.to_move)],
      ["phase", s.phase || "-"],
      ["hint", s.hint ? (s.hint_pits && s.hint_pits.length ? s.hint_pits.join(", ") : "on") : "off"],
      ["last move", s.last_move && s.last_move.name ? `player ${s.last_move.player}: ${s.last_move.name}` : "-"],
    ];
    if (s.hand) rows.push(["in the hand", String(s.hand)]);
    if (s.over) rows.push(["result", s.over.winner == null ? "a draw" : `player ${s.over.winner} wins`,
                           ]);
    info.replaceChildren(...[
      h("table", {class: "facts", id: "live-facts"}, rows.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {"data-fact": k}, v)))),
      s.mismatch ? h("p", {class: "warn"}, "The board flags a mistake: put it right, or undo.") : null,
      s.error ? h("p", {class: "warn"}, s.error) : null,
      s.message ? h("p", {class: "muted"}, s.message) : null,
      h("h3", {}, "What the LEDs ask for"), legend(s.roles, s.to_move)].filter(Boolean));
  }
  liveSource = new EventSource("/api/live/events");
  liveSource.onmessage = ev => render(JSON.parse(ev.data));
  liveSource.onopen = () => { conn.textContent = "live"; conn.className = "conn on"; };
  liveSource.onerror = () => { conn.textContent = "reconnecting\u2026"; conn.className = "conn off"; };
  leave = () => { liveSource.close(); liveSource = null; conn.textContent = ""; };
}

// ----- an event: every board broadcasting to it, live ---------------------------------------------

function resultText(over, winner, scores) {
  return (winner == null ? "a draw" : `player ${winner} wins`) + (scores ? " (" + scores.join("\u2013") + ")" : "");
}

async function showEvent() {
  const about = h("p", {id: "event-about", class: "muted"});
  const grid = h("div", {id: "event-grid", class: "event-grid"});
  main.replaceChildren(h("h1", {}, "Event"), about, grid);
  const a = await api("/api/event");
  if (!a.event) { about.textContent = "This server shows no event: start it with --event NAME (and --broker URL)."; return; }
  main.firstChild.textContent = "Event: " + a.event;
  about.textContent = `Every board broadcasting to ${a.topics} on ${a.broker}; a board opens its game.`;
  const shown = {};            // board -> its cell's element
  function cell(c) {
    const facts = [
      h("div", {class: "cell-title"}, h("b", {}, c.title || c.variant || "?"), c.shape ? ` \u00b7 ${c.shape}` : ""),
      h("div", {"data-fact": "ply"}, `game ${c.game} \u00b7 ply ${c.ply} \u00b7 ${c.moves} move${c.moves === 1 ? "" : "s"}` +
        (c.last_move ? ` \u00b7 last ${c.last_move}` : "")),
      h("div", {"data-fact": "turn"}, c.over ? resultText(c.over, c.winner, c.scores) :
        (c.to_move == null ? "-" : `player ${c.to_move} to move`) + (c.players ? ` \u00b7 ${c.players} players` : "")),
    ];
    const picture = c.layout ? SowBoard.draw({layout: c.layout, counts: c.counts, roles: {}, colours: META.colours,
                                              toMove: c.to_move})
                             : h("p", {class: "muted"}, c.variant ? `a game of ${c.variant}, which this version cannot draw`
                                                                  : "no position yet");
    return h("a", {class: "event-cell" + (c.online ? "" : " offline"), href: `#/event/${encodeURIComponent(c.board)}/${c.game}`,
                   "data-board": c.board, "data-game": c.game, "data-ply": c.ply, "data-moves": c.moves,
                   title: c.online ? "open the game" : "its host is not connected now"},
      h("div", {class: "cell-board"}, c.board, c.online ? null : h("span", {class: "warn"}, " (offline)")),
      picture, ...facts);
  }
  function render(c) {
    const e = cell(c);
    const old = shown[c.board];
    if (old) old.replaceWith(e);
    else {
      const after = Object.keys(shown).sort().find(b => b > c.board);
      grid.insertBefore(e, after ? shown[after] : null);
    }
    shown[c.board] = e;
    document.body.dataset.eventBoards = Object.keys(shown).length;
  }
  const conn = document.getElementById("conn");
  const source = new EventSource("/api/event/events");
  source.onmessage = ev => render(JSON.parse(ev.data));
  source.onopen = () => { conn.textContent = "live"; conn.className = "conn on"; };
  source.onerror = () => { conn.textContent = "reconnecting\u2026"; conn.className = "conn off"; };
  leave = () => { source.close(); conn.textContent = ""; };
}

// ----- the archive --------------------------------------------------------------------------------

async function showGames(params) {
  const form = h("form", {id: "filters", class: "filters"});
  const list = h("div", {id: "games-list"});
  main.replaceChildren(h("h1", {}, "Games"), form, list);
  const data = await api("/api/games?" + params.toString());
  const select = (name, values, label) => h("label", {}, label + " ",
    h("select", {name}, h("option", {value: ""}, "any"),
      values.map(v => h("option", {value: v, selected: params.get(name) === v ? "selected" : null}, v))));
  form.append(
    h("label", {}, "player ", h("input", {name: "player", value: params.get("player") || "", size: 12})),
    select("variant", data.variants, "variant"), select("board", data.boards, "board"),
    select("result", data.results, "result"),
    h("label", {}, "from ", h("input", {type: "date", name: "since", value: params.get("since") || ""})),
    h("label", {}, "to ", h("input", {type: "date", name: "until", value: params.get("until") || ""})),
    h("button", {type: "submit"}, "Filter"));
  form.addEventListener("submit", ev => {
    ev.preventDefault();
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v) p.set(k, v);
    location.hash = "#/games?" + p.toString();
  });
  if (!data.games.length) { list.append(h("p", {class: "muted"}, "No games match.")); return; }
  list.append(h("table", {class: "games"},
    h("thead", {}, h("tr", {}, ["#", "date", "variant", "players", "result", "moves", "board"].map(x => h("th", {}, x)))),
    h("tbody", {}, data.games.map(g => h("tr", {"data-game": g.number},
      h("td", {}, h("a", {href: "#/game/" + g.number}, String(g.number))),
      h("td", {}, (g.started || "?").slice(0, 10)), h("td", {}, g.variant),
      h("td", {}, g.players.join("; ")), h("td", {}, g.result), h("td", {class: "num"}, String(g.moves)),
      h("td", {}, g.board ? g.board + (g.board_game != null ? " #" + g.board_game : "") : ""))))));
}

// ----- one game: replay and analysis ----------------------------------------------------------------

// `base`: the game's address in the API, /api/games/N or /api/event/boards/BOARD/games/G.
async function showGame(base) {
  const d = await api(base);
  const st = {ply: 0, frame: null, timer: null, analysis: null};
  const boardBox = h("div", {id: "replay-board", class: "board-box"});
  const status = h("p", {id: "replay-status", class: "status"});
  const movesBox = h("div", {id: "moves", class: "moves"});
  const valuesBox = h("div", {id: "values"});
  const graphBox = h("div", {id: "graph"});
  const shareBox = h("div", {id: "share"});
  const btn = (id, label, title, fn) => h("button", {id, title, onclick: fn}, label);
  const controls = h("div", {class: "controls"},
    btn("first", "\u00ab", "the start", () => go(0)), btn("back", "\u25c0", "one move back (\u2190)", () => go(st.ply - 1)),
    btn("forward", "\u25b6", "one move on (\u2192)", () => go(st.ply + 1)),
    btn("last", "\u00bb", "the end", () => go(d.plies.length)),
    btn("animate", "sow \u25b7", "the next move, seed by seed", animate),
    h("a", {href: `${base}/record.txt`, download: "", id: "dl-record"}, "record"),
    h("a", {href: `${base}/record.json`, download: "", id: "dl-json"}, "JSON"));
  const fromEvent = d.number == null;
  const newer = h("p", {id: "newer", class: "muted"},
    fromEvent && d.result === "*" ? "The game goes on on the board." : null);
  const analyseBtn = h("button", {id: "analyse", onclick: analyse}, "Analyse");
  main.replaceChildren(
    h("h1", {}, fromEvent ? `${d.layout.title}: board game ${d.board_game}` : `Game ${d.number}: ${d.layout.title}`),
    h("p", {class: "muted"}, `${d.players.join("; ")} \u00b7 ${(d.started || "date unknown").slice(0, 10)} \u00b7 ${d.result}` +
      (d.reason ? ` (${d.reason})` : "") + (d.board ? ` \u00b7 board ${d.board}` : "")),
    h("div", {class: "split"}, h("div", {}, boardBox, status, controls),
      h("div", {class: "info"}, h("h3", {}, "Moves"), movesBox, analyseBtn, shareBox)),
    graphBox, valuesBox);
  if (fromEvent) {
    main.insertBefore(h("p", {}, h("a", {href: "#/event", id: "back-event"}, "\u2190 the event")), main.firstChild);
    main.insertBefore(newer, main.children[3]);
  }

  // The move list in the variant's notation, turns and round numbers as the record writes them.
  const moveEls = [];
  let ply = 0;
  for (const tok of d.movetext) {
    if (/^\d+\.(\.\.)?$/.test(tok)) { movesBox.append(h("span", {class: "num"}, tok + " ")); continue; }
    if (tok.startsWith("{Setup")) { ply += 1; const p = ply; moveEls[p] = h("a", {class: "mv setup", onclick: () => go(p)}, "{setup}"); movesBox.append(moveEls[p], " "); continue; }
    if (tok === d.result && ply === d.plies.length) { movesBox.append(h("span", {class: "result"}, tok)); continue; }
    tok.split(",").forEach((name, i) => {
      ply += 1;
      const p = ply;
      moveEls[p] = h("a", {class: "mv", "data-ply": p, onclick: () => go(p), title: "ply " + p}, name);
      if (i) movesBox.append(",");
      movesBox.append(moveEls[p]);
    });
    movesBox.append(" ");
  }

  function draw() {
    const pos = d.positions[st.ply];
    const fr = st.frame;
    const lastMove = st.ply > 0 ? d.plies[st.ply - 1] : null;
    boardBox.replaceChildren(SowBoard.draw({layout: d.layout, counts: fr ? fr.counts : pos.counts, roles: {},
      colours: META.colours, toMove: pos.to_move, hand: fr ? fr.hand : 0, focus: fr ? fr.step[1] : null}));
    boardBox.dataset.ply = st.ply;
    let text = st.ply === 0 ? "the start" : `after ply ${st.ply}` + (lastMove.kind === "move" ?
      `: player ${lastMove.player} played ${lastMove.notation}` : ": a position set by hand");
    if (fr) text = `ply ${st.ply + 1}, ${d.plies[st.ply].notation}: ${fr.step[0]}` + (fr.step[1] >= 0 ? " " + d.layout.names[fr.step[1]] : "");
    else text += pos.over ? ` \u2014 game over (${pos.over.reason})` : ` \u2014 player ${pos.to_move} to move`;
    status.textContent = text;
    moveEls.forEach((e, i) => e && e.classList.toggle("current", i === st.ply));
    drawValues();
    drawGraph();
  }

  function go(p) {
    stop();
    st.ply = Math.max(0, Math.min(d.plies.length, p));
    draw();
  }

  function stop() { if (st.timer) { clearInterval(st.timer); st.timer = null; } st.frame = null; }

  function animate() {
    stop();
    const move = d.plies[st.ply];
    if (!move || !move.frames.length) { go(st.ply + 1); return; }
    let i = 0;
    st.frame = move.frames[0];
    draw();
    st.timer = setInterval(() => {
      i += 1;
      if (i >= move.frames.length) { const next = st.ply + 1; stop(); go(next); return; }
      st.frame = move.frames[i];
      draw();
    }, 350);
  }

  async function analyse() {
    analyseBtn.disabled = true;
    analyseBtn.textContent = "Analysing\u2026";
    try {
      st.analysis = await api(`${base}/analysis`);
    } catch (e) {
      analyseBtn.textContent = "Analysis failed: " + e.message;
      return;
    }
    analyseBtn.textContent = `Analysed (${st.analysis.depth} moves ahead)`;
    for (const m of st.analysis.moves) {
      const e = moveEls[m.ply];
      if (!e) continue;
      e.classList.add(m.verdict);
      e.title = `ply ${m.ply}: ${signed(m.value)} (best ${m.best} ${signed(m.best_value)}) \u2014 ${m.verdict}`;
    }
    shareBox.replaceChildren(h("h3", {}, "Share of best moves"),
      h("table", {class: "facts", id: "share-table"}, st.analysis.share.map(s => h("tr", {},
        h("th", {}, `player ${s.player} (${s.name})`),
        h("td", {}, s.share == null ? "no choice" : `${Math.round(100 * s.share)}% (${s.best} of ${s.moves})`)))),
      h("p", {class: "muted"}, `A mistake loses ${st.analysis.thresholds.mistake} seeds or more against the best move; ` +
        `a blunder ${st.analysis.thresholds.blunder} or more, or gives up a win.`),
      st.analysis.mistakes.length ? h("ul", {id: "mistakes"}, st.analysis.mistakes.map(m => h("li", {class: m.verdict},
        h("a", {onclick: () => go(m.ply - 1)}, `ply ${m.ply}`), ` player ${m.player}: ${m.notation} (${signed(m.value)}) ` +
        `where ${m.best} (${signed(m.best_value)}): ${m.verdict}`))) : h("p", {}, "No mistakes."));
    draw();
  }

  // Every legal move's value in the position shown (the move about to be played).
  function drawValues() {
    const a = st.analysis;
    if (!a) { valuesBox.replaceChildren(); return; }
    const m = a.moves.find(x => x.ply === st.ply + 1);
    if (!m) { valuesBox.replaceChildren(h("p", {class: "muted"}, "No move to value here.")); return; }
    valuesBox.replaceChildren(h("h3", {}, `Values of the moves for player ${m.player} (ply ${m.ply})`),
      h("table", {class: "values", id: "values-table"}, h("tr", {}, h("th", {}, "move"), h("th", {}, "value")),
        m.moves.map(x => h("tr", {class: x.notation === m.notation ? "played" : null},
          h("td", {}, x.notation + (x.notation === m.notation ? " (played)" : "")), h("td", {class: "num"}, signed(x.value))))));
  }

  // The evaluation graph: the best value of each position, player 0's view (two players).
  function drawGraph() {
    const a = st.analysis;
    if (!a || !a.graph.length) { graphBox.replaceChildren(); return; }
    const NS = "http://www.w3.org/2000/svg";
    const W = 720, H = 180, P = 28;
    const vals = a.graph.map(g => g.value);
    const top = Math.max(4, ...vals.map(Math.abs));
    const x = i => P + (W - 2 * P) * (a.graph.length > 1 ? i / (a.graph.length - 1) : 0.5);
    const y = v => H / 2 - (H / 2 - P / 2) * v / top;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("width", W); svg.setAttribute("height", H);
    svg.setAttribute("id", "eval-graph"); svg.setAttribute("class", "graph");
    const add = (name, attrs) => { const e = document.createElementNS(NS, name); for (const k in attrs) e.setAttribute(k, attrs[k]); svg.appendChild(e); return e; };
    add("rect", {x: 0, y: 0, width: W, height: H, fill: "#fafafa", stroke: "#ddd"});
    add("line", {x1: P, x2: W - P, y1: y(0), y2: y(0), stroke: "#999", "stroke-dasharray": "4 4"});
    const pts = a.graph.map((g, i) => `${x(i)},${y(g.value)}`).join(" ");
    add("polygon", {points: `${x(0)},${y(0)} ${pts} ${x(a.graph.length - 1)},${y(0)}`, fill: "#1565c0", "fill-opacity": 0.15});
    add("polyline", {points: pts, fill: "none", stroke: "#1565c0", "stroke-width": 2});
    const flagged = new Set(a.mistakes.map(m => m.ply));
    a.graph.forEach((g, i) => {
      const c = add("circle", {cx: x(i), cy: y(g.value), r: flagged.has(g.ply) ? 5 : 3,
                               fill: flagged.has(g.ply) ? "#c62828" : "#1565c0", class: "pt", "data-ply": g.ply});
      c.addEventListener("click", () => go(g.ply - 1));
      const t = document.createElementNS(NS, "title"); t.textContent = `ply ${g.ply}: ${signed(g.value)}`; c.appendChild(t);
    });
    const cur = a.graph.findIndex(g => g.ply === st.ply + 1);
    if (cur >= 0) add("line", {x1: x(cur), x2: x(cur), y1: 4, y2: H - 4, stroke: "#111", "stroke-width": 1});
    const lab = (text, yy) => { const t = add("text", {x: 4, y: yy, "font-size": 11, fill: "#555"}); t.textContent = text; };
    lab(signed(top), P / 2 + 4); lab(signed(-top), H - 6);
    graphBox.replaceChildren(h("h3", {}, "Evaluation (" + (a.view === "player 0" ? "player 0's view" : "the mover's view") + ", seeds)"), svg);
  }

  const keys = ev => {
    if (ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowLeft") go(st.ply - 1);
    if (ev.key === "ArrowRight") go(st.ply + 1);
  };
  document.addEventListener("keydown", keys);
  // An event's game in progress: say when the board has gone on (the page shows the moves it opened with).
  const follow = fromEvent && d.result === "*" ? new EventSource("/api/event/events") : null;
  if (follow) follow.onmessage = ev => {
    const c = JSON.parse(ev.data);
    if (c.board !== d.board || c.game !== d.board_game || c.ply <= d.held) return;
    newer.replaceChildren(`The board has gone on to ply ${c.ply}: `, h("a", {id: "newer-show", onclick: route}, "show it"));
  };
  leave = () => { stop(); document.removeEventListener("keydown", keys); if (follow) follow.close(); };
  draw();
}

// ----- statistics ------------------------------------------------------------------------------------

async function showStats() {
  main.replaceChildren(h("h1", {}, "Statistics"), h("p", {class: "muted"}, "Counting\u2026"));
  const s = await api("/api/stats");
  const plot = (id, svg) => { const d = h("div", {class: "plot-box", id}); d.innerHTML = svg; return d; };
  const pct = v => v == null ? "-" : Math.round(100 * v) + "%";
  main.replaceChildren(h("h1", {}, "Statistics"), h("p", {}, `${s.games} game(s) in the archive.`),
    plot("plot-results", s.plots.results), plot("plot-first", s.plots.first),
    h("table", {class: "games", id: "first-table"}, h("tr", {}, ["variant", "games", "finished", "first player won", "draws", "median moves"].map(x => h("th", {}, x))),
      s.variants.map(v => h("tr", {}, h("td", {}, v.variant), h("td", {class: "num"}, String(v.games)),
        h("td", {class: "num"}, String(v.finished)), h("td", {class: "num"}, pct(v.first_share)),
        h("td", {class: "num"}, String(v.draws)), h("td", {class: "num"}, v.median_moves == null ? "-" : String(v.median_moves))))),
    plot("plot-lengths", s.plots.lengths));
}

// ----- routing ------------------------------------------------------------------------------------------

async function route() {
  if (leave) { leave(); leave = null; }
  const hash = location.hash || (META.event ? "#/event" : "#/live");
  const [path, query] = hash.slice(1).split("?");
  const parts = path.split("/").filter(Boolean);
  document.querySelectorAll("nav a").forEach(a => a.classList.toggle("here", a.id === "nav-" + (parts[0] === "game" ? "games" : parts[0])));
  try {
    if (parts[0] === "games") await showGames(new URLSearchParams(query || ""));
    else if (parts[0] === "game" && parts[1]) await showGame("/api/games/" + encodeURIComponent(parts[1]));
    else if (parts[0] === "event" && parts[2]) {
      await showGame(`/api/event/boards/${encodeURIComponent(decodeURIComponent(parts[1]))}/games/${encodeURIComponent(parts[2])}`);
    }
    else if (parts[0] === "event") await showEvent();
    else if (parts[0] === "stats") await showStats();
    else showLive();
  } catch (e) {
    main.replaceChildren(h("p", {class: "warn", id: "error"}, String(e.message || e)));
  }
  document.body.dataset.view = parts[0] || "live";
}

(async () => {
  try { META = await api("/api/meta"); } catch (e) { /* drawn with the default colours */ }
  if (META.event) document.getElementById("nav-event").hidden = false;
  window.addEventListener("hashchange", route);
  route();
})();
