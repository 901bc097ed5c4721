// Packing positions into 448 bits, and gensfen files.
#include "tools/learn/gensfen_format.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tools {

using base::Status;
using shogi::Hand;
using shogi::PieceType;

namespace {

constexpr char kMagic[16] = "SASHITE-GENSFEN";
constexpr uint32_t kVersion = 2;
// Hand kinds in the order and widths the record stores them.
constexpr PieceType kHandKinds[7] = {shogi::kPawn, shogi::kLance,  shogi::kKnight, shogi::kSilver,
                                     shogi::kGold, shogi::kBishop, shogi::kRook};
constexpr int kHandBits[7] = {5, 3, 3, 3, 3, 2, 2};

struct BitWriter {
  uint8_t* out;
  size_t bit = 0;
  void put(uint32_t value, int bits) {
    for (int i = 0; i < bits; ++i, ++bit)
      if (value >> i & 1) out[bit / 8] |= uint8_t(1u << (bit % 8));
  }
};

struct BitReader {
  const uint8_t* in;
  size_t bit = 0;
  uint32_t get(int bits) {
    uint32_t v = 0;
    for (int i = 0; i < bits; ++i, ++bit) v |= uint32_t(in[bit / 8] >> (bit % 8) & 1) << i;
    return v;
  }
};

void put_le(std::string& s, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s.push_back(char(v >> (8 * i) & 0xff));
}

uint64_t get_le(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

bool valid_piece(uint32_t code) {
  if (code == 0) return true;
  const uint32_t type = code & 15;
  return (code >> 4) <= 1 && type >= shogi::kPawn && type <= shogi::kDragon;
}

}  // namespace

std::array<uint8_t, kGensfenRecordSize> pack_gensfen_record(const GensfenRecord& r) {
  std::array<uint8_t, kGensfenRecordSize> bytes{};
  BitWriter w{bytes.data()};
  for (shogi::Square s = 0; s < shogi::kSquareNb; ++s)
    w.put(uint32_t(r.position.board[size_t(s)]), 5);
  for (shogi::Color c : {shogi::kBlack, shogi::kWhite})
    for (int k = 0; k < 7; ++k)
      w.put(uint32_t(r.position.hands[c].count(kHandKinds[k])), kHandBits[k]);
  w.put(r.position.side_to_move == shogi::kWhite ? 1 : 0, 1);
  uint8_t* tail = bytes.data() + 56;
  const uint16_t value = uint16_t(r.value);
  tail[0] = uint8_t(value & 0xff);
  tail[1] = uint8_t(value >> 8);
  tail[2] = uint8_t(r.move16 & 0xff);
  tail[3] = uint8_t(r.move16 >> 8);
  tail[4] = uint8_t(r.ply & 0xff);
  tail[5] = uint8_t(r.ply >> 8);
  tail[6] = uint8_t(r.result);
  tail[7] = r.depth;
  uint8_t* teacher = bytes.data() + 64;
  const uint16_t tv = uint16_t(r.teacher_value), ts = uint16_t(r.teacher_static);
  teacher[0] = uint8_t(tv & 0xff);
  teacher[1] = uint8_t(tv >> 8);
  teacher[2] = uint8_t(ts & 0xff);
  teacher[3] = uint8_t(ts >> 8);
  teacher[4] = r.labelled ? 1 : 0;
  return bytes;
}

Status unpack_gensfen_record(const uint8_t* bytes, GensfenRecord& out) {
  GensfenRecord r;
  BitReader rd{bytes};
  for (shogi::Square s = 0; s < shogi::kSquareNb; ++s) {
    const uint32_t code = rd.get(5);
    if (!valid_piece(code))
      return Status::error("square " + std::to_string(s) + ": no piece has code " +
                           std::to_string(code));
    r.position.board[size_t(s)] = shogi::Piece(code);
  }
  for (shogi::Color c : {shogi::kBlack, shogi::kWhite})
    for (int k = 0; k < 7; ++k) {
      const int n = int(rd.get(kHandBits[k]));
      if (n > Hand::kMaxCount[kHandKinds[k]])
        return Status::error(std::string(c == shogi::kBlack ? "Black" : "White") +
                             "'s hand holds " + std::to_string(n) + " of kind " +
                             std::to_string(kHandKinds[k]));
      r.position.hands[c].add(kHandKinds[k], n);
    }
  r.position.side_to_move = rd.get(1) ? shogi::kWhite : shogi::kBlack;
  const uint8_t* tail = bytes + 56;
  r.value = int16_t(uint16_t(tail[0] | tail[1] << 8));
  r.move16 = uint16_t(tail[2] | tail[3] << 8);
  r.ply = uint16_t(tail[4] | tail[5] << 8);
  r.result = int8_t(tail[6]);
  r.depth = tail[7];
  const uint8_t* teacher = bytes + 64;
  r.teacher_value = int16_t(uint16_t(teacher[0] | teacher[1] << 8));
  r.teacher_static = int16_t(uint16_t(teacher[2] | teacher[3] << 8));
  r.labelled = teacher[4] & 1;
  if (r.result < -1 || r.result > 1)
    return Status::error("result " + std::to_string(r.result) + " is not -1, 0 or 1");
  r.position.game_ply = r.ply;
  out = r;
  return Status::ok();
}

std::string gensfen_file_bytes(const std::vector<GensfenRecord>& records) {
  std::string s(kMagic, 16);
  put_le(s, kVersion, 4);
  put_le(s, kGensfenRecordSize, 4);
  put_le(s, records.size(), 8);
  s.append(32, '\0');
  for (const GensfenRecord& r : records) {
    const auto bytes = pack_gensfen_record(r);
    s.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  return s;
}

Status read_gensfen_raw(const std::string& path, std::vector<uint8_t>& records) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error(path + ": cannot open");
  std::string data;
  try {  // libstdc++'s filebuf throws on a read error (a directory) under this iterator
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure& e) {
    return Status::error(path + ": cannot read: " + e.code().message());
  }
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  if (data.size() < kGensfenHeaderSize || std::memcmp(p, kMagic, 16) != 0)
    return Status::error(path + ": not a gensfen file (no SASHITE-GENSFEN header)");
  const uint64_t version = get_le(p + 16, 4);
  if (version != 1 && version != kVersion)
    return Status::error(path + ": version " + std::to_string(version) +
                         ", this program reads 1 and 2");
  const size_t size = version == 1 ? kGensfenRecordSizeV1 : kGensfenRecordSize;
  if (get_le(p + 20, 4) != size)
    return Status::error(path + ": record size " + std::to_string(get_le(p + 20, 4)) +
                         ", expected " + std::to_string(size) + " in version " +
                         std::to_string(version));
  const uint64_t count = get_le(p + 24, 8);
  if (data.size() != kGensfenHeaderSize + count * size)
    return Status::error(path + ": the header says " + std::to_string(count) +
                         " records, the file holds " +
                         std::to_string((data.size() - kGensfenHeaderSize) / size));
  if (size == kGensfenRecordSize) {
    records.insert(records.end(), p + kGensfenHeaderSize, p + data.size());
    return Status::ok();
  }
  records.reserve(records.size() + count * kGensfenRecordSize);
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* r = p + kGensfenHeaderSize + i * size;
    records.insert(records.end(), r, r + size);
    records.insert(records.end(), kGensfenRecordSize - size, uint8_t(0));
  }
  return Status::ok();
}

Status collect_gensfen_files(const std::vector<std::string>& inputs,
                             std::vector<std::string>& files) {
  namespace fs = std::filesystem;
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::directory_iterator(in, ec))
        if (entry.path().extension() == ".bin") found.push_back(entry.path().string());
      if (ec) return Status::error(in + ": cannot list the directory: " + ec.message());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(in, ec)) {
      files.push_back(in);
    } else {
      return Status::error(in + ": no such file or directory");
    }
  }
  if (files.empty()) return Status::error("no gensfen files (*.bin) in the given paths");
  return Status::ok();
}

Status read_gensfen_count(const std::string& path, uint64_t& count) {
  std::ifstream in(path, std::ios::binary);
  char header[kGensfenHeaderSize];
  if (!in || !in.read(header, sizeof header) || std::memcmp(header, kMagic, 16) != 0)
    return Status::error(path + ": not a gensfen file (no SASHITE-GENSFEN header)");
  count = get_le(reinterpret_cast<const uint8_t*>(header) + 24, 8);
  return Status::ok();
}

Status read_gensfen_file(const std::string& path, std::vector<GensfenRecord>& out) {
  std::vector<uint8_t> raw;
  if (Status s = read_gensfen_raw(path, raw); !s) return s;
  const size_t count = raw.size() / kGensfenRecordSize;
  std::vector<GensfenRecord> records(count);
  for (size_t i = 0; i < count; ++i)
    if (Status s = unpack_gensfen_record(raw.data() + i * kGensfenRecordSize, records[i]); !s)
      return Status::error(path + ": record " + std::to_string(i) + ": " + s.message());
  out = std::move(records);
  return Status::ok();
}

}  // namespace tools
