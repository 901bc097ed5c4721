// Every subcommand of build/sashite run as a process, as its users run it: one small
// successful run each (tiny inputs, a few nodes or plies, a temporary directory), checked by
// its exit status and what it printed or wrote, and its error exits: an unknown flag, a missing
// required option, a file that does not exist, a malformed input (named, with its line), with
// nothing written or damaged. The exit codes docs/commands.md documents are checked exactly:
// 1 the run failed (an input missing, unreadable, malformed or a directory where a file is
// expected), 2 the command line is wrong in a way CLI11 does not check (app/command_error.h);
// CLI11's own are 104 (a value of the wrong type), 105 (out of range), 106 (required), 107
// (needs), 108 (excludes) and 109 (not expected).
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/child_process.h"
#include "shogi/notation.h"
#include "shogi/position.h"
#include "tests/file_text.h"
#include "tests/run_command.h"
#include "tests/temp_dir.h"

namespace cli_commands_test {

namespace fs = std::filesystem;

namespace {

const std::string kBinary = SASHITE_TEST_DATA_DIR "/../../build/sashite";
const std::string kData = SASHITE_TEST_DATA_DIR;
const char* const kStart = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

// `word` quoted for /bin/sh.
std::string q(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Our engine as a USI engine command line, quoted for the shell as one word. The tests turn
// its book off and shrink its table by options: it starts in a tenth of the time.
const std::string kEngine = q(q(kBinary) + " usi");

// One run of build/sashite: the command line, its exit status (-1: ended by a signal) and
// what it printed, standard output and standard error together.
struct Run {
  std::string command;
  int status = -1;
  std::string output;
  bool says(const std::string& text) const { return output.find(text) != std::string::npos; }
};

// Runs `build/sashite ARGS` (shell words, quoted by the caller) with standard input from
// `input`, under a minute's limit: a command that hangs fails (exit 124) instead of hanging
// the suite.
Run sashite(const std::string& args, const std::string& input = "/dev/null") {
  REQUIRE_MESSAGE(::access(kBinary.c_str(), X_OK) == 0, kBinary << " is missing: make bin");
  Run run;
  run.command = "sashite " + args;
  run.output = test_commands::run_command(
      "timeout 60 " + q(kBinary) + " " + args + " < " + q(input), run.status);
  return run;
}

// Checks that `run` exited with `status` and printed `text`; the command and its output
// when not.
void expect(const Run& run, int status, const std::string& text) {
  CHECK_MESSAGE(run.status == status, run.command << "\n" << run.output);
  CHECK_MESSAGE(run.says(text), "no '" << text << "' from " << run.command << "\n" << run.output);
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  REQUIRE_MESSAGE(out.good(), "cannot write " << path);
}

// The lines of `text` that start with `prefix`.
int count_lines(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0;
  return n;
}

// The files in `dir`, none when it does not exist.
int files_in(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  int n = 0;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); ++it) ++n;
  return n;
}

// The start position and the position after 7g7f: an SFEN file of two lines.
std::string two_positions(const TempDir& dir) {
  const std::string path = dir.sub("two.sfen");
  write_file(path, std::string(kStart) +
                       "\nlnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n");
  return path;
}

// Two mates in 3 (the first lines of tests/data/mate/mate3_mate5_head20.sfen) and an escape
// problem without a mate (nomate_nogare17.sfen), one SFEN a line.
std::string mate_problems(const TempDir& dir) {
  const std::string path = dir.sub("problems.sfen");
  write_file(path,
             "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42\n"
             "l3kgsnl/9/p1pS+Bp3/7pp/6PP1/9/PPPPPPn1P/1B1GG2+r1/LNS1K3L w RG3Psnp 54\n"
             "9/9/9/4+b4/3P5/9/4P1g1P/4+p3K/8L b 2RB3G4S4N3L14P 1\n");
  return path;
}

// A TCP port on 127.0.0.1 that nothing listens on (free a moment ago).
int closed_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof addr;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size) == 0);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// A `sashite csa` configuration NAME.toml in `dir` for the built-in engine (a small table,
// one connection attempt), its log and record directories in `dir` too, with `server` and
// `engine` lines in [server] and [engine] (by default no book).
std::string csa_config(const TempDir& dir, const std::string& name, const std::string& server,
                       const std::string& engine = "book = \"off\"\n") {
  const std::string path = dir.sub(name + ".toml");
  write_file(path, "[server]\nname = \"tester\"\ngame = \"local-60-2F\"\n" + server +
                       "[session]\nmax_connect_failures = 1\n[engine]\nhash_mb = 1\n" + engine +
                       "[log]\nlog_dir = \"" + dir.sub(name + "-logs") + "\"\nrecord_dir = \"" +
                       dir.sub(name + "-records") + "\"\n");
  return path;
}

// The subcommands, each with what it requires (files that exist, outputs under `out`).
std::vector<std::string> every_subcommand(const std::string& out) {
  const std::string records = q(kData + "/records");
  const std::string sfens = q(kData + "/book_think_positions.sfen");
  const std::string book = q(kData + "/book/tiny_yaneuraou.db");
  const std::string o = q(out + "/out");
  return {"usi",
          "council --config " + q(kData + "/../../config/council.toml"),
          "perft 1",
          "bench --depth 1",
          "match --engine1 e --engine2 e --depth 1 --out " + o,
          "sprt --pentanomial 1,1,1,1,1",
          "tune --write-defaults " + o,
          "gensfen --out " + o + " --depth 1",
          "nnue train --data " + records + " --out " + o,
          "nnue eval --file " + o,
          "csa --config " + q(kData + "/../../config/local.toml"),
          "server --port 0",
          "records check " + records,
          "records convert --to kif --out " + o + " " + records,
          "records time-use " + records,
          "book import --format yaneuraou --book " + o + " " + book,
          "book export --book " + o,
          "book stats --book " + o,
          "book query --book " + o + " --sfen startpos",
          "book bench --book " + o,
          "book think --sfens " + sfens + " --out " + o + " --depth 1",
          "book merge --out " + o + " " + o,
          "mate",
          "svm predict",
          "svm data --records " + records + " --out " + o,
          "svm train --data " + o + " --out " + o,
          "svm test --data " + o,
          "svm bench --sfens " + sfens,
          "learn train --records " + records + " --out " + o,
          "learn fit --records " + records + " --out " + o,
          "learn label --records " + records + " --out " + o + " --engine e",
          "learn curve --records " + records + " --png " + o,
          "learn teach --sfens " + sfens + " --out " + o};
}

}  // namespace

TEST_CASE("cli: no subcommand (106), an unknown one (109, named), --help and --version") {
  expect(sashite(""), 106, "A subcommand is required");
  expect(sashite("no-such-command --depth 1"), 109,
         "sashite: unknown subcommand 'no-such-command'");
  expect(sashite("book no-such-command"), 109,
         "sashite book: unknown subcommand 'no-such-command'");
  const Run help = sashite("--help");
  for (const char* name : {"usi", "council", "perft", "bench", "match", "csa", "server", "records",
                           "book", "mate", "svm", "learn", "sprt", "tune", "gensfen", "nnue"})
    expect(help, 0, std::string("\n  ") + name + " ");
  const Run version = sashite("--version");
  CHECK(version.status == 0);
  CHECK(version.output.rfind("sashite ", 0) == 0);
  for (const char* sub : {"book", "records", "svm", "learn", "nnue"})
    expect(sashite(sub), 106, "A subcommand is required");
}

TEST_CASE("cli: every subcommand has --help, and refuses an unknown flag (109) running nothing") {
  TempDir dir("sashite-cli");
  for (const std::string& args : every_subcommand(dir.path.string())) {
    // The command's name: its first two words before any option ("book import", "perft 1").
    const std::string words = args.substr(0, args.find(" --"));
    const std::string name = words.substr(0, words.find(' ', words.find(' ') + 1));
    expect(sashite(name + " --help"), 0, "Usage:");
    expect(sashite(args + " --no-such-flag"), 109,
           "The following argument was not expected: --no-such-flag");
  }
  CHECK(files_in(dir.path) == 0);  // no output, no book directory, no state file
}

TEST_CASE("cli: a missing required option or argument exits 106 naming it") {
  const std::string data = q(kData + "/records");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"perft", "depth is required"},
      {"match --engine2 e --depth 1", "--engine1 is required"},
      {"csa", "--config is required"},
      {"council", "--config is required"},
      {"records check", "paths is required"},
      {"records convert " + data, "--to is required"},
      {"records convert --to kif", "paths is required"},
      {"records time-use", "paths is required"},
      {"book import --book b " + data, "--format is required"},
      {"book export", "--book is required"},
      {"book stats", "--book is required"},
      {"book query --book b", "--sfen is required"},
      {"book bench", "--book is required"},
      {"book think --depth 1", "--out is required"},
      {"book merge --out b", "inputs is required"},
      {"svm data --out d", "--records is required"},
      {"svm train --data d", "--out is required"},
      {"svm test", "--data is required"},
      {"svm bench", "--sfens is required"},
      {"learn train", "--out is required"},
      {"learn fit --out w", "--records is required"},
      {"learn label --records " + data + " --out l", "--engine is required"},
      {"learn curve", "--records is required"},
      {"learn teach", "--out is required"},
      {"nnue train --out n", "--data is required"},
      {"nnue eval", "--file is required"},
  };
  for (const auto& [args, message] : cases) expect(sashite(args), 106, message);
}

TEST_CASE("cli: usi answers usi, isready, position and go depth 1, then quit exits 0") {
  TempDir dir("sashite-cli");
  const std::string input = dir.sub("usi.txt");
  write_file(input,
             "usi\nsetoption name USI_OwnBook value false\nisready\nusinewgame\n"
             "position startpos moves 7g7f\ngo depth 1\nquit\n");
  const Run run = sashite("usi", input);
  expect(run, 0, "\nusiok\n");
  CHECK(run.says("\nreadyok\n"));
  CHECK(count_lines(run.output, "bestmove ") == 1);
  expect(sashite("usi --list-options"), 0, "| `USI_Hash` | spin |");
  // Bad input is answered, never an exit: an unknown command, a bad position, weights that
  // cannot be read (a directory) still get readyok.
  const std::string weights = dir.sub("weights.nnue");
  fs::create_directory(weights);
  write_file(input,
             "usi\nno-such-command\nposition sfen junk\nsetoption name USI_OwnBook value false\n"
             "setoption name EvalFile value " +
                 weights + "\nisready\nquit\n");
  const Run bad = sashite("usi", input);
  expect(bad, 0, "info string unknown command: no-such-command");
  CHECK(bad.says("info string error: position: "));
  CHECK(bad.says("Is a directory"));
  CHECK(bad.says("\nreadyok\n"));
  // An exception while loading (out of memory reading a huge network, under a memory limit)
  // is an error too, and readyok still comes.
  const std::string huge = dir.sub("huge.nnue");
  write_file(huge, "");
  fs::resize_file(huge, 1ull << 30);  // sparse: no disk used
  write_file(input, "usi\nsetoption name USI_OwnBook value false\nsetoption name EvalFile value " +
                        huge + "\nisready\nquit\n");
  int status = -1;
  const std::string out = test_commands::run_command(
      "ulimit -v 400000; timeout 60 " + q(kBinary) + " usi < " + q(input), status);
  CHECK_MESSAGE(status == 0, out);
  CHECK_MESSAGE(out.find("info string error: isready: ") != std::string::npos, out);
  CHECK_MESSAGE(out.find("\nreadyok\n") != std::string::npos, out);
}

TEST_CASE("cli: council of two sashite members answers as usi does; a bad config exits 1") {
  TempDir dir("sashite-cli");
  // The shipped example's members, with the tests' quicker settings (no book, a small table).
  const std::string config = dir.sub("council.toml");
  std::string member = "command = " + std::string("\"") + kBinary + "\"\nargs = [\"usi\"]\n" +
                       "[member.options]\nUSI_OwnBook = false\nUSI_Hash = 16\nEvalNoise = 20\n";
  write_file(config, "[council]\nrule = \"optimistic\"\n[[member]]\nname = \"one\"\n" + member +
                         "EvalNoiseSeed = 1\n[[member]]\nname = \"two\"\n" + member +
                         "EvalNoiseSeed = 2\n");
  const std::string input = dir.sub("usi.txt");
  write_file(input,
             "usi\nisready\nusinewgame\nposition startpos moves 7g7f\ngo nodes 3000\n"
             "position sfen junk\ngo nodes 3000\nno-such-command\nquit\n");
  const Run run = sashite("council --config " + q(config), input);
  expect(run, 0, "\nusiok\n");
  CHECK(run.says("id name sashite council"));
  CHECK(run.says("\nreadyok\n"));
  CHECK(run.says("info string council: optimistic "));
  CHECK(run.says("one: ready (sashite"));  // the log, on standard error
  CHECK(count_lines(run.output, "bestmove ") == 2);
  CHECK(run.says("info string error: position: "));
  CHECK(run.says("\nbestmove resign\n"));  // after the rejected position
  CHECK(run.says("info string unknown command: no-such-command"));
  // The first bestmove is legal after 7g7f.
  const size_t at = run.output.find("bestmove ");
  shogi::Position after;
  shogi::Move m;
  REQUIRE(shogi::parse_usi_move(after, "7g7f", m).is_ok());
  after.do_move(m);
  const std::string best = run.output.substr(at + 9, run.output.find('\n', at) - at - 9);
  CHECK_MESSAGE(shogi::parse_usi_move(after, best.substr(0, best.find(' ')), m).is_ok(), best);

  expect(sashite("council --config " + q(dir.sub("missing.toml"))), 1,
         "sashite council: cannot open configuration file");
  write_file(config, "[[member]]\nname = \"x\"\n");
  expect(sashite("council --config " + q(config)), 1, "a member needs its own 'command'");
}

TEST_CASE("cli: perft counts and divides; a bad SFEN exits 2, a depth out of range 105") {
  // The total on standard output, then the time on standard error.
  const Run run = sashite("perft 3");
  expect(run, 0, "perft 3: 25470 leaves in ");
  CHECK(run.output.rfind("25470\n", 0) == 0);
  const Run divide = sashite("perft 2 --divide --sfen " + q(kStart));
  expect(divide, 0, "\n7g7f: 30\n");
  CHECK(count_lines(divide.output, "") == 32);  // 30 moves, the total, the time
  CHECK(divide.says("\n900\nperft 2: 900 leaves in "));
  expect(sashite("perft 1 --sfen junk"), 2, "sashite perft: SFEN 'junk'");
  expect(sashite("perft 21"), 105, "depth: Value 21 not in range 0 to 20");
}

TEST_CASE("cli: bench at depth 1; --perft-file checks counts: 1 on a wrong one or a bad file") {
  expect(sashite("bench --depth 1"), 0, "Nodes searched: ");
  expect(sashite("bench --depth 1 --option NoSuchOption=1"), 2,
         "sashite bench: no such option: 'NoSuchOption'");
  TempDir dir("sashite-cli");
  const std::string file = dir.sub("perft.txt");
  write_file(file, std::string("sfen ") + kStart + " | 30 900\n");
  expect(sashite("bench --perft --perft-file " + q(file)), 0, " ok ");
  write_file(file, std::string("sfen ") + kStart + " | 30 901\n");
  expect(sashite("bench --perft --perft-file " + q(file)), 1, " WRONG ");
  write_file(file, std::string("sfen ") + kStart + " | 30 x\n");
  expect(sashite("bench --perft --perft-file " + q(file)), 1,
         file + ": line 1: count 'x' is not a number");
  expect(sashite("bench --perft --perft-file " + q(dir.sub("missing.txt"))), 1,
         "sashite bench: cannot read " + dir.sub("missing.txt"));
  expect(sashite("bench --perft --perft-file " + q(dir.path.string())), 1,
         "cannot read " + dir.path.string() + ": Is a directory");
  expect(sashite("bench --perft-file " + q(file)), 107, "--perft-file requires --perft");
  // Weights that cannot be loaded are an error, not a measure of other weights.
  const Run weights = sashite("bench --depth 1 --option EvalFile=" + q(dir.path.string()));
  expect(weights, 1, "sashite bench: " + dir.path.string() + ": Is a directory");
  CHECK_FALSE(weights.says("Nodes searched"));
  expect(sashite("bench --depth 1 --option EvalFile=" + q(dir.sub("missing.eval"))), 1,
         "sashite bench: " + dir.sub("missing.eval") + ": cannot open the file");
}

TEST_CASE("cli: bench --mate-file: when the search proves each mate; bad files and lines") {
  TempDir dir("sashite-cli");
  const std::string problems = mate_problems(dir);
  for (const char* calls : {"false", "true"}) {
    const Run run =
        sashite("bench --mate-file " + q(problems) + " --nodes 20000 --option MateSearch=" + calls);
    expect(run, 0, "Mates proven: 2 of 3");
    CHECK(run.says("line 1: mate 3 plies"));
    CHECK(run.says("line 2: mate 3 plies"));
    CHECK(run.says("line 3: none (score "));
    CHECK(run.says("Nodes searched: "));
  }
  write_file(dir.sub("bad.sfen"), std::string(kStart) + "\nnot an sfen\n");
  const Run bad = sashite("bench --mate-file " + q(dir.sub("bad.sfen")) + " --nodes 1000");
  expect(bad, 0, "line 2: ");
  CHECK(bad.says("Mates proven: 0 of 2"));
  expect(sashite("bench --mate-file " + q(dir.sub("missing.sfen"))), 1,
         "sashite bench: cannot read " + dir.sub("missing.sfen"));
  expect(sashite("bench --mate-file " + q(dir.path.string())), 1,
         "sashite bench: cannot read " + dir.path.string() + ": Is a directory");
  expect(sashite("bench --mate-file " + q(problems) + " --option MateNodes=0"), 2,
         "sashite bench: ");
  expect(sashite("bench --nodes 5"), 107, "--nodes requires --mate-file");
  expect(sashite("bench --perft --mate-file " + q(problems)), 108, "--perft excludes --mate-file");
}

TEST_CASE("cli: match plays two short games and writes their records; its errors") {
  TempDir dir("sashite-cli");
  const std::string out = dir.sub("match");
  const std::string opts =
      " --opt1 USI_OwnBook=false --opt2 USI_OwnBook=false --opt1 USI_Hash=1 --opt2 USI_Hash=1";
  const Run run = sashite("match --engine1 " + kEngine + " --engine2 " + kEngine + opts +
                          " --depth 1 --games 2 --max-plies 8 --out " + q(out));
  expect(run, 0, "final: engine1 0-0-2 (50.0%) in 2 games");
  CHECK(fs::exists(out + "/g0001.csa"));
  CHECK(fs::exists(out + "/g0002.csa"));
  const std::string summary = read_text(out + "/summary.tsv");
  CHECK(summary.rfind("game\tblack\twhite\tresult\tplies\treason", 0) == 0);
  CHECK(count_lines(summary, "") == 3);

  const std::string engines = "match --engine1 " + kEngine + " --engine2 " + kEngine;
  expect(sashite(engines + " --games 2 --out " + q(dir.sub("none"))), 2,
         "sashite match: give exactly one of a clock");
  expect(sashite(engines + " --depth 1 --sprt 5 --out " + q(dir.sub("none"))), 2,
         "sashite match: --sprt '5'");
  expect(sashite(engines + " --depth 1 --nodes 3"), 108, "--nodes excludes --depth");
  expect(sashite("match --engine1 /nonexistent/engine --engine2 " + kEngine + opts +
                 " --depth 1 --games 2 --out " + q(dir.sub("m1"))),
         1, "engine1: cannot run '/nonexistent/engine'");
  expect(sashite(engines + " --depth 1 --openings " + q(dir.sub("missing.sfen")) + " --out " +
                 q(dir.sub("m2"))),
         1, dir.sub("missing.sfen") + ": cannot open the openings file");
  const std::string openings = dir.sub("openings.sfen");
  write_file(openings, "startpos moves 7g7f 3c3d\nnot an opening\n");
  expect(sashite(engines + " --depth 1 --openings " + q(openings) + " --out " + q(dir.sub("m3"))),
         1, openings + ":2: SFEN 'not an opening'");
  CHECK(files_in(dir.sub("m2")) + files_in(dir.sub("m3")) == 0);
}

TEST_CASE("cli: sprt on a table of pairs and by simulation; bad tables and bounds exit 2") {
  const Run table = sashite("sprt --sprt 0,5 --pentanomial 1,2,10,5,3");
  expect(table, 0, "pairs: 21 (LL LD DD WD WW = 1 2 10 5 3)");
  CHECK(table.says("sprt: LLR "));
  CHECK(table.says("Elo from the pairs: "));
  expect(sashite("sprt --simulate 5 --runs 10"), 0, "simulated 10 runs at elo +5.0");
  expect(sashite("sprt"), 2, "give one of --pentanomial LL,LD,DD,WD,WW and --simulate ELO");
  expect(sashite("sprt --pentanomial 1,2,10"), 2, "pentanomial '1,2,10': expected five counts");
  expect(sashite("sprt --sprt 5,0 --pentanomial 1,2,10,5,3"), 2, "--sprt '5,0'");
  expect(sashite("sprt --simulate abc"), 104, "Could not convert: --simulate = abc");
}

TEST_CASE("cli: tune writes its defaults and plays a pair; a bad parameter file is named") {
  TempDir dir("sashite-cli");
  const std::string defaults = dir.sub("params.csv");
  expect(sashite("tune --write-defaults " + q(defaults)), 0, "parameters to " + defaults);
  const std::string text = read_text(defaults);
  CHECK(text.find("\n# NAME, VALUE, MIN, MAX, C_END, R_END\n") != std::string::npos);
  // Two parameters, one opening, one pair of games of 10 plies at 50 nodes a move.
  std::istringstream lines(text);
  std::string params;
  for (std::string line; std::getline(lines, line) && count_lines(params, "") < 2;)
    if (!line.empty() && line[0] != '#') params += line + "\n";
  const std::string two = dir.sub("two.csv");
  write_file(two, params);
  const std::string openings = dir.sub("openings.sfen");
  write_file(openings, "startpos moves 7g7f 3c3d\n");
  const std::string run_options = " --iterations 1 --nodes 50 --openings " + q(openings) +
                                  " --opt USI_OwnBook=false --opt USI_Hash=1 --max-plies 10";
  expect(sashite("tune --params " + q(two) + run_options), 0, "tune: 1 of 1 pairs done");
  CHECK(read_text(two + ".state").find("iterations_done 1") != std::string::npos);
  CHECK(read_text(two + ".tuned").find(params.substr(0, params.find(','))) != std::string::npos);

  const std::string bad = dir.sub("bad.csv");
  write_file(bad, "Foo, 1, 2\n");
  expect(sashite("tune --params " + q(bad) + run_options), 1,
         bad + ":1: expected NAME, VALUE, MIN, MAX, C_END, R_END (6 fields), got 3");
  CHECK_FALSE(fs::exists(bad + ".state"));
  CHECK_FALSE(fs::exists(bad + ".tuned"));
  expect(sashite("tune --params " + q(dir.sub("missing.csv")) + run_options), 1,
         dir.sub("missing.csv") + ": cannot open the file");
  expect(sashite("tune --params " + q(two) + " --iterations 1 --openings " + q(openings)), 2,
         "give exactly one of a clock (--tc, --byoyomi) and --nodes N");
  expect(sashite("tune --nodes 10"), 2, "sashite tune: --params is required");
  expect(sashite("tune --params " + q(two) + " --openings " + q(openings) + " --tc 1+x"), 2,
         "sashite tune: --tc '1+x'");
}

TEST_CASE("cli: gensfen writes positions, --inspect reads them, nnue trains and evaluates") {
  TempDir dir("sashite-cli");
  const std::string data = dir.sub("gensfen");
  expect(sashite("gensfen --out " + q(data) +
                 " --depth 1 --positions 20 --batch 20 --min-ply 1 --seed 1 --hash 1 --dedup-mb 1"),
         0, "gensfen: done: ");
  const std::string first = data + "/gensfen-s0-000000.bin";
  REQUIRE(fs::exists(first));
  const Run inspect = sashite("gensfen --inspect " + q(first) + " --limit 2");
  expect(inspect, 0, first + ": 20 positions; results for the side to move: ");
  CHECK(count_lines(inspect.output, "sfen ") == 2);

  const std::string net = dir.sub("net.nnue");
  const Run train =
      sashite("nnue train --data " + q(data) + " --out " + q(net) + " --epochs 1 --batch 16");
  expect(train, 0, "wrote " + net);
  CHECK(train.says("\n1\t0.001\t"));  // the line of epoch 1
  CHECK(fs::exists(net + ".ckpt"));
  expect(sashite("nnue eval --file " + q(net)), 0, std::string("\t") + kStart + "\n");
  expect(sashite("nnue eval --file " + q(net) + " --sfen junk"), 2, "SFEN 'junk'");

  // Inputs that do not exist, are not what they should be, or are directories.
  const std::string garbage = dir.sub("garbage.bin");
  write_file(garbage, "not a gensfen file\n");
  expect(sashite("gensfen --inspect " + q(dir.sub("missing.bin"))), 1,
         dir.sub("missing.bin") + ": cannot open");
  expect(sashite("gensfen --inspect " + q(garbage)), 1,
         garbage + ": not a gensfen file (no SASHITE-GENSFEN header)");
  expect(sashite("gensfen --inspect " + q(data)), 1, data + ": cannot read: Is a directory");
  expect(sashite("gensfen --out " + q(dir.sub("g2")) + " --depth 1 --random-plies x,y"), 2,
         "--random-plies 'x,y': expected N or MIN,MAX");
  expect(sashite("gensfen --out " + q(dir.sub("g2"))), 2,
         "give exactly one of --depth D and --nodes N");
  expect(sashite("gensfen --depth 1"), 2, "sashite gensfen: --out DIR is required");
  expect(sashite("gensfen --out " + q(dir.sub("g2")) + " --depth 1 --option Hash"), 2,
         "engine option 'Hash': expected NAME=VALUE");
  CHECK_FALSE(fs::exists(dir.sub("g2")));
  const std::string other = dir.sub("other.nnue");
  expect(sashite("nnue train --data " + q(dir.sub("missing")) + " --out " + q(other)), 1,
         dir.sub("missing") + ": no such file or directory");
  expect(sashite("nnue train --data " + q(garbage) + " --out " + q(other)), 1,
         garbage + ": not a gensfen file");
  expect(sashite("nnue train --data " + q(data) + " --out " + q(other) + " --resume"), 1,
         "checkpoint '" + other + ".ckpt': cannot open it");
  CHECK_FALSE(fs::exists(other));
  expect(sashite("nnue eval --file " + q(dir.sub("missing.nnue"))), 1,
         "NNUE file '" + dir.sub("missing.nnue") + "': cannot open it");
  expect(sashite("nnue eval --file " + q(garbage)), 1, "not a sashite NNUE file");
  expect(sashite("nnue eval --file " + q(data)), 1, "cannot read it: Is a directory");
}

TEST_CASE("cli: csa exits 1 on a configuration that does not load, 3 when no server answers") {
  TempDir dir("sashite-cli");
  const std::string missing = dir.sub("missing.toml");
  expect(sashite("csa --config " + q(missing)), 1,
         "sashite csa: cannot open configuration file " + missing);
  expect(sashite("csa --config " + q(dir.path.string())), 1, "is a directory");
  const std::string bad = dir.sub("bad.toml");
  write_file(bad, "[server]\nhost = \"127.0.0.1\"\nbogus_key = 3\n");
  expect(sashite("csa --config " + q(bad)), 1, bad + ":3: unknown key 'server.bogus_key'");
  write_file(bad, "[server\nhost =\n");
  expect(sashite("csa --config " + q(bad)), 1, "cannot read configuration " + bad);
  // Weights, a book or an engine that cannot be loaded are configuration errors too.
  expect(sashite("csa --config " +
                 q(csa_config(dir, "weights", "", "weights = \"/nonexistent/w.eval\"\n"))),
         1, "/nonexistent/w.eval: cannot open the file");
  expect(
      sashite("csa --config " + q(csa_config(dir, "book", "", "book = \"/nonexistent/book\"\n"))),
      1, "book directory '/nonexistent/book': does not exist");
  expect(sashite("csa --config " +
                 q(csa_config(dir, "engine", "", "command = \"/nonexistent/engine\"\n"))),
         1, "cannot run '/nonexistent/engine'");
  expect(sashite("csa --config " + q(csa_config(dir, "refused", "")) + " --port " +
                 std::to_string(closed_port())),
         3, "giving up after 1 failed connection(s) in a row");
  expect(sashite("csa --config " + q(missing) + " --port 0"), 105,
         "--port: Value 0 not in range 1 to 65535");
}

TEST_CASE("cli: server listens, refuses an x1 login (the client exits 2), exits 0 on SIGINT") {
  TempDir dir("sashite-cli");
  REQUIRE_MESSAGE(::access(kBinary.c_str(), X_OK) == 0, kBinary << " is missing: make bin");
  base::ChildProcess server;
  REQUIRE(
      server.start({kBinary, "server", "--port", "0", "--log"}, {}, dir.sub("server.err")).is_ok());
  const auto deadline = base::ChildProcess::Clock::now() + std::chrono::seconds(30);
  std::string line;
  REQUIRE(server.read_line(line, deadline) == base::ChildProcess::ReadResult::kLine);
  const std::string prefix = "listening on 127.0.0.1:";
  REQUIRE_MESSAGE(line.rfind(prefix, 0) == 0, line);
  const std::string port = line.substr(prefix.size());
  // The local server plays CSA logins only: an x1 login is refused, a protocol failure.
  const std::string x1 = csa_config(dir, "x1", "login = \"x1\"\ntrip = \"mytrip\"\n");
  expect(sashite("csa --config " + q(x1) + " --port " + port), 2, "LOGIN:incorrect");
  bool refused = false;
  while (!refused && server.read_line(line, deadline) == base::ChildProcess::ReadResult::kLine)
    refused = line.find("<< 'LOGIN:incorrect'") != std::string::npos;
  CHECK(refused);
  REQUIRE(::kill(server.pid(), SIGINT) == 0);
  CHECK(server.wait_exit(deadline));
  CHECK(server.exit_description() == "exited with status 0");

  expect(sashite("server --port 0 --status-port 1 --status-bind 0.0.0.0"), 1,
         "status.bind \"0.0.0.0\" is not a loopback address");
  expect(sashite("server --port 0 --host 203.0.113.5"), 1, "cannot listen on 203.0.113.5:0");
  expect(sashite("server --colors blue"), 105, "--colors: blue not in {random,first}");
}

TEST_CASE("cli: records check, convert and time-use; a bad record is named by file and line") {
  TempDir dir("sashite-cli");
  expect(sashite("records check " + q(kData + "/records")), 0, " ok, 0 failed");
  const std::string broken = kData + "/learn_curve/d_broken.csa";
  const Run check = sashite("records check " + q(kData + "/learn_curve"));
  expect(check, 1, broken + ":8:2: illegal move +7775FU (no piece on 77)");
  CHECK(check.says("c_draw.csa: %SENNICHITE without a fourfold repetition"));
  CHECK(check.says("records: 2 ok, 2 failed"));
  expect(sashite("records check " + q(dir.sub("missing"))), 1,
         dir.sub("missing") + ": no such file or directory");
  const std::string empty = dir.sub("empty");
  fs::create_directory(empty);
  expect(sashite("records check " + q(empty)), 1,
         empty + ": no CSA records (.csa) in the directory");
  expect(sashite("records convert --to kif " + q(empty)), 1,
         empty + ": no CSA records (.csa) in the directory");
  expect(sashite("records convert --to csa " + q(empty)), 1,
         empty + ": no KIF records (.kif, .kifu) in the directory");
  expect(sashite("records time-use " + q(empty)), 1,
         empty + ": no CSA records (.csa) in the directory");

  const std::string kif = dir.sub("kif");
  expect(
      sashite("records convert --to kif --out " + q(kif) + " " + q(kData + "/kif/short_game.csa")),
      0, "records: 1 converted, 0 failed");
  CHECK(read_text(kif + "/short_game.kifu").rfind("#KIF version=2.0 encoding=UTF-8\n", 0) == 0);
  const std::string csa = dir.sub("csa");
  expect(sashite("records convert --to csa --out " + q(csa) + " " + q(kif + "/short_game.kifu")), 0,
         "records: 1 converted, 0 failed");
  expect(sashite("records check " + q(csa + "/short_game.csa")), 0, "records: 1 ok, 0 failed");
  const std::string mixed = dir.sub("mixed");
  expect(sashite("records convert --to kif --out " + q(mixed) + " " + q(broken) + " " +
                 q(kData + "/kif/short_game.csa")),
         1, "records: 1 converted, 1 failed");
  CHECK(files_in(mixed) == 1);  // the good record only

  const Run time_use = sashite("records time-use --tc 300+10 " + q(kData + "/records"));
  expect(time_use, 0, "plies      moves   mean_s    max_s");
  CHECK(time_use.says("closest call: "));
  {  // The error goes to standard error, and nothing to standard output.
    base::ChildProcess run;
    const std::string err = dir.sub("time_use.err");
    REQUIRE(run.start({kBinary, "records", "time-use", "--tc", "1+x", kData + "/records"}, {}, err)
                .is_ok());
    const auto deadline = base::ChildProcess::Clock::now() + std::chrono::seconds(30);
    std::string line;
    CHECK(run.read_line(line, deadline) == base::ChildProcess::ReadResult::kClosed);
    CHECK(run.wait_exit(deadline));
    CHECK(run.exit_description() == "exited with status 2");
    CHECK(read_text(err).rfind("sashite records time-use: --tc '1+x': ", 0) == 0);
  }
  expect(sashite("records time-use --bucket 0 " + q(kData + "/records")), 105,
         "--bucket: Value 0 not in range 1 to 1000");
  expect(sashite("records time-use " + q(dir.sub("missing"))), 1,
         dir.sub("missing") + ": no such file or directory");
  expect(sashite("records convert --to pdf " + q(broken)), 105, "--to: pdf not in {kif,csa}");
}

TEST_CASE(
    "cli: book import, stats, export, query, bench and merge; a failed import changes nothing") {
  TempDir dir("sashite-cli");
  const std::string book = dir.sub("book");
  const Run yane = sashite("book import --format yaneuraou --book " + q(book) + " " +
                           q(kData + "/book/tiny_yaneuraou.db"));
  expect(yane, 0, "book " + book + " now holds 4 positions, 7 moves");
  CHECK(yane.says("tiny_yaneuraou.db:7: USI move '5e5d': illegal"));  // a warning, skipped
  expect(sashite("book import --format gps-tsv --book " + q(book) + " " +
                 q(kData + "/book/gps_sample.tsv")),
         0, "read 200 moves");
  expect(sashite("book import --format csa --max-ply 10 --book " + q(book) + " " +
                 q(kData + "/kif/short_game.csa")),
         0, "games used 1, skipped 0");
  const std::string joseki = "/usr/share/gpsshogi-data/data/joseki.dat";
  REQUIRE_MESSAGE(fs::exists(joseki),
                  joseki << " is missing (Debian gpsshogi-data): make deps installs it");
  expect(
      sashite("book import --format joseki-dat --book " + q(dir.sub("joseki")) + " " + q(joseki)),
      0, "read 73498 moves");
  const Run stats = sashite("book stats --book " + q(book));
  expect(stats, 0, "positions:            51 (0 without moves)");
  CHECK(stats.says("moves from yaneuraou:   7"));
  CHECK(stats.says("provenance:\n"));

  const std::string exported = dir.sub("export.db");
  expect(sashite("book export --book " + q(book) + " --out " + q(exported)), 0,
         "wrote 51 positions to " + exported);
  CHECK(read_text(exported).rfind("#YANEURAOU-DB2016 1.00\nsfen ", 0) == 0);
  expect(sashite("book export --book " + q(book)), 0, "#YANEURAOU-DB2016 1.00\n");
  const Run query = sashite("book query --book " + q(book) + " --sfen startpos --mode exact");
  expect(query, 0, "positions (1):");
  CHECK(query.says("  7g7f   weight "));
  expect(sashite("book bench --book " + q(book) + " --queries 10"), 0,
         "verified against a full scan: 10 queries, 0 mismatches");
  const std::string merged = dir.sub("merged");
  expect(sashite("book merge --out " + q(merged) + " " + q(book)), 0,
         "book merge: 51 entries read from 1 books");
  expect(sashite("book stats --book " + q(merged)), 0, "positions:            51 ");

  // Failed imports name the input and where, and leave the book as it was.
  const std::string not_book = dir.sub("not_a_book.db");
  write_file(not_book, "7g7f 3c3d 1 2 3\n");
  const std::string bad_tsv = dir.sub("bad.tsv");
  write_file(bad_tsv, "hello world\n");
  const std::string cut = dir.sub("cut.dat");
  write_file(cut, read_text(joseki).substr(0, 1000));
  const std::vector<std::pair<std::string, std::string>> failures = {
      {"yaneuraou " + q(dir.sub("missing.db")), dir.sub("missing.db") + ": cannot open"},
      {"yaneuraou " + q(not_book), not_book + ":1: a move line before any 'sfen' line"},
      {"gps-tsv " + q(bad_tsv), bad_tsv + ":1: expected 7 tab-separated columns"},
      {"joseki-dat " + q(cut), cut + ": 1000 bytes, but "},
      {"csa " + q(dir.sub("missing")), dir.sub("missing") + ": no such file or directory"},
      {"yaneuraou " + q(dir.path.string()), dir.path.string() + ": cannot read: Is a directory"},
      {"gps-tsv " + q(dir.path.string()), dir.path.string() + ": cannot read: Is a directory"}};
  for (const auto& [input, message] : failures)
    expect(sashite("book import --book " + q(book) + " --format " + input), 1, message);
  CHECK(sashite("book stats --book " + q(book)).output == stats.output);
  expect(sashite("book import --format pdf --book " + q(book) + " " + q(bad_tsv)), 105,
         "--format: pdf not in {gps-tsv,joseki-dat,yaneuraou,csa}");

  expect(sashite("book stats --book " + q(dir.sub("missing"))), 1,
         "book directory '" + dir.sub("missing") + "': does not exist");
  expect(sashite("book stats --book " + q(not_book)), 1, "not a directory");
  expect(sashite("book stats --book " + q(dir.path.string())), 1,
         "not a book (no LevelDB database in it)");
  expect(sashite("book export --book " + q(dir.sub("missing"))), 1, "does not exist");
  expect(sashite("book query --book " + q(book) + " --sfen junk"), 2, "--sfen: SFEN 'junk'");
  expect(sashite("book query --book " + q(book) + " --sfen startpos --mode bogus"), 2,
         "--mode 'bogus': expected exact, simple or relation");
  expect(sashite("book bench --book " + q(dir.sub("missing"))), 1,
         "sashite book bench: book directory '" + dir.sub("missing") + "': does not exist");
  expect(sashite("book query --book " + q(dir.sub("missing")) + " --sfen startpos"), 1,
         "sashite book query: book directory '" + dir.sub("missing") + "': does not exist");
  expect(sashite("book merge --out " + q(dir.sub("merged2")) + " " + q(dir.sub("missing"))), 1,
         "does not exist");
  CHECK_FALSE(fs::exists(dir.sub("merged2")));
}

TEST_CASE("cli: book think scores positions with our engine at tree depth 1 and 2; errors") {
  TempDir dir("sashite-cli");
  const std::string sfens = two_positions(dir);
  const std::string engine =
      " --engine " + kEngine + " --option 0:USI_OwnBook=false --option 0:USI_Hash=1 --depth 1";
  for (const char* tree_depth : {"1", "2"}) {
    CAPTURE(tree_depth);
    const std::string out = dir.sub(std::string("think") + tree_depth);
    const std::string think =
        "book think --sfens " + q(sfens) + " --out " + q(out) + engine + " --tree-depth ";
    expect(sashite(think + tree_depth), 0, "book think: 2 positions scored, 0 without");
    expect(sashite("book stats --book " + q(out)), 0, "moves with values:    2\n");
    expect(sashite(think + tree_depth), 0, "2 already in " + out + ", 0 to think about");
  }
  expect(sashite("book think --out " + q(dir.sub("t")) + " --depth 1"), 2,
         "give the positions: --book DIR, --sfens FILE and/or --records PATH");
  expect(sashite("book think --sfens " + q(dir.sub("missing.sfen")) + " --out " + q(dir.sub("t")) +
                 " --depth 1"),
         1, "SFEN file " + dir.sub("missing.sfen") + ": cannot be read");
  expect(sashite("book think --sfens " + q(dir.path.string()) + " --out " + q(dir.sub("t")) +
                 " --depth 1"),
         1, "SFEN file " + dir.path.string() + ": cannot be read: Is a directory");
  const std::string junk = dir.sub("junk.sfen");
  write_file(junk, std::string(kStart) + "\njunk\n");
  expect(sashite("book think --sfens " + q(junk) + " --out " + q(dir.sub("t")) + " --depth 1"), 1,
         "SFEN file " + junk + ": line 2: SFEN 'junk'");
  CHECK_FALSE(fs::exists(dir.sub("t")));
  expect(sashite("book think --sfens " + q(sfens) + " --out " + q(dir.sub("t")) +
                 " --depth 1 --engine /nonexistent/engine"),
         1, "cannot run '/nonexistent/engine'");
  expect(sashite("book think --sfens " + q(sfens) + " --out " + q(dir.sub("t")) +
                 " --depth 1 --shard 3/2"),
         2, "shard '3/2': expected I/N with 0 <= I < N");
  expect(sashite("book think --sfens " + q(sfens) + " --out " + q(dir.sub("t")) +
                 " --depth 1 --movetime 100"),
         108, "--depth excludes --movetime");
}

TEST_CASE("cli: mate solves, proves shortest and compares controls; a bad line is named") {
  TempDir dir("sashite-cli");
  const std::string problems = mate_problems(dir);
  const Run pds = sashite("mate --nodes 20000 --table-mb 1", problems);
  expect(pds, 0, "total mate 2 nomate 1 unknown 0 errors 0 ");
  CHECK(count_lines(pds.output, "mate ") == 2);
  const Run shortest = sashite("mate --algo dfpn --shortest --nodes 20000 --table-mb 1", problems);
  expect(shortest, 0, "total mate 2 nomate 1 unknown 0 errors 0 ");
  CHECK(count_lines(shortest.output, "mate ") == 2);
  CHECK(shortest.says(" # 3 plies, proven shortest\n"));
  const std::string details = dir.sub("details.tsv");
  const Run compare = sashite("mate --nodes 20000 --table-mb 1 --compare none,init,threshold " +
                                  std::string("--details ") + q(details),
                              problems);
  expect(compare, 0, "Table C (4.9 / 4.17): answers");
  CHECK(count_lines(read_text(details), "") >= 3);

  const std::string bad = dir.sub("bad.sfen");
  write_file(bad, read_text(problems) + "not an sfen\n");
  const Run errors = sashite("mate --nodes 20000 --table-mb 1", bad);
  expect(errors, 1, "line 4: error: SFEN 'not an sfen'");
  CHECK(errors.says("total mate 2 nomate 1 unknown 0 errors 1 "));
  expect(sashite("mate --algo dfpn --control threshold", problems), 2,
         "sashite mate: --control threshold steers PDS's thresholds: use --algo pds");
  expect(sashite("mate --control init --svm " + q(dir.sub("missing.model")), problems), 1,
         dir.sub("missing.model") + ": cannot open the model file");
  expect(sashite("mate --compare none,bogus", problems), 2,
         "sashite mate: unknown control 'bogus'");
  expect(
      sashite("mate --compare none --details " + q(dir.path.string()) + " --table-mb 1", problems),
      1, "sashite mate: " + dir.path.string() + ": cannot write");
  expect(sashite("mate --algo bfs", problems), 105, "--algo: bfs not in {pds,dfpn}");
}

TEST_CASE("cli: svm data, train, test, predict and bench; errors name the file and line") {
  TempDir dir("sashite-cli");
  const std::string data = dir.sub("svm.tsv");
  expect(sashite("svm data --records " + q(kData + "/records") + " --out " + q(data) +
                 " --max-games 2 --nodes 2000 --positions-per-game 3 --seed 1"),
         0, "records 2 (unreadable 0), positions ");
  CHECK(read_text(data).rfind("# sashite svm data 1: LABEL<TAB>SOURCE<TAB>SFEN", 0) == 0);
  const std::string model = dir.sub("svm.model");
  expect(sashite("svm train --data " + q(data) + " --out " + q(model) + " --folds 2 --c 1"), 0,
         "wrote " + model);
  CHECK(read_text(model).rfind("# sashite mate prediction", 0) == 0);
  expect(sashite("svm test --data " + q(data) + " --model " + q(model)), 0,
         "Table 3.1: model " + model + " on " + data);
  const std::string problems = mate_problems(dir);
  const Run predict = sashite("svm predict --model " + q(model), problems);
  CHECK(predict.status == 0);
  CHECK(count_lines(predict.output, "mate ") + count_lines(predict.output, "nomate ") == 3);
  expect(sashite("svm bench --sfens " + q(problems) + " --repeat 1"), 0,
         "3 positions x 1 (CPU time): features + prediction ");

  const std::string junk = dir.sub("junk.sfen");
  write_file(junk, "junk\n");
  expect(sashite("svm predict", junk), 1, "sashite svm predict: <stdin>:1: SFEN 'junk'");
  expect(sashite("svm predict --model " + q(dir.sub("missing.model")), problems), 1,
         dir.sub("missing.model") + ": cannot open the model file");
  const Run not_model = sashite("svm predict --model " + q(data), problems);
  expect(not_model, 1, "expected the header 'sashite-svm-model 1'");
  CHECK(not_model.says("sashite svm predict: " + data + ":"));
  const std::string bad = dir.sub("bad.tsv");
  write_file(bad, "mate\trecord\tjunk sfen\n");
  const std::string before = read_text(model);
  expect(sashite("svm train --data " + q(bad) + " --out " + q(model)), 1,
         bad + ":1: SFEN 'junk sfen'");
  CHECK(read_text(model) == before);
  expect(sashite("svm test --data " + q(dir.sub("missing.tsv"))), 1,
         dir.sub("missing.tsv") + ": cannot open the dataset file");
  const std::string kept = read_text(data);
  expect(sashite("svm data --records " + q(dir.sub("missing")) + " --out " + q(data)), 1,
         dir.sub("missing") + ": not a directory");
  CHECK(read_text(data) == kept);  // not emptied by a mistyped directory
  const std::string empty = dir.sub("empty");
  fs::create_directory(empty);
  expect(sashite("svm data --records " + q(empty) + " --out " + q(data)), 1,
         empty + ": no .csa files under it");
  CHECK(read_text(data) == kept);  // nor by one without records
  expect(sashite("svm bench --sfens " + q(junk)), 1, junk + ":1: SFEN 'junk'");
}

TEST_CASE("cli: learn train and fit write weight files; missing and broken inputs are named") {
  TempDir dir("sashite-cli");
  const std::string trained = dir.sub("trained.eval");
  expect(sashite("learn train --records " + q(kData + "/learn") + " --out " + q(trained) +
                 " --iterations 1 --passes-per-iteration 1 --max-positions 50 --threads 1 "
                 "--holdout-every 2"),
         0, "wrote " + trained);
  CHECK(read_text(trained).rfind("sashite-eval 1\n# learned weights (sashite learn train", 0) == 0);
  const std::string fitted = dir.sub("fitted.eval");
  expect(sashite("learn fit --records " + q(kData + "/learn_fit") + " --out " + q(fitted) +
                 " --init " + q(trained) +
                 " --iterations 1 --passes-per-iteration 1 --threads 1 --holdout-every 2"),
         0, "wrote " + fitted);
  CHECK(read_text(fitted).rfind("sashite-eval 1\n# learned weights (sashite learn fit", 0) == 0);

  const std::string broken = kData + "/learn_curve/d_broken.csa:8:2: illegal move +7775FU";
  const std::string out = dir.sub("none.eval");
  expect(sashite("learn train --out " + q(out)), 2,
         "give --records DIR, --teachers FILE, --train-records DIR or --train-teachers FILE");
  expect(sashite("learn train --records " + q(dir.sub("missing")) + " --out " + q(out)), 1,
         dir.sub("missing") + ": not a directory");
  expect(sashite("learn train --records " + q(kData + "/learn_curve") + " --out " + q(out)), 1,
         broken);
  const std::string teachers = dir.sub("teachers.tsv");
  write_file(teachers, "junk\t7g7f\n");
  expect(sashite("learn train --teachers " + q(teachers) + " --out " + q(out)), 1,
         teachers + ":1: SFEN 'junk'");
  expect(sashite("learn train --records " + q(kData + "/learn") + " --out " + q(out) + " --init " +
                 q(dir.sub("missing.eval"))),
         1, dir.sub("missing.eval") + ": cannot open the file for reading");
  expect(sashite("learn train --records " + q(kData + "/learn") + " --out " + q(out) + " --resume"),
         2, "sashite learn train: --resume needs --checkpoint");
  expect(sashite("learn fit --records " + q(dir.sub("missing")) + " --out " + q(out)), 1,
         dir.sub("missing") + ": no such file or directory");
  expect(sashite("learn fit --records " + q(kData + "/learn_curve") + " --out " + q(out)), 1,
         broken);
  expect(sashite("learn fit --records " + q(kData + "/learn_fit") + " --out " + q(out) +
                 " --init " + q(teachers) + " --iterations 1"),
         1, teachers + ": line 1: bad header");
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("cli: learn label copies records with our engine's values and skips them on a rerun") {
  TempDir dir("sashite-cli");
  const std::string out = dir.sub("labelled");
  const std::string label = "learn label --records " + q(kData + "/learn_fit") + " --out " +
                            q(out) + " --engine " + kEngine +
                            " --opt USI_OwnBook=false --opt USI_Hash=1 --go 'go depth 1'"
                            " --first-ply 1 --last-ply 2 --jobs 1";
  expect(sashite(label), 0, "3 records: 0 skipped (already labelled), 3 read, 3 written");
  CHECK(files_in(out + "/learn_fit") == 3);
  expect(sashite(label), 0, "3 records: 3 skipped (already labelled)");
  expect(sashite("learn label --records " + q(kData + "/learn_fit") + " --out " + q(dir.sub("l3")) +
                 " --engine " + kEngine + " --first-ply 3 --last-ply 2"),
         2, "sashite learn label: --last-ply is below --first-ply");
  expect(sashite("learn label --records " + q(dir.sub("missing")) + " --out " + q(out) +
                 " --engine " + kEngine),
         1, dir.sub("missing") + ": not a directory");
  expect(sashite("learn label --records " + q(kData + "/learn_curve") + " --out " + q(out) +
                 " --engine " + kEngine + " --go 'go depth 1'"),
         1, "d_broken.csa:8:2: illegal move +7775FU");
  // The binary without `usi` is no USI engine: it exits before usiok.
  expect(sashite("learn label --records " + q(kData + "/learn_fit") + " --out " + q(dir.sub("l2")) +
                 " --engine " + q(q(kBinary)) + " --go 'go depth 1'"),
         1, "closed its output while we waited for usiok");
}

TEST_CASE("cli: learn curve prints the curve and plots it with gnuplot; bad records are named") {
  TempDir dir("sashite-cli");
  const std::string records = q(kData + "/learn_curve");
  const std::string png = dir.sub("curve.png");
  const Run curve =
      sashite("learn curve --records " + records + " --agreement-depth 1 --png " + q(png));
  expect(curve, 0, "records: 4 read, 2 decided, 1 drawn or unfinished (left out), 1 unreadable");
  CHECK(curve.says("d_broken.csa:8:2: illegal move +7775FU (no piece on 77) (skipped)"));
  CHECK(curve.says("agreement: "));
  CHECK(read_text(png).substr(1, 3) == "PNG");
  expect(sashite("learn curve --records " + q(dir.sub("missing"))), 1,
         dir.sub("missing") + ": no such file or directory");
  expect(sashite("learn curve --records " + records + " --no-agreement --weights " +
                 q(dir.sub("missing.eval"))),
         1, dir.sub("missing.eval") + ": cannot open the file for reading");
  const std::string no_png = dir.sub("none.png");
  expect(sashite("learn curve --records " + records + " --no-agreement --png " + q(no_png) +
                 " --gnuplot /nonexistent/gnuplot"),
         1, "cannot run '/nonexistent/gnuplot'");
  CHECK_FALSE(fs::exists(no_png));
}

TEST_CASE("cli: learn teach writes teacher moves at tree depth 1 and 2, resumes; errors") {
  TempDir dir("sashite-cli");
  const std::string sfens = two_positions(dir);
  const std::string engine =
      " --engine " + kEngine + " --option 0:USI_OwnBook=false --option 0:USI_Hash=1 --depth 1";
  for (const char* tree_depth : {"1", "2"}) {
    CAPTURE(tree_depth);
    const std::string out = dir.sub(std::string("teach") + tree_depth + ".tsv");
    const std::string teach = "learn teach --sfens " + q(sfens) + " --out " + q(out) + engine +
                              " --tree-depth " + tree_depth;
    expect(sashite(teach), 0, "learn teach: 2 teacher moves written, 0 positions without a move");
    CHECK(count_lines(read_text(out), kStart + std::string("\t")) == 1);
    expect(sashite(teach), 1, "--out " + out + " exists: give --resume");
    expect(sashite(teach + " --resume"), 0, "2 already in " + out + ", 0 to search");
  }
  const std::string out = dir.sub("none.tsv");
  expect(sashite("learn teach --out " + q(out) + " --depth 1"), 2,
         "give the positions: --sfens FILE or --records DIR");
  expect(sashite("learn teach --sfens " + q(dir.sub("missing.sfen")) + " --out " + q(out) +
                 " --depth 1"),
         1, "SFEN file " + dir.sub("missing.sfen") + ": cannot be read");
  expect(sashite("learn teach --sfens " + q(dir.path.string()) + " --out " + q(out) + " --depth 1"),
         1, "SFEN file " + dir.path.string() + ": cannot be read: Is a directory");
  const std::string junk = dir.sub("junk.sfen");
  write_file(junk, "junk\n");
  expect(sashite("learn teach --sfens " + q(junk) + " --out " + q(out) + " --depth 1"), 1,
         "SFEN file " + junk + ": line 1: SFEN 'junk'");
  CHECK_FALSE(fs::exists(out));
  expect(sashite("learn teach --sfens " + q(sfens) + " --out " + q(dir.path.string()) +
                 " --resume --depth 1"),
         1, dir.path.string() + ": cannot be read: Is a directory");
  expect(sashite("learn teach --sfens " + q(sfens) + " --records " + q(kData + "/learn") +
                 " --out " + q(out)),
         108, "--sfens excludes --records");
}

}  // namespace cli_commands_test
