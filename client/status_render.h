// Status rendering: a StatusModel as the live status page's JSON and as Prometheus text.
#pragma once

// Contracts: every function here is a pure function of its arguments (no clock is read, no
// global state), so a copy of the model taken under StatusBoard's lock can be rendered on any
// thread. Whatever bytes the model's strings hold, the output is valid UTF-8 (invalid bytes
// become U+FFFD) and, for the JSON, valid RFC 8259 JSON.
//
// The JSON (for /status.json and each event-stream message; the page status_page.h reads it):
//   {"kind","version","name","server","connection":{"state","reconnect_in_ms" (only while
//   "reconnecting")},"uptime_s","now_unix_ms","game":null|{...},"games":[...],"recent":[...],
//   "totals":{...},"counters":{...}}
// with "game" = {game_id, black, white, our_color, time_rules, start_sfen, sfen, ply,
// side_to_move, last_move: null|{csa, usi, from|null, to}, moves: [{ply, csa, usi,
// time_ms|null, eval_cp|null, ours}], clocks: {black: {remaining_ms, byoyomi_ms, increment_ms,
// unlimited}, white: {...}}, running: null|"black"|"white", turn_elapsed_ms, pv: [...],
// pv_eval_cp|null, over, result, reason, start_unix_ms}. Unknown numbers are null, never -1.
// Kind "client": "game" is m.game when m.has_game (else null) and "games" is []. Kind "server":
// "games" summarizes every m.server_games entry ({game_id, black, white, ply, over, result,
// reason, time_rules, url}) and "game" is the entry whose game_id equals `game_id` (null when
// none does), or with an empty `game_id` the first entry (null when there is none).

#include <cstdint>
#include <string>
#include <string_view>

#include "client/status_model.h"

namespace client {

// The JSON above. `now_steady_ms` (steady_clock ms, as the model's `*_steady_ms`) gives the
// running clock's elapsed time and the reconnect countdown; `now_unix_ms` the uptime.
std::string render_status_json(const StatusModel& m, int64_t now_steady_ms, int64_t now_unix_ms,
                               std::string_view game_id = {});

// Prometheus text exposition format 0.0.4 (serve as "text/plain; version=0.0.4"): every
// family with # HELP and # TYPE lines; samples whose value is unknown (-1) are left out.
std::string render_metrics(const StatusModel& m, int64_t now_unix_ms);

// `s` as the inside of a JSON string (no surrounding quotes): quote and backslash escaped,
// control characters (below 0x20, and DEL) as \u00XX, U+2028/U+2029 as \u2028/\u2029 (so the
// text is also safe inside a JavaScript literal), other UTF-8 passed through, invalid UTF-8
// replaced by U+FFFD.
std::string json_escape(std::string_view s);

// `s` with every byte outside [A-Za-z0-9._~+-] as %XX (upper-case hex), for a game ID in a
// URL path or query ("/records/<id>.csa", "/?game=<id>"). '+' stays literal, as in floodgate's
// Game_IDs: a query parser that reads '+' as a space must not be used on these URLs.
std::string percent_encode(std::string_view s);

// `s` with each maximal invalid UTF-8 subsequence (as the Unicode standard's "best practice"
// and the WHATWG decoder define it) replaced by U+FFFD; overlongs, surrogates and code
// points above U+10FFFF count as invalid.
std::string to_valid_utf8(std::string_view s);

}  // namespace client
