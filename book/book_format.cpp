// BookFormat: encoding and decoding of book records (layout in book_format.h).
#include "book/book_format.h"

#include <charconv>

namespace book {

namespace {

void put_varint32(std::string& out, uint32_t v) {
  while (v >= 0x80) {
    out.push_back(char(v | 0x80));
    v >>= 7;
  }
  out.push_back(char(v));
}

void put_fixed32_big_endian(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(char(v >> shift));
}

uint32_t zigzag(int16_t v) { return (uint32_t(int32_t(v)) << 1) ^ uint32_t(int32_t(v) >> 31); }
int32_t unzigzag(uint32_t v) { return int32_t(v >> 1) ^ -int32_t(v & 1); }

// A cursor over a value being decoded; remembers the first error.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}

  bool varint32(uint32_t& v, const char* what) {
    v = 0;
    for (int shift = 0; shift <= 28; shift += 7) {
      if (pos_ >= data_.size()) return fail(what, "truncated");
      const uint8_t byte = uint8_t(data_[pos_++]);
      v |= uint32_t(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return true;
    }
    return fail(what, "varint longer than 5 bytes");
  }
  bool byte(uint8_t& v, const char* what) {
    if (pos_ >= data_.size()) return fail(what, "truncated");
    v = uint8_t(data_[pos_++]);
    return true;
  }
  bool fixed32(uint32_t& v, const char* what) {
    if (data_.size() - pos_ < 4) return fail(what, "truncated");
    v = 0;
    for (int i = 0; i < 4; ++i) v = v << 8 | uint8_t(data_[pos_++]);
    return true;
  }
  bool fail(const char* what, const std::string& why) {
    if (error_.empty())
      error_ = std::string(what) + " at byte " + std::to_string(pos_) + ": " + why;
    return false;
  }
  bool at_end() const { return pos_ == data_.size(); }
  size_t pos() const { return pos_; }
  const std::string& error() const { return error_; }

 private:
  std::string_view data_;
  size_t pos_ = 0;
  std::string error_;
};

bool is_valid_piece(uint8_t p) {
  if (p == 0) return true;
  const int type = p & 15, color = p >> 4;
  return color <= 1 && type >= shogi::kPawn && type <= shogi::kDragon;
}

}  // namespace

std::string version_key() { return std::string(1, kVersionTag); }

std::string version_value(int format_version) {
  return "sashite-book " + std::to_string(format_version);
}

bool parse_version_value(std::string_view value, int& format_version) {
  constexpr std::string_view kPrefix = "sashite-book ";
  if (value.substr(0, kPrefix.size()) != kPrefix) return false;
  const char* first = value.data() + kPrefix.size();
  const char* last = value.data() + value.size();
  auto [end, ec] = std::from_chars(first, last, format_version);
  return ec == std::errc() && end == last && first != last && format_version >= 0;
}

std::string meta_key(std::string_view name) {
  std::string key(1, kMetaTag);
  key.append(name);
  return key;
}

std::string entry_key(uint64_t position_key) {
  std::string key(kEntryKeySize, '\0');
  key[0] = kEntryTag;
  for (int i = 0; i < 8; ++i) key[1 + i] = char(position_key >> (56 - 8 * i));
  return key;
}

bool parse_entry_key(std::string_view key, uint64_t& position_key) {
  if (key.size() != kEntryKeySize || key[0] != kEntryTag) return false;
  position_key = 0;
  for (int i = 0; i < 8; ++i) position_key = position_key << 8 | uint8_t(key[1 + i]);
  return true;
}

void encode_entry_value(const BookEntry& entry, std::string& out) {
  const PackedPosition& p = entry.position;
  out.append(reinterpret_cast<const char*>(p.board.data()), p.board.size());
  put_fixed32_big_endian(out, p.hands[shogi::kBlack]);
  put_fixed32_big_endian(out, p.hands[shogi::kWhite]);
  out.push_back(char(p.side_to_move));
  put_varint32(out, uint32_t(entry.moves.size()));
  for (const BookMove& m : entry.moves) {
    put_varint32(out, m.move.raw());
    put_varint32(out, m.count);
    put_varint32(out, m.wins);
    put_varint32(out, m.losses);
    put_varint32(out, zigzag(m.value));
    put_varint32(out, zigzag(m.depth));
    out.push_back(char(m.sources));
  }
}

std::string encode_entry_value(const BookEntry& entry) {
  std::string out;
  out.reserve(kPackedPositionSize + 1 + entry.moves.size() * 10);
  encode_entry_value(entry, out);
  return out;
}

base::Status decode_entry_value(std::string_view value, BookEntry& out) {
  Reader in(value);
  PackedPosition& p = out.position;
  for (shogi::Square s = 0; s < shogi::kSquareNb; ++s) {
    if (!in.byte(p.board[s], "board")) return base::Status::error(in.error());
    if (!is_valid_piece(p.board[s])) {
      in.fail("board", "square " + std::to_string(s) + " holds no piece code (" +
                           std::to_string(p.board[s]) + ")");
      return base::Status::error(in.error());
    }
  }
  uint8_t side = 0;
  if (!in.fixed32(p.hands[shogi::kBlack], "black hand") ||
      !in.fixed32(p.hands[shogi::kWhite], "white hand") || !in.byte(side, "side to move"))
    return base::Status::error(in.error());
  if (side > 1) {
    in.fail("side to move", "not 0 or 1 (" + std::to_string(side) + ")");
    return base::Status::error(in.error());
  }
  p.side_to_move = side;
  uint32_t move_count = 0;
  if (!in.varint32(move_count, "move count")) return base::Status::error(in.error());
  if (move_count > uint32_t(kMaxMovesPerEntry)) {
    in.fail("move count", std::to_string(move_count) + " moves (at most " +
                              std::to_string(kMaxMovesPerEntry) + ")");
    return base::Status::error(in.error());
  }
  out.moves.clear();
  out.moves.reserve(move_count);
  for (uint32_t i = 0; i < move_count; ++i) {
    BookMove m;
    uint32_t raw = 0, value_zz = 0, depth_zz = 0;
    if (!in.varint32(raw, "move") || !in.varint32(m.count, "count") ||
        !in.varint32(m.wins, "wins") || !in.varint32(m.losses, "losses") ||
        !in.varint32(value_zz, "value") || !in.varint32(depth_zz, "depth") ||
        !in.byte(m.sources, "sources"))
      return base::Status::error(in.error());
    m.move = shogi::Move(raw);
    const int32_t v = unzigzag(value_zz), d = unzigzag(depth_zz);
    if (!m.move.is_ok() || (raw >> 21) != 0) {
      in.fail("move", "not a move (" + std::to_string(raw) + ")");
      return base::Status::error(in.error());
    }
    if (v < -32768 || v > 32767 || d < -32768 || d > 32767) {
      in.fail("value", "out of the 16-bit range");
      return base::Status::error(in.error());
    }
    m.value = int16_t(v);
    m.depth = int16_t(d);
    out.moves.push_back(m);
  }
  if (!in.at_end()) {
    in.fail("end of value", std::to_string(value.size() - in.pos()) + " trailing bytes");
    return base::Status::error(in.error());
  }
  return base::Status::ok();
}

}  // namespace book
