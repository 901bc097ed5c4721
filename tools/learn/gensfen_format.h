// The self-play training data format of `sashite gensfen`: fixed 72-byte position records
// behind a 64-byte file header. Read by `gensfen --inspect`, labelled by `osl_label`, read by
// the evaluation trainers.
#pragma once

// File (little-endian throughout):
//   header, 64 bytes
//     0  16  magic "SASHITE-GENSFEN\0"
//    16   4  version, 2 (version 1, 64-byte records without the teacher's fields, is read too)
//    20   4  record size, 72 (64 in version 1)
//    24   8  record count
//    32  32  zero
//   then `count` records of 72 bytes:
//     0  56  the position, a stream of 448 bits, least significant bit of byte 0 first:
//             81 squares x 5 bits, square order of shogi/types.h (file-major from file 1,
//               rank a first), each the engine's Piece code (kind | White << 4; 0 empty);
//             per side, Black then White, its hand: pawns 5 bits, lances, knights, silvers,
//               golds 3 bits each, bishops, rooks 2 bits each (21 bits);
//             the side to move, 1 bit (1: White).
//    56   2  the search value, int16, centipawns from the side to move's view (mate scores
//            clamped to +-32000)
//    58   2  the best move, uint16, shogi::Move::key16 (Position::complete_move restores it)
//    60   2  the game ply, uint16 (the SFEN move number)
//    62   1  the game's result for the side to move, int8: 1 win, 0 draw, -1 loss
//    63   1  the search depth reached, uint8
//    64   2  the teacher's value, int16, centipawns, the side to move's view: GPS Shogi's
//            evaluation after its quiescence search (build/osl_label), on the scale of the
//            search values (the ratio of the two result scales, sigmoid(v / s) fitted to the
//            games' results for each); clamped to +-32000
//    66   2  the teacher's static value (no quiescence), the same scale and view
//    68   1  flags: bit 0, the teacher's fields are set
//    69   3  zero
// A file is written whole (a temporary file renamed into place), so a file that exists is
// complete.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "shogi/position.h"

namespace tools {

constexpr size_t kGensfenHeaderSize = 64;
constexpr size_t kGensfenRecordSize = 72;
constexpr size_t kGensfenRecordSizeV1 = 64;

struct GensfenRecord {
  shogi::PositionSetup position;  // game_ply is carried in `ply`
  int16_t value = 0;
  uint16_t move16 = 0;
  uint16_t ply = 1;
  int8_t result = 0;
  uint8_t depth = 0;
  bool labelled = false;  // the teacher's fields are set
  int16_t teacher_value = 0;
  int16_t teacher_static = 0;
};

// REQUIRES: a position whose hands fit the bit widths (any position of a normal game does).
std::array<uint8_t, kGensfenRecordSize> pack_gensfen_record(const GensfenRecord& record);
// Errors: a piece code or hand that no position has.
base::Status unpack_gensfen_record(const uint8_t* bytes, GensfenRecord& out);

// The gensfen files of `inputs`: a file as given, a directory's *.bin files sorted by name, in
// the order of `inputs`, appended to `files`. Errors: a path that does not exist, a directory
// that cannot be listed, no file at all.
base::Status collect_gensfen_files(const std::vector<std::string>& inputs,
                                   std::vector<std::string>& files);

// The record count of a file's header (the header checked, the records not read).
base::Status read_gensfen_count(const std::string& path, uint64_t& count);

std::string gensfen_file_bytes(const std::vector<GensfenRecord>& records);
// Reads a whole file (version 1 or 2); errors name it and say what is wrong (magic, version,
// size, count).
base::Status read_gensfen_file(const std::string& path, std::vector<GensfenRecord>& out);
// The same checks; appends the file's packed records to `records`, kGensfenRecordSize bytes
// each (a version 1 record with its teacher's fields zero: not labelled), for readers of
// millions of positions (an unpacked record is several times larger).
base::Status read_gensfen_raw(const std::string& path, std::vector<uint8_t>& records);

}  // namespace tools
