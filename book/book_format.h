// BookFormat: the key/value layout of a LevelDB book directory (format version 1).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "book/book_entry.h"

namespace book {

// A book directory is a LevelDB database holding three kinds of records, told apart by the
// first byte of the key (the tag). Keys sort by tag, then bytewise.
//
// Format-version record (exactly one; a database without it is not a book):
//   key   = "V"
//   value = "sashite-book <N>" in ASCII, N the format version in decimal.
//   A book whose N is above kFormatVersion is refused (written by a newer sashite).
//
// Metadata records (free-form provenance and progress):
//   key   = "M" <name bytes>               e.g. "Msource.gps-tsv", "Mstartpos_key"
//   value = arbitrary bytes (text by convention).
//   "Mstartpos_key" holds the hex shogi::Position::key() of the start position at creation:
//   a book whose position keys were computed by a different hashing scheme is refused.
//
// Entry records (one per position):
//   key   = "E" <8 bytes: shogi::Position::key(), big-endian>   (9 bytes; key order =
//           numeric order of the position keys)
//   value =
//     board          81 bytes   shogi::Piece per square, square 0..80 (PackedPosition::board)
//     hand[black]    4 bytes    shogi::Hand::raw(), big-endian
//     hand[white]    4 bytes    likewise
//     side_to_move   1 byte     0 black, 1 white
//     move_count     varint32   at most kMaxMovesPerEntry
//     move_count times:
//       move         varint32   shogi::Move::raw() (completed move: 21 bits used)
//       count        varint32
//       wins         varint32
//       losses       varint32
//       value        varint32   zigzag-encoded int16 (kNoBookValue when none)
//       depth        varint32   zigzag-encoded int16
//       sources      1 byte     MoveSource flags
//   Nothing may follow the last move. varint32 is LevelDB's: 7 bits per byte, low group
//   first, high bit set on every byte but the last, at most 5 bytes.
// The packed position lets a reader verify a hit (a 64-bit key can collide) and compute the
// similarity of positions without replaying anything.

constexpr int kFormatVersion = 1;
constexpr int kMaxMovesPerEntry = 1024;  // shogi has at most 593 legal moves
constexpr char kVersionTag = 'V';
constexpr char kMetaTag = 'M';
constexpr char kEntryTag = 'E';
constexpr size_t kEntryKeySize = 9;
constexpr size_t kPackedPositionSize = 81 + 4 + 4 + 1;

std::string version_key();
std::string version_value(int format_version);
// Reads "sashite-book <N>"; false when the value is not in that form.
bool parse_version_value(std::string_view value, int& format_version);

std::string meta_key(std::string_view name);

std::string entry_key(uint64_t position_key);
// False when `key` is not an entry key (wrong tag or size).
bool parse_entry_key(std::string_view key, uint64_t& position_key);

// Appends the value of an entry record (position and moves; entry.key is not stored in it).
void encode_entry_value(const BookEntry& entry, std::string& out);
std::string encode_entry_value(const BookEntry& entry);
// Decodes an entry value into out.position and out.moves (out.key is left as it is). Errors
// say what is wrong and at which byte offset; the caller adds the directory and key.
base::Status decode_entry_value(std::string_view value, BookEntry& out);

}  // namespace book
