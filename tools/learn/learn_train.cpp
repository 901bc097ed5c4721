// Comparison training: search with the current weights, then AdaGrad passes over the pairs.
#include "tools/learn/learn_train.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "base/file_write.h"
#include "shogi/movegen.h"
#include "tools/common/parallel_for.h"
#include "tools/common/progress_bar.h"

namespace tools {

using base::Status;
using shogi::Move;
using shogi::Position;
namespace eval = engine::eval;
namespace fs = std::filesystem;

namespace {

constexpr int kN = eval::kFeatureCount;
constexpr double kMateValue = 1e9;  // a mate leaf's value in the measures

double softplus(double z) { return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }
// docs/techniques.md §5: T(x) = 1 / (1 + exp(-3x/100)), x in centipawns.
double disagreement_t(double x) { return 1 / (1 + std::exp(-3 * x / 100)); }

// FNV-1a over the bytes of values: the checkpoint's fingerprint of data and options.
struct Fingerprint {
  uint64_t h = 1469598103934665603ull;
  template <class T>
  void add(const T& v) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
  }
};

uint64_t fingerprint_of(const LearnOptions& o, const std::vector<TrainingPosition>& positions,
                        const eval::Weights& init) {
  Fingerprint f;
  for (const TrainingPosition& p : positions) {
    for (shogi::Piece piece : p.setup.board) f.add(int(piece));
    f.add(p.setup.hands[0].raw());
    f.add(p.setup.hands[1].raw());
    f.add(int(p.setup.side_to_move));
    f.add(p.teacher.raw());
    f.add(p.group);
    if (p.training_only) f.add(-1);  // only when set: older checkpoints keep their fingerprint
  }
  f.add(o.passes), f.add(o.learning_rate), f.add(o.scale_cp), f.add(o.l1), f.add(o.l2);
  f.add(o.min_count), f.add(o.holdout_every), f.add(o.batch_positions), f.add(o.window_cp);
  f.add(o.quiescence_depth), f.add(o.seed);
  if (o.loss != LossKind::kPairs) f.add(1000 + int(o.loss));  // older checkpoints keep theirs
  if (o.threatmate_penalty != 0) f.add(2000), f.add(o.threatmate_penalty);  // the same
  if (o.threat_stand_pat) f.add(3000);
  for (const std::string& name : o.frozen)
    for (char ch : name) f.add(ch);
  for (int i = 0; i < kN; ++i) f.add(init.units()[i]);
  return f.h;
}

bool held_out(const LearnOptions& o, const TrainingPosition& p) {
  return !p.training_only && is_held_out_group(p.group, o.holdout_every);
}

// The exact training state after `iteration` iterations.
struct TrainingState {
  int iteration = 0;
  std::vector<double> w, sum_squares;
  std::vector<IterationStats> stats;
};

constexpr char kStateMagic[16] = "sashite-learn 1";

// Appends the bytes of `n` objects at `data` to `out`.
template <typename T>
void append_bytes(std::string& out, const T* data, size_t n = 1) {
  out.append(reinterpret_cast<const char*>(data), sizeof(T) * n);
}

Status save_state(const std::string& dir, uint64_t fingerprint, const TrainingState& s) {
  const std::string path = (fs::path(dir) / "state.bin").string();
  const int32_t n = kN, iteration = s.iteration, rows = int32_t(s.stats.size());
  std::string bytes(kStateMagic, sizeof kStateMagic);
  append_bytes(bytes, &fingerprint);
  append_bytes(bytes, &iteration);
  append_bytes(bytes, &n);
  append_bytes(bytes, s.w.data(), kN);
  append_bytes(bytes, s.sum_squares.data(), kN);
  append_bytes(bytes, &rows);
  append_bytes(bytes, s.stats.data(), size_t(rows));
  return base::replace_file(path, bytes);
}

Status load_state(const std::string& dir, uint64_t fingerprint, TrainingState& s) {
  const std::string path = (fs::path(dir) / "state.bin").string();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error(path + ": cannot open");
  char magic[sizeof kStateMagic];
  uint64_t stored_fingerprint = 0;
  int32_t iteration = 0, n = 0, rows = 0;
  in.read(magic, sizeof magic);
  in.read(reinterpret_cast<char*>(&stored_fingerprint), sizeof stored_fingerprint);
  in.read(reinterpret_cast<char*>(&iteration), sizeof iteration);
  in.read(reinterpret_cast<char*>(&n), sizeof n);
  if (!in || std::memcmp(magic, kStateMagic, sizeof magic) != 0 || n != kN)
    return Status::error(path + ": not a learning state of this version");
  if (stored_fingerprint != fingerprint)
    return Status::error(path +
                         ": made from other data, initial weights or options (only "
                         "--iterations, --threads and --progress may change on --resume)");
  s.iteration = iteration;
  s.w.resize(kN);
  s.sum_squares.resize(kN);
  in.read(reinterpret_cast<char*>(s.w.data()), sizeof(double) * kN);
  in.read(reinterpret_cast<char*>(s.sum_squares.data()), sizeof(double) * kN);
  in.read(reinterpret_cast<char*>(&rows), sizeof rows);
  if (!in || rows < 0 || rows > 1000000) return Status::error(path + ": truncated");
  s.stats.resize(size_t(rows));
  in.read(reinterpret_cast<char*>(s.stats.data()), sizeof(IterationStats) * size_t(rows));
  if (!in) return Status::error(path + ": truncated");
  return Status::ok();
}

// Features active in at least min_count training positions may learn: active in one of the
// position's kept leaves (the teacher's or another move's), the leaves of this iteration.
bool section_matches(const std::string& name, const eval::Section& s) {
  const std::string section = s.name;
  return section == name || section == "opening_" + name || section == "endgame_" + name;
}

std::vector<char> learnable_features(int min_count, const std::vector<std::string>& frozen,
                                     const std::vector<LeafSet>& leaves) {
  std::vector<int> count(kN, 0);
  std::vector<uint32_t> seen_in(kN, UINT32_MAX);  // the last position that counted it
  for (size_t p = 0; p < leaves.size(); ++p) {
    auto see = [&](int index) {
      if (seen_in[index] != p) seen_in[index] = uint32_t(p), ++count[index];
    };
    for (const RawFeature& e : leaves[p].entries) {
      see(e.index);
      if (e.index >= eval::kOpeningOffset) see(e.index + eval::kPhaseSize);
    }
  }
  std::vector<char> learnable(kN);
  for (int i = 0; i < kN; ++i) learnable[i] = count[i] >= min_count;
  for (const std::string& name : frozen)
    for (const eval::Section& s : eval::kSections)
      if (section_matches(name, s)) std::fill_n(learnable.begin() + s.offset, s.size(), 0);
  return learnable;
}

// The search phase: measures every position with the weights, keeps the training leaves.
IterationStats search_all(const LearnOptions& o, const std::vector<TrainingPosition>& positions,
                          const std::vector<double>& wd, std::vector<LeafSet>& leaves,
                          bool keep_leaves, std::ostream* log, int iteration) {
  const auto start = std::chrono::steady_clock::now();
  const eval::Weights w = weights_from_doubles(wd);
  std::vector<PositionMeasure> measures(positions.size());
  leaves.assign(positions.size(), LeafSet());
  ProgressBar bar(std::cerr, int64_t(positions.size()),
                  o.progress || (log && ProgressBar::stderr_is_terminal()), "positions");
  parallel_for_with_progress<SearchThread>(
      positions.size(), o.threads, bar, "iteration " + std::to_string(iteration) + " search",
      [&](SearchThread& thread, size_t i) {
        Position& pos = thread.pos;
        const TrainingPosition& p = positions[i];
        if (!pos.set(p.setup)) return;
        const bool train = !held_out(o, p);
        LeafSet* keep = train && keep_leaves ? &leaves[i] : nullptr;
        measures[i] = measure_position(pos, thread.evaluator, p.teacher, w, wd.data(), o, keep);
        if (keep) {
          keep->entries.shrink_to_fit();
          keep->begins.shrink_to_fit();
          keep->progress.shrink_to_fit();
        }
      });
  bar.finish();

  IterationStats s;
  s.iteration = iteration;
  double train_loss = 0, heldout_loss = 0, train_agree = 0, heldout_agree = 0, disagree = 0;
  int64_t heldout_terms = 0, train_terms = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    const PositionMeasure& m = measures[i];
    if (!m.counted) continue;
    if (held_out(o, positions[i])) {
      ++s.heldout_positions;
      heldout_loss += m.loss;
      heldout_terms += m.terms;
      heldout_agree += m.agreement;
      disagree += m.disagreement;
      s.heldout_agreement_by_kind[m.kind] += m.agreement;
      ++s.heldout_positions_by_kind[m.kind];
    } else {
      ++s.training_positions;
      train_loss += m.loss;
      s.pairs += m.pairs;
      train_terms += m.terms;
      train_agree += m.agreement;
      if (leaves[i].size() > 1) s.kept_pairs += int64_t(leaves[i].size()) - 1;
    }
  }
  s.loss = train_terms ? train_loss / double(train_terms) : 0;
  s.heldout_loss = heldout_terms ? heldout_loss / double(heldout_terms) : 0;
  s.agreement = s.training_positions ? train_agree / s.training_positions : 0;
  s.heldout_agreement = s.heldout_positions ? heldout_agree / s.heldout_positions : 0;
  s.heldout_disagreement = s.heldout_positions ? disagree / s.heldout_positions : 0;
  for (int k = 0; k < 3; ++k)
    if (s.heldout_positions_by_kind[k] > 0)
      s.heldout_agreement_by_kind[k] /= s.heldout_positions_by_kind[k];
  s.search_s = seconds_since(start);
  return s;
}

// `passes` passes of mini-batch AdaGrad over the positions with leaves. Deterministic: one
// thread, the order shuffled by a generator seeded from the seed, iteration and pass.
void gradient_passes(const LearnOptions& o, const std::vector<LeafSet>& leaves,
                     const std::vector<char>& learnable, int iteration, TrainingState& state,
                     std::ostream* log) {
  std::vector<uint32_t> order;
  for (size_t i = 0; i < leaves.size(); ++i)
    if (leaves[i].size() > 1) order.push_back(uint32_t(i));
  std::vector<double> g(kN);
  std::vector<double>& w = state.w;
  std::vector<double>& sum_squares = state.sum_squares;
  const int batch = std::max(1, o.batch_positions);
  for (int pass = 0; pass < o.passes; ++pass) {
    std::mt19937_64 random(o.seed * 1000003u + uint64_t(iteration) * 1009u + uint64_t(pass));
    std::shuffle(order.begin(), order.end(), random);
    double pass_loss = 0;
    int64_t pass_pairs = 0;
    for (size_t b = 0; b < order.size(); b += size_t(batch)) {
      std::fill(g.begin(), g.end(), 0.0);
      int64_t pairs = 0;
      const size_t end = std::min(order.size(), b + size_t(batch));
      for (size_t k = b; k < end; ++k) {
        const LeafSet& set = leaves[order[k]];
        pass_loss += add_position_gradient(set, w.data(), o.scale_cp, 1.0, g.data(), o.loss);
        pairs += loss_terms(set, o.loss);
      }
      pass_pairs += pairs;
      const double inv = 1.0 / double(pairs);
      for (int i = 0; i < kN; ++i) {
        if (g[i] == 0 || !learnable[i]) continue;
        double gi = g[i] * inv;
        if (o.l1 > 0) gi += o.l1 / 100 * (w[i] > 0 ? 1 : w[i] < 0 ? -1 : 0);
        if (o.l2 > 0) gi += o.l2 * 2 * w[i] / (100.0 * 100.0);
        sum_squares[i] += gi * gi;
        w[i] -= o.learning_rate * gi / std::sqrt(sum_squares[i]);
        w[i] =
            std::clamp(w[i], -eval::Weights::kMaxAbsCentipawns, eval::Weights::kMaxAbsCentipawns);
      }
    }
    if (log)
      *log << "  iteration " << iteration + 1 << " pass " << pass + 1 << ": kept-pair loss "
           << (pass_pairs ? pass_loss / double(pass_pairs) : 0) << '\n';
  }
}

void log_row(std::ostream* log, const IterationStats& s) {
  if (!log) return;
  char line[320];
  std::snprintf(line, sizeof line,
                "iteration %d: loss %.4f (held out %.4f), agreement %.2f%% (held out %.2f%%), "
                "held-out disagreement %.4f; %d training / %d held-out positions, %lld pairs "
                "(%lld kept); search %.1f s\n",
                s.iteration, s.loss, s.heldout_loss, 100 * s.agreement, 100 * s.heldout_agreement,
                s.heldout_disagreement, s.training_positions, s.heldout_positions,
                static_cast<long long>(s.pairs), static_cast<long long>(s.kept_pairs), s.search_s);
  *log << line << "  " << format_kind_agreement(s) << '\n' << std::flush;
}

}  // namespace

Status check_frozen_sections(const LearnOptions& o) {
  for (const std::string& name : o.frozen) {
    bool found = false;
    for (const eval::Section& s : eval::kSections) found = found || section_matches(name, s);
    if (!found)
      return Status::error("--freeze " + name +
                           ": no such section (names as in the weight file, with or without "
                           "the opening_/endgame_ prefix)");
  }
  return Status::ok();
}

MoveKind move_kind(const Position& pos, Move m) {
  return m.is_drop() ? kDropMove : pos.is_capture(m) ? kCaptureMove : kQuietMove;
}

std::string format_kind_agreement(const IterationStats& s) {
  std::string text = "held-out agreement by teacher move:";
  for (int k = 0; k < 3; ++k) {
    const int n = s.heldout_positions_by_kind[k];
    char part[96];
    std::snprintf(part, sizeof part, "%s %s %.2f%% (%d positions, %.1f%%)", k ? "," : "",
                  kMoveKindNames[k], 100 * s.heldout_agreement_by_kind[k], n,
                  s.heldout_positions ? 100.0 * n / s.heldout_positions : 0.0);
    text += part;
  }
  return text;
}

std::string format_stats_table(const std::vector<IterationStats>& stats) {
  std::string table =
      "iter  loss    heldout_loss  agreement  heldout_agreement  heldout_disagreement  "
      "search_s  passes_s  ho_capture  ho_quiet  ho_drop\n";
  for (const IterationStats& r : stats) {
    char line[240];
    std::snprintf(line, sizeof line,
                  "%4d  %.4f  %.4f        %6.2f%%    %6.2f%%            %.4f"
                  "                %7.1f  %7.1f    %6.2f%%   %6.2f%%  %6.2f%%\n",
                  r.iteration, r.loss, r.heldout_loss, 100 * r.agreement, 100 * r.heldout_agreement,
                  r.heldout_disagreement, r.search_s, r.passes_s,
                  100 * r.heldout_agreement_by_kind[kCaptureMove],
                  100 * r.heldout_agreement_by_kind[kQuietMove],
                  100 * r.heldout_agreement_by_kind[kDropMove]);
    table += line;
  }
  if (!stats.empty()) {
    const IterationStats& r = stats.back();
    const double n = std::max(1, r.heldout_positions);
    char line[200];
    std::snprintf(
        line, sizeof line,
        "held-out teacher moves: capture %d (%.1f%%), quiet %d (%.1f%%), drop %d "
        "(%.1f%%)\n",
        r.heldout_positions_by_kind[kCaptureMove],
        100 * r.heldout_positions_by_kind[kCaptureMove] / n,
        r.heldout_positions_by_kind[kQuietMove], 100 * r.heldout_positions_by_kind[kQuietMove] / n,
        r.heldout_positions_by_kind[kDropMove], 100 * r.heldout_positions_by_kind[kDropMove] / n);
    table += line;
  }
  return table;
}

void LeafSet::add(const RawFeatures& f, shogi::Value leaf_bonus) {
  entries.insert(entries.end(), f.entries.begin(), f.entries.end());
  begins.push_back(uint32_t(entries.size()));
  progress.push_back(uint16_t(f.progress_fixed));
  bonus.push_back(int16_t(leaf_bonus));
}

double position_loss(double va, const std::vector<double>& others, double scale_cp, LossKind kind,
                     std::vector<double>* d) {
  if (d) d->assign(others.size(), 0.0);
  double loss = 0;
  if (kind == LossKind::kSoftmax) {
    // L = log(1 + sum over b of exp((f(b) - f(a)) / s)); dL/df(b) = p(b) / s, p the
    // softmax shares, and dL/df(a) = -(1 - p(a)) / s.
    double top = 0;  // the largest (f(b) - f(a)) / s, the teacher's 0 included
    for (double vb : others) top = std::max(top, (vb - va) / scale_cp);
    double sum = std::exp(-top);  // the teacher's own term
    for (double vb : others) sum += std::exp((vb - va) / scale_cp - top);
    if (d)
      for (size_t i = 0; i < others.size(); ++i)
        (*d)[i] = std::exp((others[i] - va) / scale_cp - top) / sum;
    return top + std::log(sum);
  }
  for (size_t i = 0; i < others.size(); ++i) {
    const double x = (va - others[i]) / scale_cp;
    loss += softplus(-x);
    // d/d(vb) of log(1 + exp(-(va - vb)/s)) = sigmoid(-x) / s; d/d(va) is its negation.
    if (d) (*d)[i] = sigmoid(-x);
  }
  return loss;
}

PositionMeasure measure_position(Position& pos, eval::IncrementalEvaluator& evaluator, Move teacher,
                                 const eval::Weights& w, const double* wd, const LearnOptions& o,
                                 LeafSet* leaves) {
  PositionMeasure m;
  const shogi::MoveList moves = shogi::legal_moves(pos);
  const int n = moves.size();
  int t = -1;
  for (int i = 0; i < n; ++i)
    if (moves[i] == teacher) t = i;
  if (n < 2 || t < 0) return m;
  const shogi::Color mover = pos.side_to_move();
  thread_local std::vector<RawFeatures> features;
  features.resize(size_t(n));
  std::vector<double> values(static_cast<size_t>(n));
  std::vector<char> mate(static_cast<size_t>(n));
  std::vector<shogi::Value> bonus(static_cast<size_t>(n));
  // The root's sums, so that each move's leaf is evaluated from them, not from scratch.
  evaluator.evaluate(pos, w);
  for (int i = 0; i < n; ++i) {
    const MoveLeaf leaf = search_move_leaf(pos, evaluator, w, moves[i], o.quiescence_depth,
                                           o.threatmate_penalty, o.threat_stand_pat);
    if (leaf.mated) {
      mate[i] = 1;
      values[i] = leaf.value > 0 ? kMateValue : -kMateValue;
      continue;
    }
    pos.do_move(leaf.move);
    for (Move pv : leaf.pv) pos.do_move(pv);
    collect_raw_features(pos, mover, features[i]);
    for (size_t k = 0; k <= leaf.pv.size(); ++k) pos.undo_move();
    bonus[i] = leaf.bonus;
    values[i] = raw_value(wd, features[i]) + leaf.bonus;
  }
  const double va = values[t];
  const double best = *std::max_element(values.begin(), values.end());
  if (va >= best) m.agreement = 1.0 / double(std::count(values.begin(), values.end(), best));
  for (int i = 0; i < n; ++i)
    if (i != t) m.disagreement += disagreement_t(values[i] - va);
  m.disagreement /= n - 1;
  m.counted = true;
  m.kind = move_kind(pos, teacher);
  if (mate[t]) return m;
  if (leaves) leaves->add(features[t], bonus[t]);
  thread_local std::vector<double> others;
  others.clear();
  for (int i = 0; i < n; ++i) {
    if (i == t || mate[i]) continue;
    others.push_back(values[i]);
    if (leaves && va - values[i] <= o.window_cp) leaves->add(features[i], bonus[i]);
  }
  m.pairs = int(others.size());
  m.terms = o.loss == LossKind::kPairs ? m.pairs : m.pairs > 0;
  if (m.pairs > 0) m.loss = position_loss(va, others, o.scale_cp, o.loss, nullptr);
  if (leaves && leaves->size() < 2) leaves->clear();
  return m;
}

double add_position_gradient(const LeafSet& leaves, const double* w, double scale_cp, double scale,
                             double* gradient, LossKind kind) {
  if (leaves.size() < 2) return 0;
  const double va = leaves.value(w, 0);
  thread_local std::vector<double> others, d;
  others.resize(leaves.size() - 1);
  for (size_t i = 1; i < leaves.size(); ++i) others[i - 1] = leaves.value(w, i);
  const double loss = position_loss(va, others, scale_cp, kind, &d);
  double teacher_weight = 0;
  for (size_t i = 1; i < leaves.size(); ++i) {
    teacher_weight += d[i - 1] / scale_cp;
    add_raw_gradient(leaves.entries.data() + leaves.begins[i],
                     leaves.begins[i + 1] - leaves.begins[i], leaves.progress[i],
                     scale * (d[i - 1] / scale_cp), gradient);
  }
  add_raw_gradient(leaves.entries.data(), leaves.begins[1], leaves.progress[0],
                   -scale * teacher_weight, gradient);
  return loss;
}

Status train_weights(const LearnOptions& o, const std::vector<TrainingPosition>& positions,
                     const eval::Weights& init, eval::Weights& out,
                     std::vector<IterationStats>& stats, std::ostream* log) {
  if (positions.empty()) return Status::error("no training positions");
  if (Status s = check_frozen_sections(o); !s) return s;
  const uint64_t fingerprint = fingerprint_of(o, positions, init);
  TrainingState state;
  state.w.resize(kN);
  state.sum_squares.assign(kN, 0.0);
  for (int i = 0; i < kN; ++i) state.w[i] = init.get(i);
  if (!o.checkpoint_dir.empty()) {
    std::error_code ec;
    fs::create_directories(o.checkpoint_dir, ec);
    if (ec) return Status::error(o.checkpoint_dir + ": cannot create: " + ec.message());
    const bool exists = fs::exists(fs::path(o.checkpoint_dir) / "state.bin", ec);
    if (o.resume && exists) {
      if (Status s = load_state(o.checkpoint_dir, fingerprint, state); !s) return s;
      if (log)
        *log << "resuming from " << o.checkpoint_dir << " after iteration " << state.iteration
             << '\n';
      for (const IterationStats& row : state.stats) log_row(log, row);
    } else if (exists) {
      return Status::error(o.checkpoint_dir +
                           ": holds a checkpoint (state.bin); pass --resume to continue it "
                           "or choose another directory");
    }
  }
  if (state.iteration > o.iterations)
    return Status::error("the checkpoint is after iteration " + std::to_string(state.iteration) +
                         ", beyond --iterations " + std::to_string(o.iterations));
  std::vector<LeafSet> leaves;
  for (;;) {
    const bool last = state.iteration >= o.iterations;
    IterationStats row = search_all(o, positions, state.w, leaves, !last, log, state.iteration);
    state.stats.resize(size_t(state.iteration));
    state.stats.push_back(row);
    log_row(log, row);
    if (last) break;
    const auto start = std::chrono::steady_clock::now();
    const std::vector<char> learnable = learnable_features(o.min_count, o.frozen, leaves);
    if (log)
      *log << "  " << std::count(learnable.begin(), learnable.end(), 1) << " of " << kN
           << " features active in the leaves of at least " << o.min_count
           << " training positions may learn\n";
    gradient_passes(o, leaves, learnable, state.iteration, state, log);
    state.stats.back().passes_s = seconds_since(start);
    ++state.iteration;
    if (!o.checkpoint_dir.empty()) {
      if (Status s = save_state(o.checkpoint_dir, fingerprint, state); !s) return s;
      eval::Weights snapshot = weights_from_doubles(state.w);
      snapshot.set_header("checkpoint of sashite learn train after iteration " +
                          std::to_string(state.iteration) + " (learned, unfinished)");
      if (Status s = snapshot.save((fs::path(o.checkpoint_dir) / "weights.eval").string()); !s)
        return s;
    }
  }
  leaves.clear();
  out = weights_from_doubles(state.w);
  stats = state.stats;
  return Status::ok();
}

}  // namespace tools
