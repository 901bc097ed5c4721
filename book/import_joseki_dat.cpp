// ImportJosekiDat: GPS Shogi's joseki.dat (OSL WeightedBook) into a BookBuilder.
#include "book/import_joseki_dat.h"

#include "shogi/movegen.h"

namespace book {

namespace {

constexpr size_t kHeaderSize = 16, kStateSize = 16, kMoveSize = 12, kBoardSize = 164;
constexpr int kBoardPieces = 40;

int32_t read_int(std::string_view data, size_t offset) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = v << 8 | uint8_t(data[offset + i]);
  return int32_t(v);
}

// OSL ptype (2..15) to ours; kNoPieceType for anything else.
shogi::PieceType from_osl_ptype(int ptype) {
  using namespace base;
  using namespace shogi;
  static constexpr PieceType kTable[16] = {
      kNoPieceType, kNoPieceType, kProPawn, kProLance, kProKnight, kProSilver, kHorse,  kDragon,
      kKing,        kGold,        kPawn,    kLance,    kKnight,    kSilver,    kBishop, kRook};
  return ptype >= 0 && ptype < 16 ? kTable[ptype] : kNoPieceType;
}

// OSL square bits (file << 4 | rank, 1-based) to ours; kSquareNone for 0 (the stand).
bool from_osl_square(int bits, shogi::Square& out) {
  const int file = (bits >> 4) & 15, rank = bits & 15;
  if (file == 0 && rank == 0) {
    out = shogi::kSquareNone;
    return true;
  }
  if (file < 1 || file > 9 || rank < 1 || rank > 9) return false;
  out = shogi::make_square(file - 1, rank - 1);
  return true;
}

base::Status read_board(std::string_view board, shogi::PositionSetup& setup, std::string& why) {
  using namespace base;
  using namespace shogi;
  setup = PositionSetup();
  for (int i = 0; i < kBoardPieces; ++i) {
    const int32_t piece = read_int(board, size_t(i) * 4);
    const Color owner = piece < 0 ? kWhite : kBlack;
    const PieceType type = from_osl_ptype((piece >> 16) & 15);
    Square s;
    if (type == kNoPieceType || !from_osl_square(piece & 0xff, s)) {
      why = "piece " + std::to_string(i) + " (" + std::to_string(piece) + ") is not a piece";
      return Status::error(why);
    }
    if (s == kSquareNone) {
      if (type == kKing || is_promoted(type)) {
        why = "piece " + std::to_string(i) + ": a king or promoted piece in hand";
        return Status::error(why);
      }
      setup.hands[owner].add(type);
    } else {
      if (setup.board[s] != kNoPiece) {
        why = "two pieces on one square";
        return Status::error(why);
      }
      setup.board[s] = make_piece(owner, type);
    }
  }
  const int32_t turn = read_int(board, size_t(kBoardPieces) * 4);
  if (turn != 0 && turn != -1) {
    why = "side to move " + std::to_string(turn);
    return Status::error(why);
  }
  setup.side_to_move = turn == 0 ? kBlack : kWhite;
  return Status::ok();
}

// The legal move of pos that OMove `value` describes; kMoveNone if none.
shogi::Move find_move(const shogi::Position& pos, int32_t value) {
  using namespace base;
  using namespace shogi;
  Square from, to;
  if (!from_osl_square(value & 0xff, from) || !from_osl_square((value >> 8) & 0xff, to) ||
      to == kSquareNone)
    return kMoveNone;
  const Color player = (value >> 28) != 0 ? kWhite : kBlack;
  if (player != pos.side_to_move()) return kMoveNone;
  const bool promotion = (value >> 19) & 1;
  Move candidate;
  if (from == kSquareNone) {
    const PieceType type = from_osl_ptype((value >> 24) & 15);
    if (type < kPawn || type > kGold || promotion) return kMoveNone;
    candidate = Move::drop(type, to, player);
  } else {
    candidate = Move::board(from, to, promotion, kNoPiece);
  }
  MoveList legal;
  generate(pos, GenType::kLegal, legal);
  for (Move m : legal)
    if (m == candidate) return m;
  return kMoveNone;
}

}  // namespace

base::Status import_joseki_dat_bytes(std::string_view data, std::string_view name, BookBuilder& out,
                                     ImportStats& stats) {
  const std::string file(name);
  if (data.size() < kHeaderSize)
    return base::Status::error(file + ": byte 0: shorter than the 16-byte header");
  const int32_t version = read_int(data, 0), n_states = read_int(data, 4),
                n_moves = read_int(data, 8), start = read_int(data, 12);
  if (n_states < 0 || n_moves < 0 || start < 0 || (n_states > 0 && start >= n_states))
    return base::Status::error(file + ": byte 0: bad header (version " + std::to_string(version) +
                               ", states " + std::to_string(n_states) + ", moves " +
                               std::to_string(n_moves) + ", start " + std::to_string(start) + ")");
  const size_t states_at = kHeaderSize, moves_at = states_at + size_t(n_states) * kStateSize,
               boards_at = moves_at + size_t(n_moves) * kMoveSize,
               expected = boards_at + size_t(n_states) * kBoardSize;
  if (data.size() != expected)
    return base::Status::error(file + ": " + std::to_string(data.size()) + " bytes, but " +
                               std::to_string(n_states) + " states and " + std::to_string(n_moves) +
                               " moves need " + std::to_string(expected) + " (not a joseki.dat?)");
  auto state_int = [&](int32_t state, int field) {
    return read_int(data, states_at + size_t(state) * kStateSize + size_t(field) * 4);
  };
  shogi::Position pos;
  for (int32_t state = 0; state < n_states; ++state) {
    const int32_t first = state_int(state, 0), count = state_int(state, 1);
    auto fail = [&](const std::string& why) {
      return base::Status::error(file + ": state " + std::to_string(state) + ": " + why);
    };
    if (count == 0) continue;
    if (first < 0 || count < 0 || int64_t(first) + count > n_moves)
      return fail("moves " + std::to_string(first) + "+" + std::to_string(count) + " out of range");
    shogi::PositionSetup setup;
    std::string why;
    if (!read_board(data.substr(boards_at + size_t(state) * kBoardSize, kBoardSize), setup, why))
      return fail("board: " + why);
    base::Status set = pos.set(setup);
    if (!set) return fail("board: " + set.message());
    for (int32_t i = first; i < first + count; ++i) {
      const size_t at = moves_at + size_t(i) * kMoveSize;
      const int32_t omove = read_int(data, at), next = read_int(data, at + 4),
                    weight = read_int(data, at + 8);
      BookMove m;
      m.move = find_move(pos, omove);
      if (m.move == shogi::kMoveNone)
        return fail("move " + std::to_string(i) + " (OMove " + std::to_string(omove) +
                    ") is not legal in " + pos.sfen(false));
      if (next < 0 || next >= n_states)
        return fail("move " + std::to_string(i) + ": next state " + std::to_string(next) +
                    " out of range");
      m.count = weight < 0 ? 0 : uint32_t(weight);
      const int32_t black_wins = state_int(next, 2), white_wins = state_int(next, 3);
      const bool black = pos.side_to_move() == shogi::kBlack;
      m.wins = uint32_t(std::max(0, black ? black_wins : white_wins));
      m.losses = uint32_t(std::max(0, black ? white_wins : black_wins));
      m.sources = kSourceJosekiDat;
      ++stats.rows;
      if (!out.add(pos, m)) {
        ++stats.collisions;
        stats.warn(fail("key collision with another position; move dropped").message());
      }
    }
  }
  return base::Status::ok();
}

base::Status import_joseki_dat(const std::string& path, BookBuilder& out, ImportStats& stats) {
  std::string data;
  base::Status s = read_whole_file(path, data);
  if (!s) return s;
  ++stats.files;
  return import_joseki_dat_bytes(data, path, out, stats);
}

}  // namespace book
