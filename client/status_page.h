// The live status page: one self-contained HTML document (inline CSS and JavaScript).
#pragma once

// Contracts: the page needs nothing from outside (no network but its own origin, no build
// step, no framework) and changes nothing: it only reads. It fetches `status.json` and then
// listens on the event stream `events` (an EventSource; each message's data is the same JSON,
// status_render.h), both relative to its own URL and with its own query string passed on (so
// "?token=..." and "?game=..." reach the status server). Record links go to the JSON's
// "/records/..." URLs made relative ("records/...") with the token kept. Everything taken from
// the JSON is put in the DOM as text (textContent, setAttribute), never as markup.
//
// Hooks for automated browser tests (stable; keep them): <body data-rendered="1"> after the
// first successful render; <svg id="board" data-sfen data-ply>; each occupied square
// <g class="piece" data-square="76" data-piece="FU" data-color="black">; <div id="hand-black"
// data-hand="HI1 FU3"> and id="hand-white" (order HI KA KI GI KE KY FU, "" when empty);
// <span id="clock-black" data-remaining-ms> and id="clock-white" (the shown main time at the
// last repaint); <span id="connection-state">; <table id="recent-games"> rows
// <tr data-game-id>; <div id="pv">; <svg id="eval-graph">.

#include <string>
#include <string_view>

namespace client {

// The page's HTML, built once (thread-safe: a function-local static).
const std::string& status_page_html();
// The page with `initial_json` (render_status_json's text) inside it, so that the first
// paint needs no request; its '<' are written \u003c so that nothing in it reads as a tag.
std::string status_page_html_with(std::string_view initial_json);

}  // namespace client
