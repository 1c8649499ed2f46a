// The board as SVG, from the layout the server sends (web/board.py): rows of pits top to bottom as
// player 0 sees them, a store at each end (two players) or counters below (one, three or four).
"use strict";

const SowBoard = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const R = 27, STEP = 68, PAD = 16, STORE_W = 58;
  const WOOD = "#c9a36b", WOOD_DARK = "#8a6a3d", PIT = "#6b4f2a";

  function el(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The colour a lit role shows: `lift` in the colour of the player to move, as the board lights it.
  function roleColour(role, colours, toMove) {
    if (role === "lift") return colours["lift" + (toMove == null ? 0 : toMove)] || colours.lift;
    return colours[role] || "#ff00ff";
  }

  // Whether a colour is light enough for dark text on it.
  function light(hex) {
    const v = parseInt(hex.slice(1), 16);
    return 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255) > 150;
  }

  // opts: {layout, counts, roles: {cell: [role, count]}, colours, toMove, focus (a cell), hand}
  function draw(opts) {
    const lay = opts.layout;
    const cols = Math.max(...lay.rows.map(r => r.length));
    const hasStores = lay.left != null || lay.right != null;
    const rows = lay.rows.length;
    const sideW = hasStores ? STORE_W + 12 : 0;
    const boardW = PAD * 2 + cols * STEP + sideW * 2;
    const counterH = lay.counters.length ? 72 : 0;
    const boardH = PAD * 2 + rows * STEP + (rows === 4 ? 10 : 0);
    const H = boardH + counterH + 24;   // and a line for the seeds in the hand
    const svg = el("svg", {viewBox: `0 0 ${boardW} ${H}`, width: boardW, height: H, class: "board",
                           role: "img", "aria-label": lay.title});
    svg.appendChild(el("rect", {x: 1, y: 1, width: boardW - 2, height: boardH - 2, rx: 26, fill: WOOD,
                                stroke: WOOD_DARK, "stroke-width": 2}));
    if (rows === 4) {
      const y = PAD + 2 * STEP + 5;
      svg.appendChild(el("line", {x1: PAD + sideW, x2: boardW - PAD - sideW, y1: y, y2: y, stroke: WOOD_DARK,
                                  "stroke-dasharray": "6 5"}));
    }
    const counts = opts.counts;
    const roles = opts.roles || {};
    const playerColour = p => (p == null ? "none" : opts.colours["lift" + p]);

    function cell(c, cx, cy, shape) {
      const g = el("g", {class: "cell", "data-cell": c, "data-name": lay.names[c] || String(c)});
      const lit = roles[c] || roles[String(c)];
      const fill = lit ? roleColour(lit[0], opts.colours, opts.toMove) : PIT;
      if (lit) { g.setAttribute("data-role", lit[0]); g.classList.add("lit"); }
      const owner = lay.owner[c];
      const ring = {stroke: playerColour(owner), "stroke-width": owner == null ? 0 : 3, "stroke-opacity": 0.55};
      let body;
      if (shape === "store") body = el("rect", Object.assign({x: cx - STORE_W / 2, y: cy - (rows * STEP) / 2 + 6,
        width: STORE_W, height: rows * STEP - 12, rx: 26, fill: fill, class: "pit"}, ring));
      else body = el("circle", Object.assign({cx: cx, cy: cy, r: shape === "counter" ? 20 : R, fill: fill, class: "pit"}, ring));
      g.appendChild(body);
      if (opts.focus === c) g.appendChild(el("circle", {cx: cx, cy: cy, r: R + 5, fill: "none", stroke: "#111",
                                                         "stroke-width": 3, class: "focus"}));
      const n = counts ? counts[c] : "";
      const txt = el("text", {x: cx, y: cy + 6, "text-anchor": "middle", class: "count",
                              fill: light(fill) ? "#111" : "#fff", "font-size": 18, "font-weight": "bold"},
                     n === undefined || n === null ? "" : String(n));
      g.appendChild(txt);
      const label = (lay.names[c] || String(c)) + (lit && lit[1] > 1 ? " \u00d7" + lit[1] : "");
      const ly = shape === "store" ? cy + (rows * STEP) / 2 - 14 : cy + R + 11;
      g.appendChild(el("text", {x: cx, y: ly, "text-anchor": "middle", class: "name", "font-size": 10, fill: "#3b2a12"}, label));
      g.appendChild(el("title", {}, (lay.names[c] || c) + ": " + (counts ? counts[c] : "?") + " seed(s)" +
                                     (lit ? ", LED: " + lit[0] : "")));
      svg.appendChild(g);
    }

    lay.rows.forEach((row, r) => {
      const y = PAD + r * STEP + STEP / 2 + (rows === 4 && r >= 2 ? 10 : 0);
      row.forEach((c, i) => cell(c, PAD + sideW + i * STEP + STEP / 2, y));
    });
    if (hasStores) {
      const cy = PAD + (rows * STEP) / 2 + (rows === 4 ? 5 : 0);
      if (lay.left != null) cell(lay.left, PAD + sideW / 2, cy, "store");
      if (lay.right != null) cell(lay.right, boardW - PAD - sideW / 2, cy, "store");
    }
    lay.counters.forEach((c, i) => {
      cell(c, PAD + 40 + i * 110, boardH + 30, "counter");
    });
    if (opts.hand) {
      svg.appendChild(el("text", {x: boardW - PAD, y: H - 5, "text-anchor": "end", class: "hand", "font-size": 13},
                         "in the hand: " + opts.hand));
    }
    return svg;
  }

  return {draw, roleColour};
})();
