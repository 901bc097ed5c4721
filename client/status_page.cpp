// The live status page: the HTML, CSS and JavaScript as one raw string literal.
#include "client/status_page.h"

namespace client {

namespace {

// The whole page. Its script draws everything from the JSON of status_render.h; see
// status_page.h for what it loads and the DOM hooks tests rely on.
constexpr const char* kStatusPageHtml = R"sashite_page(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>sashite status</title>
<style>
:root {
  color-scheme: light dark;
  --bg: #f4f4f2; --panel: #ffffff; --text: #1d1f21; --muted: #6b6f75; --line: #d9dadc;
  --accent: #2f6fdf; --good: #1f8a4c; --bad: #c0392b; --warn: #b7791f;
  --ours: #2f6fdf; --theirs: #d9822b; --row: #f0f1f3; --hl: rgba(47, 111, 223, 0.12);
  --wood: #e9c98d; --wood-line: #6d5530; --piece: #f7e7c4; --piece-line: #8a6d3b;
  --ink: #1b1b1b; --promoted: #b3261e; --dest: rgba(255, 166, 0, 0.55); --orig: #d9822b;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #16181b; --panel: #1f2226; --text: #e3e5e8; --muted: #9aa0a6; --line: #33373d;
    --accent: #6ea0ff; --good: #4cc38a; --bad: #ff6b5e; --warn: #e6b450;
    --ours: #6ea0ff; --theirs: #f0a35e; --row: #262a2f; --hl: rgba(110, 160, 255, 0.16);
    --wood: #c9a66b; --wood-line: #4a3a20;
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body {
  background: var(--bg); color: var(--text);
  font: 14px/1.4 system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Noto Sans CJK JP",
    "Yu Gothic", sans-serif;
}
header {
  display: flex; align-items: center; gap: 14px; flex-wrap: nowrap; overflow: hidden;
  padding: 0 16px; background: var(--panel); border-bottom: 1px solid var(--line);
  height: 48px; white-space: nowrap;
}
header .brand { font-weight: 700; font-size: 16px; letter-spacing: 0.02em; }
header .item { color: var(--muted); white-space: nowrap; }
header .shrink { min-width: 0; overflow: hidden; text-overflow: ellipsis; }
header .item b { color: var(--text); font-weight: 600; }
header .spacer { flex: 1; }
.badge {
  display: inline-block; padding: 2px 9px; border-radius: 10px; font-weight: 600;
  background: var(--row); color: var(--muted); white-space: nowrap;
}
.badge.good { background: rgba(31, 138, 76, 0.15); color: var(--good); }
.badge.warn { background: rgba(183, 121, 31, 0.16); color: var(--warn); }
.badge.bad { background: rgba(192, 57, 43, 0.15); color: var(--bad); }
main {
  display: grid; grid-template-columns: 452px minmax(0, 1fr) 268px; gap: 12px;
  padding: 12px 16px; height: calc(100vh - 49px); min-height: 600px;
}
section { min-height: 0; }
.panel {
  background: var(--panel); border: 1px solid var(--line); border-radius: 8px;
  padding: 10px 12px;
}
.panel h2 {
  margin: 0 0 6px; font-size: 12px; font-weight: 600; text-transform: uppercase;
  letter-spacing: 0.06em; color: var(--muted);
}
#board-panel { display: flex; flex-direction: column; gap: 6px; }
.player {
  display: flex; align-items: center; gap: 10px; padding: 6px 10px; border-radius: 8px;
  background: var(--panel); border: 1px solid var(--line); min-height: 50px;
}
.player.to-move { border-color: var(--accent); box-shadow: inset 4px 0 0 var(--accent); }
.player .hand { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.player .mark { font-weight: 700; }
.player .pname { font-weight: 600; }
.player .you { color: var(--accent); font-size: 12px; margin-left: 4px; }
.player .pieces {
  font-family: "Hiragino Mincho ProN", "Yu Mincho", "Noto Serif CJK JP", "Noto Sans CJK JP", serif;
  font-size: 16px;
}
.clockbox { text-align: right; }
.clock {
  display: inline-block; font: 600 22px/1.1 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  font-variant-numeric: tabular-nums; padding: 2px 6px; border-radius: 6px; min-width: 92px;
  text-align: right;
}
.to-move .clock { background: var(--hl); }
.clock.low { color: var(--bad); }
.clock-note { display: block; font-size: 11px; color: var(--muted); }
#board-wrap { position: relative; }
#board { display: block; width: 100%; height: auto; }
#board .b-bg { fill: var(--wood); stroke: var(--wood-line); stroke-width: 2; }
#board .b-line { stroke: var(--wood-line); stroke-width: 1; }
#board .b-star { fill: var(--wood-line); }
#board .b-lbl { fill: var(--muted); font-size: 13px; }
#board .last-to { fill: var(--dest); }
#board .last-from { fill: none; stroke: var(--orig); stroke-width: 2.5; stroke-dasharray: 5 3; }
#board .pc-body { fill: var(--piece); stroke: var(--piece-line); stroke-width: 1; }
#board .pc-text {
  fill: var(--ink); font-size: 25px;
  font-family: "Hiragino Mincho ProN", "Yu Mincho", "Noto Serif CJK JP", "Noto Sans CJK JP", serif;
}
#board .pc-text.promoted { fill: var(--promoted); }
#board-note {
  position: absolute; left: 0; right: 22px; top: 45%; text-align: center; color: var(--ink);
  font-weight: 600; pointer-events: none;
}
.board-tools { display: flex; justify-content: space-between; color: var(--muted); font-size: 12px; }
#middle { display: flex; flex-direction: column; gap: 10px; min-height: 0; }
#info-grid { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; }
#info-grid .k { color: var(--muted); }
#info-grid .v { overflow-wrap: anywhere; }
#eval-graph { display: block; width: 100%; height: auto; max-height: 170px; }
#eval-graph .axis { stroke: var(--line); stroke-width: 1; }
#eval-graph .zero { stroke: var(--muted); stroke-width: 1; }
#eval-graph .lbl { fill: var(--muted); font-size: 10px; }
#eval-graph .ours { stroke: var(--ours); fill: none; stroke-width: 1.6; }
#eval-graph .theirs { stroke: var(--theirs); fill: none; stroke-width: 1.6; }
#eval-graph .dot-ours { fill: var(--ours); }
#eval-graph .dot-theirs { fill: var(--theirs); }
#pv {
  font-family: "Hiragino Mincho ProN", "Yu Mincho", "Noto Serif CJK JP", "Noto Sans CJK JP", serif;
  font-size: 15px; line-height: 1.6; overflow-wrap: anywhere; max-height: 76px; overflow: auto;
}
#pv-value { font-weight: 600; }
#lists { flex: 1; min-height: 120px; display: flex; flex-direction: column; gap: 10px; }
#lists .block { flex: 1 1 0; min-height: 0; display: flex; flex-direction: column; }
#lists .scroll { flex: 1; overflow: auto; min-height: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 3px 5px; text-align: left; white-space: nowrap; }
td.who { max-width: 130px; overflow: hidden; text-overflow: ellipsis; }
th { font-size: 12px; color: var(--muted); font-weight: 600; position: sticky; top: 0; background: var(--panel); }
tbody tr:nth-child(odd) { background: var(--row); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.res-win { color: var(--good); font-weight: 600; }
.res-lose { color: var(--bad); font-weight: 600; }
.res-draw { color: var(--warn); font-weight: 600; }
.res-other { color: var(--muted); }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
#server-games { list-style: none; margin: 0; padding: 0; }
#server-games li { padding: 4px 6px; border-radius: 6px; display: flex; gap: 8px; align-items: baseline; }
#server-games a { white-space: nowrap; }
#server-games li:nth-child(odd) { background: var(--row); }
#server-games li.selected { background: var(--hl); }
#server-games .meta { color: var(--muted); font-size: 12px; margin-left: auto; white-space: nowrap; }
#server-games .gid {
  color: var(--muted); font-size: 12px; min-width: 0; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap;
}
#moves-panel { display: flex; flex-direction: column; min-height: 0; }
#move-scroll { flex: 1; overflow: auto; min-height: 0; }
#move-list td.mv {
  font-family: "Hiragino Mincho ProN", "Yu Mincho", "Noto Serif CJK JP", "Noto Sans CJK JP", serif;
  font-size: 15px;
}
#move-list tr.ours td.mv { color: var(--ours); }
#move-list tr.last { outline: 2px solid var(--accent); outline-offset: -2px; }
.muted { color: var(--muted); }
.hidden { display: none !important; }
#error { color: var(--bad); }
</style>
</head>
<body>
<header>
  <span class="brand">sashite</span>
  <span class="item" id="who"></span>
  <span class="item shrink">server <b id="server-addr">–</b></span>
  <span><span id="connection-state" class="badge">loading…</span></span>
  <span class="item" id="totals"></span>
  <span class="spacer"></span>
  <span class="item">up <b id="uptime">–</b></span>
  <span class="item">v<b id="version">–</b></span>
  <span id="page-link" class="badge">connecting…</span>
</header>
<main>
  <section id="board-panel">
    <div id="card-top"></div>
    <div id="board-wrap" class="panel">
      <svg id="board" viewBox="0 0 426 462" role="img" aria-label="board" data-sfen="" data-ply="0"></svg>
      <div id="board-note"></div>
    </div>
    <div id="card-bottom"></div>
    <div class="board-tools">
      <label><input type="checkbox" id="flip"> flip</label>
      <span id="error"></span>
    </div>
    <div class="panel" id="pv-panel">
      <h2>Principal variation <span id="pv-value"></span></h2>
      <div id="pv"></div>
      <div id="engine-note" class="muted"></div>
    </div>
  </section>
  <section id="middle">
    <div class="panel">
      <h2>Game</h2>
      <div id="info-grid"></div>
    </div>
    <div class="panel">
      <h2>Evaluation <span class="muted">(▲ Black's view, cp)</span></h2>
      <svg id="eval-graph" viewBox="0 0 560 170" role="img" aria-label="evaluation graph"></svg>
    </div>
    <div class="panel" id="lists">
      <div id="server-block" class="block hidden">
        <h2>Games on this server</h2>
        <div class="scroll"><ul id="server-games"></ul></div>
      </div>
      <div id="recent-block" class="block">
        <h2 id="recent-title">Recent games</h2>
        <div class="scroll">
          <table id="recent-games">
            <thead><tr><th>Date</th><th>Opponent</th><th></th><th>Result</th><th>Reason</th><th>Plies</th><th>Record</th></tr></thead>
            <tbody></tbody>
          </table>
        </div>
      </div>
    </div>
  </section>
  <section id="moves-panel" class="panel">
    <h2>Moves</h2>
    <div id="move-scroll">
      <table id="move-list">
        <thead><tr><th>#</th><th>Move</th><th>Time</th><th>Eval</th></tr></thead>
        <tbody></tbody>
      </table>
    </div>
  </section>
</main>
<script type="application/json" id="initial-status"></script>
<script>
'use strict';
(function () {
  // The SVG namespace, taken from the inline <svg> the HTML parser made (no URL in the page).
  const SVGNS = document.getElementById('board').namespaceURI;
  const START_SFEN = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
  const KANJI = { FU: '歩', KY: '香', KE: '桂', GI: '銀', KI: '金', KA: '角', HI: '飛', OU: '玉',
    TO: 'と', NY: '杏', NK: '圭', NG: '全', UM: '馬', RY: '龍' };
  const SFEN_TO_CSA = { P: 'FU', L: 'KY', N: 'KE', S: 'GI', G: 'KI', B: 'KA', R: 'HI', K: 'OU' };
  const PROMOTE = { FU: 'TO', KY: 'NY', KE: 'NK', GI: 'NG', KA: 'UM', HI: 'RY' };
  const UNPROMOTE = { TO: 'FU', NY: 'KY', NK: 'KE', NG: 'GI', UM: 'KA', RY: 'HI' };
  const HAND_ORDER = ['HI', 'KA', 'KI', 'GI', 'KE', 'KY', 'FU'];
  const RANK_KANJI = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
  const SPECIAL = { '%TORYO': '投了', '%KACHI': '入玉宣言', '%SENNICHITE': '千日手',
    '%TIME_UP': '時間切れ', '%ILLEGAL_MOVE': '反則', '%CHUDAN': '中断', '%JISHOGI': '持将棋',
    '%MAX_MOVES': '最大手数', '%TSUMI': '詰み', '%FUZUMI': '不詰', '%ERROR': 'エラー' };
  const EVAL_CLIP = 3000;
  const SQ_W = 44, SQ_H = 48, BOARD_X = 4, BOARD_Y = 22;

  let data = null;         // the last JSON accepted
  let receivedAt = 0;      // performance.now() when it came
  let userFlip = null;     // the flip checkbox once the user touched it
  let rendered = false;

  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    if (attrs) for (const k of Object.keys(attrs)) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVGNS, tag);
    if (attrs) for (const k of Object.keys(attrs)) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  const str = (v) => (typeof v === 'string' ? v : (v === undefined || v === null ? '' : String(v)));
  const num = (v) => (typeof v === 'number' && isFinite(v) ? v : null);
  const other = (side) => (side === 'black' ? 'white' : 'black');
  const markOf = (side) => (side === 'black' ? '▲' : '△');

  // ---- positions ------------------------------------------------------------------------

  // A SFEN as {board: Map("76" -> {piece, color}), side, hands: {black: {FU: n}}, ply}, or
  // null when it cannot be read.
  function parseSfen(text) {
    let f = str(text).trim().split(/\s+/);
    if (f[0] === 'sfen') f.shift();
    if (f[0] === 'startpos') f = START_SFEN.split(' ');
    if (!f[0]) return null;
    const rows = f[0].split('/');
    if (rows.length !== 9) return null;
    const board = new Map();
    for (let r = 0; r < 9; r++) {
      let file = 9, promoted = false;
      for (const ch of rows[r]) {
        if (ch === '+') { promoted = true; continue; }
        if (ch >= '1' && ch <= '9') { file -= Number(ch); promoted = false; continue; }
        const base = SFEN_TO_CSA[ch.toUpperCase()];
        if (!base || file < 1) return null;
        const piece = promoted ? PROMOTE[base] : base;
        if (!piece) return null;
        board.set(String(file) + String(r + 1),
                  { piece, color: ch === ch.toUpperCase() ? 'black' : 'white' });
        file--;
        promoted = false;
      }
      if (file !== 0) return null;
    }
    const hands = { black: {}, white: {} };
    const hs = f[2] || '-';
    if (hs !== '-') {
      let n = '';
      for (const ch of hs) {
        if (ch >= '0' && ch <= '9') { n += ch; continue; }
        const base = SFEN_TO_CSA[ch.toUpperCase()];
        if (!base || base === 'OU') return null;
        const color = ch === ch.toUpperCase() ? 'black' : 'white';
        hands[color][base] = (hands[color][base] || 0) + (n ? Number(n) : 1);
        n = '';
      }
    }
    return { board, side: f[1] === 'w' ? 'white' : 'black', hands, ply: Number(f[3]) || 1 };
  }

  function clonePosition(p) {
    return { board: new Map(p.board), side: p.side,
             hands: { black: Object.assign({}, p.hands.black), white: Object.assign({}, p.hands.white) },
             ply: p.ply };
  }

  function inZone(color, square) {
    const rank = Number(square[1]);
    return color === 'black' ? rank <= 3 : rank >= 7;
  }

  // The CSA move `csa` ("+7776FU") in Japanese notation ("▲7六歩(77)"), applied to `pos`
  // (which may be null: then no 成/不成 can be told). `prevTo` is the previous move's
  // destination, for 同. Returns {text, to}.
  function csaMoveText(pos, csa, prevTo) {
    csa = str(csa);
    if (SPECIAL[csa] !== undefined) return { text: SPECIAL[csa], to: null };
    const m = /^([+-])(\d)(\d)(\d)(\d)([A-Z]{2})$/.exec(csa);
    if (!m || !KANJI[m[6]]) return { text: csa, to: null };
    const color = m[1] === '+' ? 'black' : 'white';
    const from = m[2] + m[3], to = m[4] + m[5], piece = m[6];
    const dest = to === prevTo ? '同' : m[4] + (RANK_KANJI[Number(m[5]) - 1] || m[5]);
    let text;
    if (from === '00') {
      text = markOf(color) + dest + KANJI[piece] + '打';
      if (pos) {
        const h = pos.hands[color];
        if (h[piece]) h[piece]--;
        pos.board.set(to, { piece, color });
      }
    } else {
      const before = pos ? pos.board.get(from) : null;
      let name = KANJI[piece], suffix = '';
      if (before && before.piece !== piece && PROMOTE[before.piece] === piece) {
        name = KANJI[before.piece];
        suffix = '成';
      } else if (before && before.piece === piece && PROMOTE[piece] &&
                 (inZone(color, from) || inZone(color, to))) {
        suffix = '不成';
      }
      text = markOf(color) + dest + name + suffix + '(' + from + ')';
      if (pos) {
        const captured = pos.board.get(to);
        if (captured) {
          const base = UNPROMOTE[captured.piece] || captured.piece;
          if (base !== 'OU') pos.hands[color][base] = (pos.hands[color][base] || 0) + 1;
        }
        pos.board.delete(from);
        pos.board.set(to, { piece, color });
      }
    }
    if (pos) pos.side = other(color);
    return { text, to };
  }

  // ---- formatting -----------------------------------------------------------------------

  // A clock: m:ss, h:mm:ss from an hour, m:ss.t under ten seconds.
  function fmtClock(ms) {
    ms = Math.max(0, Math.floor(ms));
    if (ms < 10000) return '0:0' + Math.floor(ms / 1000) + '.' + Math.floor((ms % 1000) / 100);
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
    const p2 = (n) => (n < 10 ? '0' : '') + n;
    return h > 0 ? h + ':' + p2(mm) + ':' + p2(ss) : mm + ':' + p2(ss);
  }
  // A move's time: "3s", "1:05".
  function fmtMoveTime(ms) {
    if (ms === null) return '';
    const s = Math.floor(ms / 1000);
    return s < 60 ? s + 's' : Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
  }
  function fmtDuration(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    const d = Math.floor(seconds / 86400), h = Math.floor((seconds % 86400) / 3600);
    const m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    const p2 = (n) => String(n).padStart(2, '0');
    return (d > 0 ? d + 'd ' : '') + p2(h) + ':' + p2(m) + ':' + p2(s);
  }
  function fmtEval(cp) {
    if (cp === null) return '';
    return (cp > 0 ? '+' : '') + cp;
  }
  function fmtSeconds(ms) {
    return ms % 1000 === 0 ? ms / 1000 + ' s' : (ms / 1000).toFixed(1) + ' s';
  }
  function fmtCount(n) {
    if (n >= 1e9) return (n / 1e9).toFixed(1) + 'G';
    if (n >= 1e6) return (n / 1e6).toFixed(1) + 'M';
    if (n >= 1e3) return (n / 1e3).toFixed(1) + 'k';
    return String(n);
  }
  function resultClass(r) {
    if (r === 'win') return 'res-win';
    if (r === 'lose') return 'res-lose';
    if (r === 'draw') return 'res-draw';
    return 'res-other';
  }

  // ---- URLs -----------------------------------------------------------------------------

  // The page's query parameters, raw as in its URL: a token is passed on byte for byte (no
  // '+'/space reinterpretation), and values this page writes are encoded with
  // encodeURIComponent (space as %20, '+' as %2B), which every query parser reads alike.
  function rawParam(name) {
    for (const part of location.search.replace(/^\?/, '').split('&')) {
      const eq = part.indexOf('=');
      if ((eq < 0 ? part : part.slice(0, eq)) === name) return eq < 0 ? '' : part.slice(eq + 1);
    }
    return null;
  }
  function decodeParam(raw) {
    if (raw === null) return null;
    try { return decodeURIComponent(raw); } catch (e) { return raw; }
  }
  const tokenRaw = rawParam('token');
  const tokenQuery = tokenRaw === null ? '' : 'token=' + tokenRaw;
  const selectedGame = decodeParam(rawParam('game'));

  // "?token=...&game=<id>" for a game of the server's list.
  function gameLink(id) {
    return '?' + (tokenQuery ? tokenQuery + '&' : '') + 'game=' + encodeURIComponent(id);
  }
  // A record URL of the JSON ("/records/<id>.csa") made relative, with the token; null when
  // it is not one.
  function recordLink(url) {
    if (typeof url !== 'string' || !/^\/records\/[A-Za-z0-9._~+%-]+$/.test(url)) return null;
    return url.slice(1) + (tokenQuery ? '?' + tokenQuery : '');
  }

  // ---- the board ------------------------------------------------------------------------

  function flipped() {
    if (userFlip !== null) return userFlip;
    const g = data && data.game;
    return !!(g && g.our_color === 'white');
  }

  // The screen position (top-left corner) of square "fr".
  function squareXY(square, flip) {
    const file = Number(square[0]), rank = Number(square[1]);
    const col = flip ? file - 1 : 9 - file, row = flip ? 9 - rank : rank - 1;
    return { x: BOARD_X + col * SQ_W, y: BOARD_Y + row * SQ_H };
  }

  function drawBoard(g, pos) {
    const board = $('board');
    const flip = flipped();
    board.replaceChildren();
    board.setAttribute('data-sfen', g ? str(g.sfen) : '');
    board.setAttribute('data-ply', String(g ? (num(g.ply) || 0) : 0));
    board.appendChild(svg('rect', { x: BOARD_X, y: BOARD_Y, width: 9 * SQ_W, height: 9 * SQ_H,
      class: 'b-bg' }));
    // The last move: its destination filled, its origin outlined.
    const last = g && g.last_move;
    if (last && typeof last.to === 'string' && /^[1-9]{2}$/.test(last.to)) {
      const p = squareXY(last.to, flip);
      board.appendChild(svg('rect', { x: p.x, y: p.y, width: SQ_W, height: SQ_H, class: 'last-to' }));
    }
    if (last && typeof last.from === 'string' && /^[1-9]{2}$/.test(last.from)) {
      const p = squareXY(last.from, flip);
      board.appendChild(svg('rect', { x: p.x + 2, y: p.y + 2, width: SQ_W - 4, height: SQ_H - 4,
        class: 'last-from' }));
    }
    for (let i = 1; i < 9; i++) {
      board.appendChild(svg('line', { x1: BOARD_X + i * SQ_W, y1: BOARD_Y, x2: BOARD_X + i * SQ_W,
        y2: BOARD_Y + 9 * SQ_H, class: 'b-line' }));
      board.appendChild(svg('line', { x1: BOARD_X, y1: BOARD_Y + i * SQ_H, x2: BOARD_X + 9 * SQ_W,
        y2: BOARD_Y + i * SQ_H, class: 'b-line' }));
    }
    for (const cx of [3, 6]) for (const cy of [3, 6]) {
      board.appendChild(svg('circle', { cx: BOARD_X + cx * SQ_W, cy: BOARD_Y + cy * SQ_H, r: 3,
        class: 'b-star' }));
    }
    for (let c = 0; c < 9; c++) {
      const file = flip ? c + 1 : 9 - c;
      board.appendChild(svg('text', { x: BOARD_X + c * SQ_W + SQ_W / 2, y: 15, 'text-anchor': 'middle',
        class: 'b-lbl' }, file));
    }
    for (let r = 0; r < 9; r++) {
      const rank = flip ? 9 - r : r + 1;
      board.appendChild(svg('text', { x: BOARD_X + 9 * SQ_W + 11, y: BOARD_Y + r * SQ_H + SQ_H / 2 + 5,
        'text-anchor': 'middle', class: 'b-lbl' }, RANK_KANJI[rank - 1]));
    }
    if (!pos) return;
    const hw = SQ_W / 2, hh = SQ_H / 2;
    const shape = [[0, -hh + 3], [hw - 8, -hh + 9], [hw - 4, hh - 3], [-hw + 4, hh - 3], [-hw + 8, -hh + 9]]
      .map((p) => p[0] + ',' + p[1]).join(' ');
    const squares = Array.from(pos.board.keys()).sort();
    for (const sq of squares) {
      const pc = pos.board.get(sq);
      const p = squareXY(sq, flip);
      const upsideDown = (pc.color === 'white') !== flip;
      const gEl = svg('g', { class: 'piece', 'data-square': sq, 'data-piece': pc.piece,
        'data-color': pc.color,
        transform: 'translate(' + (p.x + hw) + ',' + (p.y + hh) + ')' + (upsideDown ? ' rotate(180)' : '') });
      gEl.appendChild(svg('polygon', { points: shape, class: 'pc-body' }));
      const promoted = UNPROMOTE[pc.piece] !== undefined;
      const kanji = pc.piece === 'OU' ? (pc.color === 'black' ? '玉' : '王') : KANJI[pc.piece];
      gEl.appendChild(svg('text', { x: 0, y: 9, 'text-anchor': 'middle',
        class: promoted ? 'pc-text promoted' : 'pc-text' }, kanji));
      board.appendChild(gEl);
    }
  }

  // ---- players, hands and clocks ---------------------------------------------------------

  function ensurePlayerCards() {
    if ($('player-black')) return;
    for (const side of ['black', 'white']) {
      const card = el('div', { id: 'player-' + side, class: 'player' });
      const hand = el('div', { id: 'hand-' + side, class: 'hand', 'data-hand': '' });
      const box = el('div', { class: 'clockbox' });
      box.appendChild(el('span', { id: 'clock-' + side, class: 'clock', 'data-remaining-ms': '0' }, '–'));
      box.appendChild(el('span', { id: 'clock-note-' + side, class: 'clock-note' }));
      card.appendChild(hand);
      card.appendChild(box);
      $('card-bottom').appendChild(card);
    }
  }

  function drawPlayers(g, pos) {
    ensurePlayerCards();
    const flip = flipped();
    $('card-top').appendChild($('player-' + (flip ? 'black' : 'white')));
    $('card-bottom').appendChild($('player-' + (flip ? 'white' : 'black')));
    for (const side of ['black', 'white']) {
      const hand = $('hand-' + side);
      const counts = pos ? pos.hands[side] : {};
      const codes = [], shown = [];
      for (const k of HAND_ORDER) {
        const n = counts[k] || 0;
        if (n > 0) {
          codes.push(k + n);
          shown.push(KANJI[k] + (n > 1 ? n : ''));
        }
      }
      hand.setAttribute('data-hand', codes.join(' '));
      const name = g ? str(side === 'black' ? g.black : g.white) : '';
      // Reads "▲先手 name: 飛 歩3" as text too.
      hand.replaceChildren(
        el('span', { class: 'mark' }, side === 'black' ? '▲先手' : '△後手'),
        document.createTextNode(' '),
        el('span', { class: 'pname' }, name || '–'));
      if (g && g.our_color === side) hand.appendChild(el('span', { class: 'you' }, '(us)'));
      hand.appendChild(document.createTextNode(': '));
      hand.appendChild(el('span', { class: 'pieces' }, shown.length ? shown.join(' ') : 'なし'));
      hand.title = hand.textContent;
      const c = g && g.clocks ? g.clocks[side] : null;
      const notes = [];
      if (c && !c.unlimited) {
        if (num(c.byoyomi_ms)) notes.push('byoyomi ' + fmtSeconds(c.byoyomi_ms));
        if (num(c.increment_ms)) notes.push('+' + fmtSeconds(c.increment_ms) + '/move');
      }
      $('clock-note-' + side).textContent = notes.join(' · ');
      const toMove = g && !g.over && (g.running ? g.running === side : g.side_to_move === side);
      $('player-' + side).classList.toggle('to-move', !!toMove);
    }
  }

  // The clocks as they stand now: the running side's turn so far counted off its main time,
  // then off its byoyomi.
  function paintClocks() {
    const g = data && data.game;
    const now = performance.now();
    for (const side of ['black', 'white']) {
      const span = $('clock-' + side);
      if (!span) continue;
      const c = g && g.clocks ? g.clocks[side] : null;
      if (!c) {
        span.textContent = '–';
        span.setAttribute('data-remaining-ms', '0');
        span.classList.remove('low');
        continue;
      }
      const remaining = num(c.remaining_ms) || 0, byoyomi = num(c.byoyomi_ms) || 0;
      const elapsed = g.running === side ? (num(g.turn_elapsed_ms) || 0) + (now - receivedAt) : 0;
      const main = remaining - elapsed;
      let text, low = false;
      if (c.unlimited) {
        text = '∞';
      } else if (main > 0 || byoyomi <= 0) {
        text = fmtClock(main);
        low = main < 10000 && byoyomi <= 0;
      } else {
        const byo = byoyomi + main;
        text = '秒 ' + fmtClock(byo);
        low = byo < 10000;
      }
      span.textContent = text;
      span.classList.toggle('low', low && g.running === side);
      span.setAttribute('data-remaining-ms', String(Math.max(0, Math.round(c.unlimited ? remaining : main))));
    }
  }

  // ---- header, info, lists ----------------------------------------------------------------

  function connectionText(d, now) {
    const c = d.connection || {};
    const state = str(c.state);
    if (state === 'reconnecting' && num(c.reconnect_in_ms) !== null) {
      const left = Math.max(0, c.reconnect_in_ms - (now - receivedAt));
      return 'reconnecting in ' + Math.ceil(left / 1000) + ' s';
    }
    return state || 'unknown';
  }
  function connectionClass(state) {
    if (state === 'in game' || state === 'listening') return 'badge good';
    if (state === 'waiting' || state === 'logging in' || state === 'game over' || state === 'connecting' ||
        state === 'starting') return 'badge';
    if (state === 'reconnecting') return 'badge warn';
    return 'badge bad';
  }

  function paintTicking() {
    if (!data) return;
    const now = performance.now();
    const cs = $('connection-state');
    cs.textContent = connectionText(data, now);
    cs.className = connectionClass(str((data.connection || {}).state));
    $('uptime').textContent = fmtDuration((num(data.uptime_s) || 0) + (now - receivedAt) / 1000);
    paintClocks();
  }

  function drawHeader(d) {
    const who = $('who');
    who.replaceChildren();
    if (d.kind === 'server') {
      who.appendChild(el('b', null, 'CSA server'));
    } else {
      who.appendChild(document.createTextNode('client '));
      who.appendChild(el('b', null, str(d.name) || '–'));
    }
    $('server-addr').textContent = str(d.server) || '–';
    $('version').textContent = str(d.version) || '?';
    const t = d.totals || {};
    const totals = $('totals');
    totals.replaceChildren();
    if (d.kind !== 'server') {
      totals.appendChild(document.createTextNode('W-D-L '));
      totals.appendChild(el('b', null, (num(t.wins) || 0) + '-' + (num(t.draws) || 0) + '-' + (num(t.losses) || 0)));
      if (num(t.other)) totals.appendChild(document.createTextNode(' (+' + t.other + ' other)'));
    }
    const title = (d.kind === 'server' ? 'server' : str(d.name) || 'sashite') + ' · ' + str((d.connection || {}).state);
    document.title = title + (d.game ? ' · ' + (num(d.game.ply) || 0) + '手' : '') + ' — sashite';
  }

  function resultText(g) {
    if (!g.over) return 'playing';
    const r = str(g.result), reason = str(g.reason);
    let text;
    if (r === 'black') text = '▲先手 wins';
    else if (r === 'white') text = '△後手 wins';
    else text = r || 'over';
    return text + (reason ? ' (' + reason + ')' : '');
  }

  function drawInfo(d, g) {
    const grid = $('info-grid');
    grid.replaceChildren();
    const row = (k, v, cls) => {
      grid.appendChild(el('span', { class: 'k' }, k));
      grid.appendChild(el('span', { class: 'v' + (cls ? ' ' + cls : '') }, v));
    };
    const c = d.counters || {};
    const engine = [], session = [];
    if (d.kind !== 'server') {
      if (num(c.last_think_ms) !== null) engine.push('last move ' + fmtSeconds(c.last_think_ms));
      if (num(c.engine_nps) !== null) engine.push(fmtCount(c.engine_nps) + ' nps');
      if (num(c.engine_nodes) !== null) engine.push(fmtCount(c.engine_nodes) + ' nodes');
      session.push('reconnects ' + (num(c.reconnects) || 0));
      session.push('time losses ' + (num(c.time_losses) || 0));
    }
    if (!g) {
      if (d.kind === 'server') {
        row('game', selectedGame ? 'no game "' + selectedGame + '" on this server' : 'choose a game from the list below');
      } else {
        row('game', 'no game yet');
      }
    } else {
      drawGameInfo(g, row);
    }
    if (engine.length) row('engine', engine.join(' · '));
    if (session.length) row('session', session.join(' · '));
  }

  function drawGameInfo(g, row) {
    row('id', str(g.game_id));
    row('players', '▲' + str(g.black) + '  vs  △' + str(g.white));
    if (g.time_rules) row('time', str(g.time_rules));
    const ply = num(g.ply) || 0;
    row('ply', ply + (g.over ? '' : ' · ' + markOf(g.side_to_move) + ' to move'));
    const started = num(g.start_unix_ms);
    if (started) row('started', new Date(started).toLocaleString());
    const r = str(g.result);
    const cls = g.over ? (g.our_color ? resultClass(r) : 'res-other') : '';
    row('state', resultText(g), cls);
  }

  // The moves with their Japanese notation, replayed from the start position.
  function moveTexts(g) {
    const start = parseSfen(g.start_sfen);
    const pos = start ? clonePosition(start) : null;
    let prevTo = null;
    const out = [];
    for (const mv of Array.isArray(g.moves) ? g.moves : []) {
      const t = csaMoveText(pos, mv.csa, prevTo);
      prevTo = t.to;
      out.push(t.text);
    }
    return { texts: out, lastTo: prevTo };
  }

  function drawMoves(g) {
    const body = $('move-list').tBodies[0];
    const scroll = $('move-scroll');
    const atBottom = scroll.scrollTop + scroll.clientHeight >= scroll.scrollHeight - 4;
    body.replaceChildren();
    if (!g) return;
    const moves = Array.isArray(g.moves) ? g.moves : [];
    const texts = moveTexts(g).texts;
    moves.forEach((mv, i) => {
      const tr = el('tr', { 'data-ply': String(i + 1) });
      if (mv.ours) tr.classList.add('ours');
      if (i === moves.length - 1) tr.classList.add('last');
      tr.appendChild(el('td', { class: 'num muted' }, i + 1));
      tr.appendChild(el('td', { class: 'mv', title: str(mv.csa) + ' ' + str(mv.usi) }, texts[i]));
      tr.appendChild(el('td', { class: 'num' }, fmtMoveTime(num(mv.time_ms))));
      tr.appendChild(el('td', { class: 'num' }, fmtEval(num(mv.eval_cp))));
      body.appendChild(tr);
    });
    if (atBottom || !rendered) scroll.scrollTop = scroll.scrollHeight;
  }

  function drawPv(g, pos, lastTo) {
    const div = $('pv');
    const pvs = g && Array.isArray(g.pv) ? g.pv : [];
    const value = g ? num(g.pv_eval_cp) : null;
    $('pv-value').textContent = value === null ? '' : fmtEval(value);
    $('engine-note').textContent = g && typeof g.engine_note === 'string' ? g.engine_note : '';
    if (!pvs.length) {
      div.replaceChildren(el('span', { class: 'muted' }, g ? 'none' : ''));
      return;
    }
    const p = pos ? clonePosition(pos) : null;
    let prevTo = lastTo;
    const texts = [];
    for (const mv of pvs) {
      const t = csaMoveText(p, mv, prevTo);
      prevTo = t.to;
      texts.push(t.text);
    }
    div.textContent = texts.join(' ');
  }

  function drawEvalGraph(g, kind) {
    const graph = $('eval-graph');
    graph.replaceChildren();
    const W = 560, H = 170, L = 40, R = 14, T = 22, B = 16;
    const moves = g && Array.isArray(g.moves) ? g.moves : [];
    const maxPly = Math.max(50, Math.ceil(moves.length / 10) * 10);
    const xOf = (ply) => L + (W - L - R) * ply / maxPly;
    const yOf = (cp) => T + (H - T - B) * (EVAL_CLIP - Math.max(-EVAL_CLIP, Math.min(EVAL_CLIP, cp))) / (2 * EVAL_CLIP);
    for (const cp of [EVAL_CLIP, 1000, -1000, -EVAL_CLIP]) {
      graph.appendChild(svg('line', { x1: L, x2: W - R, y1: yOf(cp), y2: yOf(cp), class: 'axis' }));
      graph.appendChild(svg('text', { x: L - 4, y: yOf(cp) + 3, 'text-anchor': 'end', class: 'lbl' },
        (cp > 0 ? '+' : '') + cp));
    }
    graph.appendChild(svg('line', { x1: L, x2: W - R, y1: yOf(0), y2: yOf(0), class: 'zero' }));
    graph.appendChild(svg('text', { x: L - 4, y: yOf(0) + 3, 'text-anchor': 'end', class: 'lbl' }, '0'));
    for (let ply = 10; ply <= maxPly; ply += maxPly > 150 ? 50 : 10) {
      graph.appendChild(svg('text', { x: xOf(ply), y: H - 3, 'text-anchor': 'middle', class: 'lbl' }, ply));
    }
    // Two series: ours and the opponent's (the client); Black's and White's movers (server).
    const server = kind === 'server' || (g && !g.our_color);
    const series = { ours: [], theirs: [] };
    moves.forEach((mv, i) => {
      const cp = num(mv.eval_cp);
      if (cp === null) return;
      const first = server ? str(mv.csa)[0] !== '-' : !!mv.ours;
      series[first ? 'ours' : 'theirs'].push([xOf(i + 1), yOf(cp)]);
    });
    for (const key of ['ours', 'theirs']) {
      const pts = series[key];
      if (pts.length > 1) {
        graph.appendChild(svg('polyline', { class: key, points: pts.map((p) => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' ') }));
      }
      for (const p of pts) {
        graph.appendChild(svg('circle', { class: 'dot-' + key, cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: 2 }));
      }
    }
    const names = server ? ['▲ Black (mover)', '△ White (mover)'] : ['ours', 'opponent'];
    [['ours', names[0]], ['theirs', names[1]]].forEach((item, k) => {
      const x = L + 8 + k * 130;
      graph.appendChild(svg('line', { x1: x, x2: x + 16, y1: 8, y2: 8, class: item[0] }));
      graph.appendChild(svg('circle', { cx: x + 8, cy: 8, r: 2, class: 'dot-' + item[0] }));
      graph.appendChild(svg('text', { x: x + 20, y: 11, class: 'lbl' }, item[1]));
    });
  }

  function drawServerGames(d) {
    const block = $('server-block');
    const list = $('server-games');
    list.replaceChildren();
    const games = Array.isArray(d.games) ? d.games.slice() : [];
    block.classList.toggle('hidden', d.kind !== 'server');
    if (d.kind !== 'server') return;
    games.sort((a, b) => (a.over ? 1 : 0) - (b.over ? 1 : 0));  // stable: in progress first
    if (!games.length) list.appendChild(el('li', { class: 'muted' }, 'no games'));
    for (const s of games) {
      const id = str(s.game_id);
      const li = el('li', { 'data-game-id': id });
      if (id === selectedGame) li.classList.add('selected');
      li.appendChild(el('a', { href: gameLink(id), title: id }, '▲' + str(s.black) + ' vs △' + str(s.white)));
      li.appendChild(el('span', { class: 'gid', title: id }, id));
      const state = s.over ? resultText({ over: true, result: s.result, reason: s.reason }) : 'playing';
      li.appendChild(el('span', { class: 'meta' }, (num(s.ply) || 0) + '手 · ' + state));
      list.appendChild(li);
    }
  }

  function drawRecent(d) {
    const table = $('recent-games');
    const body = table.tBodies[0];
    body.replaceChildren();
    const rows = Array.isArray(d.recent) ? d.recent : [];
    const server = d.kind === 'server';
    table.tHead.rows[0].cells[1].textContent = server ? 'Players' : 'Opponent';
    $('recent-title').textContent = server ? 'Finished games' : 'Recent games';
    // The server shows its finished games only when it keeps any beside its list.
    $('recent-block').classList.toggle('hidden', server && !rows.length);
    if (!rows.length) {
      const tr = el('tr');
      tr.appendChild(el('td', { colspan: '7', class: 'muted' }, 'none yet'));
      body.appendChild(tr);
      return;
    }
    for (const r of rows) {
      const tr = el('tr', { 'data-game-id': str(r.game_id) });
      // "2026-12-04T12:30:00" shown as "12-04 12:30" (the year and seconds in its title).
      const end = str(r.end_time);
      const short = /^\d{4}-(\d\d-\d\d)[T ](\d\d:\d\d)/.exec(end);
      tr.appendChild(el('td', { title: end.replace('T', ' ') }, short ? short[1] + ' ' + short[2] : end));
      const ours = str(r.our_color);
      let who;
      if (ours === 'black') who = str(r.white);
      else if (ours === 'white') who = str(r.black);
      else who = '▲' + str(r.black) + ' △' + str(r.white);
      tr.appendChild(el('td', { class: 'who', title: who }, who));
      tr.appendChild(el('td', null, ours ? markOf(ours) : ''));
      const res = str(r.result);
      tr.appendChild(el('td', { class: ours ? resultClass(res) : '' }, res));
      tr.appendChild(el('td', null, str(r.reason)));
      tr.appendChild(el('td', { class: 'num' }, num(r.plies) || 0));
      const links = el('td');
      for (const [label, url] of [['CSA', r.csa], ['KIF', r.kif]]) {
        const href = recordLink(url);
        if (!href) continue;
        if (links.childNodes.length) links.appendChild(document.createTextNode(' '));
        links.appendChild(el('a', { href, download: '' }, label));
      }
      tr.appendChild(links);
      body.appendChild(tr);
    }
  }

  function render() {
    const d = data;
    const g = d.game && typeof d.game === 'object' ? d.game : null;
    const pos = g ? parseSfen(g.sfen) : null;
    if (userFlip === null) $('flip').checked = flipped();
    drawHeader(d);
    drawBoard(g, pos);
    $('board-note').textContent = g ? (pos ? '' : 'cannot read the position') : (d.kind === 'server' ? '' : 'no game yet');
    drawPlayers(g, pos);
    drawInfo(d, g);
    drawEvalGraph(g, d.kind);
    const lastTo = g && g.last_move && typeof g.last_move.to === 'string' ? g.last_move.to : null;
    drawPv(g, pos, lastTo);
    $('pv-panel').classList.toggle('hidden', d.kind === 'server');
    drawMoves(g);
    drawServerGames(d);
    drawRecent(d);
    paintTicking();
    $('error').textContent = '';
    rendered = true;
    document.body.setAttribute('data-rendered', '1');
  }

  // A JSON from status.json or the event stream.
  function accept(d) {
    if (!d || typeof d !== 'object') return;
    data = d;
    receivedAt = performance.now();
    try {
      render();
    } catch (e) {
      $('error').textContent = 'render error: ' + e;
    }
  }

  // ---- the page's own connection -------------------------------------------------------

  function setLink(live) {
    const b = $('page-link');
    b.textContent = live ? 'live' : 'reconnecting to the status server…';
    b.className = live ? 'badge good' : 'badge warn';
  }

  // Events received so far: a fetch answered after an event came is older than what is
  // shown and is dropped (the stream's order is the process's; wall clocks may step).
  let eventCount = 0;

  function load() {
    const before = eventCount;
    return fetch('status.json' + location.search, { cache: 'no-store' })
      .then((r) => {
        if (!r.ok) throw new Error('status.json: HTTP ' + r.status);
        return r.json();
      })
      .then((d) => { if (eventCount === before) accept(d); })
      .catch((e) => { $('error').textContent = String(e.message || e); });
  }

  let source = null;
  function onEvent(ev) {
    eventCount++;
    setLink(true);
    try {
      accept(JSON.parse(ev.data));
    } catch (e) {
      $('error').textContent = 'bad event: ' + e;
    }
  }
  function connect() {
    if (typeof EventSource === 'undefined') {  // no event streams: poll instead
      setInterval(load, 2000);
      return;
    }
    source = new EventSource('events' + location.search);
    source.onopen = () => setLink(true);
    source.onmessage = onEvent;
    source.addEventListener('status', onEvent);
    source.onerror = () => {
      setLink(false);
      // EventSource retries by itself unless the server refused the stream (closed); then
      // try again a little later, fetching the JSON meanwhile.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(() => { load(); connect(); }, 5000);
      }
    };
  }

  $('flip').addEventListener('change', () => {
    userFlip = $('flip').checked;
    if (data) render();
  });

  setLink(false);
  $('page-link').textContent = 'connecting…';
  // The state the server put in the page: shown at once, before anything is fetched.
  const initial = $('initial-status');
  if (initial && initial.textContent.trim()) {
    try {
      accept(JSON.parse(initial.textContent));
    } catch (e) {
      $('error').textContent = 'bad initial state: ' + e;
    }
  }
  load().then(connect);
  setInterval(paintTicking, 100);
})();
</script>
</body>
</html>
)sashite_page";

}  // namespace

const std::string& status_page_html() {
  static const std::string page = kStatusPageHtml;
  return page;
}

std::string status_page_html_with(std::string_view initial_json) {
  static const std::string_view kSlot = "id=\"initial-status\">";
  std::string page = status_page_html();
  std::string json;
  json.reserve(initial_json.size());
  // '<' only occurs inside JSON strings, where \u003c is the same text and can start no tag
  // (no "</script>", no "<!--") inside the element.
  for (char c : initial_json) {
    if (c == '<')
      json += "\\u003c";
    else
      json += c;
  }
  page.insert(page.find(kSlot) + kSlot.size(), json);
  return page;
}

}  // namespace client
