// The NNUE trainer: the float model against the quantised file, gradients against finite
// differences, a run that learns, resume equal to a straight run, and bad input; the
// teacher's share of the target, the positions it leaves out, threads and a warm start (in
// full in the slow suite, and on a small set, one epoch each, in every build).
#include "tools/learn/nnue_train.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/file_write.h"
#include "engine/nnue/evaluator.h"
#include "shogi/movegen.h"
#include "shogi/position.h"
#include "test_positions.h"
#include "tools/learn/gensfen_format.h"
#include "tools/learn/nnue_model.h"
#include "tools/learn/nnue_quantise.h"
#include "tools/learn/nnue_quantise_command.h"

namespace nnue_train_test {

using namespace engine;
using namespace tools;

namespace {

std::string temporary_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("sashite_nnue_train_test_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

int material(const Position& pos, Color c) {
  static constexpr int kValue[kPieceTypeNb] = {0, 100, 300, 350, 450, 700, 800, 500,
                                               0, 500, 500, 500, 500, 900, 1000};
  int sum = 0;
  for (Square s = 0; s < kSquareNb; ++s)
    if (pos.piece_on(s) != kNoPiece && color_of(pos.piece_on(s)) == c)
      sum += kValue[type_of(pos.piece_on(s))];
  for (int t = kPawn; t <= kGold; ++t) sum += kValue[t] * pos.hand(c).count(PieceType(t));
  return sum;
}

// Positions of seeded random playouts, valued by material from the side to move's view, the
// result the sign of it: a target a network learns quickly.
std::vector<GensfenRecord> material_records(uint64_t seed, int games) {
  std::vector<GensfenRecord> records;
  test_positions::random_playouts(seed, games, 120, [&records](const Position& pos, int ply) {
    if (pos.in_check() || ply < 10) return;
    GensfenRecord r;
    r.position = pos.setup();
    const int v = material(pos, pos.side_to_move()) - material(pos, ~pos.side_to_move());
    r.value = int16_t(std::clamp(v, -3000, 3000));
    r.result = int8_t(v > 0 ? 1 : v < 0 ? -1 : 0);
    r.ply = uint16_t(ply + 2);
    records.push_back(r);
  });
  return records;
}

std::vector<Position> playout_positions(uint64_t seed, int games) {
  std::vector<Position> out;
  test_positions::random_playouts(seed, games, 120, [&out](const Position& pos, int) {
    Position copy;
    REQUIRE(copy.set(pos.setup()).is_ok());
    out.push_back(copy);
  });
  return out;
}

// A model whose weights are spread wider than at initialisation (so that clamps bite).
NnueModel spread_model(uint64_t seed) {
  NnueModel model;
  model.initialise(seed);
  std::mt19937_64 rng(seed + 1);
  std::uniform_real_distribution<float> d(-0.1f, 0.1f);
  for (size_t i = NnueModel::kL1Weight; i < NnueModel::kParamNb; ++i) {
    const float limit = NnueModel::limit(i);
    model.params[i] += d(rng);
    if (limit > 0) model.params[i] = std::clamp(model.params[i], -limit, limit);
  }
  return model;
}

}  // namespace

TEST_CASE("nnue train: the quantised network evaluates as the float model does") {
  const NnueModel model = spread_model(3);
  const nnue::Network net = model.quantised();
  NnueActivations a;
  double sum_abs = 0, max_abs = 0;
  int n = 0;
  for (const Position& pos : playout_positions(8, 10)) {
    const double float_cp = nnue_forward(model, nnue_sample_of(pos), a) * nnue::kValueScale;
    const double diff = std::fabs(float_cp - nnue::evaluate(pos, net));
    sum_abs += diff;
    max_abs = std::max(max_abs, diff);
    ++n;
  }
  INFO("mean |float - quantised| ", sum_abs / n, " cp, max ", max_abs, " cp over ", n);
  CHECK(n > 500);
  CHECK(sum_abs / n < 15.0);
  CHECK(max_abs < 60.0);
}

TEST_CASE("nnue quantise: the rounding fitted to positions stays nearer the float model") {
  const NnueModel model = spread_model(3);
  CHECK(calibrated_network(model, {}).file_bytes() == model.quantised().file_bytes());
  std::vector<NnueSample> calibration;
  for (const Position& pos : playout_positions(21, 20)) calibration.push_back(nnue_sample_of(pos));
  const nnue::Network plain = model.quantised();
  const nnue::Network fitted = calibrated_network(model, calibration);
  NnueActivations a;
  double plain_sum = 0, fitted_sum = 0;
  int n = 0;
  for (const Position& pos : playout_positions(8, 10)) {  // other playouts than calibrated on
    const double float_cp = nnue_forward(model, nnue_sample_of(pos), a) * nnue::kValueScale;
    plain_sum += std::fabs(float_cp - nnue::evaluate(pos, plain));
    fitted_sum += std::fabs(float_cp - nnue::evaluate(pos, fitted));
    ++n;
  }
  INFO("mean |float - file|: plain ", plain_sum / n, " cp, fitted to ", calibration.size(),
       " positions ", fitted_sum / n, " cp, over ", n);
  CHECK(n > 500);
  CHECK(fitted_sum < 0.7 * plain_sum);
}

TEST_CASE("nnue quantise: a checkpoint rounded anew, and bad input named") {
  const std::string dir = temporary_dir("quantise");
  const std::string data = dir + "/gensfen-s0-000000.bin";
  REQUIRE(base::replace_file(data, gensfen_file_bytes(material_records(17, 6))).is_ok());
  NnueTrainOptions o;
  o.data = {dir};
  o.out = dir + "/plain.nnue";
  o.epochs = 1;
  o.batch = 64;
  o.holdout = 0.1;
  o.calibration = 0;
  NnueTrainSummary summary;
  REQUIRE(train_nnue(o, summary).is_ok());
  REQUIRE(summary.epochs.size() == 1);
  REQUIRE(summary.epochs[0].written);
  nnue::Network plain;
  REQUIRE(plain.load(o.out).is_ok());

  NnueQuantiseOptions q;
  q.checkpoint = o.out + ".ckpt";
  q.data = {data};
  q.out = dir + "/fitted.nnue";
  q.calibration = 100;
  NnueQuantiseReport report;
  REQUIRE(quantise_nnue(q, report).is_ok());
  CHECK(report.calibrated_on == 100);
  CHECK(report.measured_on > 100);  // every other position of the file's ~300
  CHECK(report.plain_mean_cp > 0);
  CHECK(report.calibrated_mean_cp > 0);
  nnue::Network fitted;
  REQUIRE(fitted.load(q.out).is_ok());
  CHECK(fitted.file_bytes() != plain.file_bytes());
  q.calibration = 0;  // plain rounding: the trainer's file of the same model
  REQUIRE(quantise_nnue(q, report).is_ok());
  REQUIRE(fitted.load(q.out).is_ok());
  CHECK(fitted.file_bytes() == plain.file_bytes());

  NnueQuantiseOptions bad = q;
  bad.checkpoint = dir + "/absent.ckpt";
  CHECK(quantise_nnue(bad, report).message().find("absent.ckpt") != std::string::npos);
  bad.checkpoint = data;  // a gensfen file
  CHECK(quantise_nnue(bad, report).message().find("not an NNUE checkpoint") != std::string::npos);
  bad = q;
  bad.data = {dir + "/absent"};
  CHECK(quantise_nnue(bad, report).message().find("absent") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("nnue train: the backward pass matches finite differences") {
  NnueModel model = spread_model(5);
  const std::vector<Position> positions = playout_positions(3, 1);
  const NnueSample sample = nnue_sample_of(positions.at(40));
  NnueActivations a;
  nnue_forward(model, sample, a);
  std::vector<float> grad(NnueModel::kParamNb, 0.0f);
  std::vector<int> touched;
  nnue_backward(model, sample, a, 1.0f, grad, touched);  // d(y)/d(param)
  // 40 features a side, each its own row, a shared one and (on the board) a piece one.
  size_t rows = 0;
  for (const nnue::FeatureList* list : {&sample.own, &sample.other})
    for (int k = 0; k < list->size; ++k) rows += NnueModel::piece_row(list->index[k]) < 0 ? 2 : 3;
  CHECK(touched.size() == rows);
  // Parameters of every layer: the output, the second and first layers, a touched row.
  std::vector<size_t> probes = {NnueModel::kOutBias,    NnueModel::kOutWeight + 3,
                                NnueModel::kL2Bias + 5, NnueModel::kL2Weight + 70,
                                NnueModel::kL1Bias + 2, NnueModel::kL1Weight + 33 * 1 + 300,
                                NnueModel::kFtBias + 17};
  for (int j = 0; j < 8; ++j)
    probes.push_back(NnueModel::kFtWeight + size_t(sample.own.index[j]) * NnueModel::kHidden +
                     31 * j);
  int compared = 0;
  for (size_t i : probes) {
    if (grad[i] == 0.0f) continue;  // a clamped unit: nothing to compare
    const float saved = model.params[i];
    const float eps = 1e-3f;
    model.params[i] = saved + eps;
    const double up = nnue_forward(model, sample, a);
    model.params[i] = saved - eps;
    const double down = nnue_forward(model, sample, a);
    model.params[i] = saved;
    const double numeric = (up - down) / (2 * eps);
    CAPTURE(i);
    CHECK(numeric == doctest::Approx(grad[i]).epsilon(0.02).scale(1e-3));
    ++compared;
  }
  CHECK(compared >= 8);
}

TEST_CASE("nnue train: a run learns, resumes as if never stopped, and names bad input" *
          doctest::test_suite("slow")) {
  const std::string dir = temporary_dir("run");
  const std::vector<GensfenRecord> records = material_records(17, 60);
  REQUIRE(records.size() > 3000);
  REQUIRE(base::replace_file(dir + "/gensfen-s0-000000.bin", gensfen_file_bytes(records)).is_ok());

  NnueTrainOptions o;
  o.data = {dir};
  o.out = dir + "/straight.nnue";
  o.epochs = 4;
  o.batch = 64;
  o.learning_rate = 2e-3;
  o.holdout = 0.1;
  NnueTrainSummary straight;
  REQUIRE(train_nnue(o, straight).is_ok());
  for (const NnueEpochReport& r : straight.epochs)
    MESSAGE("epoch ", r.epoch, ": train ", r.train_loss, " held out ", r.holdout_loss,
            " quantised ", r.holdout_loss_quantised);
  REQUIRE(straight.epochs.size() == 4);
  // Random playouts meet a few positions twice: each kept once.
  CHECK(straight.positions + straight.left_out_duplicates == int64_t(records.size()));
  CHECK(straight.left_out == straight.left_out_duplicates);
  const NnueEpochReport& first = straight.epochs.front();
  const NnueEpochReport& last = straight.epochs.back();
  INFO("training loss ", first.train_loss, " -> ", last.train_loss, ", held out ",
       last.holdout_loss, ", quantised ", last.holdout_loss_quantised);
  CHECK(last.train_loss < 0.3 * first.train_loss);
  CHECK(last.holdout_loss_quantised == doctest::Approx(last.holdout_loss).epsilon(0.1));
  nnue::Network written;
  REQUIRE(written.load(o.out).is_ok());

  // Two epochs, then two more from the checkpoint: the same network, byte for byte.
  NnueTrainOptions half = o;
  half.out = dir + "/resumed.nnue";
  half.epochs = 2;
  NnueTrainSummary s1, s2;
  REQUIRE(train_nnue(half, s1).is_ok());
  half.epochs = 4;
  half.resume = true;
  REQUIRE(train_nnue(half, s2).is_ok());
  CHECK(s2.first_epoch == 3);
  nnue::Network resumed;
  REQUIRE(resumed.load(half.out).is_ok());
  CHECK(resumed.file_bytes() == written.file_bytes());

  // A checkpoint of other settings is refused; so are missing and damaged data.
  NnueTrainOptions other = half;
  other.batch = 32;
  NnueTrainSummary s3;
  const Status mismatch = train_nnue(other, s3);
  REQUIRE_FALSE(mismatch.is_ok());
  CHECK(mismatch.message().find("other data or settings") != std::string::npos);
  NnueTrainOptions missing = o;
  missing.data = {dir + "/absent"};
  CHECK(train_nnue(missing, s3).message().find("absent") != std::string::npos);
  std::string damaged = gensfen_file_bytes(records);
  damaged[kGensfenHeaderSize + kGensfenRecordSize * 5 + 2] = char(0xff);  // no piece's code
  const std::string bad_dir = temporary_dir("bad");
  REQUIRE(base::replace_file(bad_dir + "/x.bin", damaged).is_ok());
  NnueTrainOptions bad = o;
  bad.data = {bad_dir + "/x.bin"};
  const Status bad_status = train_nnue(bad, s3);
  REQUIRE_FALSE(bad_status.is_ok());
  CHECK(bad_status.message().find("x.bin: record 5") != std::string::npos);
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(bad_dir);
}

namespace {

// The teacher's target, what the trainer leaves out, two threads, a warm start and the shared
// rows alone, on the positions of `games` playouts, the first run `epochs` long. With
// `judge_learning`, also how well each run learned, which needs the full set and epochs (the
// slow suite); without, every path runs, in the sanitizers' build too.
void check_teacher_runs(const std::string& name, int games, size_t min_records, int epochs,
                        bool judge_learning) {
  const std::string dir = temporary_dir(name);
  // The search values are noise; the teacher's are material (the target to learn). Every
  // fifth position is not labelled; every seventh has a static value far from its teacher's.
  std::vector<GensfenRecord> records = material_records(23, games);
  REQUIRE(records.size() > min_records);
  std::mt19937_64 rng(5);
  int unlabelled = 0, not_quiet = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    GensfenRecord& r = records[i];
    const int16_t material_value = r.value;
    r.value = int16_t(int(rng() % 2001) - 1000);
    r.labelled = i % 5 != 0;
    r.teacher_value = r.labelled ? material_value : 0;
    r.teacher_static = r.teacher_value;
    if (!r.labelled) {
      ++unlabelled;
    } else if (i % 7 == 0) {
      r.teacher_static = int16_t(r.teacher_value + 400);
      ++not_quiet;
    }
  }
  REQUIRE(base::replace_file(dir + "/gensfen-s0-000000.bin", gensfen_file_bytes(records)).is_ok());
  // A second file repeats ten positions (another run of gensfen may): left out.
  const std::vector<GensfenRecord> repeated(records.begin() + 1, records.begin() + 11);
  REQUIRE(base::replace_file(dir + "/gensfen-s0-000001.bin", gensfen_file_bytes(repeated)).is_ok());
  // What the trainer must leave out, in its order: unlabelled, not quiet, repeated.
  int64_t expect_unlabelled = 0, expect_not_quiet = 0, expect_repeated = 0, expect_kept = 0;
  {
    std::set<uint64_t> keys;
    Position p;
    for (const std::vector<GensfenRecord>* file :
         std::initializer_list<const std::vector<GensfenRecord>*>{&records, &repeated})
      for (const GensfenRecord& r : *file) {
        REQUIRE(p.set(r.position).is_ok());
        if (!r.labelled)
          ++expect_unlabelled;
        else if (std::abs(r.teacher_value - r.teacher_static) > 300)
          ++expect_not_quiet;
        else if (!keys.insert(p.key()).second)
          ++expect_repeated;
        else
          ++expect_kept;
      }
  }
  REQUIRE(expect_repeated >= 5);

  NnueTrainOptions o;
  o.data = {dir};
  o.out = dir + "/teacher.nnue";
  o.epochs = epochs;
  o.batch = 64;
  o.learning_rate = 2e-3;
  o.holdout = 0.1;
  o.teacher = 1;
  o.quiet_margin = 300;
  NnueTrainSummary taught;
  REQUIRE(train_nnue(o, taught).is_ok());
  CHECK(expect_unlabelled >= unlabelled);
  CHECK(expect_not_quiet >= not_quiet);
  CHECK(taught.left_out_unlabelled == expect_unlabelled);
  CHECK(taught.left_out_not_quiet == expect_not_quiet);
  CHECK(taught.left_out_duplicates == expect_repeated);
  CHECK(taught.positions == expect_kept);
  CHECK(taught.left_out == int64_t(records.size()) + 10 - taught.positions);
  CHECK(taught.fitted_teacher_scale > 0);
  nnue::Network net;
  REQUIRE(net.load(o.out).is_ok());
  if (judge_learning) {
    CHECK(taught.epochs.back().train_loss < 0.5 * taught.epochs.front().train_loss);
    // The network learned the teacher's material, not the search's noise.
    Position pos;
    int agree = 0, counted = 0;
    for (const GensfenRecord& r : records) {
      if (!r.labelled || std::abs(r.teacher_value) < 300) continue;
      REQUIRE(pos.set(r.position).is_ok());
      ++counted;
      agree += (nnue::evaluate(pos, net) > 0) == (r.teacher_value > 0);
    }
    CHECK(counted > 50);
    CHECK(agree * 10 >= counted * 8);
  }

  // Two threads learn as well as one (the sums differ only in their order).
  NnueTrainOptions two = o;
  two.out = dir + "/two.nnue";
  two.threads = 2;
  NnueTrainSummary two_threads;
  REQUIRE(train_nnue(two, two_threads).is_ok());
  CHECK(two_threads.epochs.back().holdout_loss ==
        doctest::Approx(taught.epochs.back().holdout_loss).epsilon(0.05));

  // A warm start from the network: its first epoch starts where the network ended, and the
  // float model of a network quantises back to it.
  NnueModel model;
  model.from_network(net);
  CHECK(model.quantised().file_bytes() == net.file_bytes());
  NnueTrainOptions warm = o;
  warm.out = dir + "/warm.nnue";
  warm.init = o.out;
  warm.epochs = 1;
  NnueTrainSummary warmed;
  // The loaded callback comes once, before any epoch, with the initial loss already known.
  int loaded_calls = 0;
  double loss_when_loaded = -1;
  size_t epochs_when_loaded = 99;
  REQUIRE(train_nnue(warm, warmed, {}, [&] {
            ++loaded_calls;
            loss_when_loaded = warmed.init_holdout_loss;
            epochs_when_loaded = warmed.epochs.size();
          }).is_ok());
  CHECK(loaded_calls == 1);
  CHECK(epochs_when_loaded == 0);
  CHECK(loss_when_loaded == warmed.init_holdout_loss);
  CHECK(loss_when_loaded > 0);
  if (judge_learning)
    CHECK(warmed.epochs.front().train_loss < 0.7 * taught.epochs.front().train_loss);
  // Before training, the warm start measures the network it starts from on the same held-out
  // positions: the loss of the epoch that wrote it.
  CHECK(taught.init_holdout_loss == -1);
  double written_loss = -1;
  for (const NnueEpochReport& r : taught.epochs)
    if (r.written) written_loss = r.holdout_loss_quantised;
  CHECK(warmed.init_holdout_loss == doctest::Approx(written_loss).epsilon(1e-9));
  warm.init = dir + "/absent.nnue";
  CHECK(train_nnue(warm, warmed).message().find("absent.nnue") != std::string::npos);
  // Without bucket rows every king bucket's row of a feature is the shared one.
  NnueTrainOptions flat = o;
  flat.out = dir + "/flat.nnue";
  flat.epochs = 1;
  flat.bucket_rows = false;
  NnueTrainSummary flat_summary;
  REQUIRE(train_nnue(flat, flat_summary).is_ok());
  nnue::Network flat_net;
  REQUIRE(flat_net.load(flat.out).is_ok());
  for (int local : {0, 500, nnue::kBoardFeatureNb + 3}) {
    const int16_t* first = flat_net.ft_row(local);
    for (int bucket = 1; bucket < nnue::kKingBucketNb; ++bucket) {
      const int16_t* row = flat_net.ft_row(bucket * nnue::kBucketFeatureNb + local);
      CHECK(std::equal(first, first + nnue::kHidden, row));
    }
  }
  CHECK_FALSE(
      std::equal(net.ft_row(0), net.ft_row(0) + nnue::kHidden, net.ft_row(nnue::kBucketFeatureNb)));
  // A teacher's share out of range is an error.
  NnueTrainOptions wrong = o;
  wrong.teacher = 1.5;
  CHECK_FALSE(train_nnue(wrong, warmed).is_ok());
  std::filesystem::remove_all(dir);
}

}  // namespace

TEST_CASE("nnue train: the teacher's target, what it leaves out, threads and a warm start" *
          doctest::test_suite("slow")) {
  check_teacher_runs("teacher", 30, 1500, 3, true);
}

// The same runs on a fifth of the positions, one epoch each: every path of the teacher's
// options under the sanitizers, where the full runs took most of the trainer tests' time.
TEST_CASE("nnue train: the teacher's options on a small set, one epoch each") {
  check_teacher_runs("teacher_small", 6, 250, 1, false);
}

}  // namespace nnue_train_test
